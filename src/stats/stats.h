/* stats: the statistics, each defined once. Every function works on
 * samples (lower is better for times) and allocates only where it says. */
#ifndef STRADDLE_STATS_H
#define STRADDLE_STATS_H

#include "../base/base.h"

/* The significance level every test is held to unless a command is told
 * otherwise (--alpha). */
#define STATS_ALPHA 0.05

struct summary {
	size_t n;
	double min, max;
	double median;          /* mean of the two middles for even n */
	double mean;
	double mean95;          /* mean of the best max(1, floor(0.95 n)): the lowest
				 * times, the highest rates */
	double stddev;          /* sample, n - 1 */
	double cv;              /* stddev / mean */
	double ci_lo, ci_hi;    /* bootstrap 95% CI of the median */
	double floor;           /* the STATS_FLOOR_Q quantile (floor.c) */
	double floor_lo, floor_hi;      /* its distribution-free 95% CI */
};

/* A small, fast, reproducible generator (splitmix64): bootstrap resampling
 * and the sweep's random order use it, with a seed, so runs can be redone. */
uint64_t rng_next(uint64_t *state);
/* Uniform in [0, n). */
size_t rng_below(uint64_t *state, size_t n);

void stats_sort(double *v, size_t n);
double stats_median_sorted(const double *sorted, size_t n);
/* The same median by selection, in linear time; reorders v. */
double stats_median_select(double *v, size_t n);
/* Of ascending samples: the best are the lowest (times)... */
double stats_mean95_sorted(const double *sorted, size_t n);
/* ...or, for rates, the highest. */
double stats_mean95_sorted_high(const double *sorted, size_t n);
double stats_mean(const double *v, size_t n);
double stats_stddev(const double *v, size_t n);

/* Percentile bootstrap of the median: `resamples` resamples with the
 * generator seeded by `seed`; [lo, hi] the 2.5th and 97.5th percentiles. */
void stats_bootstrap_median_ci(const double *v, size_t n, unsigned resamples,
			       uint64_t seed, double *lo, double *hi);

/* Everything above for v[0..n) (copied, not reordered); lower_is_better
 * says which end is "best" for mean95. */
void stats_summarize(const double *v, size_t n, uint64_t seed, bool lower_is_better,
		     struct summary *s);

/* Two-sided Mann-Whitney U test. u is U of the first sample as scipy
 * reports it: R1 - n1 (n1 + 1) / 2, the pairs with a > b, ties counting one
 * half; p is exact (by counting)
 * when there are no ties and n1 + n2 <= 40, else from the normal
 * approximation with tie correction and continuity correction. */
struct mann_whitney {
	double u;
	double z;               /* 0 when p is exact */
	double p;
	bool exact;
};

void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct mann_whitney *out);

/* ---- a placement's floor (floor.c): what sweep and calibrate compare ---- */

/* The lowest tenth of a placement's samples: what its layout allows when
 * the machine lets it run (floor.c says why not the median). */
#define STATS_FLOOR_Q 0.10

/* The nearest-rank q-quantile (the ceil(q n)-th smallest) of ascending
 * samples, and its distribution-free 95% CI (order statistics). */
double stats_quantile_sorted(const double *sorted, size_t n, double q);
void stats_quantile_ci_sorted(const double *sorted, size_t n, double q, double *lo, double *hi);

/* Do a and b have the same q-quantile? Mood's median test generalised:
 * the shares of each sample at or below the pooled q-quantile, compared
 * by the two-proportion z test; p two-sided. */
struct quantile_test {
	double below_a, below_b;        /* the two shares */
	double z, p;
};

void stats_quantile_test(const double *a, size_t na, const double *b, size_t nb, double q,
			 struct quantile_test *out);

/* An offset against the best of its kernel (sweep, calibrate): ratio of
 * floors, the quantile test's p, slow when p < alpha and the ratio is at
 * least 1 + material, in the whole run and in each half of it (a and best
 * in round order: each half's floor against the best's same half).
 * a == best: 1, 1, not slow. */
