/* diff --measure's choice: the routines of a kernel image with a built-in
 * call whose loops the change moved or resized (the same loops at other
 * page offsets or of other sizes, as the routine's own analysis finds
 * them), the calls each is measured with, and what the cost model
 * predicts of each placement. A routine whose name changed is paired by
 * the job it does (6.1's clear_user_original, the clear_user of a CPU
 * without fast strings, is 6.12's rep_stos_alternative). */
#include "workloads.h"
#include "../kernels/kernels.h"
#include "../measure/sweep.h"
#include "../model/geometry.h"

#include <string.h>

/* The routine doing `name`'s job in img: the same name, else its role's. */
static const char *counterpart(const struct elf_image *img, const char *name)
{
	const char *role, *m;
	uint64_t a, size;

	if (elf_symbol_value(img, name, &a) == 0)
		return name;
	if (!routine_builtin(name, &role) || !role)
		return NULL;
	for (size_t i = 0; (m = routine_of_role(role, i)); i++)
		if (strcmp(m, name) != 0 && elf_function_symbol(img, m, &a, &size) == 0)
			return m;
	return NULL;
}

/* Did the change move or resize a loop of the routine: the same loops at
 * the same page offsets with the same bytes, or not? */
static bool loops_changed(const struct routine *o, const struct routine *n)
{
	if (o->r.nloop != n->r.nloop)
		return true;
	for (size_t i = 0; i < o->r.nloop; i++) {
		const struct kroutine_loop *a = &o->r.loop[i], *b = &n->r.loop[i];

		if ((o->r.base + a->start) % 4096 != (n->r.base + b->start) % 4096 ||
		    a->end - a->start != b->end - b->start)
			return true;
	}
	return false;
}

size_t routine_diff_pairs(const struct routine_diff_input *in, struct routine_pair *p)
{
	size_t n = 0;
	uint64_t a;

	for (size_t i = 0; n < ROUTINE_PAIRS_MAX; i++) {
		const char *name = routine_builtin_at(i), *m;
		struct routine_opts oo = { .path = in->old_path }, on = { .path = in->new_path };
		struct routine *o = NULL, *w = NULL;
		struct err e;

		if (!name)
			break;
		if (elf_symbol_value(in->old_img, name, &a) || !(m = counterpart(in->new_img, name)))
			continue;
		oo.func = name, on.func = m;
		if (!routine_open(&oo, &o, &e) && !routine_open(&on, &w, &e) &&
		    (o->r.nloop || w->r.nloop) && (strcmp(name, m) || loops_changed(o, w)))
			p[n++] = (struct routine_pair){ name, m };
		routine_free(o);
		routine_free(w);
	}
	return n;
}

size_t routine_diff_shapes(const struct routine *rt, const char *name,
			   const struct workload_shape **out)
{
	static const struct workload_shape one_page = { "4096", { 4096 }, 1 };
	static struct workload_shape access;
	const char *role = NULL;

	routine_builtin(name, &role);
	if (role && !strcmp(role, "clear_user")) {
		out[0] = workload_shape_named("pread_z1k");
		out[1] = workload_shape_named("pread_z10k");
		out[2] = workload_shape_named("pread_z100k");
		return 3;
	}
	if (role && !strcmp(role, "copy_user")) {
		out[0] = workload_shape_named("read1");
		return 1;
	}
	if (rt->k.kind == KERNEL_PUT || rt->k.kind == KERNEL_GET) {
		access = (struct workload_shape){ "access", { rt->call.size }, 1 };
		out[0] = &access;
		return 1;
	}
	out[0] = &one_page;
	return 1;
}

double routine_diff_predicted(const struct profile *p, const char *llvm_mca,
			      const struct routine *rt, uint32_t offset, struct hazard *h,
			      size_t *nh)
{
	struct back_end be;

	*nh = code_loop_hazards(p, rt->k.code, rt->k.size, offset, offset + rt->k.loop_start, h,
				ROUTINE_DIFF_HAZARDS);
	sweep_back_end(llvm_mca, p, &rt->k, &be);
	return sweep_predicted_ratio(p, &rt->k, &be, offset, h, *nh);
}
