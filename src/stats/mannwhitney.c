/* The Mann-Whitney U test, two-sided (Mann and Whitney 1947; the tie and
 * continuity corrections as in scipy.stats.mannwhitneyu's asymptotic
 * method). Small samples without ties get the exact distribution. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double v;
	int group;
};

static int by_v(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

/* Rank sum of group 0 with average ranks for ties; *tie_term = sum t^3 - t. */
static double rank_sum(struct ranked *r, size_t n, double *tie_term)
{
	double sum = 0;

	*tie_term = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && r[j].v == r[i].v)
			j++;
		double rank = (double)(i + 1 + j) / 2;  /* mean of ranks i+1 .. j */
		double t = (double)(j - i);

		*tie_term += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (r[k].group == 0)
				sum += rank;
		i = j;
	}
	return sum;
}

/* P(U <= u) under H0 for sizes m, n without ties: count the arrangements
 * with f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u), by dynamic programming. */
static double exact_cdf(size_t m, size_t n, double u)
{
	size_t umax = m * n, k = (size_t)floor(u);
	/* f[i][j][*] for i<=m, j<=n: keep a 2D table per i over j and u */
	double *f = xcalloc((m + 1) * (n + 1) * (umax + 1), sizeof *f), total = 0, below = 0;
#define F(i, j, w) f[((i) * (n + 1) + (j)) * (umax + 1) + (w)]

	for (size_t i = 0; i <= m; i++)
		for (size_t j = 0; j <= n; j++)
			for (size_t w = 0; w <= umax; w++) {
				if (i == 0 || j == 0) {
					F(i, j, w) = w == 0;
					continue;
				}
				F(i, j, w) = (w >= j ? F(i - 1, j, w - j) : 0) + F(i, j - 1, w);
			}
	for (size_t w = 0; w <= umax; w++) {
		total += F(m, n, w);
		if (w <= k)
			below += F(m, n, w);
	}
#undef F
	free(f);
	return below / total;
}

void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct mann_whitney *out)
{
	size_t n = na + nb;
	struct ranked *r;
	double tie_term, r1, u1, u2, mu, sigma;

	memset(out, 0, sizeof *out);
	out->p = 1;
	if (na == 0 || nb == 0)
		return;
	r = xmalloc(n * sizeof *r);
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, n, sizeof *r, by_v);
	r1 = rank_sum(r, n, &tie_term);
	free(r);
	u1 = r1 - (double)na * (double)(na + 1) / 2;
	u2 = (double)na * (double)nb - u1;
	out->u = u1;
	if (tie_term == 0 && n <= 40) {
		double small = u1 < u2 ? u1 : u2;

		out->exact = true;
		out->p = fmin(1.0, 2 * exact_cdf(na, nb, small));
		return;
	}
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12.0 *
		     ((double)(n + 1) - tie_term / ((double)n * (double)(n - 1))));
	if (sigma == 0)
		return;                 /* every value equal: no evidence */
	double big = u1 > u2 ? u1 : u2;
	out->z = (big - mu - 0.5) / sigma;
	out->p = fmin(1.0, erfc(out->z / sqrt(2.0)));
}
