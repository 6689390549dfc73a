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
 * ratios' intervals are Bonferroni's, simultaneous at 1 - alpha. */
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

size_t stats_placement_marks(const double *const *v, size_t narms, size_t nrounds, bool higher,
			     double alpha, double material, struct placement_mark *out)
{
	bool split = nrounds >= STATS_PLACEMENT_MIN_ROUNDS;
	size_t ref = best_arm(v, narms, nrounds, split ? 0 : 2, higher), tested = 0;

	for (size_t i = 0; i < narms; i++)
		tested += i != ref;
	for (size_t i = 0; i < narms; i++) {
		struct placement_mark *m = &out[i];
		size_t na, nb;
		double *a = rounds_of(v[ref], nrounds, 1, &na), *b = rounds_of(v[i], nrounds, 1, &nb);
		struct paired pr;

		*m = (struct placement_mark){ .ratio = 1, .lo = 1, .hi = 1, .p = 1,
					      .reference = i == ref };
		if (i != ref && split) {
			/* worse is > 1 either way: later over reference for times,
			 * reference over later for rates */
			if (higher)
				stats_paired_ratio(b, a, na < nb ? na : nb, alpha / (double)tested, &pr);
			else
				stats_paired_ratio(a, b, na < nb ? na : nb, alpha / (double)tested, &pr);
			*m = (struct placement_mark){ .ratio = pr.ratio, .lo = pr.lo, .hi = pr.hi,
						      .p = pr.p, .n = pr.n };
		} else if (i != ref) {
			double r = median_of(v[ref], nrounds), x = median_of(v[i], nrounds);

			m->ratio = r > 0 && x > 0 ? (higher ? r / x : x / r) : 1;
			m->lo = 0, m->hi = INFINITY;
		}
		free(a), free(b);
	}
	holm(out, narms, ref);
	for (size_t i = 0; i < narms; i++) {
		struct placement_mark *m = &out[i];

		m->slow = !m->reference && m->n >= 2 && m->p < alpha && m->ratio > 1 + material;
		m->fast = m->reference || (m->n >= 2 && m->hi <= 1 + material);
	}
	return ref;
}
