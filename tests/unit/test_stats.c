/* The statistics against values worked out by hand (and, for the U test,
 * against scipy.stats.mannwhitneyu's documented conventions). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/stats.h"

#define N(v) (sizeof(v) / sizeof((v)[0]))

static void medians(void **state)
{
	double odd[] = { 1, 2, 3 }, even[] = { 1, 2, 3, 4 }, one[] = { 7 };

	assert_true(stats_median_sorted(odd, 3) == 2);
	assert_true(stats_median_sorted(even, 4) == 2.5);   /* mean of the two middles */
	assert_true(stats_median_sorted(one, 1) == 7);
	assert_true(isnan(stats_median_sorted(one, 0)));
}

static void median_by_selection(void **state)
{
	uint64_t rng = 5;

	/* against the sorted median, on arrays with many repeated values */
	for (int t = 0; t < 3000; t++) {
		size_t n = 1 + rng_below(&rng, 40);
		double v[40], s[40];

		for (size_t i = 0; i < n; i++)
			s[i] = v[i] = (double)rng_below(&rng, 7);
		stats_sort(s, n);
		assert_true(stats_median_select(v, n) == stats_median_sorted(s, n));
	}
}

static void mean95(void **state)
{
	double v[20];

	for (int i = 0; i < 20; i++)
		v[i] = i + 1;
	/* floor(0.95 * 20) = 19 best: mean of 1..19 = 10 */
	assert_true(stats_mean95_sorted(v, 20) == 10);
	/* floor(0.95 * 10) = 9: mean of 1..9 = 5 */
	assert_true(stats_mean95_sorted(v, 10) == 5);
	/* floor(0.95 * 1) = 0 -> max(1, 0) = 1 */
	assert_true(stats_mean95_sorted(v, 1) == 1);
	/* rates: the best are the highest: mean of 2..20 = 11 */
	assert_true(stats_mean95_sorted_high(v, 20) == 11);
	assert_true(stats_mean95_sorted_high(v, 1) == 1);
}

static void spread(void **state)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct summary s;

	/* mean 5; squares 9+1+1+1+0+0+4+16 = 32; 32/7 */
	assert_true(stats_mean(v, 8) == 5);
	assert_true(fabs(stats_stddev(v, 8) - sqrt(32.0 / 7)) < 1e-12);
	stats_summarize(v, 8, 1, true, &s);
	assert_int_equal(s.n, 8);
	assert_true(s.min == 2 && s.max == 9 && s.median == 4.5);
	assert_true(fabs(s.cv - sqrt(32.0 / 7) / 5) < 1e-12);
	assert_true(s.ci_lo <= s.median && s.median <= s.ci_hi);
}

static void bootstrap(void **state)
{
	double same[] = { 3, 3, 3, 3 }, two[] = { 1, 3 }, lo, hi, lo2, hi2;
	double v[] = { 5, 1, 4, 2, 3, 9, 7, 8, 6 };

	stats_bootstrap_median_ci(same, 4, 1000, 42, &lo, &hi);
	assert_true(lo == 3 && hi == 3);
	/* resample medians of {1,3}: 1, 2, 3 with probability 1/4, 1/2, 1/4;
	 * of 1000, the 25th lowest is 1 and the 975th is 3 */
	stats_bootstrap_median_ci(two, 2, 1000, 42, &lo, &hi);
	assert_true(lo == 1 && hi == 3);
	/* a fixed seed gives the same interval; it holds the median */
	stats_bootstrap_median_ci(v, 9, 1000, 7, &lo, &hi);
	stats_bootstrap_median_ci(v, 9, 1000, 7, &lo2, &hi2);
	assert_true(lo == lo2 && hi == hi2);
	assert_true(lo <= 5 && 5 <= hi && lo >= 1 && hi <= 9);
	assert_true(lo < hi);
}

