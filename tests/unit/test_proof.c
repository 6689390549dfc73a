/* straddle prove's judgement: a program's measured change turned into its
 * loop's slowdown through the loop's share, and the verdicts of model and
 * measurement. Values worked by hand below each case. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/proof.h"
#include "model/profile.h"
#include "model/scan.h"

static struct loop_proof judged(double share, double predicted, double ratio, double lo,
				double hi, double p)
{
	struct loop_proof x = { .share = share, .predicted = predicted, .material = 0.03,
		.alpha = 0.05, .program = { .ratio = ratio, .lo = lo, .hi = hi, .p = p, .n = 30 } };

	proof_judge(&x);
	return x;
}

/* seed 000's loop: 92% of the samples; the program 4.4% faster at the
 * best: R = 1 / (1 - 0.044 / 0.92) = 1.0502; the CI's ends give
 * 1 / (1 - 0.022 / 0.92) = 1.0245 and 1 / (1 - 0.066 / 0.92) = 1.0773 */
static void a_loop_that_may_cost(void **state)
{
	struct loop_proof x = judged(0.92, 1.05, 0.956, 0.934, 0.978, 0.001);

	(void)state;
	assert_true(fabs(x.loop - 1.0502) < 1e-4);
	assert_true(fabs(x.loop_lo - 1.0245) < 1e-4);
	assert_true(fabs(x.loop_hi - 1.0773) < 1e-4);
	assert_int_equal(x.said, PROOF_COSTS);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);   /* 1.0245 < 1.03 */
}

/* the CI clear of 1.03: costs, and the model agrees */
static void a_loop_that_costs(void **state)
{
	struct loop_proof x = judged(0.92, 1.05, 0.945, 0.940, 0.950, 1e-6);

	(void)state;
	assert_true(fabs(x.loop_lo - 1 / (1 - 0.05 / 0.92)) < 1e-9);
	assert_int_equal(x.seen, PROOF_COSTS);
	assert_int_equal(x.said, PROOF_COSTS);
}

/* half the samples, the program unchanged within [-0.8%, +0.8%]: R within
 * [1 / (1 + 0.016), 1 / (1 - 0.016)] = [0.984, 1.016], below 1.03 */
static void a_loop_that_costs_nothing(void **state)
{
	struct loop_proof x = judged(0.5, 1.0, 1.0, 0.992, 1.008, 0.9);

	(void)state;
	assert_true(fabs(x.loop - 1) < 1e-12);
	assert_true(fabs(x.loop_hi - 1 / (1 - 0.016)) < 1e-9);
	assert_int_equal(x.seen, PROOF_NOTHING);
	assert_int_equal(x.said, PROOF_NOTHING);
}

/* a significant change below the loop's material slowdown is still nothing
 * for the loop; a small share makes the same program CI inconclusive */
static void share_decides_what_can_be_seen(void **state)
{
	struct loop_proof x = judged(0.05, 1.0, 1.0, 0.992, 1.008, 0.9);

	(void)state;
	/* 1 / (1 - 0.008 / 0.05) = 1.1905 */
	assert_true(fabs(x.loop_hi - 1.1905) < 1e-4);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
}

/* the program saved more than the loop's whole share: not the loop's */
static void more_than_the_share(void **state)
{
	struct loop_proof x = judged(0.05, 1.2, 0.90, 0.88, 0.92, 1e-9);

	(void)state;
	assert_true(isinf(x.loop));
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
	assert_int_equal(x.said, PROOF_COSTS);
}

/* coreutils' expand (all its samples in one loop): moved to the model's
 * best it ran 4.1% slower, R = 1 / (1 + 0.041) = 0.9606: no rule says so */
static void slower_at_best(void **state)
{
	struct loop_proof x = judged(1.0, 1.0, 1.041, 1.033, 1.050, 1e-6);

	(void)state;
	assert_true(fabs(x.loop - 1 / 1.041) < 1e-9);
	assert_int_equal(x.seen, PROOF_SLOWER_AT_BEST);
	assert_int_equal(x.said, PROOF_NOTHING);
	assert_string_equal(proof_verdict_name(x.seen), "slower at best");
}

/* a CI reaching below 1 - material is not "nothing" */
static void nothing_needs_both_ends(void **state)
{
	struct loop_proof x = judged(1.0, 1.0, 1.01, 0.995, 1.035, 0.3);

	(void)state;
	assert_true(x.loop_lo < 0.97);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
}

