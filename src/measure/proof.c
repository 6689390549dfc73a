/* What a hot loop's placement cost its program, against the cost model's
 * prediction (issue 26, part 4: straddle prove). The program is what is
 * measured, the loop is what is predicted: one is turned into the other
 * through the loop's share of the samples. */
#include "measure.h"

#include <math.h>

const char *proof_verdict_name(enum proof_verdict v)
{
	static const char *const names[] = { "nothing", "costs", "inconclusive", "slower at best" };

	return v <= PROOF_SLOWER_AT_BEST ? names[v] : "?";
}

/* The loop's slowdown that would make the program's ratio m (best over
 * today): the loop's time share*T becomes share*T/R at its best. */
static double loop_slowdown(double share, double m)
{
	double saved = 1 - m;

	if (saved >= share)
		return INFINITY;
	return 1 / (1 - saved / share);
}

void proof_judge(struct loop_proof *p)
{
	double costs = 1 + p->material;

	p->said = p->predicted >= costs ? PROOF_COSTS : PROOF_NOTHING;
	if (p->share <= 0 || p->program.n < 2) {
		p->loop = p->loop_lo = p->loop_hi = NAN;
		p->seen = PROOF_INCONCLUSIVE;
		return;
	}
	p->loop = loop_slowdown(p->share, p->program.ratio);
	/* the program's lower bound (best fastest) is the loop's upper */
	p->loop_lo = loop_slowdown(p->share, p->program.hi);
	p->loop_hi = loop_slowdown(p->share, p->program.lo);
	if (isinf(p->loop))
		p->seen = PROOF_INCONCLUSIVE;   /* more than the loop's time: not the loop */
	else if (p->loop_lo >= costs && p->program.p < p->alpha)
		p->seen = PROOF_COSTS;
	else if (p->loop_hi <= 1 - p->material && p->program.p < p->alpha)
		p->seen = PROOF_SLOWER_AT_BEST;   /* expand's loop: 0.960x [0.952, 0.968] */
	else if (p->loop_hi < costs && p->loop_lo > 1 - p->material)
		p->seen = PROOF_NOTHING;
	else
		p->seen = PROOF_INCONCLUSIVE;
}
