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
 * lines, exactly 50 + 2 it and 30 + 1 it, and every round 2 and 1 ticks
 * an iteration. Over all 40, copy 1's short replays would raise its
 * rate. */
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
	free(x->arm[0].v), free(x->arm[1].v);
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
	free(x->arm[0].v);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(longer_half),
		cmocka_unit_test(alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