static void mann_whitney_exact(void **state)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct mann_whitney m;

	/* R1 = 6, U1 = 6 - 3*4/2 = 0; one arrangement of C(6,3) = 20 is this
	 * extreme each way: p = 2/20 */
	stats_mann_whitney(a, 3, b, 3, &m);
	assert_true(m.exact);
	assert_true(m.u == 0);
	assert_true(fabs(m.p - 0.1) < 1e-12);
	stats_mann_whitney(b, 3, a, 3, &m);
	assert_true(m.u == 9);
	assert_true(fabs(m.p - 0.1) < 1e-12);
	/* interleaved: a = {1,3,5}, b = {2,4,6}: R1 = 9, U1 = 3; P(U <= 3) =
	 * (1+1+2+3)/20 = 7/20, p = 0.7 */
	double c[] = { 1, 3, 5 }, d[] = { 2, 4, 6 };
	stats_mann_whitney(c, 3, d, 3, &m);
	assert_true(m.u == 3);
	assert_true(fabs(m.p - 0.7) < 1e-12);
}

static void mann_whitney_ties(void **state)
{
	double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
	struct mann_whitney m;

	/* ranks: 1 -> 1; the three 2s -> 3; the two 3s -> 5.5; 4 -> 7; 5 -> 8.
	 * R1 = 1 + 3 + 3 + 5.5 = 12.5, U1 = 12.5 - 10 = 2.5, U2 = 13.5.
	 * Ties 3 and 2: sum t^3 - t = 24 + 6 = 30. mu = 8,
	 * sigma = sqrt(16/12 (9 - 30/56)) = 3.3594222;
	 * z = (13.5 - 8 - 0.5) / sigma = 1.4883514, p = erfc(z / sqrt 2) = 0.1366582 */
	stats_mann_whitney(a, 4, b, 4, &m);
	assert_false(m.exact);
	assert_true(m.u == 2.5);
	assert_true(fabs(m.z - 1.4883513944689681) < 1e-9);
	assert_true(fabs(m.p - 0.13665824773814753) < 1e-9);
}

static void mann_whitney_degenerate(void **state)
{
	double a[] = { 1, 1, 1 }, b[] = { 1, 1, 1 };
	struct mann_whitney m;

	stats_mann_whitney(a, 3, b, 3, &m);
	assert_true(m.p == 1);
	stats_mann_whitney(a, 0, b, 3, &m);
	assert_true(m.p == 1);
}

static void t_distribution(void **state)
{
	/* closed forms: df 1, p = 1 - 2 atan(t) / pi; df 2, p = 1 - t / sqrt(2 + t^2) */
	assert_true(fabs(stats_t_two_sided(1, 1) - 0.5) < 1e-12);
	assert_true(fabs(stats_t_two_sided(2, 2) - (1 - 2 / sqrt(6))) < 1e-12);
	assert_true(stats_t_two_sided(0, 5) == 1);
	assert_true(stats_t_two_sided(INFINITY, 5) == 0);
	/* I_x(1, 1) = x */
	assert_true(fabs(stats_incomplete_beta(1, 1, 0.3) - 0.3) < 1e-12);
}

static void welch(void **state)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 10, 11, 12 }, d[] = { 12, 16, 20 };
	double e[] = { 5, 5, 5 }, f[] = { 6, 6, 6 };
	struct welch w;

	/* equal variances: t = 3 / sqrt(2/3), df 4, p by Simpson's rule 0.0213116411 */
	stats_welch(a, 3, b, 3, &w);
	assert_true(fabs(w.t - 3 / sqrt(2.0 / 3)) < 1e-12);
	assert_true(fabs(w.df - 4) < 1e-12);
	assert_true(fabs(w.p - 0.0213116411) < 1e-9);
	/* unequal: var 1 and 16, t = 5 / sqrt(17/3) = 2.1004201, df 2.2490272, p 0.1562140515 */
	stats_welch(c, 3, d, 3, &w);
	assert_true(fabs(w.t - 2.100420126) < 1e-8);
	assert_true(fabs(w.df - 2.249027237) < 1e-8);
	assert_true(fabs(w.p - 0.1562140515) < 1e-9);
	/* no spread: a difference is certain, none is none */
	stats_welch(e, 3, f, 3, &w);
	assert_true(w.p == 0);
	stats_welch(e, 3, e, 3, &w);
	assert_true(w.p == 1);
	/* one run a side: no test */
	stats_welch(a, 1, b, 1, &w);
	assert_true(w.p == 1);
}