struct floor_mark {
	double ratio, p;
	double half_ratio[2];           /* the first halves' floors, the second halves' */
	bool slow;
};

void stats_floor_mark(const double *a, size_t na, double floor_a, const double *best,
		      size_t nbest, double floor_best, double alpha, double material,
		      struct floor_mark *out);

bool stats_ci_overlap(double lo1, double hi1, double lo2, double hi2);

/* Percent change in the kernel test robot's sign: 100 (new - base) / base. */
double stats_change_robot(double base, double new);
/* In mmtests' sign: positive is better, whatever the metric's direction. */
double stats_change_mmtests(double base, double new, bool lower_is_better);

/* ---- Welch's t test (welch.c) ---- */

struct welch {
	double diff;                    /* mean of b - mean of a */
	double se;                      /* its standard error, sqrt(sa^2/na + sb^2/nb) */
	double t, df;                   /* df by Welch-Satterthwaite */
	double p;                       /* two-sided; 1 with fewer than 2 a side */
};

void stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *w);
/* Two arms measured once each in every round (place, whose rounds run
 * every arm in a new random order): the ratio b/a as the geometric mean of
 * the rounds' ratios, its (1 - alpha) CI and the two-sided p of the paired
 * t test on their logarithms. The drift that moves every arm of a round
 * alike cancels in each ratio: on this project's Xeon guest a 2.5% effect
 * under 2.2% run-to-run CV gave p 0.0003 paired in 12 rounds, and was not
 * significant unpaired. With fewer than 2 rounds: ratio only, p 1. */
struct paired {
	double ratio, lo, hi, p;
	size_t n;
};
void stats_paired_ratio(const double *a, const double *b, size_t n, double alpha,
			struct paired *out);

/* ---- one placement at several addresses (copies.c) ---- */

/* A replay times each placement at k copies of the code, at k addresses
 * with the same offset in their line: two copies of one placement differ
 * (lz4 -dc's 0xcfe7: 1.07x, twice; sha3's keccak loop: nine copies at
 * offset 32 of their lines within 2.7% of each other), so what a
 * placement costs is the mean over its copies, and its interval counts
 * their spread. v[c][r]: copy c's sample of round r (every copy timed in
 * every round), all > 0. With odd, only the odd rounds are used (a choice
 * made on the even ones). */
struct copies {
	const double *const *v;
	size_t k;
};
struct copies_spread {
	double var;                     /* a copy's mean log around its placement's */
	double df;
};
/* The spread of the copies' mean logs within their placements, pooled
 * over narms placements: *df the sum of their k - 1. */
double stats_copies_variance(const struct copies *arm, size_t narms, size_t n, bool odd,
			     double *df);
/* b over a as the ratio of their copies' geometric means, its (1 - alpha)
 * interval and p by Student's t on the spread (var (1/ka + 1/kb), df):
 * out->n the rounds used. With df 0: the ratio only, p 1. */
void stats_copies_ratio(const struct copies *a, const struct copies *b, size_t n, bool odd,
			const struct copies_spread *s, double alpha, struct paired *out);

/* ---- a robust line (slope.c) ---- */

/* Theil-Sen's line through (x[i], y[i]): the median of the pairwise
 * slopes, the median intercept at it. false when no two x differ. */
bool stats_theil_sen(const double *x, const double *y, size_t n, double *slope,
		     double *intercept);

/* ---- many placements in the same rounds (placements.c) ---- */

/* Which of narms placements (place's arms: each measured once in every
 * round, v[i][r] arm i's sample of round r, nrounds each) are slower than
 * the best, with at most alpha of a chance of marking any placement that
 * is not: the reference (the best median) chosen on the even rounds, every
 * other arm tested against it on the odd rounds alone (paired by round:
 * stats_paired_ratio), the p values adjusted for the arms tested (Holm's
 * step-down) and the ratios' intervals simultaneous (Bonferroni). With
 * fewer than STATS_PLACEMENT_MIN_ROUNDS rounds nothing is tested: the
 * reference is chosen on them all, ratios are of medians, p 1. */
#define STATS_PLACEMENT_MIN_ROUNDS 4

