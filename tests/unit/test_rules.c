/* The hazard rules on loops and entries whose geometry is given by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/profile.h"
#include "model/host.h"
#include "model/rules.h"
#include "model/geometry.h"
#include "model/shape.h"

static void windows_count(void **state)
{
	(void)state;
	/* Seed 000: the 15-byte loop at 0x...3a spans 0x3a..0x48. */
	assert_int_equal(windows_touched(0x3a, 0x3a + 15, 16), 2);
	assert_int_equal(windows_best(15, 16), 1);
	assert_int_equal(windows_touched(0x3a, 0x3a + 15, 64), 2);
	/* the 10-byte loop at the same start ends at 0x44: still two 16 B windows */
	assert_int_equal(windows_touched(0x36, 0x36 + 10, 16), 1);
	assert_int_equal(windows_touched(0x40, 0x50, 16), 1);
	assert_int_equal(windows_touched(0x40, 0x51, 16), 2);
	assert_int_equal(windows_best(16, 16), 1);
	assert_int_equal(windows_best(17, 16), 2);
	assert_int_equal(windows_touched(5, 5, 16), 0);
}

/* One closing branch; the geometry points at this array, one loop at a
 * time (tests run in sequence). */
static struct loop_branch closing[1];

static struct loop_geometry tight_loop(uint32_t bytes, uint32_t pair, uint32_t branch)
{
	struct loop_geometry g = { .bytes = bytes, .branch = closing, .nbranch = 1, .ninsn = 4,
				   .fits_loop_buffer_shape = true };

	closing[0] = (struct loop_branch){ .pair = pair, .branch = branch, .end = bytes,
					   .kind = BR_COND, .back = true };
	return g;
}

/* Windows over a loop's pieces together. pthread_spin_lock's
 * (libc 0x8ff70): the header [0x8ff70, 0x8ff75) and the body [0x8ff80,
 * 0x8ff89). */
static void pieces_count(void **state)
{
	static const struct loop_piece spin[] = { { 0x8ff70, 0x8ff75 }, { 0x8ff80, 0x8ff89 } };
	static const struct loop_piece near[] = { { 0x4011c0, 0x4011c4 }, { 0x4011c8, 0x4011ce } };
	static const struct loop_piece three[] = { { 0, 4 }, { 8, 20 }, { 30, 40 } };

	(void)state;
	assert_int_equal(pieces_touched(spin, 2, 0, 16), 2);     /* 0x8ff70, 0x8ff80 */
	assert_int_equal(pieces_touched(spin, 2, 0, 64), 2);     /* 0x8ff40, 0x8ff80 */
	assert_int_equal(pieces_touched(spin, 2, 0x10, 64), 1);  /* 0x8ff80..0x8ff99 */
	assert_int_equal(pieces_touched(near, 2, 0, 16), 1);     /* both in 0x4011c0 */
	/* 16: [0, 4) and [8, 20) share window 0, [30, 40) shares window 16
	 * with [8, 20): 0, 16, 32 */
	assert_int_equal(pieces_touched(three, 3, 0, 16), 3);
	assert_int_equal(pieces_touched(three, 3, 0, 8), 5);     /* 0, 8, 16, 24, 32 */
	assert_int_equal(pieces_touched(three, 1, 0, 16), 1);
}

/* prove's placements of a loop in pieces (spin_lock of pieces.S: header
 * 5 B at 0x8ff70, 48 of its line, body 9 B at +16): today the body is in
 * the next line, 2 lines. Offset 0..39 puts both in one (39 + 25 = 64);
 * 40..63 keep 2, today's among them, the nearest 0 being 63 and 62. At 16
 * B windows today's 2 (0x8ff70, 0x8ff80) is already the least. */
static struct loop_moves spin_moves(const struct loop_piece *spin, uint64_t start, unsigned w)
{
	return (struct loop_moves){ .piece = spin, .npiece = 2, .start = start, .align = 64,
				    .window = w, .window_price = 1, .branch_window = 64 };
}

