/* The statistics against values worked out by hand (and, for the U test,
 * against scipy.stats.mannwhitneyu's documented conventions). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

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

static void block_medians(void **state)
{
	double v[23], out[23];

	for (int i = 0; i < 23; i++)
		v[i] = i;
	/* 10 blocks of 2, the last takes the rest: {18,...,22} -> 20 */
	assert_int_equal(stats_block_medians(v, 23, 10, out), 10);
	assert_true(out[0] == 0.5 && out[1] == 2.5 && out[8] == 16.5 && out[9] == 20);
	/* blocks of 1 would be no blocks: the samples themselves */
	assert_int_equal(stats_block_medians(v, 15, 10, out), 15);
	assert_true(out[14] == 14);
	assert_int_equal(stats_block_medians(v, 5, 0, out), 5);
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
		cmocka_unit_test(block_medians),
		cmocka_unit_test(changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