/* fold's record: 29 of its 34 samples in one loop; Wilson's interval
 * (computed by hand: centre 0.8171, half-width 0.1184) */
static void a_share_of_few_samples(void **state)
{
	double lo, hi;

	(void)state;
	stats_share_ci(29, 34, &lo, &hi);
	assert_true(fabs(lo - 0.69867) < 1e-4);
	assert_true(fabs(hi - 0.93550) < 1e-4);
	stats_share_ci(0, 10, &lo, &hi);
	assert_true(lo == 0 && hi > 0.27 && hi < 0.28);
}

/* a share known to [0.5, 0.9] widens R's interval to its corners:
 * 1 / (1 - 0.02 / 0.9) = 1.0227 and 1 / (1 - 0.04 / 0.5) = 1.0870 */
static void the_share_widens_the_loop(void **state)
{
	struct loop_proof x = { .share = 0.7, .share_lo = 0.5, .share_hi = 0.9, .predicted = 1.05,
		.material = 0.03, .alpha = 0.05,
		.program = { .ratio = 0.97, .lo = 0.96, .hi = 0.98, .p = 1e-4, .n = 30 } };

	(void)state;
	proof_judge(&x);
	assert_true(fabs(x.loop - 1 / (1 - 0.03 / 0.7)) < 1e-9);
	assert_true(fabs(x.loop_lo - 1.0227) < 1e-4);
	assert_true(fabs(x.loop_hi - 1.0870) < 1e-4);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);   /* 1.0227 < 1.03 */
}

/* nothing measured yet: the model's verdict alone */
static void not_measured(void **state)
{
	struct loop_proof x = { .share = 0.3, .predicted = 1.01, .material = 0.03 };

	(void)state;
	proof_judge(&x);
	assert_int_equal(x.said, PROOF_NOTHING);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
	assert_true(isnan(x.loop));
	assert_string_equal(proof_verdict_name(x.seen), "inconclusive");
}

static struct loop_proof with_layout(double ratio, double lo, double hi, double l1, double l2)
{
	struct loop_proof x = { .share = 0.9, .predicted = 1.05, .material = 0.03, .alpha = 0.05,
		.program = { .ratio = ratio, .lo = lo, .hi = hi, .p = 1e-6, .n = 30 },
		.layout = { { .ratio = l1, .n = 30 }, { .ratio = l2, .n = 30 } }, .nlayout = 2 };

	proof_judge(&x);
	return x;
}

/* Controls that did not move the program leave the paired CI as it was:
 * sd 0, the window's change the program's (0.945 [0.940, 0.950]); at a
 * share of 0.9: R = 1 / (1 - 0.055 / 0.9) = 1.0651, lo 1 / (1 - 0.05 / 0.9) */
static void layout_controls_that_stay(void **state)
{
	struct loop_proof x = with_layout(0.945, 0.940, 0.950, 1.0, 1.0);

	(void)state;
	assert_true(x.layout_sd == 0);
	assert_true(fabs(x.window - 0.945) < 1e-12);
	assert_true(fabs(x.loop - 1.065089) < 1e-6);
	assert_true(fabs(x.loop_lo - 1 / (1 - 0.05 / 0.9)) < 1e-9);
	assert_int_equal(x.seen, PROOF_COSTS);
}

/* Controls at 0.99 and 1.01: logs -0.0100503, +0.0099503 and today's 0,
 * mean -0.0000333, sd 0.0100004; the band t(2) 4.3027 * sd * sqrt(4/3) =
 * 0.049685 beside each side of the paired CI, ln 0.95 - ln 0.94 =
 * 0.010582 and ln 0.96 - ln 0.95 = 0.010471, in quadrature: the window's
 * change 0.950032 [0.902976, 0.999516], the loop 1.058784 [1.000538,
 * 1.120830]: no longer clear of 1.03 */
static void layout_noise_widens(void **state)
{
	struct loop_proof x = with_layout(0.95, 0.94, 0.96, 0.99, 1.01);

	(void)state;
	assert_true(fabs(x.layout_sd - 0.0100004) < 1e-7);
	assert_true(fabs(x.window - 0.950032) < 1e-6);
	assert_true(fabs(x.window_lo - 0.902976) < 1e-6);
	assert_true(fabs(x.window_hi - 0.999516) < 1e-6);
	assert_true(fabs(x.loop - 1.058784) < 1e-6);
	assert_true(fabs(x.loop_lo - 1.000538) < 1e-6);
	assert_true(fabs(x.loop_hi - 1.120830) < 1e-6);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
}