static void pieces_offsets(void **state)
{
	static const struct loop_piece spin[] = { { 0x8ff70, 0x8ff75 }, { 0x8ff80, 0x8ff89 } };
	struct loop_moves m = spin_moves(spin, 0x8ff70, 64);
	uint32_t c[4];

	(void)state;
	assert_int_equal(pieces_touched_at(spin, 2, 0x8ff70, 48, 64, 64), 2);
	assert_int_equal(pieces_touched_at(spin, 2, 0x8ff70, 39, 64, 64), 1);
	assert_int_equal(pieces_touched_at(spin, 2, 0x8ff70, 40, 64, 64), 2);
	assert_int_equal(pieces_touched_at(spin, 2, 0x8ff70, 0, 64, 64), 1);    /* moved back */
	assert_int_equal(loop_moves_best(&m), 0);
	assert_int_equal(loop_moves_controls(&m, 0, c, 2), 2);
	assert_int_equal(c[0], 63);
	assert_int_equal(c[1], 62);
	/* the body's own address named: offsets are of it */
	assert_int_equal(pieces_touched_at(spin, 2, 0x8ff80, 0, 64, 64), 2);    /* header 16 back */
	m = spin_moves(spin, 0x8ff80, 64);
	assert_int_equal(loop_moves_best(&m), 16);
	m = spin_moves(spin, 0x8ff70, 16);
	assert_int_equal(loop_moves_best(&m), 48);
	/* 16 B: 2 where the body fits its window (o % 16 <= 7), else 3 (the
	 * header crossing too shares the body's first): the four nearest 48 */
	assert_int_equal(pieces_touched_at(spin, 2, 0x8ff70, 44, 64, 16), 3);
	assert_int_equal(loop_moves_controls(&m, 48, c, 4), 4);
	assert_int_equal(c[0], 49);
	assert_int_equal(c[1], 50);
	assert_int_equal(c[2], 51);
	assert_int_equal(c[3], 52);
}

/* cut's loop (Debian coreutils 9.1, /usr/bin/cut 0x2eb8, 186 B at 56 of
 * its line): its cmp (3 B) and jb (2 B) [0x2efe, 0x2f03), the cmp across
 * the line at 0x2f00 under goldencove (0.8 cycle; the line between the
 * two 0.1; a line 0.05). Today 4 lines and the bubble; at 0 3 lines and
 * the pair whole at 70..74. The pair meets the line at 128 from 54 to 57:
 * 55 splits it (the jb from 128), 54 and 57 keep one across: the
 * controls; 53 has it whole. */
static void branch_moves(void **state)
{
	static const struct loop_piece cut[] = { { 0x2eb8, 0x2f72 } };
	static const struct placed_branch pair[] = { { 0x2efe, 0x2f01, 0x2f03 } };
	struct loop_moves m = { .piece = cut, .npiece = 1, .start = 0x2eb8, .align = 64,
				.window = 64, .window_price = 0.05, .branch = pair, .nbranch = 1,
				.branch_window = 64, .branch_price = 0.8, .split_price = 0.1 };
	uint32_t c[4];

	(void)state;
	assert_float_equal(loop_moves_cycles(&m, 56), 4 * 0.05 + 0.8, 1e-9);
	assert_float_equal(loop_moves_cycles(&m, 0), 3 * 0.05, 1e-9);
	assert_float_equal(loop_moves_cycles(&m, 54), 4 * 0.05 + 0.8, 1e-9);
	assert_float_equal(loop_moves_cycles(&m, 55), 4 * 0.05 + 0.1, 1e-9);
	assert_float_equal(loop_moves_cycles(&m, 53), 4 * 0.05, 1e-9);
	assert_int_equal(loop_moves_best(&m), 0);
	assert_int_equal(loop_moves_controls(&m, 0, c, 4), 2);
	assert_int_equal(c[0], 57);
	assert_int_equal(c[1], 54);
	/* the windows alone (no branch at fault): 62 and 63, as before */
	m.nbranch = 0;
	assert_int_equal(loop_moves_controls(&m, 0, c, 2), 2);
	assert_int_equal(c[0], 63);
	assert_int_equal(c[1], 62);
}

/* A loop in pieces moves whole under one .p2align; when none removes the
 * straddle, the fix is the layout's. */
