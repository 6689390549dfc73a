/* Welch's t test (Welch 1947) and the Student t distribution it needs:
 * the regularized incomplete beta function by its continued fraction
 * (Lentz's method; the expansion is DLMF 8.17.22). compare uses it on run
 * statistics, where there are 3 to 10 observations a side and the rank
 * test cannot reach alpha 0.05 (3 against 3: its smallest p is 0.1). */
#include "stats.h"

#include <math.h>

/* The continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));

		for (int half = 0; half < 2; half++) {
			d = 1 + num * d;
			c = 1 + num / c;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = fabs(c) < tiny ? tiny : c;
			h *= d * c;
			num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		}
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return h;
}

double stats_incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_two_sided(double t, double df)
{
	if (!isfinite(t))
		return 0;
	return stats_incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_critical(double alpha, double df)
{
	double lo = 0, hi = 1;

	if (!(df > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	while (stats_t_two_sided(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	/* P(|T| >= t) falls as t grows: bisect to a relative 1e-12 */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_two_sided(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	double qa = na > 1 ? pow(stats_stddev(a, na), 2) / (double)na : 0;
	double qb = nb > 1 ? pow(stats_stddev(b, nb), 2) / (double)nb : 0;

	w->diff = mb - ma;
	w->se = sqrt(qa + qb);
	w->t = 0;
	w->df = 0;
	w->p = 1;
	if (na < 2 || nb < 2)
		return;
	if (qa + qb == 0) {
		/* no spread on either side: any difference is all there is */
		w->p = ma == mb ? 1 : 0;
		w->t = ma == mb ? 0 : copysign(INFINITY, w->diff);
		return;
	}
	w->t = w->diff / w->se;
	/* Welch-Satterthwaite */
	w->df = (qa + qb) * (qa + qb) /
		(qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	w->p = stats_t_two_sided(w->t, w->df);
}