static void runs_verdict(void **state)
{
	struct compare_opts o = { .lower_is_better = true, .alpha = 0.05, .threshold = 0.02,
				  .drift_pct = NAN };
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, one[] = { 9 };
	double near[] = { 10, 10.5, 11 }, far[] = { 12.5, 12.7, 12.9 };
	struct comparison c;

	/* 2 -> 5 ns: p 0.0213, the gap 3 above both ranges of 2, 150% worse */
	stats_compare_runs(a, 3, b, 3, &o, &c);
	assert_true(c.base == 2 && c.new == 5 && c.base_spread == 2 && c.new_spread == 2);
	assert_true(c.enough && c.stands_out && c.significant && c.regression);
	assert_true(c.change_robot == 150 && c.change_mmtests == -150);
	/* Welch's 95% CI of the change: df 4, t 2.776445, se sqrt(2/3):
	 * 3 -+ 2.266949 ns of 2 */
	assert_true(fabs(c.change_lo - 36.652103) < 1e-5 && fabs(c.change_hi - 263.347897) < 1e-5);
	/* the same with a 200% threshold: significant, not a regression */
	o.threshold = 2;
	stats_compare_runs(a, 3, b, 3, &o, &c);
	assert_true(c.significant && !c.regression);
	o.threshold = 0.02;
	/* 10.5 -> 12.7: a gap of 2.2 above ranges of 1 and 0.4 */
	stats_compare_runs(near, 3, far, 3, &o, &c);
	assert_true(c.stands_out && c.significant && c.regression);
	/* the gap 3 is inside a range of 4: no verdict, whatever p says */
	{
		double wide[] = { 3, 5, 7 };

		stats_compare_runs(a, 3, wide, 3, &o, &c);
		assert_true(c.base_spread == 2 && c.new_spread == 4 && !c.stands_out);
		assert_false(c.significant || c.regression);
	}
	/* one run: the change, no verdict */
	stats_compare_runs(a, 3, one, 1, &o, &c);
	assert_false(c.enough || c.significant || c.regression);
	assert_true(c.new == 9 && c.new_runs == 1);
	/* rates: higher is better, a drop is the regression */
	o.lower_is_better = false;
	stats_compare_runs(b, 3, a, 3, &o, &c);
	assert_true(c.regression && fabs(c.change_mmtests - -60) < 1e-12);
}

/* The drift between invocations and the machine's state take
 * the verdict away, not the test; the noise and the runs it needs. */
static void runs_verdict_between_invocations(void **state)
{
	struct compare_opts o = { .lower_is_better = true, .alpha = 0.05, .threshold = 0.02,
				  .drift_pct = NAN };
	double near[] = { 10, 10.5, 11 }, far[] = { 12.5, 12.7, 12.9 };
	struct comparison c;

	(void)state;
	/* pooled sd sqrt((2 0.25 + 2 0.04) / 4) = 0.38079 of 10.5 */
	stats_compare_runs(near, 3, far, 3, &o, &c);
	assert_true(fabs(c.noise_pct - 3.626568) < 1e-5 && c.needed == 52);
	assert_true(c.regression && !c.inside_drift && isnan(c.drift_pct));
	/* +20.95% inside a drift of 21%: significant, no regression */
	o.drift_pct = 21;
	stats_compare_runs(near, 3, far, 3, &o, &c);
	assert_true(c.significant && c.inside_drift && !c.regression);
	o.drift_pct = 20;
	stats_compare_runs(near, 3, far, 3, &o, &c);
	assert_true(!c.inside_drift && c.regression);
	o.state_changed = true;
	stats_compare_runs(near, 3, far, 3, &o, &c);
	assert_true(c.significant && c.state_changed && !c.regression && !c.improvement);
}

