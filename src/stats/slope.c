/* A line through points that a few wild ones do not move: Theil-Sen's
 * (Sen 1968), the median of the slopes between every two points of
 * different x, and the median of what is left of y at that slope. Up to
 * 29% of the points can be anything; a replay interrupted by the kernel
 * is such a point. */
#include "stats.h"

#include <stdlib.h>

bool stats_theil_sen(const double *x, const double *y, size_t n, double *slope,
		     double *intercept)
{
	size_t m = 0;
	double *s = xcalloc(n * (n - (n > 0)) / 2 + 1, sizeof *s);

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (x[j] != x[i])
				s[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (!m) {
		free(s);
		return false;
	}
	*slope = stats_median_select(s, m);
	for (size_t i = 0; i < n; i++)
		s[i] = y[i] - *slope * x[i];
	*intercept = stats_median_select(s, n);
	free(s);
	return true;
}
