/* Blocks, dominators, natural loops and irreducible cycles on instruction
 * sequences written out by hand (only addresses, lengths and branch kinds
 * matter to the CFG). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cfg/cfg.h"

#define I(a, l) { .addr = (a), .len = (l), .kind = BR_NONE }
#define COND(a, l, t) { .addr = (a), .len = (l), .kind = BR_COND, .target = (t) }
#define JMP(a, l, t) { .addr = (a), .len = (l), .kind = BR_JUMP, .target = (t) }
#define CALL(a, l, t) { .addr = (a), .len = (l), .kind = BR_CALL, .target = (t) }
#define IND(a, l) { .addr = (a), .len = (l), .kind = BR_JUMP_IND }
#define RET(a) { .addr = (a), .len = 1, .kind = BR_RET }
#define N(v) (sizeof(v) / sizeof((v)[0]))

static void simple_loop(void **state)
{
	struct cfg g = { 0 };
	struct insn v[] = { I(0x00, 3), I(0x03, 2), COND(0x05, 2, 0x00), RET(0x07) };

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nblock, 2);
	assert_int_equal(g.block[0].start, 0x00);
	assert_int_equal(g.block[0].end, 0x07);
	assert_int_equal(g.nloop, 1);
	assert_int_equal(g.loop[0].start, 0x00);
	assert_int_equal(g.loop[0].end, 0x07);
	assert_int_equal(g.loop[0].depth, 1);
	assert_true(g.loop[0].innermost);
	assert_false(g.loop[0].has_call);
	assert_int_equal(g.loop[0].ninsn, 3);
	assert_int_equal(g.nirr, 0);
	cfg_free(&g);
}

static void nested_loops(void **state)
{
	struct cfg g = { 0 };
	struct insn v[] = {
		I(0x00, 3),                     /* outer header */
		I(0x03, 3),                     /* inner header */
		CALL(0x06, 5, 0x100),
		COND(0x0b, 2, 0x03),            /* inner latch */
		I(0x0d, 2),
		COND(0x0f, 2, 0x00),            /* outer latch */
		RET(0x11),
	};

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nloop, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct cfg_loop *l = &g.loop[i];

		if (g.block[l->header].start == 0x00) {
			assert_int_equal(l->depth, 1);
			assert_false(l->innermost);
			assert_int_equal(l->start, 0x00);
			assert_int_equal(l->end, 0x11);
			assert_int_equal(l->nbody, 3);
			assert_true(l->has_call);
		} else {
			assert_int_equal(g.block[l->header].start, 0x03);
			assert_int_equal(l->depth, 2);
			assert_true(l->innermost);
			assert_int_equal(l->start, 0x03);
			assert_int_equal(l->end, 0x0d);
			assert_int_equal(l->nbody, 1);
			assert_true(l->has_call);
			assert_int_equal(g.block[g.loop[l->parent].header].start, 0x00);
		}
	}
	cfg_free(&g);
}

static void irreducible_cycle(void **state)
{
	struct cfg g = { 0 };
	/* two ways into the cycle {0x02, 0x06}: fall-through and the jz */
	struct insn v[] = {
		COND(0x00, 2, 0x06),
		I(0x02, 4),
		I(0x06, 2),
		COND(0x08, 2, 0x02),
		RET(0x0a),
	};

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nirr, 1);
	assert_int_equal(g.irr[0].entry, 0x02);
	assert_int_equal(g.irr[0].from, 0x06);
	/* still a loop the CPU runs: its range is checked like any other */
	assert_int_equal(g.nloop, 1);
	assert_true(g.loop[0].irreducible);
	assert_int_equal(g.loop[0].start, 0x02);
	assert_int_equal(g.loop[0].end, 0x0a);
	assert_int_equal(g.loop[0].nbody, 2);
	cfg_free(&g);
}

static void rotated_loop(void **state)
{
	struct cfg g = { 0 };
	/* jmp to the test at the bottom; the body falls into it */
	struct insn v[] = {
		JMP(0x00, 2, 0x08),
		I(0x02, 4),
		I(0x06, 2),
		I(0x08, 3),                     /* cmp */
		COND(0x0b, 2, 0x02),            /* jnz body */
		RET(0x0d),
	};

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nloop, 1);
	assert_int_equal(g.block[g.loop[0].header].start, 0x08);
	/* the range runs from the body (the latch) to the end of the test */
	assert_int_equal(g.loop[0].start, 0x02);
	assert_int_equal(g.loop[0].end, 0x0d);
	assert_int_equal(g.loop[0].ninsn, 4);
	assert_int_equal(cfg_block_last(&g, g.loop[0].header)->addr, 0x0b);
	cfg_free(&g);
}

