/* One run of a whole program: fork, exec, every byte of its output read
 * while it runs, its resources from wait4 (the kernel's own count of the
 * CPU time it used, user and system, the default measure of place). */
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* More input than this is no program's test input (a device that never
 * ends, /dev/zero, given as one). */
#define INPUT_MAX (4ull << 30)

static volatile sig_atomic_t current_pid;

void command_kill_current(void)
{
	pid_t p = (pid_t)current_pid;

	if (p > 0)
		kill(p, SIGKILL);
}

void command_status_text(int status, char *buf, size_t n)
{
	if (WIFEXITED(status))
		snprintf(buf, n, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by %s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "a signal");
	else
		snprintf(buf, n, "status %#x", status);
}

/* ---- standard input ---- */

/* Read fd to its end into a memory file, to give every run the same. */
static int slurp(struct command_input *in, int fd, struct err *e)
{
	char buf[65536];
	uint64_t total = 0;
	ssize_t n;

	if ((in->fd = memfd_create("straddle-stdin", MFD_CLOEXEC)) < 0)
		return err_set(e, "%s: cannot keep it: %s", in->what, strerror(errno));
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (total += (uint64_t)n) > INPUT_MAX || write(in->fd, buf, (size_t)n) != n) {
			err_set(e, "%s: %s", in->what, n < 0 ? strerror(errno) : total > INPUT_MAX ?
				"more than 4 GiB: no end in sight" : "cannot keep it");
			command_input_close(in);
			return -1;
		}
	}
	in->start = 0;
	return 0;
}

int command_input_open(struct command_input *in, const char *spec, struct err *e)
{
	struct stat st;
	int fd, rc;

	*in = (struct command_input){ .fd = -1 };
	if ((spec && strcmp(spec, "-") == 0) || (!spec && isatty(STDIN_FILENO))) {
		snprintf(in->what, sizeof in->what, "/dev/null");
		return 0;
	}
	snprintf(in->what, sizeof in->what, "%s", spec ? spec : "standard input");
	fd = spec ? open(spec, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0 || fstat(fd, &st)) {
		rc = err_set(e, "%s: %s", in->what, strerror(errno));
		if (spec && fd >= 0)
			close(fd);
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		if (spec)
			close(fd);
		return err_set(e, "%s: a directory, not an input", in->what);
	}
	if (S_ISREG(st.st_mode)) {
		in->start = spec ? 0 : lseek(fd, 0, SEEK_CUR);
		in->fd = spec ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3);
		return in->fd < 0 ? err_set(e, "%s: %s", in->what, strerror(errno)) : 0;
	}
	rc = slurp(in, fd, e);          /* a pipe, a FIFO, a device: read once */
	if (spec)
		close(fd);
	return rc;
}

void command_input_close(struct command_input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}

/* ---- one run ---- */

/* In the child: the pipes in place, the variables set, then exec. */
static void start_child(const struct command_spec *c, int out[2], int err[2], int rep[2])
{
	char fdnum[24];
	const struct command_input *in = c->input;
	int input = in && in->fd >= 0 ? in->fd : open("/dev/null", O_RDONLY);

	if (in && in->fd >= 0 && lseek(input, in->start, SEEK_SET) != in->start)
		_exit(127);
	if (input < 0 || dup2(input, 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
		_exit(127);
	close(out[0]), close(err[0]), close(rep[0]);
	for (size_t i = 0; c->env && c->env[i]; i++)
		putenv(c->env[i]);
	if (c->report_env) {
		snprintf(fdnum, sizeof fdnum, "%d", rep[1]);
		setenv(c->report_env, fdnum, 1);
	}
	execvp(c->argv[0], c->argv);
	dprintf(2, "%s: %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

static void fnv(uint64_t *h, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ (uint8_t)p[i]) * 0x100000001b3ull;
}

/* Keep the bytes read from fd that fit in dst[*len..max). */
static void keep(char *dst, size_t *len, size_t max, const char *src, size_t n)
{
	size_t room = *len < max ? max - *len : 0;

	memcpy(dst + *len, src, n < room ? n : room);
	*len += n < room ? n : room;
}

/* Read the three pipes to their ends. */
static void drain(int out, int err, int rep, const struct command_spec *c, struct command_run *r)
{
	struct pollfd p[3] = { { out, POLLIN, 0 }, { err, POLLIN, 0 }, { rep, POLLIN, 0 } };
	size_t kept = 0, errlen = 0, replen = 0;
	char buf[65536];
	int open_fds = 3;

	r->out_hash = 0xcbf29ce484222325ull;
	while (open_fds > 0) {
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 3; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[i].fd, buf, sizeof buf);
			if (n <= 0) {
				p[i].fd = -1, open_fds--;
				continue;
			}
			if (i == 0) {
				fnv(&r->out_hash, buf, (size_t)n);
				r->out_len += (size_t)n;
				keep(r->out, &kept, c->out_max, buf, (size_t)n);
			} else if (i == 1)
				keep(r->err_head, &errlen, sizeof r->err_head - 1, buf, (size_t)n);
			else
				keep(r->report, &replen, sizeof r->report - 1, buf, (size_t)n);
		}
	}
	r->out[kept] = 0, r->err_head[errlen] = 0, r->report[replen] = 0;
}

int command_run(const struct command_spec *c, struct command_run *r, struct err *e)
{
	int out[2], err[2], rep[2];
	struct rusage ru;
	double t0;
	pid_t pid;

	free(r->out);
	*r = (struct command_run){ .out = xmalloc(c->out_max + 1) };
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(rep, 0))
		return err_set(e, "%s: cannot make a pipe: %s", c->argv[0], strerror(errno));
	fcntl(rep[0], F_SETFD, FD_CLOEXEC);
	t0 = monotonic_s();
	pid = fork();
	if (pid < 0)
		return err_set(e, "%s: cannot fork: %s", c->argv[0], strerror(errno));
	if (pid == 0)
		start_child(c, out, err, rep);
	current_pid = pid;
	close(out[1]), close(err[1]), close(rep[1]);
	drain(out[0], err[0], rep[0], c, r);
	close(out[0]), close(err[0]), close(rep[0]);
	while (wait4(pid, &r->status, 0, &ru) < 0)
		if (errno != EINTR) {
			current_pid = 0;
			return err_set(e, "%s: wait: %s", c->argv[0], strerror(errno));
		}
	current_pid = 0;
	r->wall_s = monotonic_s() - t0;
	r->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return 0;
}

const char *command_find(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/'))
		return name;
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		snprintf(buf, n, "%.*s/%s", (int)len, p, name);
		if (access(buf, X_OK) == 0)
			return buf;
		p += len + (p[len] == ':');
	}
	return NULL;
}
