/* AArch64's address fields (decode/arm64.c) and their re-encoding
 * (relocate/plan.h): the targets agree with Capstone's for every branch
 * form over random words, the non-branch forms with objdump's reading of
 * words from real code, and a field re-encoded to a delta decodes back to
 * it, at the edges of each form's reach exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "decode/decode.h"
#include "relocate/plan.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)rng;
}

static void put32(uint8_t *p, uint32_t w)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(w >> (8 * i));
}

static struct address_fields fields(struct decoder *d, uint32_t w, uint64_t pc)
{
	struct address_fields a;
	uint8_t p[4];

	put32(p, w);
	assert_true(decode_address_fields(d, p, 4, pc, &a));
	return a;
}

/* b/bl, b.cond, cbz/cbnz, tbz/tbnz: opcode bits and the random rest. */
static const struct {
	uint32_t mask, bits;            /* fixed bits */
	uint8_t form;
} branch_forms[] = {
	{ 0xfc000000u, 0x14000000u, A64_IMM26 },        /* b */
	{ 0xfc000000u, 0x94000000u, A64_IMM26 },        /* bl */
	{ 0xff000010u, 0x54000000u, A64_IMM19 },        /* b.cond (cond random) */
	{ 0x7e000000u, 0x34000000u, A64_IMM19 },        /* cbz, cbnz, w or x */
	{ 0x7e000000u, 0x36000000u, A64_IMM14 },        /* tbz, tbnz */
};

static void branch_targets_are_capstones(void **state)
{
	struct decoder *d = decoder_new(ARCH_AARCH64);

	for (size_t f = 0; f < sizeof branch_forms / sizeof *branch_forms; f++)
		for (int k = 0; k < 5000; k++) {
			uint32_t w = (next() & ~branch_forms[f].mask) | branch_forms[f].bits;
			uint64_t pc = 0x400000 + (uint64_t)(next() % 0x100000) * 4;
			struct address_fields a;
			struct insn in;
			uint8_t p[4];

			if ((w & 0xff00000fu) == 0x5400000fu)
				continue;       /* b.nv: Capstone's reading differs */
			put32(p, w);
			decode_one(d, p, 4, pc, &in);
			a = fields(d, w, pc);
			assert_int_equal(a.a64_form, branch_forms[f].form);
			assert_int_equal(a.a64_target, in.target);
		}
	decoder_free(d);
}

/* Words as objdump reads them in the fixture and in the cross libc. */
static void adr_adrp_literal_lo12(void **state)
{
	struct decoder *d = decoder_new(ARCH_AARCH64);
	struct address_fields a;

	a = fields(d, 0x90000106u, 0x9e8);              /* adrp x6, 20000 */
	assert_int_equal(a.a64_form, A64_ADRP);
	assert_int_equal(a.a64_target, 0x20000);
	assert_int_equal(a.a64_reg, 6);
	a = fields(d, 0xf0000981u, 0x6c084);            /* adrp x1, 19f000 */
	assert_int_equal(a.a64_target, 0x19f000);
	a = fields(d, 0x10000016u, 0xae8);              /* adr x22, ae8 */
	assert_int_equal(a.a64_form, A64_ADR);
	assert_int_equal(a.a64_target, 0xae8);
	a = fields(d, 0x103a8040u, 0x129ff8);           /* adr x0, 19f000 */
	assert_int_equal(a.a64_target, 0x19f000);
	a = fields(d, 0x58000040u, 0x1000);             /* ldr x0, 1008 */
	assert_int_equal(a.a64_form, A64_IMM19);
	assert_int_equal(a.a64_target, 0x1008);
	a = fields(d, 0x912ec000u, 0xae0);              /* add x0, x0, #0xbb0 */
	assert_true(a.a64_lo12);
	assert_int_equal(a.a64_form, A64_NONE);
	assert_int_equal(a.a64_reg, 0);
	assert_int_equal(a.a64_lo12_off, 0xbb0);
	a = fields(d, 0xf9473421u, 0x6c088);            /* ldr x1, [x1, #3688] */
	assert_true(a.a64_lo12);
	assert_int_equal(a.a64_reg, 1);
	assert_int_equal(a.a64_lo12_off, 3688);
	a = fields(d, 0x3dc00420u, 0);                  /* ldr q0, [x1, #16] */
	assert_int_equal(a.a64_lo12_off, 16);
	a = fields(d, 0xd61f0200u, 0);                  /* br x16 */
	assert_int_equal(a.a64_reg, 16);
	assert_false(a.a64_lo12);
	a = fields(d, 0xd63f0060u, 0);                  /* blr x3 */
	assert_int_equal(a.a64_reg, 3);
	a = fields(d, 0xa9bb7bfdu, 0);                  /* stp: none */
	assert_int_equal(a.a64_form, A64_NONE);
	assert_false(a.a64_lo12);
	decoder_free(d);
}

