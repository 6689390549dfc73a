/* straddle ab's statistics and verdicts on synthetic samples, every
 * number worked out by hand: the layouts' band with the runs' noise taken
 * out, the band of two builds together, each verdict and its reason; and
 * compare's rules for two single invocations against a host's kept band
 * (no overlap, the invocations a side a change needs). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "measure/ab.h"

#define N(v) (sizeof(v) / sizeof((v)[0]))
#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-4)

/* Four of ten random layouts 10% slower than the control, no noise:
 * d = ln 1.1 four times, 0 six times; mean 0.4 ln 1.1 = 0.038124, sd
 * sqrt(2.4 / 9) ln 1.1 = 0.049218; the band exp(mean -+ 1.959964 sd). */
static void band_of_layouts(void **state)
{
	double r[] = { 110, 100, 110, 100, 100, 110, 100, 100, 110, 100 };
	double c[] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	struct layout_band b;

	stats_layout_band(r, c, N(r), 0, &b);
	assert_int_equal(b.n, 10);
	NEAR(b.center, 0.038124);
	NEAR(b.observed_sd, 0.049218);
	NEAR(b.layout_sd, 0.049218);
	NEAR(b.lo, 0.943327);
	NEAR(b.hi, 1.144069);
	NEAR(b.seen_lo, 1.0);
	NEAR(b.seen_hi, 1.1);
}

/* The runs' noise comes off the spread: all of it, and then some (the
 * band is its centre alone, never a negative variance), or a part:
 * sqrt(0.049218^2 - 0.03^2) = 0.039018. */
static void band_without_noise(void **state)
{
	double r[] = { 110, 100, 110, 100, 100, 110, 100, 100, 110, 100 };
	double c[] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	struct layout_band b;

	stats_layout_band(r, c, N(r), 0.049218 * 0.049218, &b);
	assert_true(b.layout_sd < 1e-3);
	NEAR(b.lo, exp(0.038124));
	stats_layout_band(r, c, N(r), 1, &b);
	assert_true(b.layout_sd == 0);
	NEAR(b.hi, exp(0.038124));
	NEAR(b.noise_sd, 1);
	stats_layout_band(r, c, N(r), 0.03 * 0.03, &b);
	NEAR(b.layout_sd, 0.039018);
	NEAR(b.hi, exp(0.038124 + 1.959964 * 0.039018));
}

/* Pairs pooled by their degrees of freedom, each about its own mean: a
 * pair that only shifts (every round 1.2) adds no variance, only df. */
static void log_ratio_variance(void **state)
{
	double a0[] = { 1, 1, 1 }, b0[] = { 1, 2, 4 };     /* ln: 0, ln 2, 2 ln 2 */
	double a1[] = { 1, 2, 3 }, b1[] = { 1.2, 2.4, 3.6 };
	const double *a[] = { a0, a1 }, *b[] = { b0, b1 };
	size_t df;
	double v = stats_log_ratio_var(a, b, 2, 3, &df);

	/* pair 0: sum of squares 2 (ln 2)^2; pair 1: 0; df 2 + 2 */
	assert_int_equal(df, 4);
	NEAR(v, 2 * log(2) * log(2) / 4);
	v = stats_log_ratio_var(a, b, 1, 1, &df);
	assert_int_equal(df, 0);
	assert_true(v == 0);
}

static struct paired pr(double ratio, double lo, double hi, double p)
{
	return (struct paired){ ratio, lo, hi, p, 10 };
}

static struct layout_band band(double lo, double hi)
{
	return (struct layout_band){ .n = 10, .lo = lo, .hi = hi };
}

static struct ab_judgement judged(struct paired change)
{
	return (struct ab_judgement){ .change = change, .alpha = 0.05, .material = 0.02 };
}

static void verdict_of(struct ab_judgement *j, enum ab_verdict v, enum ab_reason r)
{
	ab_judge(j);
	assert_int_equal(j->verdict, v);
	assert_int_equal(j->reason, r);
}

/* No change: an A/A within --material; a CI too wide to say; a
 * significant change below --material. Nothing else is looked at. */
static void verdict_none(void **state)
{
	struct ab_judgement j = judged(pr(1.001, 0.99, 1.012, 0.8));

	j.band[0] = band(0.5, 0.6);     /* a band that would hold nothing */
	verdict_of(&j, AB_NONE, AB_NO_CHANGE);
	j = judged(pr(1.01, 0.96, 1.06, 0.5));
	verdict_of(&j, AB_INCONCLUSIVE, AB_TOO_NOISY);
	j = judged(pr(1.01, 1.005, 1.015, 0.001));
	verdict_of(&j, AB_NONE, AB_BELOW_MATERIAL);
	assert_string_equal(ab_verdict_name(AB_NONE), "none");
}

/* Against the band: beyond it real, reaching into it inconclusive. */
static void verdict_by_band(void **state)
{
	struct ab_judgement j = judged(pr(1.05, 1.04, 1.06, 1e-5));

	j.band[0] = band(0.99, 1.011);
	verdict_of(&j, AB_REAL, AB_BEYOND_LAYOUT);
	assert_true(j.has_band);
	NEAR(j.lo, 0.99);
	NEAR(j.hi, 1.011);
	j.band[0] = band(0.97, 1.045);
	verdict_of(&j, AB_INCONCLUSIVE, AB_WITHIN_LAYOUT);
	/* faster than every layout of A: real too */
	j = judged(pr(0.9, 0.88, 0.92, 1e-6));
	j.band[0] = band(0.97, 1.045);
	verdict_of(&j, AB_REAL, AB_BEYOND_LAYOUT);
	assert_string_equal(ab_reason_text(AB_BEYOND_LAYOUT), "beyond layout noise");
}

