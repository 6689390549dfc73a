/* Two sets of samples of one metric: how much it changed, in both signs,
 * and whether the change is real: the Mann-Whitney U test and the overlap
 * of the medians' bootstrap CIs, both reported (issue 5; seed 004: the
 * robot's "-5.8%" with its +-stddev%). */
#include "stats.h"

#include <math.h>
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

void stats_compare(const double *base, size_t nb, const double *new, size_t nn,
		   const struct compare_opts *o, struct comparison *c)
{
	struct summary sb, sn;
	struct mann_whitney m;

	memset(c, 0, sizeof *c);
	stats_summarize(base, nb, o->seed, o->lower_is_better, &sb);
	stats_summarize(new, nn, o->seed + 1, o->lower_is_better, &sn);
	c->base = stat_of(&sb, o->stat);
	c->new = stat_of(&sn, o->stat);
	c->base_stddev_pct = sb.mean ? 100 * sb.stddev / sb.mean : 0;
	c->new_stddev_pct = sn.mean ? 100 * sn.stddev / sn.mean : 0;
	c->base_cv = sb.cv;
	c->new_cv = sn.cv;
	c->change_robot = stats_change_robot(c->base, c->new);
	c->change_mmtests = stats_change_mmtests(c->base, c->new, o->lower_is_better);
	stats_mann_whitney(new, nn, base, nb, &m);
	c->u = m.u;
	c->p = m.p;
	c->ci_overlap = stats_ci_overlap(sb.ci_lo, sb.ci_hi, sn.ci_lo, sn.ci_hi);
	c->significant = m.p < o->alpha;
	/* worse: the mmtests-sign change is negative by more than the threshold */
	c->regression = c->significant && -c->change_mmtests > 100 * o->threshold;
	c->improvement = c->significant && c->change_mmtests > 100 * o->threshold;
}