/* fold's case: the best 6% slower, and so are both controls, which keep
 * the loop's windows: today's layout is the odd one. The window's change
 * is 1.06 over the controls' mean exp(2 ln 1.06 / 3) = 1.019613 (1.0196),
 * and the controls' sd 0.0336416 makes it inconclusive, not "slower". */
static void today_the_odd_layout(void **state)
{
	struct loop_proof x = with_layout(1.06, 1.05, 1.07, 1.06, 1.06);

	(void)state;
	assert_true(fabs(x.window - 1.06 / exp(2 * log(1.06) / 3)) < 1e-9);
	assert_true(fabs(x.layout_sd - 0.0336416) < 1e-7);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
}

/* A replay's six controls (a child a snapshot each, where the program's
 * time takes a run a round for each of its two): 0.99, 1.01, 0.99, 1.01,
 * 1, 1 and today's 0, in logs mean -0.0000286, sd 0.0081653; the band
 * t(6) 2.446912 * sd * sqrt(8/7) = 0.021359 in quadrature with the paired
 * CI's ln 1.005: the window 1.0000286 [0.978333, 1.022205], at share 1 the
 * loop 0.999971 [0.978277, 1.022147]: nothing. The first two controls
 * alone leave it 0.950-1.05 wide (layout_noise_widens): inconclusive. */
static void six_controls_narrow(void **state)
{
	struct loop_proof x = { .share = 1, .predicted = 1.0, .material = 0.03, .alpha = 0.05,
		.program = { .ratio = 1, .lo = 1 / 1.005, .hi = 1.005, .p = 0.5, .n = 30 },
		.layout = { { .ratio = 0.99, .n = 30 }, { .ratio = 1.01, .n = 30 },
			    { .ratio = 0.99, .n = 30 }, { .ratio = 1.01, .n = 30 },
			    { .ratio = 1, .n = 30 }, { .ratio = 1, .n = 30 } },
		.nlayout = 6 };
	struct loop_trial t = { .nlayout = 6 };

	(void)state;
	assert_int_equal(PROOF_LAYOUT_MAX, 6);
	assert_int_equal(proof_program_layouts(&t), 2);
	t.nlayout = 1;
	assert_int_equal(proof_program_layouts(&t), 1);
	proof_judge(&x);
	assert_true(fabs(x.layout_sd - 0.0081653) < 1e-7);
	assert_true(fabs(x.window - 1.0000286) < 1e-7);
	assert_true(fabs(x.window_lo - 0.978333) < 1e-6);
	assert_true(fabs(x.window_hi - 1.022205) < 1e-6);
	assert_true(fabs(x.loop_lo - 0.978277) < 1e-6);
	assert_true(fabs(x.loop_hi - 1.022147) < 1e-6);
	assert_int_equal(x.seen, PROOF_NOTHING);
	x.nlayout = 2;
	proof_judge(&x);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
}

/* A loop refused for a system call, with an inner loop 14 bytes on
 * (replay.c's outer_loop): the inner loop's trial at the same placements
 * of the function, offsets +14 mod 64; its replay taken as the loop's,
 * the refusal kept. Refused for anything else, or with no inner loop
 * holding half its samples: none. */