/* 2 ((z 0.975 + z 0.8) sd / threshold)^2: 1.959964 + 0.841621 = 2.801585 */
static void units_needed(void **state)
{
	(void)state;
	assert_int_equal(stats_units_needed(3.626568, 2, 0.05), 52);    /* 51.61 */
	assert_int_equal(stats_units_needed(10, 2, 0.05), 393);         /* 392.44 */
	assert_int_equal(stats_units_needed(22, 2, 0.05), 1900);        /* 1899.4 */
	assert_int_equal(stats_units_needed(0.5, 2, 0.05), STATS_MIN_RUNS);     /* 0.98 */
	assert_int_equal(stats_units_needed(0, 2, 0.05), STATS_MIN_RUNS);
	assert_int_equal(stats_units_needed(1, 0, 0.05), 0);
}

static void statistic_of_runs(void **state)
{
	double v[] = { 4, 1, 3, 2, 100 };

	assert_true(stats_of(v, 5, STAT_MEDIAN, true) == 3);
	assert_true(stats_of(v, 5, STAT_MEAN, true) == 22);
	assert_true(stats_of(v, 5, STAT_MIN, true) == 1);
	assert_true(stats_of(v, 5, STAT_MAX, true) == 100);
	/* floor(0.95 * 5) = 4 best: the lowest 1..4, or the highest 2,3,4,100 */
	assert_true(stats_of(v, 5, STAT_MEAN95, true) == 2.5);
	assert_true(stats_of(v, 5, STAT_MEAN95, false) == 27.25);
	assert_true(v[0] == 4 && v[4] == 100);
}

static void t_critical(void **state)
{
	/* Student's t tables: 12.706205 (df 1), 2.776445 (4), 2.228139 (10) */
	assert_true(fabs(stats_t_critical(0.05, 1) - 12.706205) < 1e-5);
	assert_true(fabs(stats_t_critical(0.05, 4) - 2.776445) < 1e-5);
	assert_true(fabs(stats_t_critical(0.05, 10) - 2.228139) < 1e-5);
	assert_true(fabs(stats_t_critical(0.01, 4) - 4.604095) < 1e-5);
	assert_true(isnan(stats_t_critical(0.05, 0)) && isnan(stats_t_critical(0, 4)));
}

static void changes(void **state)
{
	/* seed 004: the robot's -5.8% on a higher-is-better metric */
	assert_true(fabs(stats_change_robot(100, 94.2) - -5.8) < 1e-9);
	assert_true(fabs(stats_change_mmtests(100, 94.2, false) - -5.8) < 1e-9);
	/* seed 000: pread_z100k time 9.9195 -> 5.9856 is 39.66% better */
	assert_true(fabs(stats_change_mmtests(9.9195, 5.9856, true) - 39.6583) < 1e-3);
	assert_true(stats_ci_overlap(1, 2, 2, 3));
	assert_false(stats_ci_overlap(1, 2, 2.5, 3));
}

/* stats/floor.c: the nearest-rank quantile, its order-statistic CI, the
 * quantile test and the mark sweep and calibrate give an offset. */
static void floors(void **state)
{
	double s[100];

	(void)state;
	for (int i = 0; i < 100; i++)
		s[i] = i + 1;
	assert_true(stats_quantile_sorted(s, 10, 0.1) == 1);    /* rank ceil(1.0) */
	assert_true(stats_quantile_sorted(s, 10, 0.25) == 3);   /* rank ceil(2.5) */
	assert_true(stats_quantile_sorted(s, 100, STATS_FLOOR_Q) == 10);
	assert_true(stats_quantile_sorted(s, 1, 0.1) == 1);
	assert_true(isnan(stats_quantile_sorted(s, 0, 0.1)));
	/* n q = 10, 1.96 sqrt(9) = 5.88: ranks floor(4.12) = 4, ceil(15.88) = 16 */
	double lo, hi;
	stats_quantile_ci_sorted(s, 100, 0.1, &lo, &hi);
	assert_true(lo == 4 && hi == 16);
	stats_quantile_ci_sorted(s, 5, 0.1, &lo, &hi);   /* clamped to the ends */
	assert_true(lo == 1 && hi == 2);   /* 0.5 -+ 1.31: ranks 1, 2 */
}

