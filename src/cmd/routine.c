/* What sweep and kernels share: the options that take a kernel image's
 * own routine instead of a built-in kernel (kernels/routine.c). */
#include "cmd.h"
#include "../kernels/kernels.h"

#include <string.h>

int routine_args_alternative(struct routine_args *a, const char *opt, const char *value)
{
	if (a->nalternatives == ROUTINE_MAX_ALTERNATIVES) {
		complain(opt, "at most %d features", ROUTINE_MAX_ALTERNATIVES);
		return -1;
	}
	if (kfeature_from_name(value + (value[0] == '!')) < 0) {
		complain(opt, "no CPU feature named '%s' (ERMS, FSRM, FSRS, REP_GOOD, SMAP, ..., "
			 "or WORD*32+BIT)", value);
		return -1;
	}
	a->alternative[a->nalternatives++] = value;
	return 0;
}

int routine_args_open(const struct routine_args *a, const char *label, struct routine **out)
{
	struct routine_opts o = { a->file, a->func, a->call, a->loop, label, a->alternative,
				  a->nalternatives };
	struct err e = { "" };

	*out = NULL;
	if (!a->file && !a->func && !a->call && !a->loop && !a->nalternatives)
		return 0;
	if (!a->file || !a->func) {
		complain(a->file ? "--file" : "--func", "a kernel's routine needs both --file "
			 "VMLINUX and --func NAME");
		return -1;
	}
	if (routine_open(&o, out, &e)) {
		say("%s", e.msg);
		return -1;
	}
	return 1;
}

/* The seeds' workloads as the calls the kernel makes for one of their
 * operations: read_zero clears a pread's buffer in 4 KiB clear_user calls
 * (drivers/char/mem.c, chunks of PAGE_SIZE; seed 000's pread_z*), read1
 * copies a 4 KiB page to the user (seed 001), poll2 stores a 2-byte
 * revents with __put_user (seed 004). */
#define PAGES25 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, \
	4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096

static const struct workload_shape shapes[] = {
	{ "pread_z1k", { 1024 }, 1 },
	{ "pread_z10k", { 4096, 4096, 2048 }, 3 },
	{ "pread_z100k", { PAGES25 }, 25 },
	{ "read1", { 4096 }, 1 },
	{ "poll2", { 2 }, 1 },
};

const struct workload_shape *workload_shape_named(const char *name)
{
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (strcmp(shapes[i].name, name) == 0)
			return &shapes[i];
	return NULL;
}
