/* The synthetic loops of straddle calibrate: what synth.c generates from its
 * template tables, decoded back with the decode layer (Zydis, Capstone) and
 * checked against the geometry it claims; and, on x86-64, run in the arena. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/calibrate.h"

/* Decode s's loop: instruction count, the branch and its target, whether
 * the instruction before it fuses with it. */
static void check_loop(const struct synth_kernel *s, enum arch arch, uint32_t want_ninsn,
		       bool want_fused)
{
	struct decoder *d = decoder_new(arch);
	struct insn in[160];
	size_t n = 0;

	assert_non_null(d);
	for (uint32_t off = s->k.loop_start; off < s->k.loop_end; n++) {
		assert_true(n < 160);
		decode_one(d, s->code + off, s->k.size - off, off, &in[n]);
		assert_int_not_equal(in[n].kind, BR_INVALID);
		off += in[n].len;
		assert_true(off <= s->k.loop_end);
	}
	/* the stores it claims are the stores the decoder finds */
	assert_int_equal(decode_count_stores(d, in, s->code + s->k.loop_start, s->bytes), s->nstore);
	decoder_free(d);
	assert_int_equal(n, want_ninsn);
	assert_int_equal(s->ninsn, want_ninsn);
	assert_int_equal(in[n - 1].kind, BR_COND);
	assert_int_equal(in[n - 1].target, s->k.loop_start);
	assert_int_equal(in[n - 1].addr, s->k.loop_start + s->branch);
	/* unfused, a one-instruction nop sits between count and branch */
	assert_int_equal(in[n - 2].addr, s->k.loop_start + (want_fused ? s->pair :
			 s->branch - (arch == ARCH_X86_64 ? 1 : 4)));
	/* decode/ models Intel's and AMD's macro-fusion, not Arm's */
	assert_int_equal(insn_fuses(&in[n - 2], &in[n - 1]), want_fused && arch == ARCH_X86_64);
	assert_int_equal(s->bytes, s->k.loop_end - s->k.loop_start);
}

/* Seed 000's 15-byte loop, byte for byte. */
static void x86_store_imm_is_seed_000(void **state)
{
	static const uint8_t loop[15] = { 0x48, 0xc7, 0x07, 0, 0, 0, 0, 0x48, 0x83, 0xc7, 0x08,
					  0xff, 0xc9, 0x75, 0xf1 };
	struct synth_spec sp = { "imm15", ARCH_X86_64, 15, true, true, true, 0, 0, 0, 0, 0 };
	struct synth_kernel s;
	struct err e;

	assert_int_equal(synth_build(&sp, &s, &e), 0);
	assert_int_equal(s.k.loop_start, 15);
	assert_int_equal(s.k.loop_end, 30);
	assert_memory_equal(s.code + 15, loop, 15);
	assert_int_equal(s.pair, 11);
	assert_int_equal(s.branch, 13);
	assert_int_equal(s.k.size, 31);
	check_loop(&s, ARCH_X86_64, 4, true);
}

/* And its 10-byte loop before the immediate-operand commit. */
static void x86_store_reg_is_seed_000(void **state)
{
	static const uint8_t loop[10] = { 0x48, 0x89, 0x07, 0x4c, 0x01, 0xc7, 0xff, 0xc9,
					  0x75, 0xf6 };
	struct synth_spec sp = { "reg10", ARCH_X86_64, 10, true, false, true, 0, 0, 0, 0, 0 };
	struct synth_kernel s;
	struct err e;

	assert_int_equal(synth_build(&sp, &s, &e), 0);
	assert_memory_equal(s.code + s.k.loop_start, loop, 10);
	check_loop(&s, ARCH_X86_64, 4, true);
}

/* Several stores an iteration, all to where dst points, then one advance:
 * the back end's work grows, the buffer cleared does not. */
static void x86_store_loops(void **state)
{
	static const uint8_t loop[24] = { 0x48, 0x89, 0x07, 0x48, 0x89, 0x07, 0x48, 0x89, 0x07,
					  0x48, 0x89, 0x07, 0x4c, 0x01, 0xc7,
					  0x0f, 0x1f, 0x44, 0x00, 0x00, 0xff, 0xc9, 0x75, 0xe8 };
	struct synth_spec sp = { "st4", ARCH_X86_64, 24, true, false, true, 0, 0, 0, 4, 0 };
	struct synth_kernel s;
	struct err e;

	assert_int_equal(synth_build(&sp, &s, &e), 0);
	assert_memory_equal(s.code + s.k.loop_start, loop, 24);
	assert_int_equal(s.nstore, 4);
	check_loop(&s, ARCH_X86_64, 8, true);
}