static void quantile_test(void **state)
{
	double a[] = { 5, 1, 5, 1, 5, 1, 5, 1, 5, 1 }, b[10];
	struct quantile_test q;

	(void)state;
	for (int i = 0; i < 10; i++)
		b[i] = 5;
	/* pooled: five 1s, fifteen 5s; its 10th percentile (rank 2) is 1:
	 * below it 5 of a, 0 of b; pooled share 0.25, se = sqrt(0.25 0.75
	 * 0.2) = 0.193649, z = 0.5 / se = 2.581989, p = erfc(z / sqrt 2) */
	stats_quantile_test(a, 10, b, 10, 0.1, &q);
	assert_true(q.below_a == 0.5 && q.below_b == 0);
	assert_true(fabs(q.z - 2.581989) < 1e-6);
	assert_true(fabs(q.p - 0.0098233) < 1e-6);
	stats_quantile_test(b, 10, b, 10, 0.1, &q);     /* all equal: no evidence */
	assert_true(q.p == 1);
	stats_quantile_test(a, 0, b, 10, 0.1, &q);
	assert_true(q.p == 1);
}

/* The case the floor exists for (stats/floor.c): two well-placed offsets
 * in a fast (150) and a slow (169) state in different shares have medians
 * 12.7% apart and the same floor; an offset across a line (173 in every
 * sample) is slow. */
static void floor_marks(void **state)
{
	double best[100], other[100], across[100];
	struct floor_mark m;
	struct summary sb, so, sa;

	(void)state;
	for (int i = 0; i < 100; i++) {
		best[i] = i % 5 < 3 ? 150 : 169;         /* 60% fast */
		other[i] = i % 20 < 9 ? 150 : 169;       /* 45% fast */
		across[i] = 173;
	}
	stats_summarize(best, 100, 1, true, &sb);
	stats_summarize(other, 100, 1, true, &so);
	stats_summarize(across, 100, 1, true, &sa);
	assert_true(sb.median == 150 && so.median == 169);
	assert_true(sb.floor == 150 && so.floor == 150 && sa.floor == 173);
	stats_floor_mark(other, 100, so.floor, best, 100, sb.floor, 0.05, 0.05, &m);
	assert_true(m.ratio == 1 && !m.slow);
	stats_floor_mark(across, 100, sa.floor, best, 100, sb.floor, 0.05, 0.05, &m);
	assert_true(fabs(m.ratio - 173.0 / 150) < 1e-12 && m.p < 1e-9 && m.slow);
	assert_true(fabs(m.half_ratio[0] - 173.0 / 150) < 1e-12 &&
		    fabs(m.half_ratio[1] - 173.0 / 150) < 1e-12);
	stats_floor_mark(best, 100, sb.floor, best, 100, sb.floor, 0.05, 0.05, &m);
	assert_true(m.ratio == 1 && m.p == 1 && !m.slow);
}

/* Slow in one half only is the machine's, not the layout's. The
 * first 50 rounds at 173, then 8 of the last 50 at 150 (the best: 150
 * always): the floor of all 100 (the 10th lowest) is 173, 1.153x, p far
 * below alpha; the second half's floor (its 5th lowest) is 150, 1.00x:
 * not slow. */