static void pieces_fix(void **state)
{
	const struct profile *p = profile_named("generic-x86");
	/* spin_lock of tests/fixtures/x86/pieces.S: header 5 B, body 9 B at +16 */
	struct loop_piece spin[] = { { 0, 5 }, { 16, 25 } };
	struct loop_geometry g = { .bytes = 14, .piece = spin, .npiece = 2, .ninsn = 6 };
	struct hazard h[8];
	size_t n;

	(void)state;
	n = loop_hazards(p, &g, 0x401070, 4096, h, 8);
	assert_int_equal(n, 2);
	/* 16: 14 B 16 apart never fit one window: no alignment, the layout */
	assert_int_equal(h[0].window, 16);
	assert_int_equal(h[0].fix_align, 0);
	assert_true(h[0].fix_layout);
	/* 64: 0x401070 and 0x401080 are two lines; .p2align 5 puts the pieces
	 * at 0x401080 and 0x401090, one line, 16 B of padding */
	assert_int_equal(h[1].window, 64);
	assert_int_equal(h[1].fix_align, 32);
	assert_int_equal(h[1].fix_pad, 16);
	assert_false(h[1].fix_layout);
	/* laid out in one run, the same 14 B at 0x401070 fit one 16 B
	 * window and one line as they are: no hazard at all */
	g.npiece = 0;
	n = loop_hazards(p, &g, 0x401070, 4096, h, 8);
	assert_int_equal(n, 0);
}

static void zen1_seed000(void **state)
{
	const struct profile *p = profile_named("zen1");
	/* movq $0,(%rdi) 7; addq $8,%rdi 4; decl %ecx 2 @11; jnz 2 @13 */
	struct loop_geometry g = tight_loop(15, 11, 13);
	struct hazard h[8];
	size_t n;

	/* at 0x3a: crosses 16 at 0x40 and the line at 0x40 */
	n = loop_hazards(p, &g, 0x1003a, 4096, h, 8);
	assert_int_equal(n, 2);
	assert_int_equal(h[0].rule, RULE_LOOP_STRADDLES);
	assert_int_equal(h[0].window, 16);
	assert_true(h[0].certain);
	/* .p2align 2 moves 0x3a to 0x3c: 0x3c..0x4a still crosses 0x40;
	 * .p2align 3 -> 0x40: fits here (pad 6), but at 8 mod 16 the 15 bytes
	 * cross 16 in another build: the fix that holds anywhere is .p2align
	 * 4 (also 0x40, pad 6), and .p2align 3 holds only here. */
	assert_int_equal(h[0].fix_align, 16);
	assert_int_equal(h[0].fix_pad, 6);
	assert_int_equal(h[0].here_align, 8);
	assert_int_equal(h[0].here_pad, 6);
	assert_int_equal(h[1].window, 64);
	assert_int_equal(h[1].severity, 2);
	/* 15 bytes from a multiple of 16 never cross a line; from 56 mod 64
	 * (8-aligned) they do */
	assert_int_equal(h[1].fix_align, 16);
	assert_int_equal(h[1].here_align, 8);
	/* at 0x30: inside one 16 B window (0x30..0x3e) */
	assert_int_equal(loop_hazards(p, &g, 0x10030, 4096, h, 8), 0);
}

static void loop_buffer_hides_straddle(void **state)
{
	struct loop_geometry g = tight_loop(15, 11, 13);
	struct hazard h[8];

	assert_int_equal(loop_hazards(profile_named("haswell"), &g, 0x3a, 4096, h, 8), 0);
	g.fits_loop_buffer_shape = false;       /* a call inside: not from the LSD */
	/* 0x3a..0x48 straddles 16, the 32 B DSB window and the line */
	assert_int_equal(loop_hazards(profile_named("haswell"), &g, 0x3a, 4096, h, 8), 3);
}

/* The back-end bound: copy_unrolled's 80-byte loop (21 instructions, 8
 * stores) at 49 mod 64 touches three lines where two would do; a core that
 * retires 2 stores a cycle spends 4 cycles on its stores, more than the 3
 * lines take to fetch. */
static void back_end_hides_straddle(void **state)
{
	struct profile p = *profile_named("zen5");
	struct loop_geometry g = tight_loop(80, 76, 78);
	struct hazard h[8];

	p.issue_width = 10;
	p.stores_per_cycle = 2;
	g.ninsn = 21;
	g.nstore = 8;
	assert_int_equal(loop_hazards(&p, &g, 0x1031, 4096, h, 8), 0);
	g.nstore = 5;                           /* 2.5 cycles < 3 lines */
	assert_int_equal(loop_hazards(&p, &g, 0x1031, 4096, h, 8), 1);
	assert_int_equal(h[0].window, 64);
	g.nstore = 6;                           /* 3 cycles: as long as fetching */
	assert_int_equal(loop_hazards(&p, &g, 0x1031, 4096, h, 8), 0);
	g.nstore = -1;                          /* not counted: no bound from stores */
	assert_int_equal(loop_hazards(&p, &g, 0x1031, 4096, h, 8), 1);
	g.ninsn = 30;                           /* 3 cycles of instructions */
	assert_int_equal(loop_hazards(&p, &g, 0x1031, 4096, h, 8), 0);
	/* the built-in zen4 profile has no bound */
	g.ninsn = 21;
	g.nstore = 8;
	assert_int_equal(loop_hazards(profile_named("zen4"), &g, 0x1031, 4096, h, 8), 1);
}

