/* Two sides of one metric, each a list of runs: how much it changed, in both
 * signs (seed 004: the robot's "-5.8%" with its +-stddev%), and whether the
 * change is real, run against run. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *stat_name(enum stat_kind s)
{
	switch (s) {
	case STAT_MEAN95: return "mean95";
	case STAT_MEDIAN: return "median";
	case STAT_MEAN: return "mean";
	case STAT_MIN: return "min";
	case STAT_MAX: return "max";
	}
	return "?";
}

int stat_from_name(const char *name)
{
	for (int s = STAT_MEAN95; s <= STAT_MAX; s++)
		if (strcmp(stat_name(s), name) == 0)
			return s;
	return -1;
}

double stat_of(const struct summary *s, enum stat_kind which)
{
	switch (which) {
	case STAT_MEAN95: return s->mean95;
	case STAT_MEDIAN: return s->median;
	case STAT_MEAN: return s->mean;
	case STAT_MIN: return s->min;
	case STAT_MAX: return s->max;
	}
	return NAN;
}

enum stat_kind stat_default(bool lower_is_better)
{
	return lower_is_better ? STAT_MEDIAN : STAT_MEAN;
}

double stats_of(const double *v, size_t n, enum stat_kind which, bool lower_is_better)
{
	double *sorted, r;

	if (n == 0)
		return NAN;
	sorted = xmalloc(n * sizeof *sorted);
	memcpy(sorted, v, n * sizeof *v);
	stats_sort(sorted, n);
	switch (which) {
	case STAT_MEAN95:
		r = lower_is_better ? stats_mean95_sorted(sorted, n) :
				      stats_mean95_sorted_high(sorted, n);
		break;
	case STAT_MEDIAN: r = stats_median_sorted(sorted, n); break;
	case STAT_MEAN: r = stats_mean(sorted, n); break;
	case STAT_MIN: r = sorted[0]; break;
	default: r = sorted[n - 1]; break;
	}
	free(sorted);
	return r;
}

static double spread_of(const double *v, size_t n)
{
	double lo = v[0], hi = v[0];

	for (size_t i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return hi - lo;
}

/* The verdict needs three things of the runs: enough of them on both sides; a
 * Welch t test on their statistics below alpha, because each run's statistic
 * is one observation and the sides may differ in spread; and a change larger
 * than the whole run-to-run range of either side, because runs of one
 * invocation sit closer in time than runs of two, and the machine's drift
 * between invocations is what two A/A `bench` runs on a shared machine differ
 * by most (two of two A/A pairs flagged on samples). */
static void change_ci(struct comparison *c, const struct welch *w, size_t nb, size_t nn,
		      double alpha)
{
	double half;

	c->change_lo = c->change_hi = NAN;
	if (nb < 2 || nn < 2 || !c->base)
		return;
	half = w->se > 0 ? stats_t_critical(alpha, w->df) * w->se : 0;
	c->change_lo = stats_change_robot(c->base, c->base + w->diff - half);
	c->change_hi = stats_change_robot(c->base, c->base + w->diff + half);
}

/* Large df: Student's t is the normal distribution to 4 digits. */
#define NORMAL_DF 1e7

size_t stats_units_needed(double sd_pct, double threshold_pct, double alpha)
{
	double z = stats_t_critical(alpha, NORMAL_DF) + stats_t_critical(0.4, NORMAL_DF);
	double n;

	if (!(sd_pct > 0))
		return STATS_MIN_RUNS;
	if (!(threshold_pct > 0))
		return 0;
	n = ceil(2 * pow(z * sd_pct / threshold_pct, 2));
	if (n > 1e9)
		n = 1e9;
	return n < STATS_MIN_RUNS ? STATS_MIN_RUNS : (size_t)n;
}

double stats_sd_of_range(double range, size_t n)
{
	/* E[range] / sigma of n normal samples (the control charts' d2) */
	static const double d2[] = { 0, 0, 1.128, 1.693, 2.059, 2.326, 2.534, 2.704, 2.847, 2.970,
				     3.078 };

	if (n < 2)
		return NAN;
	return range / d2[n < 10 ? n : 10];
}

