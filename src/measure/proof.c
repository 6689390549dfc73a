/* What a hot loop's placement cost its program, against the cost model's
 * prediction (issue 26, part 4: straddle prove). The program is what is
 * measured, the loop is what is predicted: one is turned into the other
 * through the loop's share of the samples. */
#include "proof.h"

#include <math.h>
#include <stdbool.h>

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

/* The program's change the window made: the best's over the layout
 * controls' geometric mean, today's copy (log 0) one of them. The best
 * arm is one more draw of the layout noise, so its interval adds, to each
 * side of the paired CI (in logs), t(k-1) * sd * sqrt(1 + 1/k) for k
 * layouts of spread sd (a prediction interval), the two in quadrature.
 * Without controls it is the paired ratio as measured. */
static void window_change(struct loop_proof *p)
{
	double k = (double)p->nlayout + 1, mean = 0, ss, h, band, c;

	p->window = p->program.ratio, p->window_lo = p->program.lo;
	p->window_hi = p->program.hi, p->layout_sd = 0;
	if (!p->nlayout)
		return;
	for (size_t i = 0; i < p->nlayout; i++)
		mean += log(p->layout[i].ratio) / k;
	ss = mean * mean;
	for (size_t i = 0; i < p->nlayout; i++)
		ss += (log(p->layout[i].ratio) - mean) * (log(p->layout[i].ratio) - mean);
	p->layout_sd = sqrt(ss / (k - 1));
	band = stats_t_critical(p->alpha, k - 1) * p->layout_sd * sqrt(1 + 1 / k);
	c = log(p->program.ratio) - mean;
	h = log(p->program.ratio) - log(p->program.lo);
	p->window = exp(c), p->window_lo = exp(c - sqrt(h * h + band * band));
	h = log(p->program.hi) - log(p->program.ratio);
	p->window_hi = exp(c + sqrt(h * h + band * band));
}

/* R's interval over the corners of the share's and the program's: R
 * falls with the share where the best ran faster and rises with it where
 * it ran slower, so the extremes are at the corners. */
static void widest(struct loop_proof *p)
{
	double s[2] = { p->share, p->share }, m[2] = { p->window_lo, p->window_hi };

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
	bool significant;

	p->said = p->predicted >= costs ? PROOF_COSTS : PROOF_NOTHING;
	window_change(p);
	if (p->share <= 0 || p->program.n < 2) {
		p->loop = p->loop_lo = p->loop_hi = NAN;
		p->seen = PROOF_INCONCLUSIVE;
		return;
	}
	p->loop = loop_slowdown(p->share, p->window);
	widest(p);
	/* the paired test's p, where the interval is the paired CI alone */
	significant = p->nlayout || p->program.p < p->alpha;
	if (isinf(p->loop))
		p->seen = PROOF_INCONCLUSIVE;   /* more than the loop's time: not the loop */
	else if (p->loop_lo >= costs && significant)
		p->seen = PROOF_COSTS;
	else if (p->loop_hi <= 1 - p->material && significant)
		p->seen = PROOF_SLOWER_AT_BEST;   /* expand's loop: 0.960x [0.952, 0.968] */
	else if (p->loop_hi < costs && p->loop_lo > 1 - p->material)
		p->seen = PROOF_NOTHING;
	else
		p->seen = PROOF_INCONCLUSIVE;
}

/* The half-width (log) of the program's change that tells the loop's
 * verdict: the distance between the change the model predicts and the
 * change at the material loop slowdown (share * (1 - 1/R) either way),
 * at least a quarter of the latter (nearer is no verdict to wait for). */
static double half_needed(const struct loop_proof *p)
{
	double c = 1 - 1 / (1 + p->material), cp = 1 - 1 / fmax(p->predicted, 1);

	return p->share * fmax(fabs(cp - c), c / 4);
}

unsigned proof_rounds_needed(const struct loop_proof *p, double sd, double *need)
{
	double k = (double)p->nlayout + 1, band = 0, room, n = 4;

	*need = half_needed(p);
	if (p->nlayout)
		band = stats_t_critical(p->alpha, k - 1) * p->layout_sd * sqrt(1 + 1 / k);
	room = *need * *need - band * band;
	if (room <= 0 || !(sd >= 0))
		return 0;
	if (sd == 0)
		return 2;
	/* t depends on the rounds: twice round, from the normal's 1.96 */
	for (int i = 0; i < 3; i++) {
		double t = n > 2 ? stats_t_critical(p->alpha, n - 1) : 12.7;

		n = fmax(2, ceil(t * t * sd * sd / room));
	}
	return n > 1e6 ? 0 : (unsigned)n;
}