/* Stores are decoded only where the verdict depends on them: movq
 * %rax,(%rdi) four times, addq %r8,%rdi, decl %ecx, jnz (19 bytes). */
static void stores_counted_when_needed(void **state)
{
	static const uint8_t loop[19] = { 0x48, 0x89, 0x07, 0x48, 0x89, 0x07, 0x48, 0x89, 0x07,
					  0x48, 0x89, 0x07, 0x4c, 0x01, 0xc7, 0xff, 0xc9, 0x75,
					  0xed };
	struct profile p = *profile_named("zen5");
	struct decoder *d = decoder_new(ARCH_X86_64);
	struct loop_geometry g = tight_loop(19, 15, 17);
	struct insn in[7];
	size_t used;

	assert_int_equal(decode_run(d, loop, sizeof loop, 0x1000, in, 7, &used), 7);
	assert_int_equal(used, sizeof loop);
	p.issue_width = 10;
	p.stores_per_cycle = 2;
	g.ninsn = 7;
	g.nstore = -1;
	/* at 0x1000 it straddles nothing: not counted */
	loop_count_stores(&g, &p, d, in, loop, 0x1000, 4096);
	assert_int_equal(g.nstore, -1);
	/* relocatable, 4-aligned: some placement crosses a line */
	loop_count_stores(&g, &p, d, in, loop, 0x1000, 4);
	assert_int_equal(g.nstore, 4);
	/* across the line at 0x1030, under a profile without a bound: not counted */
	g.nstore = -1;
	loop_count_stores(&g, profile_named("zen4"), d, in, loop, 0x1030, 4096);
	assert_int_equal(g.nstore, -1);
	loop_count_stores(&g, &p, d, in, loop, 0x1030, 4096);
	assert_int_equal(g.nstore, 4);
	decoder_free(d);
}

static void jcc_erratum(void **state)
{
	const struct profile *p = profile_named("skylake");
	struct hazard h[8];
	/* 12-byte loop; fused cmp (3 B at 6) + jcc (3 B at 9, ends at 12) */
	struct loop_geometry g = tight_loop(12, 6, 9);

	/* start 0x14: pair 0x1a..0x20 ends on 32: branch-ends-window only */
	assert_int_equal(loop_hazards(p, &g, 0x14, 4096, h, 8), 1);
	assert_int_equal(h[0].rule, RULE_BRANCH_ENDS);
	assert_int_equal(h[0].window, 32);
	/* start 0x16: cmp at 0x1c..0x1f, jcc 0x1f..0x22: pair crosses 0x20;
	 * the loop 0x16..0x22 also straddles 16 and 32 */
	size_t n = loop_hazards(p, &g, 0x16, 4096, h, 8);
	assert_int_equal(n, 3);
	assert_int_equal(h[2].rule, RULE_BRANCH_CROSSES);
	assert_int_equal(h[2].severity, 3);
	/* start 0x18: cmp 0x1e..0x21 split by 0x20, jcc after: the pair crosses */
	n = loop_hazards(p, &g, 0x18, 4096, h, 8);
	assert_int_equal(h[n - 1].rule, RULE_BRANCH_CROSSES);
	/* start 0x00: nothing */
	assert_int_equal(loop_hazards(p, &g, 0x00, 4096, h, 8), 0);
}

static void fix_brings_in_nothing_new(void **state)
{
	const struct profile *p = profile_named("skylake");
	struct hazard h[8];
	/* 28-byte loop, unfused jnz in its last 2 bytes, at 0x184: the jnz ends
	 * on 0x1a0 (branch-ends-window), nothing else. .p2align 3 (0x188)
	 * would spread it over 3 windows of 16 and 2 of 32; .p2align 4
	 * (0x190): 2 of 32; .p2align 5 (0x1a0, +28) is clean. */
	struct loop_geometry g = tight_loop(28, 26, 26);

	assert_int_equal(loop_hazards(p, &g, 0x184, 4096, h, 8), 1);
	assert_int_equal(h[0].rule, RULE_BRANCH_ENDS);
	assert_int_equal(h[0].fix_align, 32);
	assert_int_equal(h[0].fix_pad, 28);
	assert_true(h[0].fix_clean);
}

