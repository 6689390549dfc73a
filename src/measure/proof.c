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

/* R's interval over the corners of the share's and the program's: R
 * falls with the share where the best ran faster and rises with it where
 * it ran slower, so the extremes are at the corners. */
static void widest(struct loop_proof *p)
{
	double s[2] = { p->share, p->share }, m[2] = { p->program.lo, p->program.hi };

	if (p->share_hi > 0)
		s[0] = p->share_lo, s[1] = p->share_hi;
	p->loop_lo = INFINITY, p->loop_hi = 0;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++) {
			double r = s[i] > 0 ? loop_slowdown(s[i], m[k]) : INFINITY;

			p->loop_lo = fmin(p->loop_lo, r);
			p->loop_hi = fmax(p->loop_hi, r);
		}
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
	widest(p);
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