struct placement_mark {
	double ratio;                   /* over the reference, > 1 worse (held-out rounds) */
	double lo, hi;                  /* its simultaneous (1 - alpha) interval */
	double p;                       /* adjusted: compare with alpha itself */
	size_t n;                       /* rounds it was tested on; 0: not tested */
	bool reference;
	bool slow;                      /* p < alpha and ratio > 1 + material */
	bool fast;                      /* the reference, or hi <= 1 + material: not slow, surely */
};

/* out[narms]; returns the reference's index. higher: larger is better. */
size_t stats_placement_marks(const double *const *v, size_t narms, size_t nrounds, bool higher,
			     double alpha, double material, struct placement_mark *out);
/* A choice made after the fact, told apart from its measure: the median
 * of the even rounds of v (to choose by), and stats_paired_ratio of b over
 * a on the odd rounds alone (to report the chosen by). */
double stats_even_median(const double *v, size_t nrounds);
void stats_paired_ratio_odd(const double *a, const double *b, size_t nrounds, double alpha,
			    struct paired *out);

/* P(|T| >= |t|) for Student's t with df degrees of freedom. */
double stats_t_two_sided(double t, double df);
/* The t with P(|T| >= t) = alpha: 2.776 for alpha 0.05 and df 4; NAN
 * unless df > 0 and 0 < alpha < 1. */
double stats_t_critical(double alpha, double df);
/* The regularized incomplete beta function I_x(a, b). */
double stats_incomplete_beta(double a, double b, double x);

/* ---- comparing runs (compare.c) ---- */

enum stat_kind { STAT_MEAN95, STAT_MEDIAN, STAT_MEAN, STAT_MIN, STAT_MAX };

const char *stat_name(enum stat_kind s);
int stat_from_name(const char *name);          /* -1 when unknown */
double stat_of(const struct summary *s, enum stat_kind which);
/* Per-call times: the median; rates: the mean, as LKP reports them. */
enum stat_kind stat_default(bool lower_is_better);
/* The statistic of v[0..n) (not reordered). */
double stats_of(const double *v, size_t n, enum stat_kind which, bool lower_is_better);

/* Fewer runs than this on a side: the change is printed, no verdict. */
#define STATS_MIN_RUNS 3

struct compare_opts {
	bool lower_is_better;
	double alpha;                   /* significance level of the t test */
	double threshold;               /* a fraction: how much worse is a regression */
	/* Sides from different invocations. drift_pct: how far
	 * apart this machine's A/A invocations were (100 range / mean of
	 * their statistics), NAN when not measured; a change inside it is no
	 * verdict. state_changed: the recorded machine states differ beyond
	 * the warning's limits; no verdict either. */
	double drift_pct;
	/* How far a new layout of the program's code moves it (a
	 * place --offsets random band, %), 0 when not given; a change inside
	 * it is no verdict either */
	double layout_pct;
	bool state_changed;
	bool by_invocation;             /* the units are invocations, not runs */
	/* runs, not invocations, and no drift_pct: a side is one invocation
	 * and nothing says how far two invocations drift apart; no verdict */
	bool one_invocation;
	/* drift_pct is this host's kept band (bench --invocations, some time
	 * before): measured apart from the two invocations, it is trusted
	 * only for runs that do not overlap at all */
	bool drift_from_host;
	size_t drift_invocations;       /* the A/A invocations drift_pct is of, 0 unknown */
};

/* Two sides of one metric, each a list of run statistics (one number per
 * run: the run is the unit of replication). */