static void inner_loop_in_its_stead(void **state)
{
	struct loop_trial t = { .start = 0x15f2, .end = 0x161d, .current = 50, .best = 0,
		.layout = { 63, 62, 61 }, .nlayout = 3, .inner_start = 0x1600, .inner_end = 0x160b,
		.inner_samples = 843 }, in;
	const char *sys = "the loop makes a system call (getppid, 110), which a replay cannot "
			  "repeat without its side effects";

	(void)state;
	snprintf(t.replay_why, sizeof t.replay_why, "%s", sys);
	assert_true(proof_inner_trial(&t, &in));
	assert_true(in.start == 0x1600 && in.end == 0x160b && in.samples == 843);
	assert_int_equal(in.current, 0);
	assert_int_equal(in.best, 14);
	assert_int_equal(in.layout[0], 13);
	assert_int_equal(in.layout[2], 11);
	assert_int_equal(in.nlayout, 3);
	assert_string_equal(in.replay_why, "");
	in.replayed = true, in.snapshots = 95, in.replay.loop = 0.998;
	proof_take_inner(&t, &in);
	assert_true(t.replayed && t.snapshots == 95 && t.replay.loop == 0.998);
	assert_string_equal(t.replay_why, "");
	assert_string_equal(t.inner_why, sys);
	t = (struct loop_trial){ .start = 0x15f2, .inner_start = 0x1600, .inner_samples = 843 };
	snprintf(t.replay_why, sizeof t.replay_why, "an indirect jump at 0x1620 leaves it where no copy can stop it");
	assert_false(proof_inner_trial(&t, &in));
	snprintf(t.replay_why, sizeof t.replay_why, "%s", sys);
	t.inner_samples = 0;
	assert_false(proof_inner_trial(&t, &in));
}

/* sha1sum's loop replayed (doc/prove.md): the best 0.985 [0.976, 0.994]
 * of today's cycles, the controls 0.990, 0.981, 0.977, 0.954 [0.948,
 * 0.960] and 0.931 [0.925, 0.937], each known within +-0.6%. Pooled as
 * the noise of moving a function, their spread leaves the best
 * inconclusive. Judged each (a replay's), the best is nothing: R =
 * 1 / 0.985 = 1.015228, within [1 / 0.994, 1 / 0.976] = [1.006036,
 * 1.024590]; the model's "nothing" agrees there, but today runs 1.048x
 * [1.041667, 1.054852] and 1.074x the loop at 60 and 59, which the model
 * prices as today: two controls missed, the loop conclusive, DISAGREE. */
static void replayed_controls_judged_each(void **state)
{
	struct loop_proof x = { .share = 1, .predicted = 1.0, .material = 0.03, .alpha = 0.05,
		.program = { .ratio = 0.985, .lo = 0.976, .hi = 0.994, .p = 0.001, .n = 20 },
		.layout = { { 0.990, 0.986, 0.994, 0.01, 20 }, { 0.981, 0.977, 0.985, 0.001, 20 },
			    { 0.977, 0.973, 0.981, 0.001, 20 }, { 0.954, 0.948, 0.960, 1e-6, 20 },
			    { 0.931, 0.925, 0.937, 1e-8, 20 } },
		.nlayout = 5 };

	(void)state;
	proof_judge(&x);
	assert_int_equal(x.seen, PROOF_INCONCLUSIVE);
	assert_false(proof_conclusive(&x));
	assert_int_equal(proof_controls_missed(&x), 0);
	x.each_control = true;
	proof_judge(&x);
	assert_int_equal(x.seen, PROOF_NOTHING);
	assert_true(fabs(x.loop - 1 / 0.985) < 1e-12);
	assert_true(fabs(x.loop_lo - 1 / 0.994) < 1e-12 && fabs(x.loop_hi - 1 / 0.976) < 1e-12);
	assert_true(x.layout_sd == 0);
	assert_int_equal(x.control[0].seen, PROOF_NOTHING);
	assert_int_equal(x.control[2].seen, PROOF_NOTHING);
	assert_int_equal(x.control[3].seen, PROOF_COSTS);
	assert_int_equal(x.control[4].seen, PROOF_COSTS);
	assert_true(x.control[3].missed && x.control[4].missed && !x.control[1].missed);
	assert_int_equal(proof_controls_missed(&x), 2);
	assert_true(proof_conclusive(&x));
	assert_false(proof_agrees(&x));
	/* the same controls all within 3%: nothing, and the model agrees */
	x.nlayout = 3;
	proof_judge(&x);
	assert_true(proof_conclusive(&x) && proof_agrees(&x));
	/* a control whose interval holds 1.03 is no miss and no proof */
	x.layout[0] = (struct paired){ 0.975, 0.960, 0.990, 0.01, 20 };
	proof_judge(&x);
	assert_int_equal(x.control[0].seen, PROOF_INCONCLUSIVE);
	assert_true(proof_agrees(&x));
	/* a control slower than today by 5%: missed the other way */
	x.layout[1] = (struct paired){ 1.05, 1.04, 1.06, 1e-6, 20 };
	proof_judge(&x);
	assert_int_equal(x.control[1].seen, PROOF_SLOWER_AT_BEST);
	assert_false(proof_agrees(&x));
}

