/* Files in and out, as a careful tool must treat them: an input is checked to
 * be a regular file before anything reads it, so a FIFO with no writer cannot
 * hang the run and a device is never opened; an output replaces only a
 * regular file, appears whole or not at all, and leaves no temporary name
 * behind, even when a signal ends the run mid-write. */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return S_ISREG(mode) ? "a regular file" : "not a file";
}

static int not_regular(struct err *e, mode_t mode)
{
	return err_set(e, "is %s, not a regular file", file_kind(mode));
}

int open_input(const char *path, struct stat *st, struct err *e)
{
	struct stat before;
	int fd;

	/* stat first: opening a device can have effects (a tape rewinds) */
	if (stat(path, &before) != 0)
		return err_set(e, "cannot open: %s", strerror(errno));
	if (!S_ISREG(before.st_mode))
		return not_regular(e, before.st_mode);
	/* O_NONBLOCK: if a FIFO took the file's place since, open returns */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return err_set(e, "cannot open: %s", strerror(errno));
	if (fstat(fd, st) != 0) {
		err_set(e, "cannot stat: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		not_regular(e, st->st_mode);
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int read_input(const char *path, size_t limit, char **buf, size_t *len, struct err *e)
{
	struct stat st;
	int fd = open_input(path, &st, e);
	size_t size, got = 0;
	bool failed = false;
	char *b;

	if (fd < 0)
		return -1;
	size = (size_t)st.st_size;
	if (size > limit) {
		close(fd);
		return err_set(e, "is %zu bytes, more than the %zu this reads", size, limit);
	}
	/* one byte more than the size: a file that grew is seen, not cut */
	b = xmalloc(size + 2);
	for (;;) {
		ssize_t k = read(fd, b + got, size + 1 - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			failed = true;
			err_set(e, "cannot read: %s", strerror(errno));
			break;
		}
		if (k == 0 || (got += (size_t)k) > size)
			break;
	}
	close(fd);
	if (got != size) {
		free(b);
		return failed ? -1 : err_set(e, "changed while reading");
	}
	b[size] = '\0';
	*buf = b;
	*len = size;
	return 0;
}

const char *beside_self(const char *name, char *buf, size_t cap)
{
	static const char *const rel[] = { "/", "/../libexec/straddle/", "/../" };
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0)
		return NULL;
	self[n] = 0;
	*strrchr(self, '/') = 0;
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		snprintf(buf, cap, "%s%s%s", self, rel[i], name);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

#ifdef STRADDLE_TEST_HOOKS
const char *test_hook(const char *name)
{
	char var[64];
	const char *s;

	snprintf(var, sizeof var, "STRADDLE_TEST_%s", name);
	s = getenv(var);
	return s && *s ? s : NULL;
}
#endif

/* ---- writing ---- */

static const int term_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NTERM (sizeof term_signals / sizeof term_signals[0])

/* The temporary name to remove if a signal ends us mid-write: set only
 * while it exists, read by the handler (unlink is async-signal-safe). */
static char *volatile pending_tmp;

static void die_cleanly(int sig)
{
	char *tmp = pending_tmp;

	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

struct held_signals {
	struct sigaction old[NTERM];
};

/* A terminating signal during the write ends the run with nothing written:
 * the handler removes the temporary name (if the file has one) and dies of
 * the signal, whatever handler the command had (bench, sweep alike). */
static void catch_terminating(struct held_signals *h)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = die_cleanly;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NTERM; i++)
		sigaction(term_signals[i], &sa, &h->old[i]);
}

static void release_terminating(struct held_signals *h)
{
	for (size_t i = 0; i < NTERM; i++)
		sigaction(term_signals[i], &h->old[i], NULL);
}

void block_terminating(int how)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NTERM; i++)
		sigaddset(&set, term_signals[i]);
	pthread_sigmask(how, &set, NULL);
}

_Noreturn void die_of_signal(int sig)
{
	signal(sig, SIG_DFL);
	block_terminating(SIG_UNBLOCK);
	raise(sig);
	_exit(128 + sig);
}

/* No SA_RESTART: a sleep or a wait returns, and the caller sees its flag. */
void handle_terminating(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NTERM; i++)
		sigaction(term_signals[i], &sa, NULL);
}

static int not_replaced(struct err *e, mode_t mode)
{
	return err_set(e, "is %s, not a regular file: not replaced", file_kind(mode));
}


static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* The directory of path, for O_TMPFILE ("." for a bare name). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	dir = xmalloc((size_t)(slash - path) + 1);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return dir;
}

/* Also a directory that is not there or cannot be written in: found at
 * the end, it lost a prove or place run of minutes. */