static void x86_nop_loops(void **state)
{
	struct synth_kernel s;
	struct err e;
	struct synth_spec unfused = { "nop16u", ARCH_X86_64, 16, false, false, false, 4, 0, 0, 0, 0 };
	struct synth_spec big = { "nop128", ARCH_X86_64, 128, false, false, true, 8, 0, 0, 0, 0 };
	struct synth_spec ones = { "nop40x1", ARCH_X86_64, 40, false, false, true, 1, 0, 0, 0, 0 };

	/* 16 = 11 bytes of nops (4+4+3) + dec + nop + jnz */
	assert_int_equal(synth_build(&unfused, &s, &e), 0);
	check_loop(&s, ARCH_X86_64, 6, false);
	assert_int_equal(s.pair, s.branch);
	assert_int_equal(s.branch, 14);
	/* the longest: jnz rel8 of -128 still reaches */
	assert_int_equal(synth_build(&big, &s, &e), 0);
	check_loop(&s, ARCH_X86_64, 16 + 2, true);
	assert_int_equal(s.code[s.k.loop_end - 1], 0x80);
	assert_int_equal(synth_build(&ones, &s, &e), 0);
	check_loop(&s, ARCH_X86_64, 36 + 2, true);
	big.bytes = 129;
	assert_int_equal(synth_build(&big, &s, &e), -1);
	assert_string_equal(e.msg,
			    "nop128: a loop of 129 bytes cannot hold its 4 fixed bytes (at most 128)");
}

/* The callee two lines after the caller's loop, at func_offset of a line. */
static void x86_call_entry(void **state)
{
	struct synth_spec sp = { "call", ARCH_X86_64, 9, false, false, true, 8, 24, 50, 0, 0 };
	struct synth_kernel s;
	struct decoder *d = decoder_new(ARCH_X86_64);
	struct insn call;
	struct err e;

	assert_int_equal(synth_build(&sp, &s, &e), 0);
	assert_int_equal(s.k.loop_start, 64);
	assert_int_equal(s.func_start, 178);
	assert_int_equal(s.k.size, 178 + 24);
	decode_one(d, s.code + 64, 5, 64, &call);
	decoder_free(d);
	assert_int_equal(call.kind, BR_CALL);
	assert_int_equal(call.target, 178);
	assert_int_equal(s.code[178 + 23], 0xc3);
	check_loop(&s, ARCH_X86_64, 3, true);
}

/* A 3-cycle imul chain: imul %r9,%r9 first, nops, the fused pair; none
 * on AArch64 (no latency every core shares). */
static void x86_chain_loop(void **state)
{
	static const uint8_t imul[4] = { 0x4d, 0x0f, 0xaf, 0xc9 };
	struct synth_spec sp = { "chain", ARCH_X86_64, 36, false, false, true, 8, 0, 0, 0, 1 };
	struct synth_kernel s;
	struct err e;

	assert_int_equal(synth_build(&sp, &s, &e), 0);
	assert_memory_equal(s.code + s.k.loop_start, imul, 4);
	assert_int_equal(s.nchain, 1);
	assert_int_equal(s.bytes, 36);
	check_loop(&s, ARCH_X86_64, 7, true);   /* imul, 8+8+8+4 B of nops, decl, jnz */
	sp.arch = ARCH_AARCH64;
	assert_int_equal(synth_build(&sp, &s, &e), -1);
	assert_string_equal(e.msg, "chain: no dependency-chain form on aarch64");
}

