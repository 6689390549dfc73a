/* Hot code (model/hot.c): histograms folded and summed over spans, the
 * order of --hot rows, a file found by build-id, path or name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/hot.h"

static void merge_and_sum(void **state)
{
	struct sample_hist h = { 0 };
	static const uint64_t keys[] = { 0x40107e, 0x40107a, 0x40107e, 0x4010fa, 0x401083, 0x40107a,
					 0x40107e };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		GROW(h.v, h.cap, h.n + 1);
		h.v[h.n++] = (struct sample_count){ keys[i], 1 };
	}
	sample_hist_merge(&h);
	assert_int_equal(h.n, 4);
	assert_int_equal(h.v[0].key, 0x40107a);
	assert_int_equal(h.v[0].count, 2);
	assert_int_equal(h.v[1].key, 0x40107e);
	assert_int_equal(h.v[1].count, 3);
	/* [start, end): the loop 0x40107a..0x401083 holds 5, not the ret at its end */
	assert_int_equal(sample_hist_sum(&h, 0x40107a, 0x401083), 5);
	assert_int_equal(sample_hist_sum(&h, 0x40107b, 0x401084), 4);
	assert_int_equal(sample_hist_sum(&h, 0x4010fa, 0x4010fb), 1);
	assert_int_equal(sample_hist_sum(&h, 0x500000, 0x600000), 0);
	free(h.v);
}

static void order(void **state)
{
	/* the share first: a low-severity hazard in 90% before a high one in 9% */
	assert_true(hot_order(0.90, 1, 0.09, 3) < 0);
	assert_true(hot_order(0.09, 3, 0.90, 1) > 0);
	/* equal shares: the severity */
	assert_true(hot_order(0.5, 3, 0.5, 2) < 0);
	assert_int_equal(hot_order(0.5, 2, 0.5, 2), 0);
}

static void find(void **state)
{
	struct hot_run h = { 0 };

	hot_run_file(&h, "/usr/lib/libc.so.6");
	snprintf(hot_run_file(&h, "/opt/a/libfoo.so")->build_id, 130, "abcd");
	hot_run_file(&h, "/opt/b/libbar.so");
	hot_run_file(&h, "/opt/c/libbar.so");
	assert_ptr_equal(hot_run_file(&h, "/usr/lib/libc.so.6"), &h.file[0]);
	assert_int_equal(h.nfile, 4);
	/* build-id wins over the path */
	assert_ptr_equal(hot_run_find(&h, "/elsewhere/x.so", "abcd"), &h.file[1]);
	assert_ptr_equal(hot_run_find(&h, "/usr/lib/libc.so.6", NULL), &h.file[0]);
	/* by name when only one file has it */
	assert_ptr_equal(hot_run_find(&h, "/other/machine/libc.so.6", ""), &h.file[0]);
	assert_null(hot_run_find(&h, "/other/libbar.so", ""));
	assert_null(hot_run_find(&h, "/other/libnone.so", ""));
	hot_run_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merge_and_sum),
		cmocka_unit_test(order),
		cmocka_unit_test(find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