static void floor_marks_need_both_halves(void **state)
{
	double best[100], late[100];
	struct floor_mark m;

	(void)state;
	for (int i = 0; i < 100; i++) {
		best[i] = 150;
		late[i] = i >= 50 && i < 58 ? 150 : 173;
	}
	stats_floor_mark(late, 100, 173, best, 100, 150, 0.05, 0.05, &m);
	assert_true(fabs(m.ratio - 173.0 / 150) < 1e-12 && m.p < 1e-9);
	assert_true(fabs(m.half_ratio[0] - 173.0 / 150) < 1e-12 && m.half_ratio[1] == 1);
	assert_false(m.slow);
	/* the same time in the other half: still not slow */
	for (int i = 0; i < 100; i++)
		late[i] = i < 8 ? 150 : 173;
	stats_floor_mark(late, 100, 173, best, 100, 150, 0.05, 0.05, &m);
	assert_true(m.half_ratio[0] == 1 && fabs(m.half_ratio[1] - 173.0 / 150) < 1e-12);
	assert_false(m.slow);
}

/* place's rounds, paired: the geometric mean of the rounds' ratios, its
 * CI by Student's t (3.182446 for alpha 0.05 and 3 degrees of freedom, from
 * the table) and its p; a constant ratio is exact, p 0. */
static void paired_ratios(void **state)
{
	const double one[] = { 1, 1, 1, 1 }, b[] = { 1.1, 1.2, 1.0, 1.3 };
	const double a3[] = { 1, 2, 4 }, b3[] = { 1.1, 2.2, 4.4 };
	struct paired p;

	stats_paired_ratio(one, b, 4, 0.05, &p);
	assert_int_equal(p.n, 4);
	assert_true(fabs(p.ratio - 1.1445356401200555) < 1e-12);
	assert_true(fabs(p.lo - 0.9562825526223362) < 1e-6);
	assert_true(fabs(p.hi - 1.3698480934456274) < 1e-6);
	/* t = 2.3908 with 3 df: between the table's 2.353 (p 0.10) and 3.182 (0.05) */
	assert_true(p.p > 0.05 && p.p < 0.10);
	stats_paired_ratio(a3, b3, 3, 0.05, &p);
	assert_true(fabs(p.ratio - 1.1) < 1e-12 && p.p == 0 && fabs(p.lo - 1.1) < 1e-12);
	stats_paired_ratio(a3, b3, 1, 0.05, &p);
	assert_true(p.n == 1 && fabs(p.ratio - 1.1) < 1e-12 && p.p == 1);
}

/* One placement at several copies: arm a's two copies 0 and 0.02 in
 * logs, arm b's 0.05 and 0.07, every round alike; their spread pooled,
 * each copy 0.01 off its arm's mean: 4e-4 over 2 degrees of freedom, 2e-4.
 * b over a: exp(0.05), its standard error sqrt(2e-4 (1/2 + 1/2)) =
 * 0.0141421, Student's t for alpha 0.05 with 2 df 4.302653 (the table's
 * 4.303): [exp(-0.0108491), exp(0.1108491)], t 3.5355 between the
 * table's 2.920 (p 0.10) and 4.303 (0.05). On the odd rounds alone the
 * even rounds' values (anything) are not read. */
