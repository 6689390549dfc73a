/* Descriptive statistics and the bootstrap. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

size_t rng_below(uint64_t *state, size_t n)
{
	return n ? (size_t)(rng_next(state) % n) : 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, by_value);
}

double stats_median_sorted(const double *s, size_t n)
{
	if (n == 0)
		return NAN;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* the best max(1, floor(0.95 n)) samples. */
static size_t best95(size_t n)
{
	size_t k = n * 95 / 100;

	return k < 1 ? 1 : k;
}

double stats_mean95_sorted(const double *s, size_t n)
{
	return n ? stats_mean(s, best95(n)) : NAN;
}

double stats_mean95_sorted_high(const double *s, size_t n)
{
	return n ? stats_mean(s + (n - best95(n)), best95(n)) : NAN;
}

double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_stddev(const double *v, size_t n)
{
	double m = stats_mean(v, n), ss = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)(n - 1));
}

/* The k-th smallest of v[0..n) (Hoare's selection; reorders v). */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i++] = v[j];
				v[j] = t;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

double stats_median_select(double *v, size_t n)
{
	double upper, lower;

	if (n == 0)
		return NAN;
	upper = select_kth(v, n, n / 2);
	if (n % 2)
		return upper;
	/* the other middle is the largest of what selection left below */
	lower = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lower)
			lower = v[i];
	return (lower + upper) / 2;
}

/* The median of a resample, by selection: linear, not a sort, because the
 * sweep's stopping rule asks for many of them every few rounds. */
static double resample_median(const double *v, size_t n, double *scratch, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = v[rng_below(rng, n)];
	return stats_median_select(scratch, n);
}

void stats_bootstrap_median_ci(const double *v, size_t n, unsigned resamples,
			       uint64_t seed, double *lo, double *hi)
{
	double *scratch, *medians;
	uint64_t rng = seed;

	if (n == 0 || resamples == 0) {
		*lo = *hi = NAN;
		return;
	}
	scratch = xmalloc(n * sizeof *scratch);
	medians = xmalloc(resamples * sizeof *medians);
	for (unsigned r = 0; r < resamples; r++)
		medians[r] = resample_median(v, n, scratch, &rng);
	stats_sort(medians, resamples);
	*lo = medians[(size_t)floor(0.025 * (resamples - 1))];
	*hi = medians[(size_t)ceil(0.975 * (resamples - 1))];
	free(scratch);
	free(medians);
}

void stats_summarize(const double *v, size_t n, uint64_t seed, bool lower_is_better,
		     struct summary *s)
{
	double *sorted = xmalloc((n ? n : 1) * sizeof *sorted);

	memset(s, 0, sizeof *s);
	s->n = n;
	if (n == 0) {
		free(sorted);
		return;
	}
	memcpy(sorted, v, n * sizeof *v);
	stats_sort(sorted, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = stats_median_sorted(sorted, n);
	s->mean = stats_mean(sorted, n);
	s->mean95 = lower_is_better ? stats_mean95_sorted(sorted, n) :
				      stats_mean95_sorted_high(sorted, n);
	s->stddev = stats_stddev(sorted, n);
	s->cv = s->mean ? s->stddev / s->mean : 0;
	stats_bootstrap_median_ci(v, n, 1000, seed, &s->ci_lo, &s->ci_hi);
	s->floor = stats_quantile_sorted(sorted, n, STATS_FLOOR_Q);
	stats_quantile_ci_sorted(sorted, n, STATS_FLOOR_Q, &s->floor_lo, &s->floor_hi);
	free(sorted);
}

bool stats_ci_overlap(double lo1, double hi1, double lo2, double hi2)
{
	return lo1 <= hi2 && lo2 <= hi1;
}

double stats_change_robot(double base, double new)
{
	return 100.0 * (new - base) / base;
}

double stats_change_mmtests(double base, double new, bool lower_is_better)
{
	return lower_is_better ? 100.0 * (base - new) / base : 100.0 * (new - base) / base;
}
