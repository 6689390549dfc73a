/* Many placements of one program measured in the same rounds: which are
 * slower than the best (stats.h, struct placement_mark).
 *
 * Testing every arm against the arm that came out best, chosen after the
 * fact, is the winner's curse: the best of 64 noisy medians is low by
 * luck, and every other arm looks slow against it (place marked 20 of 49
 * unmoved offsets of its demo slow at 1.02-1.06x on a loaded Zen 5 guest).
 * So the reference is chosen on the even rounds and every arm tested
 * against it on the odd ones, which did not choose it; and 64 tests at
 * alpha would still mark alpha of the calm arms by chance, so the p values
 * are adjusted for the number of arms tested (Holm 1979, step-down: the
 * chance that any calm arm is marked stays below alpha, whatever the
 * tests' dependence; the common reference makes them dependent). The
 * ratios' intervals are Bonferroni's, simultaneous at 1 - alpha. The
 * noise every test uses is all arms' pooled (pooled_variance). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rounds of one parity, of arm i: v[i][parity], v[i][parity + 2]... */
static double *rounds_of(const double *v, size_t nrounds, size_t parity, size_t *n)
{
	double *out = xcalloc(nrounds / 2 + 2, sizeof *out);

	*n = 0;
	for (size_t r = parity; r < nrounds; r += 2)
		out[(*n)++] = v[r];
	return out;
}

static double median_of(const double *v, size_t n)
{
	double *c = xcalloc(n + 1, sizeof *c), m;

	memcpy(c, v, n * sizeof *c);
	m = n ? stats_median_select(c, n) : 0;
	free(c);
	return m;
}

/* The arm with the best median over the even rounds (parity 0), or over
 * all of them (2). */
static size_t best_arm(const double *const *v, size_t narms, size_t nrounds, size_t parity,
		       bool higher)
{
	size_t best = 0;
	double best_m = 0;

	for (size_t i = 0; i < narms; i++) {
		double m = parity == 0 ? stats_even_median(v[i], nrounds) : median_of(v[i], nrounds);

		if (i == 0 || (higher ? m > best_m : m < best_m))
			best = i, best_m = m;
	}
	return best;
}

struct by_p {
	double p;
	size_t arm;
};

static int cmp_p(const void *a, const void *b)
{
	const struct by_p *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

/* Holm's step-down adjustment of out[].p over the m arms tested. */
static void holm(struct placement_mark *out, size_t narms, size_t ref)
{
	struct by_p *s = xcalloc(narms + 1, sizeof *s);
	size_t m = 0;
	double run = 0;

	for (size_t i = 0; i < narms; i++)
		if (i != ref && out[i].n >= 2)
			s[m++] = (struct by_p){ out[i].p, i };
	qsort(s, m, sizeof *s, cmp_p);
	for (size_t k = 0; k < m; k++) {
		run = fmax(run, fmin(1, (double)(m - k) * s[k].p));
		out[s[k].arm].p = run;
	}
	free(s);
}

double stats_even_median(const double *v, size_t nrounds)
{
	size_t n;
	double *w = rounds_of(v, nrounds, 0, &n), m = median_of(w, n);

	free(w);
	return m;
}

void stats_paired_ratio_odd(const double *a, const double *b, size_t nrounds, double alpha,
			    struct paired *out)
{
	size_t na, nb;
	double *x = rounds_of(a, nrounds, 1, &na), *y = rounds_of(b, nrounds, 1, &nb);

	stats_paired_ratio(x, y, na < nb ? na : nb, alpha, out);
	free(x), free(y);
}

/* The odd rounds' logs, arm by arm (y[i * n + k]); false when a sample
 * is not positive (a ratio has no meaning then). */
static bool odd_logs(const double *const *v, size_t narms, double *y, size_t n)
{
	for (size_t i = 0; i < narms; i++)
		for (size_t k = 0; k < n; k++) {
			double x = v[i][2 * k + 1];

			if (!(x > 0))
				return false;
			y[i * n + k] = log(x);
		}
	return true;
}

/* The noise of one run, every arm's pooled: the residual variance of the
 * logs under arm and round effects that add (a randomized complete block
 * design, rounds the blocks: Montgomery, Design and Analysis of
 * Experiments, 4.1), with (arms - 1)(rounds - 1) degrees of freedom. Ten
 * rounds of 65 arms give it 256 where one arm's pairs give 4: the few
 * rounds a loaded machine allows can still mark a line's cost. */
static double pooled_variance(const double *y, size_t narms, size_t n, double *df)
{
	double *arm = xcalloc(narms + 1, sizeof *arm), *round = xcalloc(n + 1, sizeof *round);
	double grand = 0, ss = 0;

	for (size_t i = 0; i < narms; i++)
		for (size_t k = 0; k < n; k++) {
			arm[i] += y[i * n + k] / (double)n;
			round[k] += y[i * n + k] / (double)narms;
			grand += y[i * n + k] / (double)(n * narms);
		}
	for (size_t i = 0; i < narms; i++)
		for (size_t k = 0; k < n; k++)
			ss += pow(y[i * n + k] - arm[i] - round[k] + grand, 2);
	free(arm), free(round);
	*df = (double)(narms - 1) * (double)(n - 1);
	return *df > 0 ? ss / *df : NAN;
}

/* Each arm against the reference on the odd rounds: the mean of the
 * rounds' log ratios, its standard error from the pooled noise. */
static void held_out(const double *y, size_t narms, size_t n, size_t ref, bool higher, double alpha,
		     struct placement_mark *out)
{
	double df, var = pooled_variance(y, narms, n, &df), se = sqrt(2 * var / (double)n);
	double crit = stats_t_critical(alpha / (double)(narms - 1), df);

	for (size_t i = 0; i < narms; i++) {
		double d = 0;

		if (i == ref)
			continue;
		for (size_t k = 0; k < n; k++)
			d += (y[i * n + k] - y[ref * n + k]) / (double)n;
		d = higher ? -d : d;    /* worse is > 1 either way */
		out[i] = (struct placement_mark){ .ratio = exp(d), .n = n,
			.p = se > 0 ? stats_t_two_sided(d / se, df) : d == 0 ? 1 : 0,
			.lo = exp(d - crit * se), .hi = exp(d + crit * se) };
	}
}

size_t stats_placement_marks(const double *const *v, size_t narms, size_t nrounds, bool higher,
			     double alpha, double material, struct placement_mark *out)
{
	size_t n = nrounds / 2;
	bool split = nrounds >= STATS_PLACEMENT_MIN_ROUNDS && narms >= 2;
	size_t ref = best_arm(v, narms, nrounds, split ? 0 : 2, higher);
	double *y = xcalloc(narms * n + 1, sizeof *y);

	for (size_t i = 0; i < narms; i++) {
		double r = median_of(v[ref], nrounds), x = median_of(v[i], nrounds);

		out[i] = (struct placement_mark){ .ratio = 1, .lo = 1, .hi = 1, .p = 1,
						  .reference = i == ref };
		if (i != ref) {
			out[i].ratio = r > 0 && x > 0 ? (higher ? r / x : x / r) : 1;
			out[i].lo = 0, out[i].hi = INFINITY;
		}
	}
	if (split && odd_logs(v, narms, y, n))
		held_out(y, narms, n, ref, higher, alpha, out);
	free(y);
	holm(out, narms, ref);
	for (size_t i = 0; i < narms; i++) {
		struct placement_mark *m = &out[i];

		m->slow = !m->reference && m->n >= 2 && m->p < alpha && m->ratio > 1 + material;
		m->fast = m->reference || (m->n >= 2 && m->hi <= 1 + material);
	}
	return ref;
}