/* A replay's A/A: a second copy at today's offset. Ten rounds of today's
 * copy at 100 cycles (+-1 alternately) and the best's at 98: the best
 * 0.98 of today's, its paired interval no wider than that. With the A/A
 * at 100.3 (+-1 with today's) its interval is [1.003, 1.003]: two copies
 * 0.3% apart at most, the best widened by ln 1.003 either way, [0.977,
 * 0.983]: nothing at 3%. With the A/A at 105 and 95 alternately (over
 * today's 101 and 99), its interval holds 1 but reaches e^-0.0313949
 * (logs: mean -0.0012016, sd 0.0422073, t(9) 2.2621572 * sd / sqrt(10)
 * = 0.0301933): the best widened to exp(ln 0.98 -+ 0.0313949), R within
 * [0.98887, 1.05295]: inconclusive. At 106 the two copies are 6%
 * apart, surely: the replay is not believed, and says why. */
static void replay_aa(void **state)
{
	double today[10], best[10], aa[10];
	struct proof_arms a = { .control = { today, 10, 1.0, 40 }, .best = { best, 10, 1.0, 0 },
		.aa = { aa, 10, 1.0, 40 } };
	struct loop_trial t = { .current = 40, .best = 0 };

	(void)state;
	t.proof = (struct loop_proof){ .share = 0.5, .predicted = 1.0, .material = 0.03,
		.alpha = 0.05 };
	for (int i = 0; i < 10; i++)
		today[i] = 100 + (i % 2 ? 1 : -1), best[i] = 0.98 * today[i],
		aa[i] = 1.003 * today[i];
	proof_of_replay(&t, &a, 0.03, 0.05);
	assert_true(t.replayed);
	assert_true(fabs(t.replay.aa_band - log(1.003)) < 1e-9);
	assert_true(fabs(t.replay.program.lo - 0.98 / 1.003) < 1e-9);
	assert_int_equal(t.replay.seen, PROOF_NOTHING);
	for (int i = 0; i < 10; i++)
		aa[i] = i % 2 ? 105 : 95;
	proof_of_replay(&t, &a, 0.03, 0.05);
	assert_true(t.replayed);
	assert_true(fabs(t.replay.aa_band - 0.0313949) < 1e-6);
	assert_true(fabs(t.replay.loop_lo - 0.98887) < 1e-5 && fabs(t.replay.loop_hi - 1.05295) < 1e-5);
	assert_int_equal(t.replay.seen, PROOF_INCONCLUSIVE);
	t.replayed = false;
	for (int i = 0; i < 10; i++)
		aa[i] = 1.06 * today[i] + (i % 2 ? 0.1 : -0.1);
	proof_of_replay(&t, &a, 0.03, 0.05);
	assert_false(t.replayed);
	assert_true(fabs(t.replay.aa.ratio - 1.06) < 0.001);
	assert_non_null(strstr(t.replay_why, "its A/A, a second copy at today's offset, ran 1.060x ["));
	assert_non_null(strstr(t.replay_why, "two copies of one placement differ by the material mark"));
	/* one round: no interval */
	a.control.n = a.best.n = a.aa.n = 1;
	t.replay_why[0] = 0;
	proof_of_replay(&t, &a, 0.03, 0.05);
	assert_false(t.replayed);
	assert_string_equal(t.replay_why, "its replay held 1 round of snapshots: no interval to judge by");
}

/* A replay of three copies a placement, four rounds alike: today's
 * copies at 0 and +-0.01 in logs, the best's at ln 0.95 and +-0.01, one
 * control's at 0.005 and +-0.01. The spread pooled: 6e-4 over 6 degrees
 * of freedom, 1e-4; the best over today, 0.95 within t(6) 2.446912 *
 * sqrt(1e-4 (1/3 + 1/3)) = 0.0199789 either way (logs): R 1.05263
 * [1.03181, 1.07388], a cost the model (1.0) did not see. The control,
 * e^0.005 within the same, is no miss. No A/A is asked for. */
