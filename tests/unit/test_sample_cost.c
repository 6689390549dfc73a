/* The rate record chooses (measure/sample_cost.c): the highest of the
 * ladder 4000..10 Hz whose cost, rate x one sample's cost, is within the
 * budget, at most the kernel's perf_event_max_sample_rate. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "measure/sample.h"

/* The slowdown: s / (1 - s) of s = rate x cost; from s = 1, no end. */
static void slowdown(void **state)
{
	assert_true(sampling_slowdown(4000, 0) == 0);
	assert_float_equal(sampling_slowdown(4000, 48000), 0.192 / 0.808, 1e-12);
	assert_float_equal(sampling_slowdown(250, 48000), 0.012 / 0.988, 1e-12);
	assert_float_equal(sampling_slowdown(1000, 500000), 1, 1e-12);
	assert_true(isinf(sampling_slowdown(1000, 1000000)));
	assert_true(isinf(sampling_slowdown(100000, 48000)));
}

/* Each rung's edge: a slowdown of 2% is s = 0.02 / 1.02, so 4000 Hz allows
 * 4901.96 ns a sample, 2000 Hz 9803.9, 1000 Hz 19607.8, 500 Hz 39215.7,
 * 250 Hz 78431.4, 100 Hz 196078.4, 50 Hz 392156.9, 25 Hz 784313.7, 10 Hz
 * 1960784.3. */
static void ladder_edges(void **state)
{
	static const struct { double ns; unsigned hz; } cases[] = {
		{ 0, 4000 }, { 1500, 4000 }, { 4901, 4000 }, { 4902, 2000 },
		{ 9803, 2000 }, { 9804, 1000 }, { 19607, 1000 }, { 19608, 500 },
		{ 39215, 500 }, { 39216, 250 }, { 48000, 250 }, { 78431, 250 },
		{ 78432, 100 }, { 196078, 100 }, { 196079, 50 }, { 392156, 50 },
		{ 392157, 25 }, { 784313, 25 }, { 784314, 10 }, { 1960784, 10 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(default_rate(cases[i].ns, 0.02, 100000), cases[i].hz);
}

/* Nothing fits: the lowest rung, whatever it costs. */
static void none_fits(void **state)
{
	assert_int_equal(default_rate(1960785, 0.02, 100000), 10);
	assert_int_equal(default_rate(1e9, 0.02, 100000), 10);
}

/* Another budget moves every edge: at 1% (s = 1 / 101), 44 us a sample
 * is 100 Hz, and 4000 Hz allows 2475.2 ns. */
static void budget(void **state)
{
	assert_int_equal(default_rate(44000, 0.01, 100000), 100);
	assert_int_equal(default_rate(2475, 0.01, 100000), 4000);
	assert_int_equal(default_rate(2476, 0.01, 100000), 2000);
}

/* The kernel's limit: no rung above it; below the lowest rung, the limit. */
static void kernel_limit(void **state)
{
	assert_int_equal(default_rate(0, 0.02, 3999), 2000);
	assert_int_equal(default_rate(0, 0.02, 4000), 4000);
	assert_int_equal(default_rate(44000, 0.02, 200), 100);
	assert_int_equal(default_rate(0, 0.02, 7), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slowdown),
		cmocka_unit_test(ladder_edges),
		cmocka_unit_test(none_fits),
		cmocka_unit_test(budget),
		cmocka_unit_test(kernel_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
