/* A share of samples, as a binomial proportion: Wilson's score interval
 * (Wilson 1927), which stays inside [0, 1] and is not empty at 0 or n of
 * n, where the normal approximation is both. */
#include "stats.h"

#include <math.h>

void stats_share_ci(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964;      /* 95% */
	double p, d, centre, half;

	if (n == 0) {
		*lo = 0, *hi = 1;
		return;
	}
	p = (double)k / (double)n;
	d = 1 + z * z / (double)n;
	centre = (p + z * z / (2 * (double)n)) / d;
	half = z * sqrt(p * (1 - p) / (double)n + z * z / (4 * (double)n * (double)n)) / d;
	*lo = fmax(0, centre - half);
	*hi = fmin(1, centre + half);
}