static void replay_copies(void **state)
{
	double rows[3][3][4], v[3][4], off[3] = { 0, 0.01, -0.01 }, base[3] = { 0, log(0.95), 0.005 };
	struct proof_arms a = { .control = { v[0], 4, 1.0, 40, rows[0][0], 3 },
		.best = { v[1], 4, 1.0, 0, rows[1][0], 3 }, .layout = { { v[2], 4, 1.0, 20, rows[2][0], 3 } } };
	struct loop_trial t = { .current = 40, .best = 0, .nlayout = 1, .layout = { 20 } };

	(void)state;
	for (int i = 0; i < 3; i++)
		for (int r = 0; r < 4; r++) {
			v[i][r] = exp(base[i]);
			for (int c = 0; c < 3; c++)
				rows[i][c][r] = exp(base[i] + off[c]);
		}
	t.proof = (struct loop_proof){ .share = 0.5, .predicted = 1.0, .material = 0.03,
		.alpha = 0.05 };
	proof_of_replay(&t, &a, 0.03, 0.05);
	assert_true(t.replayed);
	assert_true(t.replay.copies == 3 && t.replay.spread.df == 6);
	assert_true(fabs(t.replay.spread.var - 1e-4) < 1e-12);
	assert_true(t.replay.aa.n == 0 && t.replay.aa_band == 0);
	assert_true(fabs(t.replay.loop - 1 / 0.95) < 1e-9);
	assert_true(fabs(t.replay.loop_lo - 1.03181) < 1e-5 && fabs(t.replay.loop_hi - 1.07388) < 1e-5);
	assert_int_equal(t.replay.seen, PROOF_COSTS);
	assert_int_equal(t.replay.nlayout, 1);
	assert_false(t.replay.control[0].missed);
	assert_false(proof_agrees(&t.replay));
	/* the best at one copy: the rounds paired, as a replay of one copy each */
	a.best.ncopies = 1;
	proof_of_replay(&t, &a, 0.03, 0.05);
	assert_true(t.replayed && t.replay.copies == 0);
}

/* A bound: the scan prices a loop with a call in it at "<=1.056x"
 * (lz4 -9's 0x190b0). Measured 1.000x [0.995, 1.005], "nothing": under
 * the bound, which held; a cost of 1.03x [1.021, 1.04] is under it too;
 * 1.10x [1.08, 1.12] surely above it: DISAGREE. The same numbers as a
 * price: nothing is a DISAGREE. The tally counts the bound apart. */
static void bound_held(void **state)
{
	struct loop_trial t[2] = { 0 };
	struct loop_proof *p = &t[0].proof;
	struct proof_tally c;

	(void)state;
	*p = (struct loop_proof){ .share = 1, .predicted = 1.056, .at_most = true, .material = 0.02,
		.alpha = 0.05, .program = { 1 / 1.000, 1 / 1.005, 1 / 0.995, 1e-9, 20 } };
	proof_judge(p);
	assert_int_equal(p->said, PROOF_COSTS);
	assert_int_equal(p->seen, PROOF_NOTHING);
	assert_true(proof_agrees(p));
	p->program = (struct paired){ 1 / 1.03, 1 / 1.04, 1 / 1.021, 1e-9, 20 };
	proof_judge(p);
	assert_int_equal(p->seen, PROOF_COSTS);
	assert_true(proof_agrees(p));
	p->program = (struct paired){ 1 / 1.10, 1 / 1.12, 1 / 1.08, 1e-9, 20 };
	proof_judge(p);
	assert_int_equal(p->seen, PROOF_COSTS);
	assert_false(proof_agrees(p));
	p->program = (struct paired){ 1 / 1.000, 1 / 1.005, 1 / 0.995, 1e-9, 20 };
	proof_judge(p);
	t[1].proof = *p;
	t[1].proof.at_most = false;
	assert_false(proof_agrees(&t[1].proof));
	c = proof_tally(t, 2);
	assert_true(c.conclusive == 2 && c.agree == 1 && c.bounds == 1 && c.bounds_held == 1);
}

/* The rounds a verdict needs. A loop of 6% the model says costs nothing:
 * the verdict needs the program known within 0.06 * (1 - 1/1.03) =
 * 0.0017476 (log); at a round-to-round sd of 1% that is t^2 sd^2 / h^2
 * rounds, t from 3 df first: 332, then t(331) = 1.96716 gives 127, t(126)
 * = 1.97897 gives 129 (Python, the t by numerical integration). Two
 * layout controls of spread 0.0002 take 4.30265 * 0.0002 * sqrt(4/3) =
 * 0.00099366 of it: 189 rounds; of spread 0.002, more than all of it:
 * none will do. A loop of 90% predicted 1.8x: 2 rounds. */