static void goldencove_pair_rule(void **state)
{
	const struct profile *p = profile_named("goldencove");
	struct hazard h[8];
	/* decl (2 B at 11) + jnz (2 B at 13), 15 bytes */
	struct loop_geometry g = tight_loop(15, 11, 13);

	/* start 0x34: decl 0x3f..0x41 spans the line (measured 1.92x on EMR);
	 * the loop 0x34..0x42 spans it too */
	assert_int_equal(loop_hazards(p, &g, 0x34, 4096, h, 8), 2);
	assert_int_equal(h[0].rule, RULE_LOOP_STRADDLES);
	assert_int_equal(h[0].window, 64);
	assert_int_equal(h[1].rule, RULE_BRANCH_CROSSES);
	assert_int_equal(h[1].window, 64);
	/* start 0x33: decl 0x3e..0x40, jnz 0x40..0x42: the line between the
	 * parts (measured 1.13x) */
	assert_int_equal(loop_hazards(p, &g, 0x33, 4096, h, 8), 2);
	assert_int_equal(h[1].rule, RULE_BRANCH_CROSSES);
	/* start 0x35: the pair 0x40..0x44 is past the line; the loop straddles
	 * it only (measured 1.04x quiet, 1.50x on a shared core) */
	assert_int_equal(loop_hazards(p, &g, 0x35, 4096, h, 8), 1);
	assert_int_equal(h[0].rule, RULE_LOOP_STRADDLES);
	/* start 0x12: across the 32 B fetch window at 0x20 (0x12..0x20): no
	 * cost measured, no hazard */
	assert_int_equal(loop_hazards(p, &g, 0x12, 4096, h, 8), 0);
}

static void relocatable_placements(void **state)
{
	const struct profile *p = profile_named("zen1");
	struct loop_geometry g = tight_loop(15, 11, 13);
	struct hazard h[8];
	size_t n;

	/* offset 0x30 in a 16-aligned section: 16 B verdict certain (fits);
	 * 64 B: placements 0x30, 0x40, 0x50, 0x60 mod 64 -> starts at 0x30
	 * (0x30..0x3f fits), 0x00, 0x10, 0x20: none crosses a line. */
	assert_int_equal(loop_hazards(p, &g, 0x30, 16, h, 8), 0);
	/* offset 0x39, align 4: 16 B has 4 placements (1, 5, 9, 13 mod 16):
	 * 15 bytes from 1 end at 15 and fit; from 5, 9, 13 they straddle */
	n = loop_hazards(p, &g, 0x39, 4, h, 8);
	assert_int_equal(n, 2);
	assert_false(h[0].certain);
	assert_int_equal(h[0].window, 16);
	assert_int_equal(h[0].bad_placements, 3);
	assert_int_equal(h[0].all_placements, 4);
	/* 64 B: 16 placements 1+4k; 15 bytes cross the line when the start is
	 * 50 or more: 53, 57, 61 -> 3 of 16 */
	assert_int_equal(h[1].window, 64);
	assert_int_equal(h[1].bad_placements, 3);
	assert_int_equal(h[1].all_placements, 16);
	/* fix: .p2align 4 puts it at 0x40 (pad 7), 16-aligned: then certain at
	 * 16 B, and 15 B from a multiple of 16 never cross a line */
	assert_int_equal(h[0].fix_align, 16);
	assert_int_equal(h[0].fix_pad, 7);
	/* offset 0x3a, align 4: every placement (2, 6, 10, 14) straddles 16 B,
	 * so the verdict is certain although the section is only 4-aligned */
	n = loop_hazards(p, &g, 0x3a, 4, h, 8);
	assert_true(h[0].certain);
	assert_int_equal(h[0].bad_placements, 4);
	assert_int_equal(h[0].all_placements, 4);
}

static void entry_misaligned(void **state)
{
	const struct profile *p = profile_named("generic-x86");
	struct hazard h[2];

	/* Seed 003: 40 bytes at a line boundary, then shifted by 30 */
	assert_int_equal(entry_hazards(p, 0x1000, 40, 4096, h, 2), 0);
	assert_int_equal(entry_hazards(p, 0x101e, 40, 4096, h, 2), 1);
	assert_int_equal(h[0].rule, RULE_ENTRY_MISALIGNED);
	assert_int_equal(h[0].window, 64);
	/* 0x101e -> .p2align 5 gives 0x1020..0x1048: crosses 0x1040; 64 -> 0x1040, pad 34 */
	assert_int_equal(h[0].fix_align, 64);
	assert_int_equal(h[0].fix_pad, 34);
	/* larger than a line: not this rule's business */
	assert_int_equal(entry_hazards(p, 0x101e, 65, 4096, h, 2), 0);
}