/* Every run of one side above, or below, all of the other's. */
static bool disjoint(const double *a, size_t na, const double *b, size_t nb)
{
	double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;

	for (size_t i = 0; i < na; i++)
		alo = fmin(alo, a[i]), ahi = fmax(ahi, a[i]);
	for (size_t i = 0; i < nb; i++)
		blo = fmin(blo, b[i]), bhi = fmax(bhi, b[i]);
	return na && nb && (blo > ahi || bhi < alo);
}

static double pooled_sd(const double *a, size_t na, const double *b, size_t nb)
{
	double sa = na > 1 ? stats_stddev(a, na) : 0, sb = nb > 1 ? stats_stddev(b, nb) : 0;
	size_t df = (na > 1 ? na - 1 : 0) + (nb > 1 ? nb - 1 : 0);

	return df ? sqrt((sa * sa * (double)(na > 1 ? na - 1 : 0) +
			  sb * sb * (double)(nb > 1 ? nb - 1 : 0)) / (double)df) : 0;
}

void stats_compare_runs(const double *base, size_t nb, const double *new, size_t nn,
			const struct compare_opts *o, struct comparison *c)
{
	struct welch w;
	double gap;
	bool verdict;

	memset(c, 0, sizeof *c);
	c->base_runs = nb;
	c->new_runs = nn;
	c->base = stats_mean(base, nb);
	c->new = stats_mean(new, nn);
	c->base_spread = nb ? spread_of(base, nb) : 0;
	c->new_spread = nn ? spread_of(new, nn) : 0;
	c->base_sd_pct = c->base ? 100 * stats_stddev(base, nb) / c->base : 0;
	c->new_sd_pct = c->new ? 100 * stats_stddev(new, nn) / c->new : 0;
	c->change_robot = stats_change_robot(c->base, c->new);
	c->change_mmtests = stats_change_mmtests(c->base, c->new, o->lower_is_better);
	stats_welch(base, nb, new, nn, &w);
	c->t = w.t;
	c->df = w.df;
	c->p = w.p;
	change_ci(c, &w, nb, nn, o->alpha);
	c->enough = nb >= STATS_MIN_RUNS && nn >= STATS_MIN_RUNS;
	gap = fabs(c->new - c->base);
	c->stands_out = gap > c->base_spread && gap > c->new_spread;
	c->significant = c->enough && c->p < o->alpha && c->stands_out;
	c->noise_pct = c->base ? 100 * pooled_sd(base, nb, new, nn) / fabs(c->base) : 0;
	c->needed = stats_units_needed(c->noise_pct, 100 * o->threshold, o->alpha);
	c->drift_pct = o->drift_pct;
	c->inside_drift = !isnan(o->drift_pct) && fabs(c->change_robot) <= o->drift_pct;
	c->layout_pct = o->layout_pct;
	c->inside_layout = o->layout_pct > 0 && fabs(c->change_robot) <= o->layout_pct;
	c->state_changed = o->state_changed;
	c->by_invocation = o->by_invocation;
	c->one_invocation = o->one_invocation;
	c->drift_from_host = o->drift_from_host;
	c->disjoint = disjoint(base, nb, new, nn);
	c->invocations_needed = isnan(o->drift_pct) || o->drift_invocations < 2 ? 0 :
		stats_units_needed(stats_sd_of_range(o->drift_pct, o->drift_invocations),
				   100 * o->threshold, o->alpha);
	verdict = c->significant && !c->inside_drift && !c->inside_layout && !c->state_changed &&
		  !c->one_invocation && (!c->drift_from_host || c->disjoint);
	/* worse: the mmtests-sign change is negative by more than the threshold */
	c->regression = verdict && -c->change_mmtests > 100 * o->threshold;
	c->improvement = verdict && c->change_mmtests > 100 * o->threshold;
}
