/* The W^X arena and the sweep engine: no mapping of this process is ever
 * writable and executable at once, before, during or after a sweep. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "measure/sweep.h"

/* Every mapping's permissions; fails the test on one with both w and x,
 * and returns the permissions of the mapping holding `addr`. */
static void check_maps(const void *addr, char perms_out[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	assert_non_null(f);
	strcpy(perms_out, "none");
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char perms[5];

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3)
			continue;
		if (perms[1] == 'w' && perms[2] == 'x')
			fail_msg("writable and executable: %s", line);
		if ((unsigned long)addr >= lo && (unsigned long)addr < hi)
			memcpy(perms_out, perms, 5);
	}
	fclose(f);
}

static void placed_code_is_read_exec(void **state)
{
	const struct kernel *k = kernel_named("clear_movq_imm");
	struct placement p;
	struct err e;
	char perms[5];
	uint8_t buf[64];

	assert_non_null(k);
	assert_int_equal(kernel_place(k, 13, &p, &e), 0);
	assert_int_equal((uintptr_t)p.code % 4096, 13);
	assert_memory_equal(p.code, k->code, k->size);
	/* trap bytes on both sides of the copy */
	assert_int_equal(p.code[-1], 0xcc);
	assert_int_equal(p.code[k->size], 0xcc);
	check_maps(p.code, perms);
	assert_string_equal(perms, "r-xp");
	assert_ptr_equal(arena_find((uintptr_t)p.code + 5), &p);
	assert_null(arena_find((uintptr_t)p.code + k->size));
	/* it runs where it was put: clears and returns 0 */
	memset(buf, 0xff, sizeof buf);
	assert_int_equal(((kernel_clear_fn)(void *)p.code)(buf, 37), 0);
	for (int i = 0; i < 64; i++)
		assert_int_equal(buf[i], i < 37 ? 0 : 0xff);
	arena_free(&p);
	assert_null(arena_find((uintptr_t)p.code + 5));
}

static void sweep_never_maps_wx(void **state)
{
	struct variant v[4] = { { 0 } };
	struct sweep s = { .v = v, .n = 4, .size = 256, .precision = 0.5, .budget_s = 0.2,
			   .min_rounds = 5, .seed = 3, .alpha = 0.05, .material = 0.05 };
	struct err e = { "" };
	char perms[5];

	for (int i = 0; i < 4; i++)
		v[i] = (struct variant){ .k = kernel_named("clear_movq_reg"), .offset = (uint32_t)i * 7 };
	assert_int_equal(sweep_prepare(&s, &e), 0);
	for (int i = 0; i < 4; i++) {
		check_maps(v[i].pl.code, perms);
		assert_string_equal(perms, "r-xp");
		assert_true(v[i].iters >= 1);
	}
	assert_int_equal(sweep_run(&s, &e), 0);
	check_maps(v[0].pl.code, perms);
	assert_string_equal(perms, "r-xp");
	/* every round gave every variant one sample */
	for (int i = 0; i < 4; i++)
		assert_int_equal(v[i].n, s.rounds);
	assert_true(s.rounds >= 1);
	sweep_analyse(&s, profile_named("goldencove"));
	/* the best of a kernel has ratio 1 and is never slow */
	int best = 0;
	for (int i = 0; i < 4; i++)
		best += v[i].ratio == 1.0;
	assert_true(best >= 1);
	for (int i = 0; i < 4; i++)
		if (v[i].ratio == 1.0)
			assert_false(v[i].slow);
	/* each placement's prediction: 10-byte loop at +25, offsets 0, 7, 14, 21
	 * -> starts 25, 32, 39, 46: [25,35) crosses 32 (a 32 B fetch window of
	 * goldencove) but runs from its loop buffer; none crosses a line */
	for (int i = 0; i < 4; i++)
		assert_int_equal(v[i].npredicted, 0);
	sweep_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placed_code_is_read_exec),
		cmocka_unit_test(sweep_never_maps_wx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