int check_output(const char *path, struct err *e)
{
	struct stat st;
	char *dir;
	int rc = 0;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return not_replaced(e, st.st_mode);
	dir = dir_of(path);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		rc = err_set(e, "its directory %s does not exist", dir);
	else if (access(dir, W_OK | X_OK) != 0)
		rc = err_set(e, "its directory %s is not writable", dir);
	free(dir);
	return rc;
}

/* An unnamed file in path's directory (O_TMPFILE), or -1 where the
 * filesystem cannot make one. */
static int open_unnamed(const char *path, mode_t mode)
{
	char *dir;
	int fd;

	if (test_hook("NO_TMPFILE"))
		return -1;
	dir = dir_of(path);
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);

	free(dir);
	return fd;
}

/* Gives the unnamed file behind fd the name tmp, or -1. */
static int name_unnamed(int fd, const char *tmp)
{
	char proc[64];

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
}

/* Writes through a FILE on a duplicate: fd stays open for naming. */
static int fill(int fd, int (*write)(FILE *f, void *ctx), void *ctx)
{
	int copy = dup(fd);
	FILE *f = copy >= 0 ? fdopen(copy, "w") : NULL;
	bool ok;

	if (!f) {
		if (copy >= 0)
			close(copy);
		return -1;
	}
	ok = write(f, ctx) == 0;
	ok = fflush(f) == 0 && ok;
#ifdef STRADDLE_TEST_HOOKS
	/* tests: a signal arrives mid-write, deterministically */
	if (test_hook("SIGNAL_IN_WRITE"))
		raise(atoi(test_hook("SIGNAL_IN_WRITE")));
#endif
	ok = fsync(fileno(f)) == 0 && ok;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx,
		 struct err *e)
{
	size_t n = strlen(path) + 16;
	char *tmp = xmalloc(n);
	struct held_signals held;
	struct stat old;
	mode_t mode = new_file_mode();
	bool replacing = stat(path, &old) == 0;
	int fd, rc = 0;

	if (replacing && !S_ISREG(old.st_mode)) {
		free(tmp);
		return not_replaced(e, old.st_mode);
	}
	if (replacing)
		mode = old.st_mode & 07777;     /* a replaced file keeps its mode */
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	catch_terminating(&held);
	fd = open_unnamed(path, mode);
	if (fd < 0) {
		/* no O_TMPFILE here: a named temporary the handler removes */
		block_terminating(SIG_BLOCK);
		fd = mkstemp(tmp);
		if (fd >= 0)
			pending_tmp = tmp;
		block_terminating(SIG_UNBLOCK);
		if (fd < 0) {
			release_terminating(&held);
			free(tmp);
			return err_set(e, "cannot create a temporary file beside it: %s",
				       strerror(errno));
		}
	} else {
		pending_tmp = NULL;
	}
	fchmod(fd, mode);
	if (fill(fd, write, ctx) != 0)
		rc = err_set(e, "cannot write: %s", strerror(errno));
	/* naming and renaming are two system calls: a signal waits for them */
	block_terminating(SIG_BLOCK);
	if (rc == 0 && !pending_tmp) {
		if (!replacing && name_unnamed(fd, path) == 0)
			goto done;      /* new file: linked under its name directly */
		if (mkstemp(tmp) < 0 || unlink(tmp) != 0 || name_unnamed(fd, tmp) != 0)
			rc = err_set(e, "cannot name the file: %s", strerror(errno));
		else
			pending_tmp = tmp;
	}
	if (rc == 0 && rename(tmp, path) != 0)
		rc = err_set(e, "cannot write: %s", strerror(errno));
	if (rc != 0 && pending_tmp)
		unlink(tmp);
done:
	pending_tmp = NULL;
	close(fd);
	block_terminating(SIG_UNBLOCK);
	release_terminating(&held);
	free(tmp);
	return rc;
}

int data_path(char *buf, size_t n, const char *what, const char *rel, struct err *e)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	const char *dir = xdg, *under = "", *var = "$XDG_DATA_HOME";
	int len;

	if (!xdg || xdg[0] != '/') {
		if (!home || !*home)
			return err_set(e, "neither $XDG_DATA_HOME nor $HOME is set");
		dir = home;
		under = "/.local/share";
		var = "$HOME";
	}
	len = snprintf(buf, n, "%s%s/straddle/%s", dir, under, rel);
	if (len < 0 || (size_t)len >= n)
		return err_set(e, "the %s path under %s is %d bytes, more than the %zu a path may "
			       "have", what, var, len, n - 1);
	return 0;
}

int make_parents(const char *path)
{
	char *copy = xstrdup(path);
	int rc = 0;

	for (char *p = copy + 1; *p && rc == 0; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(copy, 0755) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	free(copy);
	return rc;
}

int make_output_dir(const char *dir, const char *what, struct err *e)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return err_set(e, "cannot make the %s: %s", what, strerror(errno));
	return 0;
}
