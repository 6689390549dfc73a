/* A placement's floor: its 10th percentile, and the test that compares two
 * floors.
 *
 * Why not the median: on the AMD Zen 5 KVM guests of this project (family 1Ah
 * model 02h) a placed loop that straddles nothing runs in one of two states,
 * ~150 ns or ~169 ns per 4 KiB for seed 000's loop, and stays in a state for
 * tens to hundreds of rounds, each placement on its own schedule; a placement
 * across a line runs at ~173 ns in every sample. The share of slow-state
 * samples of a well-placed loop went from 0% to 100% between runs, so medians
 * marked a different scatter of offsets slow each run (3 sweeps of
 * clear_movq_imm: 41, 36, 20 slow offsets for the 14 that cross the line).
 * The lowest tenth of a placement's samples is what its layout allows when
 * the machine lets it run; it marked exactly the 14 crossing offsets in 2 of
 * the 3 runs and in a sweep that spread the placements over 63 cache sets
 * (bench/calibrate.sh, README). A floor is not a minimum: one lucky sample
 * cannot move it. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The nearest-rank q-quantile of ascending samples: the ceil(q n)-th. */
double stats_quantile_sorted(const double *s, size_t n, double q)
{
	size_t rank;

	if (n == 0)
		return NAN;
	rank = (size_t)ceil(q * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return s[rank - 1];
}

/* Distribution-free 95% CI of the q-quantile: the order statistics whose
 * ranks bound the binomial(n, q) count of samples below the quantile,
 * n q -+ 1.96 sqrt(n q (1 - q)) (normal approximation). */
void stats_quantile_ci_sorted(const double *s, size_t n, double q, double *lo, double *hi)
{
	double mid = q * (double)n, half = 1.96 * sqrt((double)n * q * (1 - q));
	double l = floor(mid - half), u = ceil(mid + half);

	if (n == 0) {
		*lo = *hi = NAN;
		return;
	}
	if (l < 1)
		l = 1;
	if (u > (double)n)
		u = (double)n;
	*lo = s[(size_t)l - 1];
	*hi = s[(size_t)u - 1];
}

/* Mood's median test generalised to the q-quantile: below the pooled
 * q-quantile should lie the same share q of each sample when both have
 * the same q-quantile; the two shares are compared by the two-proportion
 * z test, two-sided. a and b need not be sorted; scratch is allocated. */
void stats_quantile_test(const double *a, size_t na, const double *b, size_t nb, double q,
			 struct quantile_test *out)
{
	size_t n = na + nb, ca = 0, cb = 0;
	double *pool, cut, pa, pb, pp, se;

	memset(out, 0, sizeof *out);
	out->p = 1;
	if (na == 0 || nb == 0)
		return;
	pool = xmalloc(n * sizeof *pool);
	memcpy(pool, a, na * sizeof *a);
	memcpy(pool + na, b, nb * sizeof *b);
	stats_sort(pool, n);
	cut = stats_quantile_sorted(pool, n, q);
	free(pool);
	for (size_t i = 0; i < na; i++)
		ca += a[i] <= cut;
	for (size_t i = 0; i < nb; i++)
		cb += b[i] <= cut;
	pa = (double)ca / (double)na;
	pb = (double)cb / (double)nb;
	pp = (double)(ca + cb) / (double)n;
	out->below_a = pa;
	out->below_b = pb;
	se = sqrt(pp * (1 - pp) * (1 / (double)na + 1 / (double)nb));
	if (!(se > 0))
		return;
	out->z = (pa - pb) / se;
	out->p = erfc(fabs(out->z) / sqrt(2.0));
}

/* The floor of v[lo..hi), a sorted copy's. */
static double floor_of(const double *v, size_t lo, size_t hi)
{
	size_t n = hi - lo;
	double *copy, f;

	if (n == 0)
		return NAN;
	copy = xmalloc(n * sizeof *copy);
	memcpy(copy, v + lo, n * sizeof *copy);
	stats_sort(copy, n);
	f = stats_quantile_sorted(copy, n, STATS_FLOOR_Q);
	free(copy);
	return f;
}

/* One offset against the best of its kernel, as sweep and calibrate mark
 * them: the ratio of floors, the quantile test's p, and slow when both
 * significant and material, and material in each half of the samples (round
 * order: the first against the best's first, the second against its second).
 * A short sweep marked well-placed offsets 1.13x slow in 2 of 5
 * runs; a state of the machine that lasts part of a run moves one half, a
 * layout moves both. The best against itself: 1, 1, not slow. */
void stats_floor_mark(const double *a, size_t na, double floor_a, const double *best,
		      size_t nbest, double floor_best, double alpha, double material,
		      struct floor_mark *out)
{
	struct quantile_test q;

	out->ratio = floor_a / floor_best;
	out->p = 1;
	out->slow = false;
	out->half_ratio[0] = out->half_ratio[1] = 1;
	if (a == best)
		return;
	stats_quantile_test(a, na, best, nbest, STATS_FLOOR_Q, &q);
	out->p = q.p;
	out->half_ratio[0] = floor_of(a, 0, na / 2) / floor_of(best, 0, nbest / 2);
	out->half_ratio[1] = floor_of(a, na / 2, na) / floor_of(best, nbest / 2, nbest);
	/* !(x < y): a half too small to have a floor (NAN) is not evidence */
	out->slow = q.p < alpha && out->ratio >= 1 + material &&
		    out->half_ratio[0] >= 1 + material && out->half_ratio[1] >= 1 + material;
}
