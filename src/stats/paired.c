/* The paired ratio of two arms measured in the same rounds (stats.h). */
#include "stats.h"

#include <math.h>

void stats_paired_ratio(const double *a, const double *b, size_t n, double alpha,
			struct paired *out)
{
	double sum = 0, ss = 0, mean, se, t;
	size_t k = 0;

	*out = (struct paired){ 1, 1, 1, 1, 0 };
	for (size_t i = 0; i < n; i++)
		if (a[i] > 0 && b[i] > 0)
			sum += log(b[i] / a[i]), k++;
	if (!k)
		return;
	mean = sum / (double)k;
	out->n = k;
	out->ratio = out->lo = out->hi = exp(mean);
	if (k < 2)
		return;
	for (size_t i = 0; i < n; i++)
		if (a[i] > 0 && b[i] > 0)
			ss += (log(b[i] / a[i]) - mean) * (log(b[i] / a[i]) - mean);
	se = sqrt(ss / (double)(k - 1) / (double)k);
	if (se == 0) {
		out->p = mean == 0 ? 1 : 0;
		return;
	}
	t = mean / se;
	out->p = stats_t_two_sided(t, (double)(k - 1));
	out->lo = exp(mean - stats_t_critical(alpha, (double)(k - 1)) * se);
	out->hi = exp(mean + stats_t_critical(alpha, (double)(k - 1)) * se);
}