struct comparison {
	double base, new;               /* the mean of the runs' statistics */
	size_t base_runs, new_runs;
	double base_spread, new_spread; /* max - min of the runs' statistics */
	double base_sd_pct, new_sd_pct; /* run-to-run 100 sigma / mean (the robot's +-) */
	double change_robot;            /* 100 (new - base) / base */
	double change_mmtests;          /* positive = better */
	double t, df, p;                /* Welch's t test on the run statistics */
	/* The (1 - alpha) CI of change_robot by Welch: 100 (diff -+ t se) /
	 * base; it excludes 0 exactly when p < alpha. NAN with fewer than 2
	 * runs a side. */
	double change_lo, change_hi;
	bool enough;                    /* STATS_MIN_RUNS or more on both sides */
	bool stands_out;                /* |new - base| above both sides' spread */
	bool significant;               /* enough, p < alpha and stands_out */
	/* the noise the test saw: the pooled sd of the units, % of base; and
	 * the units a side that resolve a change of the threshold at it */
	double noise_pct;
	size_t needed;
	double drift_pct;               /* as given; NAN: not measured */
	bool inside_drift;              /* |change_robot| <= drift_pct */
	double layout_pct;              /* as given; 0: none */
	bool inside_layout;             /* |change_robot| <= layout_pct */
	bool state_changed;             /* as given */
	bool by_invocation;             /* as given */
	bool one_invocation;            /* as given */
	bool drift_from_host;           /* as given */
	bool disjoint;                  /* every run of one side beyond all of the other's */
	/* invocations a side that resolve the threshold at the drift between
	 * invocations (its sd from the A/A range: stats_sd_of_range); 0 when
	 * the drift is not known */
	size_t invocations_needed;
	/* significant, beyond the threshold, outside a measured drift (or
	 * invocations for units), the same machine state */
	bool regression, improvement;
};

void stats_compare_runs(const double *base, size_t nb, const double *new, size_t nn,
			const struct compare_opts *o, struct comparison *c);
/* The units a side (runs, invocations) that find a change of threshold_pct
 * at noise sd_pct with a two-sided test at alpha and 80% power, by the
 * normal approximation: 2 ((z(alpha/2) + z(0.2)) sd / threshold)^2, at
 * least STATS_MIN_RUNS; 0 when threshold_pct is 0 and sd_pct is not. */
size_t stats_units_needed(double sd_pct, double threshold_pct, double alpha);
/* The standard deviation a range (max - min) of n normal samples says:
 * range / d2(n), d2 the range's expected size in sd units (2: 1.128, ...,
 * 10: 3.078; from 10 on 3.078, which overstates the sd); NAN for n < 2. */
double stats_sd_of_range(double range, size_t n);

/* ---- the spread a program's layout alone makes (layout.c) ---- */

/* The variance of log(b[k][r] / a[k][r]) over the n rounds r of each of
 * npairs pairs of arms measured in the same rounds, each pair about its
 * own mean, pooled by degrees of freedom (*df: their sum); 0 with *df 0
 * when no pair has 2 rounds. Pairs of fixed layouts: their variance is
 * the runs' noise, which no layout adds to. */
double stats_log_ratio_var(const double *const *a, const double *const *b, size_t npairs,
			   size_t n, size_t *df);

/* How far layouts of one program move it (straddle ab): each round, a
 * run with its functions at new random offsets over a run of the control
 * (the same copies at their own offsets), in logarithms. Their variance
 * is the layouts' and the runs' noise (noise_var, of fixed layouts in the
 * same rounds) together; the layouts' own spread is what is left, and the
 * band the central 95% of a normal of it around the rounds' mean: where
 * the program lands when a build moves its code and nothing else. A
 * change of a mean over rounds is held against it, not against the
 * spread of single runs, which the noise widens. */
struct layout_band {
	size_t n;                       /* rounds */
	double center;                  /* log: mean of log(random / control) */
	double observed_sd;             /* log: their sd */
	double noise_sd;                /* log: sqrt(noise_var) */
	double layout_sd;               /* log: sqrt(max(0, observed^2 - noise)) */
	double lo, hi;                  /* ratios: exp(center -+ 1.96 layout_sd) */
	double seen_lo, seen_hi;        /* ratios: the lowest and highest round's */
};

void stats_layout_band(const double *random, const double *control, size_t n, double noise_var,
		       struct layout_band *out);

/* ---- a share of samples (share.c) ---- */

/* The 95% interval of a share k of n samples (Wilson's score interval). */
void stats_share_ci(uint64_t k, uint64_t n, double *lo, double *hi);

#endif
