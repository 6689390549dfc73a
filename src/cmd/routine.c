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