static void unreached_loop_is_found(void **state)
{
	struct cfg g = { 0 };
	/* a jump-table target: reached only through the indirect jump */
	struct insn v[] = { IND(0x00, 2), I(0x02, 2), COND(0x04, 2, 0x02), RET(0x06) };

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nloop, 1);
	assert_int_equal(g.loop[0].start, 0x02);
	assert_int_equal(g.loop[0].end, 0x06);
	cfg_free(&g);
}

static void out_of_line_blocks(void **state)
{
	struct cfg g = { 0 };
	/* loop 0x00..0x08 with a cold block at 0x20 that jumps back in */
	struct insn v[] = {
		I(0x00, 2),
		COND(0x02, 2, 0x20),            /* to the cold path */
		I(0x04, 2),
		COND(0x06, 2, 0x00),            /* latch */
		RET(0x08),
		{ .addr = 0x09, .len = 0x17, .padding = 1 },   /* alignment nops */
		I(0x20, 2),
		JMP(0x22, 2, 0x04),             /* back into the loop */
	};

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nloop, 1);
	assert_int_equal(g.loop[0].start, 0x00);
	assert_int_equal(g.loop[0].end, 0x08);
	assert_int_equal(g.loop[0].cold_blocks, 1);
	assert_int_equal(g.loop[0].cold_bytes, 4);
	assert_false(g.loop[0].irreducible);
	assert_int_equal(g.nirr, 0);
	cfg_free(&g);
}

static void code_falling_into_a_loop_body(void **state)
{
	struct cfg g = { 0 };
	/* the same, but real code (not padding) falls into the cold block: the
	 * cycle then has a second entry and is irreducible */
	struct insn v[] = {
		I(0x00, 2),
		COND(0x02, 2, 0x20),
		I(0x04, 2),
		COND(0x06, 2, 0x00),
		RET(0x08),
		I(0x09, 0x17),
		I(0x20, 2),
		JMP(0x22, 2, 0x04),
	};

	cfg_build(&g, v, N(v));
	assert_int_equal(g.nirr, 1);
	assert_int_equal(g.irr[0].entry, 0x00);
	assert_int_equal(g.irr[0].from, 0x04);
	assert_int_equal(g.nloop, 1);
	assert_true(g.loop[0].irreducible);
	assert_int_equal(g.loop[0].start, 0x00);
	assert_int_equal(g.loop[0].end, 0x08);
	cfg_free(&g);
}

static void cycle_precheck(void **state)
{
	struct insn fwd[] = { COND(0x00, 2, 0x04), I(0x02, 2), RET(0x04) };
	struct insn back[] = { I(0x00, 2), COND(0x02, 2, 0x00) };
	struct insn outside[] = { I(0x10, 2), JMP(0x12, 2, 0x00) };
	struct insn self[] = { JMP(0x00, 2, 0x00) };

	assert_false(cfg_may_have_cycle(fwd, N(fwd)));
	assert_true(cfg_may_have_cycle(back, N(back)));
	assert_false(cfg_may_have_cycle(outside, N(outside)));
	assert_true(cfg_may_have_cycle(self, N(self)));
	assert_false(cfg_may_have_cycle(self, 0));
}

static void scratch_is_reused(void **state)
{
	struct cfg g = { 0 };
	struct insn big[64], small[] = { I(0x00, 2), COND(0x02, 2, 0x00) };

	for (int i = 0; i < 63; i++)
		big[i] = (struct insn)I(i * 2, 2);
	big[63] = (struct insn)COND(126, 2, 0);
	cfg_build(&g, big, 64);
	assert_int_equal(g.nloop, 1);
	cfg_build(&g, small, 2);
	assert_int_equal(g.nloop, 1);
	assert_int_equal(g.loop[0].end, 4);
	cfg_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(simple_loop),
		cmocka_unit_test(nested_loops),
		cmocka_unit_test(irreducible_cycle),
		cmocka_unit_test(rotated_loop),
		cmocka_unit_test(unreached_loop_is_found),
		cmocka_unit_test(out_of_line_blocks),
		cmocka_unit_test(code_falling_into_a_loop_body),
		cmocka_unit_test(cycle_precheck),
		cmocka_unit_test(scratch_is_reused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
