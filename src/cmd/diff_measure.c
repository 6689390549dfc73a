/* diff --measure: the routines of a kernel image with a built-in call
 * whose loops the change moved or resized (the same loops at other page
 * offsets or of other sizes, as the routine's own analysis finds them),
 * run from each build's own bytes at the placement each build gives them
 * (their address modulo a page), the new against the old on this CPU,
 * beside what the cost model predicts of each placement.
 * A routine whose name changed is paired by the job it does (6.1's
 * clear_user_original, the clear_user of a CPU without fast strings, is
 * 6.12's rep_stos_alternative). */
#include "cmd.h"
#include "../measure/sweep.h"
#include "../measure/pair.h"
#include "../model/geometry.h"
#include "../workloads/workloads.h"
#include "../report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 16

struct pair {
	const char *old, *new;
};

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

/* Each name with a built-in call in the old image, with its counterpart
 * in the new one (and a new routine whose job an old one did), when both
 * run and a loop of theirs moved or was resized. */
static size_t pairs_of(const struct diff_measure_input *in, struct pair *p)
{
	size_t n = 0;
	uint64_t a;

	for (size_t i = 0; n < MAX_PAIRS; i++) {
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
			p[n++] = (struct pair){ name, m };
		routine_free(o);
		routine_free(w);
	}
	return n;
}

/* The calls an operation makes: read_zero's for a clear_user, read1's
 * for a copy_user, a put's or get's size, else one 4 KiB call. */
static size_t shapes_for(const struct routine *rt, const char *role,
			 const struct workload_shape **out)
{
	static const struct workload_shape one_page = { "4096", { 4096 }, 1 };
	static struct workload_shape access;

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

/* The cost model's time of the routine's loop where its build places it,
 * against its best placement; its hazards' names into b. */
static double predicted(const struct profile *p, const char *llvm_mca, const struct routine *rt,
			uint32_t offset, struct strbuf *b)
{
	struct hazard h[8];
	struct measured_hazard m[8];
	struct back_end be;
	size_t n = code_loop_hazards(p, rt->k.code, rt->k.size, offset, offset + rt->k.loop_start,
				     h, 8);
	char text[400];

	for (size_t i = 0; i < n; i++)
		m[i] = (struct measured_hazard){ rule_name(h[i].rule), h[i].window };
	format_predicted(m, n, ",", text, sizeof text);
	sb_addf(b, "%s", text);
	sweep_back_end(llvm_mca, p, &rt->k, &be);
	return sweep_predicted_ratio(p, &rt->k, &be, offset, h, n);
}

static void print_change(const char *what, const struct paired *r)
{
	printf("  %s %+.1f%% [%+.1f, %+.1f]", what, 100 * (r->ratio - 1), 100 * (r->lo - 1),
	       100 * (r->hi - 1));
}

/* One pair, each workload: a line each. -1 when a routine cannot run
 * (said in one line; the others go on). */
static int measure_one(const struct diff_measure_input *in, const struct pair *pr)
{
	struct routine_args ao = { .file = in->old_path, .func = pr->old };
	struct routine_args an = { .file = in->new_path, .func = pr->new };
	struct routine *old = NULL, *new = NULL;
	const struct workload_shape *shape[3];
	struct strbuf ph = { 0 };
	const char *role;
	int rc = -1;

	if (routine_args_open(&ao, pr->old, &old) != 1 || routine_args_open(&an, pr->new, &new) != 1)
		goto out;
	uint32_t oo = (uint32_t)(old->r.base % 4096), on = (uint32_t)(new->r.base % 4096);
	double po = predicted(in->host, in->llvm_mca, old, oo, &ph), pn;
	sb_addf(&ph, " -> ");
	pn = predicted(in->host, in->llvm_mca, new, on, &ph);
	printf("%s (%s, at +%u of a page, its loop at %u of a line) -> %s (%s, at +%u, loop at "
	       "%u)\n  predicted (%s, layout only): %.2fx -> %.2fx of each loop's best placement: "
	       "%s\n", pr->old, old->r.release, oo, (oo + old->k.loop_start) % 64, pr->new,
	       new->r.release, on, (on + new->k.loop_start) % 64, in->host->name, po, pn,
	       sb_str(&ph));
	routine_builtin(pr->old, &role);
	for (size_t i = 0, n = shapes_for(old, role, shape); i < n; i++) {
		struct sweep s = { .precision = 0.002, .budget_s = in->seconds, .min_rounds = 50,
				   .min_place_s = SWEEP_MIN_PLACE_S, .seed = 1, .alpha = STATS_ALPHA,
				   .material = 0.05, .calls = shape[i]->calls, .ncalls = shape[i]->ncalls };
		struct pair_measure m;
		struct err e = { "" };

		for (size_t k = 0; k < s.ncalls; k++)
			s.size += s.calls[k];
		if (measure_pair(&s, &old->k, oo, &new->k, on, &m, &e)) {
			complain("--measure", "%s", e.msg);
			goto out;
		}
		printf("  %-11s %9.1f ns -> %9.1f ns", shape[i]->name, m.old_median, m.new_median);
		print_change("measured", &m.change);
		printf(" p %.2g", m.change.p);
		print_change("A/A", &m.aa);
		printf("  (%u rounds)\n", m.rounds);
	}
	rc = 0;
out:
	sb_free(&ph);
	routine_free(old);
	routine_free(new);
	return rc;
}

int diff_measure(const struct diff_measure_input *in)
{
	struct pair p[MAX_PAIRS];
	size_t n = pairs_of(in, p);

	printf("\nmeasured on this CPU (%s), each build's routine where its build places it, "
	       "the old one twice (A/A), one operation of each a round:\n", in->host_why);
	if (!n)
		printf("no routine with a built-in call has a loop the change moved or resized\n");
	for (size_t i = 0; i < n; i++)
		if (measure_one(in, &p[i]))
			printf("  %s -> %s: not measured\n", p[i].old, p[i].new);
	return 0;
}
