/* One run of a whole program (base's spawn: its own process group, ending
 * with straddle), every byte of its output read while it runs, its
 * resources from wait4 (the kernel's own count of the CPU time it used,
 * user and system, the default measure of place). */
#include "clock.h"
#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* More input than this is no program's test input (a device that never
 * ends, /dev/zero, given as one). */
#define INPUT_MAX (4ull << 30)

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

static bool is_dev_null(const struct stat *st)
{
	struct stat null;

	return stat("/dev/null", &null) == 0 && null.st_rdev == st->st_rdev;
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
	if (!spec && fstat(fd, &st) && errno == EBADF) {        /* closed: nothing to read */
		snprintf(in->what, sizeof in->what, "/dev/null");
		return 0;
	}
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
	if (S_ISCHR(st.st_mode) && is_dev_null(&st)) {
		if (spec)
			close(fd);
		snprintf(in->what, sizeof in->what, "/dev/null");
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		in->start = spec ? 0 : lseek(fd, 0, SEEK_CUR);
		in->fd = spec ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3);
		return in->fd < 0 ? err_set(e, "%s: %s", in->what, strerror(errno)) : 0;
	}
	/* a pipe, a FIFO, a device: read once to its end, which a pipe
	 * nobody closes never reaches: said first */
	if (!spec && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		fprintf(stderr, "straddle: reading standard input to its end, to give every run "
			"the same (--stdin - for none)\n");
	rc = slurp(in, fd, e);
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

/* Keep the last max bytes of all read (dst holds *len of them). */
static void keep_last(char *dst, size_t *len, size_t max, const char *src, size_t n)
{
	if (n >= max) {
		memcpy(dst, src + n - max, max);
		*len = max;
		return;
	}
	if (*len + n > max) {
		memmove(dst, dst + (*len + n - max), max - n);
		*len = max - n;
	}
	memcpy(dst + *len, src, n);
	*len += n;
}

static void keep_report(struct command_run *r, const char *src, size_t n)
{
	GROW(r->report, r->report_cap, r->report_len + n + 1);
	memcpy(r->report + r->report_len, src, n);
	r->report_len += n;
	r->report[r->report_len] = 0;
}

/* Read the three pipes to their ends. */
static void drain(int out, int err, int rep, const struct command_spec *c, struct command_run *r)
{
	struct pollfd p[3] = { { out, POLLIN, 0 }, { err, POLLIN, 0 }, { rep, POLLIN, 0 } };
	size_t kept = 0, errlen = 0, taillen = 0;
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
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				p[i].fd = -1, open_fds--;
				continue;
			}
			if (i == 0) {
				fnv(&r->out_hash, buf, (size_t)n);
				r->out_len += (size_t)n;
				keep(r->out, &kept, c->out_max, buf, (size_t)n);
			} else if (i == 1) {
				keep(r->err_head, &errlen, sizeof r->err_head - 1, buf, (size_t)n);
				keep_last(r->err_tail, &taillen, sizeof r->err_tail - 1, buf, (size_t)n);
			} else {
				keep_report(r, buf, (size_t)n);
			}
		}
	}
	r->out[kept] = 0, r->err_head[errlen] = 0, r->err_tail[taillen] = 0;
}

/* The run's variables: the spec's, and the report's descriptor. */
static char **environment(const struct command_spec *c, int report_fd, char *slot, size_t n)
{
	size_t k = 0;
	char **env;

	while (c->env && c->env[k])
		k++;
	env = xcalloc(k + 2, sizeof *env);
	memcpy(env, c->env, k * sizeof *env);
	if (c->report_env) {
		snprintf(slot, n, "%s=%d", c->report_env, report_fd);
		env[k] = slot;
	}
	return env;
}

int command_run(const struct command_spec *c, struct command_run *r, struct err *e)
{
	int out[2], err[2], rep[2], status;
	const struct command_input *in = c->input;
	struct spawn s = { .argv = c->argv, .in = in && in->fd >= 0 ? in->fd : SPAWN_NULL,
			   .in_start = in ? in->start : -1, .group = true, .forward = true,
			   .as_shell = true };
	struct rusage ru;
	char slot[128];
	double t0;

	command_run_free(r);
	*r = (struct command_run){ .out = xmalloc(c->out_max + 1) };
	keep_report(r, "", 0);
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(rep, 0))
		return err_set(e, "%s: cannot make a pipe: %s", c->argv[0], strerror(errno));
	fcntl(rep[0], F_SETFD, FD_CLOEXEC);
	s.out = out[1], s.err = err[1];
	s.env = environment(c, rep[1], slot, sizeof slot);
	t0 = monotonic_s();
	status = spawn_start(&s, e);
	free((char **)s.env);
	close(out[1]), close(err[1]), close(rep[1]);
	if (status == 0)
		drain(out[0], err[0], rep[0], c, r);
	close(out[0]), close(err[0]), close(rep[0]);
	if (status || spawn_wait(&s, &r->status, &ru, e))
		return -1;
	r->wall_s = monotonic_s() - t0;
	r->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return 0;
}

void command_run_free(struct command_run *r)
{
	free(r->out);
	free(r->report);
	r->out = r->report = NULL;
	r->report_len = r->report_cap = 0;
}

const char *command_err_lines(const struct command_run *r, unsigned n, char *buf, size_t len)
{
	const char *t = r->err_tail, *end = t + strlen(t), *p = end;
	size_t at = 0;

	while (p > t && (p[-1] == '\n' || p[-1] == ' '))
		p--, end--;
	for (unsigned k = 0; k < n && p > t; k++) {
		p--;
		while (p > t && p[-1] != '\n')
			p--;
	}
	buf[0] = 0;
	while (p < end && at + 1 < len) {
		size_t line = strcspn(p, "\n");

		if (line > (size_t)(end - p))
			line = (size_t)(end - p);
		at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? " | " : "", (int)line, p);
		p += line + (p[line] == '\n');
		if (at >= len)
			break;
	}
	return buf;
}