static void copies_ratio(void **state)
{
	const double a0[] = { 9, 1, 9, 1 }, a1[] = { 9, 1.0202013400267558, 9, 1.0202013400267558 };
	const double b0[] = { 9, 1.0512710963760241, 9, 1.0512710963760241 };
	const double b1[] = { 9, 1.0725081812542165, 9, 1.0725081812542165 };
	const double *ra[] = { a0, a1 }, *rb[] = { b0, b1 };
	struct copies arm[2] = { { ra, 2 }, { rb, 2 } };
	struct copies_spread s;
	struct paired p;

	(void)state;
	s.var = stats_copies_variance(arm, 2, 4, true, &s.df);
	assert_true(fabs(s.var - 2e-4) < 1e-12 && s.df == 2);
	stats_copies_ratio(&arm[0], &arm[1], 4, true, &s, 0.05, &p);
	assert_int_equal(p.n, 2);
	assert_true(fabs(p.ratio - exp(0.05)) < 1e-12);
	assert_true(fabs(log(p.lo) + 0.0108491) < 1e-6 && fabs(log(p.hi) - 0.1108491) < 1e-6);
	assert_true(p.p > 0.05 && p.p < 0.10);
	/* every round: the even rounds' 9 in each copy's mean too */
	s.var = stats_copies_variance(arm, 2, 4, false, &s.df);
	assert_true(fabs(s.var - 2e-4 / 4) < 1e-12 && s.df == 2);
	/* one copy each: no spread to judge by, the ratio alone */
	arm[0].k = arm[1].k = 1;
	s.var = stats_copies_variance(arm, 2, 4, true, &s.df);
	assert_true(s.var == 0 && s.df == 0);
	stats_copies_ratio(&arm[0], &arm[1], 4, true, &s, 0.05, &p);
	assert_true(fabs(p.ratio - exp(0.05)) < 1e-12 && p.lo == p.ratio && p.p == 1);
}

/* place's slow marks: the reference chosen on the even rounds (arm 0,
 * median 1.00 there; arm 2's is 1.005), each arm tested on the odd ones
 * with the noise of all three pooled: the residual variance of the odd
 * rounds' logs under arm and round effects, 1.22385e-4 with 6 degrees of
 * freedom. Worked in Python (t by numerical integration): arm 1's mean
 * log ratio gives 1.1074690 [1.0820469, 1.1334885] at the Bonferroni
 * level 0.05 / 2, p 1.24833e-5, Holm-adjusted 2.49667e-5; arm 2's
 * 0.9999245 [0.9769710, 1.0234172], p 0.992611. */
static void placement_marks(void **state)
{
	static const double v0[] = { 1.00, 1.02, 0.99, 1.01, 1.00, 0.98, 1.01, 1.00 };
	static const double f1[] = { 1.10, 1.11, 1.09, 1.10, 1.10, 1.12, 1.08, 1.10 };
	static const double f2[] = { 1.00, 1.01, 0.99, 1.00, 1.02, 0.98, 1.00, 1.01 };
	double v1[8], v2[8];
	const double *v[3] = { v0, v1, v2 };
	struct placement_mark m[3];

	(void)state;
	for (int r = 0; r < 8; r++)
		v1[r] = v0[r] * f1[r], v2[r] = v0[r] * f2[r];
	assert_int_equal(stats_placement_marks(v, 3, 8, false, 0.05, 0.02, m), 0);
	assert_true(m[0].reference && !m[0].slow && m[0].fast && m[0].n == 0);
	assert_true(fabs(m[1].ratio - 1.1074690) < 1e-6 && fabs(m[1].lo - 1.0820469) < 1e-6 &&
		    fabs(m[1].hi - 1.1334885) < 1e-6);
	assert_true(fabs(m[1].p - 2.49667e-5) < 1e-9 && m[1].n == 4 && m[1].slow && !m[1].fast);
	assert_true(fabs(m[2].ratio - 0.9999245) < 1e-6 && fabs(m[2].lo - 0.9769710) < 1e-6 &&
		    fabs(m[2].hi - 1.0234172) < 1e-6);
	assert_true(fabs(m[2].p - 0.992611) < 1e-5 && !m[2].slow && !m[2].fast);
	/* under 4 rounds nothing is tested: ratios of medians, no mark */
	assert_int_equal(stats_placement_marks(v, 3, 3, false, 0.05, 0.02, m), 0);
	assert_true(!m[1].slow && m[1].n == 0 && m[1].p == 1 && fabs(m[1].ratio - 1.1) < 0.02);
	/* rates (higher is better): the same data upside down, the same marks */
	for (int r = 0; r < 8; r++)
		v1[r] = 1 / v1[r], v2[r] = 1 / v2[r];
	double w0[8];
	const double *w[3] = { w0, v1, v2 };

	for (int r = 0; r < 8; r++)
		w0[r] = 1 / v0[r];
	assert_int_equal(stats_placement_marks(w, 3, 8, true, 0.05, 0.02, m), 0);
	assert_true(fabs(m[1].ratio - 1.1074690) < 1e-6 && m[1].slow);
}