/* B's band is of A over B: inverted, it joins A's. A's layout is among
 * the fast ones (A's band 0.99..1.01), B's among the slow (its layouts
 * run 15% faster than it): from B's side, B +10% is a layout. */
static void verdict_by_both_bands(void **state)
{
	struct ab_judgement j = judged(pr(1.10, 1.08, 1.12, 1e-6));

	j.band[0] = band(0.99, 1.01);
	verdict_of(&j, AB_REAL, AB_BEYOND_LAYOUT);
	j.band[1] = band(0.85, 1.01);
	verdict_of(&j, AB_INCONCLUSIVE, AB_WITHIN_LAYOUT);
	NEAR(j.lo, 1 / 1.01);
	NEAR(j.hi, 1 / 0.85);
	/* B's alone */
	j.band[0] = (struct layout_band){ 0 };
	verdict_of(&j, AB_INCONCLUSIVE, AB_WITHIN_LAYOUT);
	NEAR(j.lo, 1 / 1.01);
	/* too few rounds for a band: none */
	j.band[1].n = AB_BAND_MIN_ROUNDS - 1;
	verdict_of(&j, AB_INCONCLUSIVE, AB_NO_LAYOUT);
	assert_false(j.has_band);
}

/* Aligned, the change stays (real), shrinks within --material or goes
 * away significantly (layout), or says nothing (the band decides). */
static void verdict_by_alignment(void **state)
{
	struct ab_judgement j = judged(pr(1.08, 1.06, 1.10, 1e-6));

	j.band[0] = band(0.9, 1.2);     /* within it, were it asked */
	j.aligned = pr(1.075, 1.06, 1.09, 1e-5);
	verdict_of(&j, AB_REAL, AB_SURVIVES_ALIGNED);
	j.aligned = pr(1.002, 0.995, 1.009, 0.5);
	verdict_of(&j, AB_LAYOUT, AB_VANISHES_ALIGNED);
	/* too noisy to be within --material, but significantly smaller */
	j.aligned = pr(1.01, 0.97, 1.05, 0.6);
	j.shrink = pr(1.07, 1.03, 1.11, 0.001);
	verdict_of(&j, AB_LAYOUT, AB_VANISHES_ALIGNED);
	/* ... not significantly smaller: the band's word */
	j.shrink = pr(1.07, 0.99, 1.15, 0.09);
	verdict_of(&j, AB_INCONCLUSIVE, AB_WITHIN_LAYOUT);
	/* and with no band, alignment's (none) */
	j.band[0] = (struct layout_band){ 0 };
	verdict_of(&j, AB_INCONCLUSIVE, AB_ALIGNED_UNCLEAR);
	/* the other way round once aligned is no survival */
	j.aligned = pr(0.95, 0.94, 0.96, 1e-4);
	j.shrink = pr(1.137, 1.12, 1.15, 1e-6);
	verdict_of(&j, AB_INCONCLUSIVE, AB_ALIGNED_UNCLEAR);
}

/* The d2 constants: the expected range of n normal samples in sd. */
static void sd_of_a_range(void **state)
{
	NEAR(stats_sd_of_range(11.28, 2), 10);
	NEAR(stats_sd_of_range(2.326, 5), 1);
	NEAR(stats_sd_of_range(3.078, 40), 1);
	assert_true(isnan(stats_sd_of_range(1, 1)));
}

/* Two single invocations against a host's kept band of 5% (5 A/A
 * invocations): runs apart, a regression; runs that overlap, though the
 * change stands out of both ranges and p is small, none; the same runs
 * against a band measured beside them (--drift), a regression. The
 * invocations a side that resolve 2% at that band: its sd 5 / 2.326 =
 * 2.1496%, 2 ((1.959964 + 0.841621) 2.1496 / 2)^2 = 18.13: 19. */
static void single_invocations_against_a_kept_band(void **state)
{
	double base[] = { 10, 10.2, 9.9 }, new[] = { 12, 12.1, 11.9 };
	double obase[] = { 10, 10, 10, 10, 11 }, onew[] = { 10.9, 12.5, 12.5, 12.5, 12.5 };
	struct compare_opts o = { .lower_is_better = true, .alpha = 0.05, .threshold = 0.02,
				  .drift_pct = 5, .drift_from_host = true, .drift_invocations = 5 };
	struct comparison c;

	stats_compare_runs(base, 3, new, 3, &o, &c);
	assert_true(c.disjoint);
	assert_true(c.regression);
	assert_int_equal(c.invocations_needed, 19);
	stats_compare_runs(obase, 5, onew, 5, &o, &c);
	assert_true(c.significant);
	assert_false(c.disjoint);
	assert_false(c.regression);
	o.drift_from_host = false;
	stats_compare_runs(obase, 5, onew, 5, &o, &c);
	assert_true(c.regression);
	/* no drift known: nothing to count invocations by */
	o.drift_pct = NAN, o.one_invocation = true;
	stats_compare_runs(base, 3, new, 3, &o, &c);
	assert_int_equal(c.invocations_needed, 0);
	assert_false(c.regression);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(band_of_layouts),
		cmocka_unit_test(band_without_noise),
		cmocka_unit_test(log_ratio_variance),
		cmocka_unit_test(verdict_none),
		cmocka_unit_test(verdict_by_band),
		cmocka_unit_test(verdict_by_both_bands),
		cmocka_unit_test(verdict_by_alignment),
		cmocka_unit_test(sd_of_a_range),
		cmocka_unit_test(single_invocations_against_a_kept_band),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
