/* diff --measure: the routines of a kernel image whose loops the change
 * moved or resized (workloads/routine_diff.c chooses them), run from each
 * build's own bytes at the placement each build gives them (their address
 * modulo a page), the new against the old on this CPU, beside what the
 * cost model predicts of each placement. */
#include "cmd.h"
#include "../measure/sweep.h"
#include "../measure/pair.h"
#include "../arena/arena.h"
#include "../workloads/workloads.h"
#include "../report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cost model's prediction at offset: its ratio, its hazards' names
 * added to b. */
static double predicted(const struct routine_diff_input *in, const struct routine *rt,
			uint32_t offset, struct strbuf *b)
{
	struct hazard h[ROUTINE_DIFF_HAZARDS];
	struct measured_hazard m[ROUTINE_DIFF_HAZARDS];
	size_t n;
	double ratio = routine_diff_predicted(in->host, in->llvm_mca, rt, offset, h, &n);
	char text[400];

	for (size_t i = 0; i < n; i++)
		m[i] = (struct measured_hazard){ rule_name(h[i].rule), h[i].window };
	format_predicted(m, n, ",", text, sizeof text);
	sb_addf(b, "%s", text);
	return ratio;
}

static void print_change(const char *what, const struct paired *r)
{
	printf("  %s %+.1f%% [%+.1f, %+.1f]", what, 100 * (r->ratio - 1), 100 * (r->lo - 1),
	       100 * (r->hi - 1));
}

/* One pair, each workload: a line each. -1 when a routine cannot run
 * (said in one line; the others go on). */
static int measure_one(const struct routine_diff_input *in, const struct routine_pair *pr)
{
	struct routine_args ao = { .file = in->old_path, .func = pr->old };
	struct routine_args an = { .file = in->new_path, .func = pr->new };
	struct routine *old = NULL, *new = NULL;
	const struct workload_shape *shape[3];
	struct strbuf ph = { 0 };
	int rc = -1;

	if (routine_args_open(&ao, pr->old, &old) != 1 || routine_args_open(&an, pr->new, &new) != 1)
		goto out;
	uint32_t oo = (uint32_t)(old->r.base % 4096), on = (uint32_t)(new->r.base % 4096);
	double po = predicted(in, old, oo, &ph), pn;
	sb_addf(&ph, " -> ");
	pn = predicted(in, new, on, &ph);
	printf("%s (%s, at +%u of a page, its loop at %u of a line) -> %s (%s, at +%u, loop at "
	       "%u)\n  predicted (%s, layout only): %.2fx -> %.2fx of each loop's best placement: "
	       "%s\n", pr->old, old->r.release, oo, (oo + old->k.loop_start) % 64, pr->new,
	       new->r.release, on, (on + new->k.loop_start) % 64, in->host->name, po, pn,
	       sb_str(&ph));
	for (size_t i = 0, n = routine_diff_shapes(old, pr->old, shape); i < n; i++) {
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

int diff_measure(const struct routine_diff_input *in)
{
	struct routine_pair p[ROUTINE_PAIRS_MAX];
	size_t n = routine_diff_pairs(in, p);

	/* the sweep arena runs a routine natively: another architecture's
	 * would run under an emulator, which has no layout timing */
	if (in->old_img->arch != arena_host_arch()) {
		printf("\nnot measured: %s routines run on this host only under an emulator, which "
		       "times nothing of a layout (kernels --check --file checks them)\n",
		       arch_name(in->old_img->arch));
		return 0;
	}
	printf("\nmeasured on this CPU (%s), each build's routine where its build places it, "
	       "the old one twice (A/A), one operation of each a round:\n", in->host_why);
	if (!n)
		printf("no routine with a built-in call has a loop the change moved or resized\n");
	for (size_t i = 0; i < n; i++)
		if (measure_one(in, &p[i]))
			printf("  %s -> %s: not measured\n", p[i].old, p[i].new);
	return 0;
}
