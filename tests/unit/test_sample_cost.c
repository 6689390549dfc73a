/* The rate record chooses (measure/sample_cost.c): the highest of the
 * ladder 4000..10 Hz whose cost, rate x one sample's cost, is within the
 * budget, at most the kernel's perf_event_max_sample_rate. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "measure/measure.h"

/* Each rung's edge: at 2%, 4000 Hz allows 5000 ns a sample, 2000 Hz
 * 10000 ns, 1000 Hz 20000, 500 Hz 40000, 250 Hz 80000, 100 Hz 200000,
 * 50 Hz 400000, 25 Hz 800000, 10 Hz 2000000. */
static void ladder_edges(void **state)
{
	static const struct { double ns; unsigned hz; } cases[] = {
		{ 0, 4000 }, { 1500, 4000 }, { 5000, 4000 }, { 5001, 2000 },
		{ 10000, 2000 }, { 10001, 1000 }, { 20000, 1000 }, { 20001, 500 },
		{ 40000, 500 }, { 40001, 250 }, { 44000, 250 }, { 80000, 250 },
		{ 80001, 100 }, { 200000, 100 }, { 200001, 50 }, { 400000, 50 },
		{ 400001, 25 }, { 800000, 25 }, { 800001, 10 }, { 2000000, 10 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(default_rate(cases[i].ns, 0.02, 100000), cases[i].hz);
}

/* Nothing fits: the lowest rung, whatever it costs. */
static void none_fits(void **state)
{
	assert_int_equal(default_rate(2000001, 0.02, 100000), 10);
	assert_int_equal(default_rate(1e9, 0.02, 100000), 10);
}

/* Another budget moves every edge: at 1%, 44 us a sample is 100 Hz. */
static void budget(void **state)
{
	assert_int_equal(default_rate(44000, 0.01, 100000), 100);
	assert_int_equal(default_rate(2500, 0.01, 100000), 4000);
	assert_int_equal(default_rate(2501, 0.01, 100000), 2000);
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
		cmocka_unit_test(ladder_edges),
		cmocka_unit_test(none_fits),
		cmocka_unit_test(budget),
		cmocka_unit_test(kernel_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