static void rounds_needed(void **state)
{
	struct loop_proof x = { .share = 0.06, .predicted = 1.0, .material = 0.03, .alpha = 0.05 };
	double need;

	(void)state;
	assert_int_equal(proof_rounds_needed(&x, 0.01, &need), 129);
	assert_true(fabs(need - 0.0017475728) < 1e-9);
	x.nlayout = 2, x.layout_sd = 0.0002;
	assert_int_equal(proof_rounds_needed(&x, 0.01, &need), 189);
	x.layout_sd = 0.002;
	assert_int_equal(proof_rounds_needed(&x, 0.01, &need), 0);
	x = (struct loop_proof){ .share = 0.9, .predicted = 1.8, .material = 0.03, .alpha = 0.05 };
	assert_int_equal(proof_rounds_needed(&x, 0.02, &need), 2);
}

/* The inner loop a refused outer loop is replayed by: of the loops in
 * its span with half its samples, the hottest natural one. An outer loop
 * at 40 of its line, 100 bytes (3 lines; 2 at 0: not at its best), 1000
 * samples; inside it an irreducible cycle of 700 and a natural loop of
 * 600: the natural one, as tac's 0x3180 where its irreducible 0x306f
 * held the outer loop's lseek; counted as a natural loop, the 700. */
static void inner_loop_is_natural(void **state)
{
	struct elf_func fn = { .shown = "scan" };
	struct loop_piece piece[3] = { { 0x1028, 0x108c }, { 0x1040, 0x1070 }, { 0x1050, 0x1068 } };
	struct loop_report loop[3] = {
		{ .start = 0x1028, .end = 0x108c, .piece = 0, .npiece = 1, .samples = 1000 },
		{ .start = 0x1040, .end = 0x1070, .piece = 1, .npiece = 1, .samples = 700,
		  .irreducible = true },
		{ .start = 0x1050, .end = 0x1068, .piece = 2, .npiece = 1, .samples = 600 },
	};
	struct func_report func = { .loop = 0, .nloop = 3 };
	struct scan_result r = { .funcs = { .v = &fn, .n = 1 }, .nprofile = 1, .func = &func,
		.nfunc = 1, .loop = loop, .nloop = 3, .piece = piece, .npiece = 3, .hot = true,
		.file_samples = 1000, .run_samples = 1000 };
	struct proof_candidates all = { 0 };

	(void)state;
	r.profile[0] = profile_named("goldencove");
	assert_non_null(r.profile[0]);
	for (int k = 0; k < 2; k++) {
		proof_add_loops(&all, "/bin/x", &r, 0.05, 0.03, 0.05);
		assert_true(all.n >= 1 && all.v[0].start == 0x1028);
		assert_int_equal(all.v[0].inner_start, k ? 0x1040 : 0x1050);
		assert_int_equal(all.v[0].inner_end, k ? 0x1070 : 0x1068);
		assert_int_equal(all.v[0].inner_samples, k ? 700 : 600);
		proof_candidates_free(&all);
		all = (struct proof_candidates){ 0 };
		loop[1].irreducible = false;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_loop_that_may_cost),
		cmocka_unit_test(a_loop_that_costs),
		cmocka_unit_test(a_loop_that_costs_nothing),
		cmocka_unit_test(share_decides_what_can_be_seen),
		cmocka_unit_test(more_than_the_share),
		cmocka_unit_test(slower_at_best),
		cmocka_unit_test(nothing_needs_both_ends),
		cmocka_unit_test(a_share_of_few_samples),
		cmocka_unit_test(the_share_widens_the_loop),
		cmocka_unit_test(not_measured),
		cmocka_unit_test(layout_controls_that_stay),
		cmocka_unit_test(layout_noise_widens),
		cmocka_unit_test(today_the_odd_layout),
		cmocka_unit_test(six_controls_narrow),
		cmocka_unit_test(replayed_controls_judged_each),
		cmocka_unit_test(replay_aa),
		cmocka_unit_test(replay_copies),
		cmocka_unit_test(bound_held),
		cmocka_unit_test(inner_loop_in_its_stead),
		cmocka_unit_test(inner_loop_is_natural),
		cmocka_unit_test(rounds_needed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
