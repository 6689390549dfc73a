/* How a row's fix reads (report/hazard.c): one .p2align for a
 * subject's hazards under several profiles and windows, or each profile's
 * when one has no fix by alignment; the windows and profiles each once;
 * and the fix in the words of the compiler named by DW_AT_producer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "report/report.h"

static const struct profile skl = { .name = "skylake", .branch_rule = BRANCH_RULE_JCC_ERRATUM };
static const struct profile zen = { .name = "zen5" };
static const struct profile gc = { .name = "goldencove" };

/* the largest alignment holds for all; its padding, cleanliness of those
 * with it; a "here" fix only when every hazard has the same one */
static void one_fix_for_all(void **state)
{
	struct hazard a = { .profile = &skl, .window = 16, .fix_align = 8, .fix_pad = 4,
			    .fix_clean = true, .here_align = 4, .here_pad = 0, .here_clean = true };
	struct hazard b = { .profile = &zen, .window = 32, .fix_align = 32, .fix_pad = 20,
			    .fix_clean = true, .here_align = 4, .here_pad = 0, .here_clean = true };
	struct hazard c = { .profile = &gc, .window = 64, .fix_align = 32, .fix_pad = 20,
			    .fix_clean = false };
	const struct hazard *ab[] = { &a, &b }, *abc[] = { &a, &b, &c };
	char buf[256];

	format_fix_all(ab, 2, buf, sizeof buf);
	assert_string_equal(buf, ".p2align 5 (+20 B); .p2align 2 (+0 B) holds only here");
	assert_int_equal(fix_align_all(ab, 2), 32);
	format_fix_all(abc, 3, buf, sizeof buf);
	assert_string_equal(buf, ".p2align 5 (+20 B), adds another");
	format_window_list(abc, 3, buf, sizeof buf);
	assert_string_equal(buf, "16,32,64");
}

/* a hazard no alignment fixes: each profile's own fix, and no one alignment */
static void each_fix_when_none_holds(void **state)
{
	struct hazard a = { .profile = &skl, .window = 32, .fix_align = 16, .fix_pad = 8,
			    .fix_clean = true };
	struct hazard b = { .profile = &zen, .window = 64, .fix_align = 0 };
	const struct hazard *ab[] = { &a, &b };
	char buf[256];

	format_fix_all(ab, 2, buf, sizeof buf);
	assert_string_equal(buf, "skylake@32: .p2align 4 (+8 B); zen5@64: none by alignment");
	assert_int_equal(fix_align_all(ab, 2), 0);

	/* none fixable, alike: said once */
	struct hazard c = { .profile = &skl, .window = 16 }, d = { .profile = &zen, .window = 16 };
	const struct hazard *cd[] = { &c, &d };

	format_fix_all(cd, 2, buf, sizeof buf);
	assert_string_equal(buf, "none by alignment");
}

/* profiles once each, in order; windows sorted, once each */
static void profiles_and_windows_once(void **state)
{
	struct hazard a = { .profile = &zen, .window = 64 }, b = { .profile = &skl, .window = 16 };
	struct hazard c = { .profile = &zen, .window = 16 };
	const struct hazard *v[] = { &a, &b, &c };
	struct strbuf p = { 0 };
	unsigned w[16];
	char buf[64];

	format_profiles(v, 3, &p);
	assert_string_equal(sb_str(&p), "zen5,skylake");
	sb_free(&p);
	assert_int_equal(hazard_windows(v, 3, w), 2);
	assert_int_equal(w[0], 16);
	assert_int_equal(w[1], 64);
	format_window_list(v, 3, buf, sizeof buf);
	assert_string_equal(buf, "16,64");
	assert_ptr_equal(worst_hazard(v, 3), &a);      /* all severity 0: the first */
}

static void compiler_words(void **state)
{
	char buf[512];

	/* Debian's GCC records its switches (-grecord-gcc-switches) */
	format_compiler_fix("GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2 -falign-loops=1",
			    16, true, false, false, buf, sizeof buf);
	assert_string_equal(buf, "GCC: -falign-loops=16 for the unit (this unit: -falign-loops=1)");
	format_compiler_fix("GNU C17 12.2.0 -O2", 32, false, false, false, buf, sizeof buf);
	assert_string_equal(buf, "GCC: __attribute__((aligned(32))) on the function, or "
			    "-falign-functions=32 for the unit");
	format_compiler_fix("GNU C11 12.2.0 -O2", 8, true, true, false, buf, sizeof buf);
	assert_string_equal(buf, "GCC: -falign-loops=8 for the unit; or every branch: "
			    "-Wa,-mbranches-within-32B-boundaries");
	format_compiler_fix("Debian clang version 14.0.6", 32, true, false, false, buf, sizeof buf);
	assert_string_equal(buf, "Clang: -falign-loops=32 for the unit, or "
			    "[[clang::code_align(32)]] on the loop (Clang 17+; this unit's is older)");
	format_compiler_fix("clang version 18.1.3", 32, true, true, false, buf, sizeof buf);
	assert_string_equal(buf, "Clang: -falign-loops=32 for the unit, or "
			    "[[clang::code_align(32)]] on the loop (Clang 17+); or every branch: "
			    "-mbranches-within-32B-boundaries");
	format_compiler_fix("GNU AS 2.40", 16, true, false, false, buf, sizeof buf);
	assert_string_equal(buf, "assembly: .p2align 4 before the loop");
	format_compiler_fix("GNU AS 2.40", 64, false, false, true, buf, sizeof buf);
	assert_string_equal(buf, "kernel assembly: .p2align 6 before SYM_FUNC_START, or "
			    "CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B");
	format_compiler_fix("GNU C11 12.2.0 -O2", 16, true, false, true, buf, sizeof buf);
	assert_string_equal(buf, "GCC: -falign-loops=16 for the unit (kernel: CFLAGS_file.o += "
			    "-falign-loops=16)");
	format_compiler_fix("GNU C11 12.2.0 -O2", 64, false, false, true, buf, sizeof buf);
	assert_string_equal(buf, "GCC: __attribute__((aligned(64))) on the function, or "
			    "-falign-functions=64 for the unit; kernel: CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B");
	/* no producer, or no fix by alignment: nothing to say */
	format_compiler_fix("", 16, true, false, false, buf, sizeof buf);
	assert_string_equal(buf, "");
	format_compiler_fix("GNU C17 12.2.0", 0, true, false, false, buf, sizeof buf);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_fix_for_all),
		cmocka_unit_test(each_fix_when_none_holds),
		cmocka_unit_test(profiles_and_windows_once),
		cmocka_unit_test(compiler_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
