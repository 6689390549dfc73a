/* The spread a program's layout alone makes, with the runs' noise taken
 * out (stats.h): what straddle ab holds a change between two builds
 * against. */
#include "stats.h"

#include <math.h>

/* The central 95% of a normal: 1.96 standard deviations either side. */
#define Z95 1.959964

double stats_log_ratio_var(const double *const *a, const double *const *b, size_t npairs,
			   size_t n, size_t *df)
{
	double ss = 0;

	*df = 0;
	for (size_t k = 0; k < npairs; k++) {
		double sum = 0, mean;
		size_t m = 0;

		for (size_t r = 0; r < n; r++)
			if (a[k][r] > 0 && b[k][r] > 0)
				sum += log(b[k][r] / a[k][r]), m++;
		if (m < 2)
			continue;
		mean = sum / (double)m;
		for (size_t r = 0; r < n; r++)
			if (a[k][r] > 0 && b[k][r] > 0)
				ss += pow(log(b[k][r] / a[k][r]) - mean, 2);
		*df += m - 1;
	}
	return *df ? ss / (double)*df : 0;
}

void stats_layout_band(const double *random, const double *control, size_t n, double noise_var,
		       struct layout_band *out)
{
	const double *a[1] = { control }, *b[1] = { random };
	double sum = 0, var;
	size_t m = 0, df;

	*out = (struct layout_band){ .lo = 1, .hi = 1, .seen_lo = 1, .seen_hi = 1 };
	for (size_t r = 0; r < n; r++) {
		double x;

		if (!(random[r] > 0 && control[r] > 0))
			continue;
		x = random[r] / control[r];
		out->seen_lo = m ? fmin(out->seen_lo, x) : x;
		out->seen_hi = m ? fmax(out->seen_hi, x) : x;
		sum += log(x), m++;
	}
	out->n = m;
	if (!m)
		return;
	var = stats_log_ratio_var(a, b, 1, n, &df);
	out->center = sum / (double)m;
	out->observed_sd = sqrt(var);
	out->noise_sd = sqrt(fmax(0, noise_var));
	out->layout_sd = sqrt(fmax(0, var - fmax(0, noise_var)));
	out->lo = exp(out->center - Z95 * out->layout_sd);
	out->hi = exp(out->center + Z95 * out->layout_sd);
}
