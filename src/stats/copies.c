/* Placements timed at several copies each (stats.h, "one placement at
 * several addresses"): a copy's effect is a random one, nested in its
 * placement, estimated from the copies themselves (Montgomery, Design and
 * Analysis of Experiments, 14.1, the two-stage nested design). */
#include "stats.h"

#include <math.h>

static size_t round_at(size_t i, bool odd)
{
	return odd ? 2 * i + 1 : i;
}

static size_t rounds_used(size_t n, bool odd)
{
	return odd ? n / 2 : n;
}

/* Copy c's mean log over the rounds used. */
static double copy_mean(const struct copies *a, size_t c, size_t n, bool odd)
{
	size_t m = rounds_used(n, odd);
	double s = 0;

	for (size_t i = 0; i < m; i++)
		s += log(a->v[c][round_at(i, odd)]);
	return m ? s / (double)m : 0;
}

static double arm_mean(const struct copies *a, size_t n, bool odd)
{
	double s = 0;

	for (size_t c = 0; c < a->k; c++)
		s += copy_mean(a, c, n, odd);
	return a->k ? s / (double)a->k : 0;
}

double stats_copies_variance(const struct copies *arm, size_t narms, size_t n, bool odd,
			     double *df)
{
	double ss = 0;

	*df = 0;
	if (!rounds_used(n, odd))
		return 0;
	for (size_t i = 0; i < narms; i++) {
		double m = arm_mean(&arm[i], n, odd);

		for (size_t c = 0; c < arm[i].k; c++) {
			double d = copy_mean(&arm[i], c, n, odd) - m;

			ss += d * d;
		}
		*df += arm[i].k ? (double)(arm[i].k - 1) : 0;
	}
	return *df > 0 ? ss / *df : 0;
}

void stats_copies_ratio(const struct copies *a, const struct copies *b, size_t n, bool odd,
			const struct copies_spread *s, double alpha, struct paired *out)
{
	double d, se, t;

	*out = (struct paired){ 1, 1, 1, 1, 0 };
	if (!a->k || !b->k || !rounds_used(n, odd))
		return;
	d = arm_mean(b, n, odd) - arm_mean(a, n, odd);
	out->n = rounds_used(n, odd);
	out->ratio = out->lo = out->hi = exp(d);
	if (!(s->df > 0))
		return;
	se = sqrt(s->var * (1 / (double)a->k + 1 / (double)b->k));
	if (se == 0) {
		out->p = d == 0 ? 1 : 0;
		return;
	}
	t = d / se;
	out->p = stats_t_two_sided(t, s->df);
	out->lo = exp(d - stats_t_critical(alpha, s->df) * se);
	out->hi = exp(d + stats_t_critical(alpha, s->df) * se);
}