/* AArch64 from the same table shape: str, subs, b.ne. */
static void arm64_loops(void **state)
{
	struct synth_spec st = { "str12", ARCH_AARCH64, 12, true, false, true, 0, 0, 0, 0, 0 };
	struct synth_spec call = { "call", ARCH_AARCH64, 12, false, false, true, 0, 16, 8, 0, 0 };
	struct synth_kernel s;
	struct err e;

	assert_int_equal(synth_build(&st, &s, &e), 0);
	assert_int_equal(s.k.loop_start, 0);
	check_loop(&s, ARCH_AARCH64, 3, true);
	assert_int_equal(synth_build(&call, &s, &e), 0);
	assert_int_equal(s.k.loop_start, 64);
	assert_int_equal(s.func_start, 136);
	check_loop(&s, ARCH_AARCH64, 3, true);
	/* two stores: str xzr,[x0]; str xzr,[x0],#8 (only the last advances) */
	st.stores = 2;
	st.bytes = 16;
	assert_int_equal(synth_build(&st, &s, &e), 0);
	assert_int_equal(s.nstore, 2);
	assert_int_equal(s.code[s.k.loop_start + 3], 0xf9);
	assert_int_equal(s.code[s.k.loop_start + 4 + 1], 0x84);
	check_loop(&s, ARCH_AARCH64, 4, true);
	st.stores = 0;
	st.bytes = 14;
	assert_int_equal(synth_build(&st, &s, &e), -1);
	assert_string_equal(e.msg, "str12: sizes must be multiples of 4 on aarch64");
}

/* Every experiment calibrate runs builds, on both architectures, and
 * decodes back to the geometry (and stores) it claims. */
static void calibrate_specs_build(void **state)
{
	static const enum arch arches[] = { ARCH_X86_64, ARCH_AARCH64 };

	for (size_t a = 0; a < 2; a++) {
		const struct synth_spec *specs;
		size_t n = calib_specs(arches[a], &specs);

		assert_true(n >= 8);
		for (size_t i = 0; i < n; i++) {
			struct synth_spec sp = specs[i];
			struct synth_kernel s;
			struct err e;

			sp.arch = arches[a];
			if (synth_build(&sp, &s, &e))
				fail_msg("%s: %s", sp.name, e.msg);
			check_loop(&s, arches[a], s.ninsn, sp.fused);
			assert_int_equal(s.nstore, sp.func_bytes ? arches[a] == ARCH_X86_64 :
						   !sp.store ? 0 : sp.stores ? sp.stores : 1);
		}
	}
}

#if defined(__x86_64__)
/* Placed in the arena, each kind clears len bytes (the store loops) and
 * returns 0; the call loop returns too. */
static void x86_runs_placed(void **state)
{
	static const struct synth_spec specs[] = {
		{ "imm15", ARCH_X86_64, 15, true, true, true, 0, 0, 0, 0, 0 },
		{ "reg10", ARCH_X86_64, 10, true, false, true, 0, 0, 0, 0, 0 },
		{ "st8", ARCH_X86_64, 32, true, false, true, 0, 0, 0, 8, 0 },
		{ "nop40", ARCH_X86_64, 40, false, false, false, 8, 0, 0, 0, 0 },
		{ "call", ARCH_X86_64, 9, false, false, true, 8, 24, 61, 0, 0 },
		{ "chain", ARCH_X86_64, 36, false, false, true, 8, 0, 0, 0, 1 },
	};
	uint8_t buf[256];

	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct synth_kernel *s = malloc(sizeof *s);
		struct placement p;
		struct err e;

		if (synth_build(&specs[i], s, &e) || kernel_place(&s->k, 37, &p, &e))
			fail_msg("%s", e.msg);
		memset(buf, 0xff, sizeof buf);
		assert_int_equal(((kernel_clear_fn)(void *)p.code)(buf, 200), 0);
		assert_int_equal(buf[0], specs[i].store ? 0 : 0xff);
		assert_int_equal(buf[199], specs[i].store ? 0 : 0xff);
		assert_int_equal(buf[200], 0xff);
		arena_free(&p);
		free(s);
	}
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_store_imm_is_seed_000),
		cmocka_unit_test(x86_store_reg_is_seed_000),
		cmocka_unit_test(x86_store_loops),
		cmocka_unit_test(calibrate_specs_build),
		cmocka_unit_test(x86_nop_loops),
		cmocka_unit_test(x86_call_entry),
		cmocka_unit_test(x86_chain_loop),
		cmocka_unit_test(arm64_loops),
#if defined(__x86_64__)
		cmocka_unit_test(x86_runs_placed),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