/* The re-encoded word decodes to pc + delta (adrp: to the page delta
 * pages from the pc's). */
static void check_encode(struct decoder *d, uint32_t w, uint8_t form, int64_t delta)
{
	uint64_t pc = 0x5500100000ull + (uint64_t)(next() % 1024) * 4;
	uint32_t e = plan_a64_encode(w, form, delta);
	struct address_fields a = fields(d, e, pc);
	uint64_t want = form == PLAN_A64_ADRP ? (pc & ~(uint64_t)0xfff) + (uint64_t)(delta * 4096) :
			pc + (uint64_t)delta;

	uint32_t keep = form == PLAN_A64_IMM26 ? 0xfc000000u : form == PLAN_A64_IMM19 ? 0xff00001fu :
			form == PLAN_A64_IMM14 ? 0xfff8001fu : 0x9f00001fu;

	assert_int_equal(a.a64_target, want);
	/* the other bits are the word's */
	assert_int_equal(e & keep, w & keep);
}

static void reencoded_fields_decode_back(void **state)
{
	struct decoder *d = decoder_new(ARCH_AARCH64);
	static const struct {
		uint32_t word;
		uint8_t form;
		int64_t reach;          /* the first delta that does not fit */
	} f[] = {
		{ 0x94000000u, PLAN_A64_IMM26, 128ll << 20 },
		{ 0x5400000bu, PLAN_A64_IMM19, 1ll << 20 },
		{ 0xb5000001u, PLAN_A64_IMM19, 1ll << 20 },
		{ 0x58000002u, PLAN_A64_IMM19, 1ll << 20 },
		{ 0x37180003u, PLAN_A64_IMM14, 32ll << 10 },
		{ 0x10000004u, PLAN_A64_ADR, 1ll << 20 },
		{ 0x90000005u, PLAN_A64_ADRP, 1ll << 20 },      /* pages: 4 GiB */
	};

	for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
		bool bytes = f[i].form == PLAN_A64_ADR || f[i].form == PLAN_A64_ADRP;
		int64_t top = f[i].reach - (bytes ? 1 : 4);

		assert_true(plan_a64_fits(f[i].form, top));
		assert_true(plan_a64_fits(f[i].form, -f[i].reach));
		assert_false(plan_a64_fits(f[i].form, f[i].reach));
		assert_false(plan_a64_fits(f[i].form, -f[i].reach - (bytes ? 1 : 4)));
		if (!bytes)
			assert_false(plan_a64_fits(f[i].form, 6));
		check_encode(d, f[i].word, f[i].form, top);
		check_encode(d, f[i].word, f[i].form, -f[i].reach);
		for (int k = 0; k < 2000; k++) {
			int64_t delta = (int64_t)(next() % (uint64_t)(2 * f[i].reach)) - f[i].reach;

			if (!bytes)
				delta &= ~(int64_t)3;
			check_encode(d, f[i].word, f[i].form, delta);
		}
	}
	assert_int_equal(plan_a64_delta(PLAN_A64_ADRP, 0x20010, 0x1fff8), 1);
	assert_int_equal(plan_a64_delta(PLAN_A64_IMM26, 0x1000, 0x1010), -16);
	decoder_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(branch_targets_are_capstones),
		cmocka_unit_test(adr_adrp_literal_lo12),
		cmocka_unit_test(reencoded_fields_decode_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
