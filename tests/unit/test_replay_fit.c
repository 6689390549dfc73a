/* place --replay's fit (measure/replay.c): the fixed cost of a replay
 * and its cycles an iteration, from the longer half of the snapshots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "measure/experiment.h"
#include "measure/replay.h"

#define N 40

/* 40 complete snapshots of 10, 20, ..., 400 iterations; copy 0 at 50 +
 * 2 ticks an iteration, copy 1 at 30 + 1 an iteration, and 20 more in
 * each replay shorter than 200 iterations (a start that is not the
 * loop's steady state). Their median, 205: the 20 of 210..400 make the
 * lines, exactly 50 + 2 it and 30 + 1 it, each copy's own fixed cost
 * (one for both, 40, would have read copy 0 at 2 + 10/305 and copy 1 at
 * 1 - 10/305), and every round 2 and 1 ticks an iteration. Over all 40,
 * copy 1's short replays would raise its rate. */
static void longer_half(void **state)
{
	struct replay_data r = { .ncopies = 2, .arm = { 0, 1 } };
	struct place_experiment *x = calloc(1, sizeof *x);
	struct replay_snapshot s[N];
	int64_t c[2 * N];

	(void)state;
	for (int i = 0; i < N; i++) {
		uint64_t it = 10 * (uint64_t)(i + 1);

		s[i] = (struct replay_snapshot){ .iterations = it, .complete = true };
		c[2 * i] = 50 + 2 * (int64_t)it;
		c[2 * i + 1] = 30 + (int64_t)it + (it < 200 ? 20 : 0);
	}
	r.s = s, r.c = c, r.ns = N;
	x->replay = &r, x->narms = 2;
	replay_fit(x);
	assert_int_equal(r.iter_floor, 205);
	assert_int_equal(r.used, 20);
	assert_int_equal(r.iter_min, 10);
	assert_int_equal(r.iter_max, 400);
	assert_true(r.fixed_known);
	assert_true(fabs(r.fixed[0] - 50) < 1e-9 && fabs(r.fixed[1] - 30) < 1e-9);
	assert_true(x->rounds > 1 && x->arm[0].n == x->rounds && x->arm[1].n == x->rounds);
	for (size_t k = 0; k < x->arm[0].n; k++) {
		assert_true(fabs(x->arm[0].v[k] - 2) < 1e-9);
		assert_true(fabs(x->arm[1].v[k] - 1) < 1e-9);
	}
	for (int i = 0; i < N; i++)
		assert_false(s[i].disturbed);
	free(x->arm[0].v), free(x->arm[1].v), free(r.copy_v);
	free(x);
}

/* Two arms at two copies each (copies 0 and 2 arm 0's, 1 and 3 arm 1's,
 * as the plan lays them: arm by arm, then again), 8 snapshots of 10
 * iterations: copies at 2, 1, 8 and 1 ticks an iteration. Arm 0's rounds
 * are its copies' geometric mean, 4; arm 1's 1. The copies spread by
 * ln 2 either side of arm 0's mean and not at all in arm 1's: a variance
 * of (ln 2)^2 over 2 degrees of freedom. Arm 1 over arm 0: 0.25, judged
 * against that spread (t for 2 df: 4.302653), not the rounds'. */
static void copies(void **state)
{
	struct replay_data r = { .ncopies = 4, .arm = { 0, 1, 0, 1 }, .copies = 2 };
	struct place_experiment *x = calloc(1, sizeof *x);
	struct replay_snapshot s[8];
	int64_t c[4 * 8];
	const double *rows[4];
	struct copies_spread sp;
	struct paired p;
	double se = sqrt(log(2) * log(2) * (0.5 + 0.5));

	(void)state;
	for (int i = 0; i < 8; i++) {
		s[i] = (struct replay_snapshot){ .iterations = 10, .complete = true };
		c[4 * i] = 20, c[4 * i + 1] = 10, c[4 * i + 2] = 80, c[4 * i + 3] = 10;
	}
	r.s = s, r.c = c, r.ns = 8;
	x->replay = &r, x->narms = 2, x->alpha = 0.05;
	replay_fit(x);
	assert_true(x->rounds > 1 && x->arm[0].n == x->rounds && x->arm[1].n == x->rounds);
	for (size_t k = 0; k < x->rounds; k++)
		assert_true(fabs(x->arm[0].v[k] - 4) < 1e-9 && fabs(x->arm[1].v[k] - 1) < 1e-9);
	assert_int_equal(replay_arm_copies(&r, 0, rows), 2);
	assert_true(fabs(rows[0][0] - 2) < 1e-9 && fabs(rows[1][x->rounds - 1] - 8) < 1e-9);
	replay_spread(x, false, &sp);
	assert_true(fabs(sp.var - log(2) * log(2)) < 1e-12 && sp.df == 2);
	replay_ratio(x, &x->arm[0], &x->arm[1], false, &p);
	assert_true(fabs(p.ratio - 0.25) < 1e-12);
	assert_true(fabs(log(p.lo) - (log(0.25) - 4.302653 * se)) < 1e-5);
	assert_true(fabs(log(p.hi) - (log(0.25) + 4.302653 * se)) < 1e-5);
	free(x->arm[0].v), free(x->arm[1].v), free(r.copy_v);
	free(x);
}

/* Iterations that do not vary: every snapshot, no fixed cost fitted. */
static void alike(void **state)
{
	struct replay_data r = { .ncopies = 1, .arm = { 0 } };
	struct place_experiment *x = calloc(1, sizeof *x);
	struct replay_snapshot s[8];
	int64_t c[8];

	(void)state;
	for (int i = 0; i < 8; i++)
		s[i] = (struct replay_snapshot){ .iterations = 1, .complete = true }, c[i] = 90;
	r.s = s, r.c = c, r.ns = 8;
	x->replay = &r, x->narms = 1;
	replay_fit(x);
	assert_int_equal(r.iter_floor, 0);
	assert_int_equal(r.used, 8);
	assert_false(r.fixed_known);
	assert_true(x->arm[0].n > 0 && fabs(x->arm[0].v[0] - 90) < 1e-9);
	free(x->arm[0].v), free(r.copy_v);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(longer_half),
		cmocka_unit_test(alike),
		cmocka_unit_test(copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
