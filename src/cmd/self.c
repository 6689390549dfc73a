/* straddle running its own commands as children (bench --invocations;
 * prove's record and place): this binary, not whichever straddle PATH
 * finds, with a command line built word by word. */
#include "cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int self_begin(struct self_cmd *c, const char *command)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	memset(c, 0, sizeof *c);
	if (n <= 0) {
		complain("/proc/self/exe", "cannot find this straddle to run its commands: %s",
			 n < 0 ? strerror(errno) : "an empty link");
		return -1;
	}
	exe[n] = 0;
	self_arg(c, "%s", exe);
	self_arg(c, "%s", command);
	return 0;
}

void self_arg(struct self_cmd *c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	GROW(c->v, c->cap, c->n + 2);
	c->v[c->n++] = s;
	c->v[c->n] = NULL;
}

void self_free(struct self_cmd *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* The first line of what fd holds, from its start. */
static void first_line(int fd, char *buf, size_t n)
{
	ssize_t k = pread(fd, buf, n - 1, 0);

	buf[k > 0 ? k : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

/* Read fd to its end: a child's output read as a terminal or a file
 * would take it (on /dev/null GNU grep -c stops at its first match). */
static void drain(int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		;
}

int self_run(const struct self_cmd *c, int out, char *err_line, size_t n, struct err *e)
{
	int err = err_line ? memfd_create("straddle-stderr", MFD_CLOEXEC) : SPAWN_OURS, status = -1;
	struct spawn s = { .argv = c->v, .in = SPAWN_NULL, .out = out, .err = err, .forward = true };
	int pipe_[2] = { -1, -1 };

	if (err_line && err < 0)
		return err_set(e, "%s: cannot keep its errors: %s", c->v[1], strerror(errno));
	if (out == SELF_DRAIN && pipe2(pipe_, O_CLOEXEC))
		err_set(e, "%s: cannot make a pipe: %s", c->v[1], strerror(errno));
	else {
		s.out = out == SELF_DRAIN ? pipe_[1] : out;
		if (spawn_start(&s, e) == 0) {
			if (pipe_[1] >= 0)
				close(pipe_[1]), pipe_[1] = -1, drain(pipe_[0]);
			if (spawn_wait(&s, &status, NULL, e))
				status = -1;
		}
	}
	for (int i = 0; i < 2; i++)
		if (pipe_[i] >= 0)
			close(pipe_[i]);
	if (err_line)
		first_line(err, err_line, n);
	if (err >= 0)
		close(err);
	return status;
}