/* An unchanged program: 65 placements, 10 rounds, every run the same
 * program with 2% noise of its own and a drift each round shares (a
 * loaded machine), 400 experiments of a fixed seed. Chosen after the fact
 * on every round and tested unadjusted against that best (the old mark)
 * many calm placements are marked; chosen on the even rounds, tested on
 * the odd and adjusted, at most 5% of experiments mark any. */
static double gauss(uint64_t *s)
{
	double u = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double w = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * w);
}

static void placement_marks_by_chance(void **state)
{
	enum { ARMS = 65, ROUNDS = 10, RUNS = 400 };
	static double v[ARMS][ROUNDS];
	const double *p[ARMS];
	struct placement_mark m[ARMS];
	uint64_t s = 36;
	size_t marked = 0, any = 0, naive = 0;

	(void)state;
	for (int i = 0; i < ARMS; i++)
		p[i] = v[i];
	for (int x = 0; x < RUNS; x++) {
		size_t k = 0, best = 0;

		for (int r = 0; r < ROUNDS; r++) {
			double drift = 0.03 * gauss(&s);

			for (int i = 0; i < ARMS; i++)
				v[i][r] = exp(drift + 0.02 * gauss(&s));
		}
		stats_placement_marks(p, ARMS, ROUNDS, false, 0.05, 0.0, m);
		for (int i = 0; i < ARMS; i++)
			k += m[i].slow;
		marked += k, any += k > 0;
		/* the old way: the best median of all rounds, each arm paired
		 * against it, unadjusted */
		double bm = 1e9;

		for (int i = 0; i < ARMS; i++) {
			double c[ROUNDS];

			memcpy(c, v[i], sizeof c);
			if (stats_median_select(c, ROUNDS) < bm)
				bm = stats_median_select(c, ROUNDS), best = (size_t)i;
		}
		for (int i = 0; i < ARMS; i++) {
			struct paired pr;

			stats_paired_ratio(v[best], v[i], ROUNDS, 0.05, &pr);
			naive += (size_t)i != best && pr.p < 0.05 && pr.ratio > 1;
		}
	}
	print_message("unchanged program: %zu of %d placements marked (%zu experiments of %d "
		      "marked any); after the fact, unadjusted: %zu\n", marked, ARMS * RUNS, any,
		      RUNS, naive);
	assert_true(any <= RUNS / 20);
	assert_true(marked <= (size_t)(ARMS * RUNS) / 100);
	assert_true(naive > (size_t)(ARMS * RUNS) / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(medians),
		cmocka_unit_test(median_by_selection),
		cmocka_unit_test(mean95),
		cmocka_unit_test(spread),
		cmocka_unit_test(bootstrap),
		cmocka_unit_test(mann_whitney_exact),
		cmocka_unit_test(mann_whitney_ties),
		cmocka_unit_test(mann_whitney_degenerate),
		cmocka_unit_test(t_distribution),
		cmocka_unit_test(welch),
		cmocka_unit_test(runs_verdict),
		cmocka_unit_test(statistic_of_runs),
		cmocka_unit_test(changes),
		cmocka_unit_test(t_critical),
		cmocka_unit_test(floors),
		cmocka_unit_test(quantile_test),
		cmocka_unit_test(runs_verdict_between_invocations),
		cmocka_unit_test(units_needed),
		cmocka_unit_test(floor_marks),
		cmocka_unit_test(floor_marks_need_both_halves),
		cmocka_unit_test(paired_ratios),
		cmocka_unit_test(copies_ratio),
		cmocka_unit_test(placement_marks),
		cmocka_unit_test(placement_marks_by_chance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
