/* An AArch64 kernel image's routine on an x86-64 host: its bytes, as
 * relocate/ copied them, run by the static AArch64 runner beside
 * straddle (aarch64/runner.c) under qemu-aarch64. qemu-user translates
 * the code block by block, so where the bytes sit in a line or a fetch
 * window changes nothing it does: what it can say is whether the
 * routine's own bytes keep their contract at every offset, never how fast
 * they run. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNNER "straddle-kroutine-aarch64"

int routine_find_runner(struct routine *rt, struct err *e)
{
	const struct kroutine *r = &rt->r;

	if (r->arch != ARCH_AARCH64 || arena_host_arch() != ARCH_X86_64)
		return err_set(e, "%s: %s: an %s routine does not run on this %s host", r->path,
			       r->name, arch_name(r->arch), arch_name(arena_host_arch()));
	if (!beside_self(RUNNER, rt->runner, sizeof rt->runner))
		return err_set(e, "%s: %s: an AArch64 routine runs in %s under qemu-aarch64, and "
			       "that is not beside straddle (make builds it with aarch64-linux-gnu-gcc)", r->path, r->name,
			       RUNNER);
	if (!spawn_find("qemu-aarch64", rt->qemu, sizeof rt->qemu))
		return err_set(e, "%s: %s: an AArch64 routine runs under qemu-aarch64, which is "
			       "not in PATH (Debian's qemu-user)", r->path, r->name);
	return 0;
}

/* The wire in a memory file (no name anywhere), for the runner's input. */
static int wire_file(const struct kernel *k, enum kernel_wire_mode mode, const uint32_t *offsets,
		     size_t noffsets, const size_t *calls, size_t ncalls, struct err *e)
{
	int fd = memfd_create("straddle-kroutine", MFD_CLOEXEC), copy;
	FILE *f;

	if (fd < 0)
		return err_set(e, "cannot make the runner's input: %s", strerror(errno));
	if ((copy = dup(fd)) < 0 || !(f = fdopen(copy, "w"))) {
		if (copy >= 0)
			close(copy);
		close(fd);
		return err_set(e, "cannot write the runner's input: %s", strerror(errno));
	}
	kernel_wire_write(f, k, mode, offsets, noffsets, calls, ncalls);
	if (ferror(f) | fclose(f)) {
		close(fd);
		return err_set(e, "cannot write the runner's input: %s", strerror(errno));
	}
	return fd;
}

/* The runner's lines to out; the last held back in last[] (check's
 * count) when last is not NULL. Its exit status (0, 1), or -1 with e. */
static int run(const struct routine *rt, int in, FILE *out, char *last, size_t nlast,
	       struct err *e)
{
	char *argv[] = { (char *)rt->qemu, (char *)rt->runner, NULL };
	int pfd[2], status;
	struct spawn s;
	char *line = NULL, text[64];
	size_t cap = 0;
	FILE *r;

	if (pipe2(pfd, O_CLOEXEC) != 0)
		return err_set(e, "cannot make a pipe: %s", strerror(errno));
	s = (struct spawn){ .argv = argv, .in = in, .in_start = 0, .out = pfd[1], .err = SPAWN_OURS,
			    .forward = true };
	if (spawn_start(&s, e)) {
		close(pfd[0]), close(pfd[1]);
		return -1;
	}
	close(pfd[1]);
	r = fdopen(pfd[0], "r");
	if (last)
		last[0] = '\0';
	while (r && getline(&line, &cap, r) > 0) {
		if (last && last[0])
			fputs(last, out);
		if (last)
			snprintf(last, nlast, "%s", line);
		else
			fputs(line, out);
	}
	free(line);
	if (r)
		fclose(r);
	else
		close(pfd[0]);
	if (spawn_wait(&s, &status, NULL, e))
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		return WEXITSTATUS(status);
	spawn_status_text(status, text, sizeof text);
	return err_set(e, "%s: %s: %s under qemu-aarch64 ended with %s", rt->r.path, rt->r.name,
		       RUNNER, text);
}

int routine_check_emulated(const struct routine *rt, FILE *out, struct kernels_check_result *res,
			   struct err *e)
{
	char last[256];
	int in = wire_file(&rt->k, KWIRE_CHECK, NULL, 0, NULL, 0, e), rc;

	if (in < 0)
		return -1;
	rc = run(rt, in, out, last, sizeof last, e);
	close(in);
	if (rc < 0)
		return -1;
	if (sscanf(last, "%lu passed, %lu failed", &res->passed, &res->failed) != 2)
		return err_set(e, "%s: %s: %s's last line is not its count: %.80s", rt->r.path,
			       rt->r.name, RUNNER, last);
	return rc;
}

int routine_sweep_emulated(const struct routine *rt, uint32_t first, uint32_t last,
			   uint32_t step, const uint32_t *calls, size_t ncalls, FILE *out,
			   struct err *e)
{
	uint32_t offsets[64];
	size_t n = 0, sizes[64];
	int in, rc;

	if (rt->k.kind != KERNEL_CLEAR && rt->k.kind != KERNEL_COPY)
		return err_set(e, "%s: %s: under emulation sweep runs a clear or a copy, not a %s",
			       rt->r.path, rt->r.name, kernel_kind_name(rt->k.kind));
	for (uint32_t o = first; o <= last; o += step ? step : 1)
		if (o % 4 == 0 && n++ < 64)
			offsets[n - 1] = o;
	if (n > 64)
		return err_set(e, "%zu offsets under emulation, more than the 64 one run takes", n);
	if (!n)
		return err_set(e, "offsets %u..%u hold no AArch64 placement (a multiple of 4)", first,
			       last);
	if (ncalls > 64)
		return err_set(e, "at most 64 calls an offset under emulation");
	for (size_t i = 0; i < ncalls; i++)
		sizes[i] = calls[i];
	fprintf(out, "%s: no timing: under qemu-aarch64 the code is translated, and an emulator "
		"has no layout timing (fetch windows, lines); every offset is run and checked "
		"only\n", rt->k.name);
	fflush(out);
	if ((in = wire_file(&rt->k, KWIRE_SWEEP, offsets, n, sizes, ncalls, e)) < 0)
		return -1;
	rc = run(rt, in, out, NULL, 0, e);
	close(in);
	return rc;
}