static void rule_names(void **state)
{
	assert_string_equal(rule_name(RULE_LOOP_STRADDLES), "loop-straddles-window");
	assert_int_equal(rule_from_name("branch-ends-window"), RULE_BRANCH_ENDS);
	assert_int_equal(rule_from_name("entry-misaligned"), RULE_ENTRY_MISALIGNED);
	assert_int_equal(rule_from_name("nope"), -1);
}

static void host_tables(void **state)
{
	assert_string_equal(profile_for_x86("GenuineIntel", 6, 0xcf)->name, "goldencove");
	assert_string_equal(profile_for_x86("GenuineIntel", 6, 0x55)->name, "skylake");
	assert_string_equal(profile_for_x86("GenuineIntel", 6, 0x3c)->name, "haswell");
	assert_string_equal(profile_for_x86("AuthenticAMD", 0x17, 0x01)->name, "zen1");
	assert_string_equal(profile_for_x86("AuthenticAMD", 0x17, 0x31)->name, "zen2");
	assert_string_equal(profile_for_x86("AuthenticAMD", 0x19, 0x61)->name, "zen4");
	assert_string_equal(profile_for_x86("AuthenticAMD", 0x19, 0x21)->name, "zen3");
	assert_null(profile_for_x86("GenuineIntel", 6, 0x01));
	assert_string_equal(profile_for_midr(0x481fd010)->name, "hip08");
	assert_string_equal(profile_for_midr(0x413fd0c1)->name, "neoverse-n1");
	assert_null(profile_for_midr(0x410fd030));
	for (size_t i = 0; i < profile_count(); i++) {
		assert_non_null(profile_at(i)->evidence);
		assert_true(profile_at(i)->line == 64);
	}
}

/* What diff matches functions by: nops leave the shape alone (their count
 * is the link's), not the form; the mix counts differing instructions. */
static void func_shapes(void **state)
{
	struct insn a[] = { { .shape = 10, .len = 3 }, { .shape = 11, .len = 4 },
			    { .shape = 12, .len = 2 }, { .shape = 13, .len = 2 } };
	struct insn b[] = { { .shape = 10, .len = 3 }, { .shape = 99, .len = 1, .padding = 1 },
			    { .shape = 11, .len = 4 }, { .shape = 12, .len = 2 },
			    { .shape = 13, .len = 2 } };
	struct insn c[] = { { .shape = 10, .len = 3 }, { .shape = 11, .len = 7 },
			    { .shape = 12, .len = 2 }, { .shape = 13, .len = 2 } };
	struct func_shape sa, sb, sc, sd;

	(void)state;
	func_shape(a, 4, &sa);
	func_shape(b, 5, &sb);
	func_shape(c, 4, &sc);
	func_shape(a, 3, &sd);
	assert_true(sa.shape == sb.shape);
	assert_true(sa.form != sb.form);
	assert_true(sa.shape == sc.shape);          /* a longer encoding: same mnemonics */
	assert_true(sa.form != sc.form);            /* ... other bytes: "changed" */
	assert_true(sa.form == form_hash(a, 4));
	assert_int_equal(shape_distance(&sa, &sb), 0);
	assert_int_equal(shape_distance(&sa, &sd), 1);      /* one instruction fewer */
	assert_true(sa.shape != sd.shape);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(windows_count),
		cmocka_unit_test(pieces_count),
		cmocka_unit_test(pieces_fix),
		cmocka_unit_test(pieces_offsets),
		cmocka_unit_test(branch_moves),
		cmocka_unit_test(zen1_seed000),
		cmocka_unit_test(loop_buffer_hides_straddle),
		cmocka_unit_test(jcc_erratum),
		cmocka_unit_test(fix_brings_in_nothing_new),
		cmocka_unit_test(goldencove_pair_rule),
		cmocka_unit_test(relocatable_placements),
		cmocka_unit_test(entry_misaligned),
		cmocka_unit_test(back_end_hides_straddle),
		cmocka_unit_test(stores_counted_when_needed),
		cmocka_unit_test(rule_names),
		cmocka_unit_test(host_tables),
		cmocka_unit_test(func_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
