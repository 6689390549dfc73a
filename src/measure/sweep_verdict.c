/* What a sweep's measurements say beside the model (a command parses, calls
 * and prints; this is none of those): whether a profile predicts a
 * hazard at a placement, how many of a kernel's placements the prediction and
 * the slow marks agree on (the held-out check of bench-calibrate), the
 * alignment the measurement itself asks for, and kernels at their best
 * offsets against each other. */
#include "sweep.h"
#include "../model/geometry.h"

#include <math.h>
#include <stdlib.h>

bool sweep_predicts(const struct profile *p, const struct variant *v)
{
	struct hazard h[8];

	if (!p || !v->k->placeable || p->arch != v->k->arch)
		return false;
	return code_loop_hazards(p, v->k->code, v->k->size, v->offset,
				 v->offset + v->k->loop_start, h, 8) > 0;
}

/* Whether p prices v's placement slow by the sweep's own mark: at least
 * 1 + material against the loop's best. A rule that fires where the back
 * end hides what it costs (the model's 1.00x, or 1.03x for a line on
 * goldencove) predicts no slow offset, as scan folds such a hazard:
 * counting the rule instead had 6.1's memcpy agree on 19 of 64 offsets,
 * every one of them measured flat within 1.4%. */
static bool predicts_slow(const struct sweep *s, const struct profile *p,
			  const struct back_end *be, const struct variant *v)
{
	struct hazard h[8];
	size_t n;

	if (!p || !v->k->placeable || p->arch != v->k->arch)
		return false;
	n = code_loop_hazards(p, v->k->code, v->k->size, v->offset, v->offset + v->k->loop_start,
			      h, 8);
	return n && sweep_predicted_ratio(p, v->k, be, v->offset, h, n) >= 1 + s->material;
}

size_t sweep_profile_agreement(const struct sweep *s, const struct profile *p, const struct kernel *k,
		       size_t *total, bool *predicted_slow)
{
	struct back_end be = { 0 };
	size_t agree = 0;

	*total = 0;
	if (p && p->arch == k->arch)
		sweep_back_end(NULL, p, k, &be);
	for (size_t i = 0; i < s->n; i++) {
		const struct variant *v = &s->v[i];

		if (v->k != k)
			continue;
		bool slow = predicts_slow(s, p, &be, v);

		if (predicted_slow)
			predicted_slow[i] = slow;
		agree += v->slow == slow;
		(*total)++;
	}
	return agree;
}

unsigned sweep_measured_fix(const struct sweep *s, const struct kernel *k)
{
	for (unsigned a = 2; a <= 64; a *= 2) {
		size_t seen = 0, slow = 0;

		for (size_t i = 0; i < s->n; i++) {
			const struct variant *v = &s->v[i];

			if (v->k == k && (v->offset + k->loop_start) % a == 0) {
				seen++;
				slow += v->slow;
			}
		}
		if (seen && !slow)
			return a;
	}
	return 0;
}

size_t sweep_at_best(const struct sweep *s, const struct kernel *const *kernels, size_t nk,
		     struct sweep_at_best *out)
{
	const struct variant *first = NULL;
	size_t n = 0;

	for (size_t k = 0; k < nk; k++) {
		const struct variant *best = NULL;

		/* the best is marked by its ratio of exactly 1 (sweep_analyse);
		 * of ties, the last */
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].k == kernels[k] && s->v[i].ratio == 1.0)
				best = &s->v[i];
		if (!best)
			continue;
		out[n] = (struct sweep_at_best){ .best = best };
		if (!first)
			first = best;
		else {
			stats_quantile_test(best->samples, best->n, first->samples, first->n,
					    STATS_FLOOR_Q, &out[n].vs_first);
			out[n].vs_first_ratio = best->sum.floor / first->sum.floor;
		}
		n++;
	}
	return n;
}

void sweep_back_end(const char *llvm_mca, const struct profile *p, const struct kernel *k,
		    struct back_end *be)
{
	struct decoder *d = k->placeable ? decoder_new(k->arch) : NULL;
	struct err e;

	*be = (struct back_end){ 0 };
	if (d && k->loop_end > k->loop_start &&
	    loop_back_end(llvm_mca, p, d, k->code + k->loop_start, k->loop_end - k->loop_start,
			  k->loop_start, be, &e))
		*be = (struct back_end){ 0 };
	decoder_free(d);
}

/* As place prices an arm (experiment.c): the window ratio where the rules
 * see the loop straddle, the branch bubbles' where they see those. */
double sweep_predicted_ratio(const struct profile *p, const struct kernel *k,
			     const struct back_end *be, uint32_t offset, const struct hazard *h,
			     size_t n)
{
	uint64_t start = (uint64_t)offset + k->loop_start, bytes = k->loop_end - k->loop_start;
	double r = 1;
	unsigned w;

	if (!p || !k->placeable || !bytes || p->arch != k->arch)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (h[i].rule == RULE_LOOP_STRADDLES) {
			r = cost_ratio_at(p, start, bytes, be, &w);
			break;
		}
	return fmax(r, cost_branch_ratio_at(p, start, bytes, be, h, n));
}
