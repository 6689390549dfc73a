/* Temporary files that are never left behind. will-it-scale makes them
 * with mkstemp and unlinks them at once (read1.c, poll2.c); an interrupt
 * between the two would leave a name. O_TMPFILE makes the same unlinked
 * inode with no name ever existing; where a filesystem lacks it, the
 * terminating signals wait until the name is gone. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int named_tmpfile(const char *dir, struct err *e)
{
	char path[PATH_MAX];
	sigset_t block, old;
	int fd, saved;

	if (snprintf(path, sizeof path, "%s/straddle.XXXXXX", dir) >= (int)sizeof path)
		return err_set(e, "cannot create a temporary file in %s: name too long", dir);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	fd = mkstemp(path);
	saved = errno;
	if (fd >= 0)
		unlink(path);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0)
		return err_set(e, "cannot create a temporary file in %s: %s", dir, strerror(saved));
	return fd;
}

int wl_tmpfile(const char *dir, const char **how, struct err *e)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0) {
		if (how)
			*how = "O_TMPFILE";
		return fd;
	}
	/* EOPNOTSUPP and EISDIR: the filesystem (or an old kernel) has no
	 * O_TMPFILE; anything else is a real error mkstemp will say again. */
	if (how)
		*how = "mkstemp+unlink";
	fd = named_tmpfile(dir, e);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}
