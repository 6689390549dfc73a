/* The decoder on byte sequences whose meaning is known (Intel SDM vol. 2,
 * Arm ARM; the AArch64 words were checked with aarch64-linux-gnu-objdump). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <Zydis/Zydis.h>

#include "decode/decode.h"

static struct insn one(struct decoder *d, const char *bytes, size_t n, uint64_t addr)
{
	struct insn i;

	decode_one(d, (const uint8_t *)bytes, n, addr, &i);
	return i;
}

#define X(d, s, addr) one(d, s, sizeof(s) - 1, addr)

static void x86_seed000_loop(void **state)
{
	struct decoder *d = decoder_new(ARCH_X86_64);
	/* movq $0,(%rdi); addq $8,%rdi; decl %ecx; jnz 0b: the 15-byte loop */
	struct insn mov = X(d, "\x48\xc7\x07\x00\x00\x00\x00", 0x1000);
	struct insn add = X(d, "\x48\x83\xc7\x08", 0x1007);
	struct insn dec = X(d, "\xff\xc9", 0x100b);
	struct insn jnz = X(d, "\x75\xf1", 0x100d);

	assert_int_equal(mov.len, 7);
	assert_int_equal(mov.kind, BR_NONE);
	assert_int_equal(add.len, 4);
	assert_int_equal(dec.len, 2);
	assert_int_equal(jnz.len, 2);
	assert_int_equal(jnz.kind, BR_COND);
	assert_int_equal(jnz.target, 0x1000);
	assert_true(insn_fuses(&dec, &jnz));
	assert_false(insn_fuses(&mov, &jnz));   /* mov never fuses */
	assert_false(insn_fuses(&add, &jnz));   /* not adjacent */
	decoder_free(d);
}

static void x86_fusion_rules(void **state)
{
	struct decoder *d = decoder_new(ARCH_X86_64);
	struct insn cmp_mem_imm = X(d, "\x83\x3f\x00", 0x10);          /* cmpl $0,(%rdi) */
	struct insn cmp_rip = X(d, "\x48\x3b\x05\x00\x00\x00\x00", 0x10); /* cmp 0(%rip),%rax */
	struct insn test = X(d, "\x48\x85\xc0", 0x10);                 /* test %rax,%rax */
	struct insn cmp = X(d, "\x48\x39\xc8", 0x10);                  /* cmp %rcx,%rax */
	struct insn inc = X(d, "\xff\xc0", 0x11);                      /* inc %eax */
	struct insn js = X(d, "\x78\x00", 0x13);
	struct insn jb = X(d, "\x72\x00", 0x13);
	struct insn jne = X(d, "\x75\x00", 0x13);

	assert_false(insn_fuses(&cmp_mem_imm, &(struct insn){ .addr = 0x13, .kind = BR_COND,
						   .fuse_cond = jne.fuse_cond }));
	cmp_rip.addr = 0x0c;
	assert_false(insn_fuses(&cmp_rip, &jne));
	assert_true(insn_fuses(&test, &js));    /* TEST fuses with every jcc */
	assert_false(insn_fuses(&cmp, &js));    /* CMP not with the sign ones */
	assert_true(insn_fuses(&cmp, &jb));
	assert_true(insn_fuses(&cmp, &jne));
	assert_false(insn_fuses(&inc, &jb));    /* INC/DEC not with carry */
	assert_true(insn_fuses(&inc, &jne));
	decoder_free(d);
}

static void x86_branch_kinds(void **state)
{
	struct decoder *d = decoder_new(ARCH_X86_64);
	struct insn call = X(d, "\xe8\x10\x00\x00\x00", 0x2000);

	assert_int_equal(call.kind, BR_CALL);
	assert_int_equal(call.target, 0x2015);
	assert_int_equal(X(d, "\xff\xd0", 0).kind, BR_CALL_IND);
	assert_int_equal(X(d, "\xff\xe0", 0).kind, BR_JUMP_IND);
	/* through memory, RIP-relative: the PLT's jmp *GOT(%rip) and -fno-plt
	 * calls are indirect, not jumps to the next instruction */
	assert_int_equal(X(d, "\xff\x25\xca\x2f\x00\x00", 0x1030).kind, BR_JUMP_IND);
	assert_int_equal(X(d, "\xff\x15\xca\x2f\x00\x00", 0x1030).kind, BR_CALL_IND);
	assert_int_equal(X(d, "\xeb\xfe", 0x30).target, 0x30);        /* jmp . */
	assert_int_equal(X(d, "\xeb\xfe", 0x30).kind, BR_JUMP);
	assert_int_equal(X(d, "\xe9\x00\x01\x00\x00", 0x30).target, 0x135);
	assert_int_equal(X(d, "\xc3", 0).kind, BR_RET);
	assert_int_equal(X(d, "\x0f\x0b", 0).kind, BR_STOP);            /* ud2 */
	assert_int_equal(X(d, "\xcc", 0).kind, BR_STOP);                /* int3 */
	assert_int_equal(X(d, "\xe3\x00", 0).kind, BR_COND);            /* jrcxz */
	assert_int_equal(X(d, "\x0f\x85\x00\x00\x00\x00", 0x40).target, 0x46);
	decoder_free(d);
}

static void x86_bad_bytes(void **state)
{
	struct decoder *d = decoder_new(ARCH_X86_64);
	struct insn bad = X(d, "\x06", 0x50);                           /* push %es: not in 64-bit */
	struct insn cut = one(d, "\x48\xc7\x07\x00", 4, 0x60);          /* truncated movq */

	assert_int_equal(bad.kind, BR_INVALID);
	assert_int_equal(bad.len, 1);
	assert_int_equal(cut.kind, BR_INVALID);
	assert_int_equal(cut.len, 1);
	decoder_free(d);
}

static struct insn word(struct decoder *d, uint32_t w, uint64_t addr)
{
	uint8_t b[4];

	memcpy(b, &w, 4);       /* little-endian host */
	struct insn i;
	decode_one(d, b, 4, addr, &i);
	return i;
}

static void arm64_seed002_loop(void **state)
{
	struct decoder *d = decoder_new(ARCH_AARCH64);
	struct insn str = word(d, 0xf800841f, 0x400000);        /* str xzr,[x0],#8 */
	struct insn subs = word(d, 0xf1002021, 0x400008);       /* subs x1,x1,#8 */
	struct insn bpl = word(d, 0x54ffffa5, 0x40000c);        /* b.pl 0x400000 */
	struct insn cmp = word(d, 0xf100003f, 0x400010);        /* cmp x1,#0 */
	struct insn bne = word(d, 0x54ffff61, 0x400014);        /* b.ne 0x400000 */

	assert_int_equal(str.len, 4);
	assert_int_equal(str.kind, BR_NONE);
	assert_int_equal(subs.kind, BR_NONE);
	assert_int_equal(bpl.kind, BR_COND);
	assert_int_equal(bpl.target, 0x400000);
	assert_true(insn_fuses(&cmp, &bne));
	assert_int_equal(word(d, 0x97fffffa, 0x400018).kind, BR_CALL);
	assert_int_equal(word(d, 0x97fffffa, 0x400018).target, 0x400000);
	assert_int_equal(word(d, 0xd63f0060, 0).kind, BR_CALL_IND);
	assert_int_equal(word(d, 0xd61f0080, 0).kind, BR_JUMP_IND);
	assert_int_equal(word(d, 0xd65f03c0, 0).kind, BR_RET);
	assert_int_equal(word(d, 0xb4fffec0, 0x400028).target, 0x400000);   /* cbz */
	assert_int_equal(word(d, 0x371ffea1, 0x40002c).kind, BR_COND);      /* tbnz */
	assert_int_equal(word(d, 0x371ffea1, 0x40002c).target, 0x400000);
	assert_int_equal(word(d, 0xd4200000, 0).kind, BR_STOP);             /* brk */
	assert_int_equal(word(d, 0x00000000, 0).kind, BR_STOP);              /* udf #0 */
	assert_int_equal(word(d, 0xa4024020, 0).kind, BR_NONE);              /* SVE ld1b */
	assert_int_equal(word(d, 0xa4024020, 0).undecoded, 1);
	assert_int_equal(word(d, 0xd9600000, 0).kind, BR_NONE);              /* MTE ldg */
	assert_int_equal(word(d, 0xf1002021, 0).undecoded, 0);
	struct insn cut;
	decode_one(d, (const uint8_t *)"\x1f\x84", 2, 0x10, &cut);
	assert_int_equal(cut.kind, BR_INVALID);
	assert_int_equal(cut.len, 2);
	decoder_free(d);
}

/* decode_run is decode_one instruction after instruction: the lengths,
 * a bad byte of one, and the stop when out is full. */
static void decode_run_matches_one_by_one(void **state)
{
	struct decoder *x = decoder_new(ARCH_X86_64), *a = decoder_new(ARCH_AARCH64);
	/* addq $8,%rdi; decl %ecx; jnz -15; (bad: 06 is no x86-64 opcode); ret */
	const uint8_t b[] = "\x48\x83\xc7\x08\xff\xc9\x75\xf1\x06\xc3";
	/* str xzr,[x0],#8; b.pl -12; a 2-byte tail */
	const uint8_t w[] = "\x1f\x84\x00\xf8\xa5\xff\xff\x54\x1f\x84";
	struct insn out[8];
	size_t used = 0;

	assert_int_equal(decode_run(x, b, 10, 0x1000, out, 2, &used), 2);
	assert_int_equal(used, 6);
	assert_int_equal(decode_run(x, b, 10, 0x1000, out, 8, &used), 5);
	assert_int_equal(used, 10);
	assert_int_equal(out[1].addr, 0x1004);
	assert_int_equal(out[2].kind, BR_COND);
	assert_int_equal(out[2].target, 0xff9);
	assert_int_equal(out[3].kind, BR_INVALID);
	assert_int_equal(out[3].len, 1);
	assert_int_equal(out[4].kind, BR_RET);
	assert_int_equal(out[4].addr, 0x1009);
	assert_int_equal(decode_run(a, w, 10, 0x400000, out, 8, &used), 3);
	assert_int_equal(used, 10);
	assert_int_equal(out[1].target, 0x3ffff8);
	assert_int_equal(out[2].kind, BR_INVALID);
	assert_int_equal(out[2].len, 2);
	decoder_free(x);
	decoder_free(a);
}

/* decode_count_stores over code[0..n), decoded as the scan decodes it. */
static unsigned count_stores(struct decoder *d, const uint8_t *code, size_t n)
{
	struct insn in[64];
	size_t used;

	assert_true(decode_run(d, code, n, 0, in, 64, &used) < 64);
	assert_int_equal(used, n);
	return decode_count_stores(d, in, code, n);
}

/* Memory writes (objdump of each sequence in the comments): a store, a
 * push, rep stos, a read-modify-write, an AVX store, a call and a locked
 * cmpxchg write; a load, lea, a nop with a memory operand, a compare with
 * memory, a prefetch and ret do not. */
static void x86_stores(void **state)
{
	static const char code[] =
		"\x48\x89\x07"               /* mov %rax,(%rdi) */
		"\x48\x8b\x07"               /* mov (%rdi),%rax */
		"\x48\x8d\x47\x08"           /* lea 0x8(%rdi),%rax */
		"\x0f\x1f\x44\x00\x00"       /* nopl 0x0(%rax,%rax,1) */
		"\x50"                       /* push %rax */
		"\xf3\x48\xab"               /* rep stos %rax,%es:(%rdi) */
		"\x48\x01\x07"               /* add %rax,(%rdi) */
		"\x48\x83\x3f\x00"           /* cmpq $0x0,(%rdi) */
		"\xc5\xfe\x7f\x07"           /* vmovdqu %ymm0,(%rdi) */
		"\x0f\x18\x0f"               /* prefetcht0 (%rdi) */
		"\xe8\x00\x00\x00\x00"       /* call */
		"\xf0\x48\x0f\xb1\x17"       /* lock cmpxchg %rdx,(%rdi) */
		"\xc3";                      /* ret */
	struct decoder *d = decoder_new(ARCH_X86_64);

	assert_int_equal(count_stores(d, (const uint8_t *)code, sizeof code - 1), 7);
	assert_int_equal(count_stores(d, (const uint8_t *)code + 3, 12), 0);
	decoder_free(d);
}

/* str, stp, ldadd, swp, cas and str q0 write; ldr, ldxr, nop and ldapr
 * do not (Capstone 4 decodes none of the v8.1 atomics: by encoding). */
static void arm64_stores(void **state)
{
	static const uint32_t words[] = { 0xf9000001, 0xf9400001, 0xa9000801, 0xf8210002,
					  0xf8218002, 0xc8a17c02, 0xc85f7c01, 0xd503201f,
					  0x3c800400, 0xf8bfc001 };
	uint8_t code[sizeof words];
	struct decoder *d = decoder_new(ARCH_AARCH64);

	for (size_t i = 0; i < sizeof words / 4; i++)
		for (int k = 0; k < 4; k++)
			code[4 * i + k] = (uint8_t)(words[i] >> (8 * k));
	assert_int_equal(count_stores(d, code, sizeof code), 6);
	decoder_free(d);
}

/* ---- the store filter against the full decode ----
 * The scan counts a loop's stores by decoding again, with operands, only
 * the instructions a cheap look could not clear. So wherever it clears
 * one, the full decode must find no write; and the lengths must agree
 * (the count walks the records, the old count walked bytes). */

/* xorshift64 (Marsaglia 2003): the same sequence on every machine. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct flag_check {
	struct decoder *d;
	ZydisDecoder full;
	unsigned long clear, set;
};

static void check_x86_flag(struct flag_check *c, const uint8_t *p, size_t n)
{
	struct insn in;
	ZydisDecodedInstruction z;
	bool may, holds;

	decode_one(c->d, p, n, 0x1000, &in);
	if (ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&c->full, NULL, p, n, &z)))
		assert_int_equal(z.length, in.len);
	else
		assert_int_equal(in.kind, BR_INVALID);
	holds = decode_store_filter_holds(c->d, p, in.len, &may);
	c->set += may;
	c->clear += !may;
	if (!holds) {
		print_error("the filter clears a write:");
		for (size_t k = 0; k < in.len; k++)
			print_error(" %02x", p[k]);
		print_error("\n");
		fail();
	}
}

/* Opcode `op` then `modrm` after prefix bytes pre[0..npre), then a fixed
 * random tail for SIB, displacement and immediate. */
static void check_x86_form(struct flag_check *c, const uint8_t *pre, size_t npre,
			   const uint8_t *tail, uint8_t op, uint8_t modrm)
{
	uint8_t b[32];

	memcpy(b, pre, npre);
	b[npre] = op;
	b[npre + 1] = modrm;
	memcpy(b + npre + 2, tail, 15);
	check_x86_flag(c, b, npre + 2 + 15);
}

/* Every opcode of the one-byte map and of 0F, 0F 38, 0F 3A and 3DNow!'s
 * 0F 0F, with every following byte (all ModRM forms; for the one-byte map
 * also every two-byte sequence), under no prefix, 66, F2, F3, REX.W, their
 * pairs and lock; the VEX, EVEX and XOP maps with each vector length,
 * width and implied prefix, ModRMs covering every reg field in register
 * and memory forms; and 2^20 random strings. */
static void x86_store_filter_never_hides_a_write(void **state)
{
	static const uint8_t legacy[][3] = { { 0 }, { 1, 0x66 }, { 1, 0xf2 }, { 1, 0xf3 },
					     { 1, 0x48 }, { 2, 0x66, 0x48 }, { 2, 0xf2, 0x48 },
					     { 2, 0xf3, 0x48 }, { 1, 0xf0 } };
	static const uint8_t maps[][3] = { { 0 }, { 1, 0x0f }, { 2, 0x0f, 0x38 },
					   { 2, 0x0f, 0x3a }, { 2, 0x0f, 0x0f } };
	/* every reg field in register form and in memory forms: base, SIB,
	 * RIP-relative, disp8, disp32 */
	static const uint8_t modrms[] = { 0xc0, 0xc9, 0xd2, 0xdb, 0xe4, 0xed, 0xf6, 0xff,
					  0x00, 0x0f, 0x14, 0x1d, 0x64, 0x6e, 0xb4, 0xbd };
	struct flag_check c = { .d = decoder_new(ARCH_X86_64) };
	uint64_t seed = 0x5eed0008;
	uint8_t tail[15], pre[8], b[16];

	ZydisDecoderInit(&c.full, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	for (size_t k = 0; k < sizeof tail; k++)
		tail[k] = (uint8_t)next_random(&seed);
	for (size_t l = 0; l < sizeof legacy / sizeof *legacy; l++)
		for (size_t m = 0; m < sizeof maps / sizeof *maps; m++) {
			size_t npre = 0;

			for (size_t k = 0; k < legacy[l][0]; k++)
				pre[npre++] = legacy[l][1 + k];
			for (size_t k = 0; k < maps[m][0]; k++)
				pre[npre++] = maps[m][1 + k];
			for (unsigned op = 0; op < 256; op++)
				for (unsigned modrm = 0; modrm < 256; modrm++)
					check_x86_form(&c, pre, npre, tail, (uint8_t)op, (uint8_t)modrm);
		}
	/* VEX: C5 RvvvvLpp, and C4 RXBmmmmm WvvvvLpp */
	for (unsigned v = 0; v < 256; v++)
		for (unsigned op = 0; op < 256; op++)
			for (size_t r = 0; r < sizeof modrms; r++)
				check_x86_form(&c, (const uint8_t[]){ 0xc5, (uint8_t)v }, 2, tail,
					       (uint8_t)op, modrms[r]);
	for (unsigned map = 0; map < 8; map++)
		for (unsigned wlpp = 0; wlpp < 16; wlpp++)
			for (unsigned op = 0; op < 256; op++)
				for (size_t r = 0; r < sizeof modrms; r++) {
					uint8_t w = (uint8_t)((wlpp & 8) << 4 | 0x78 | (wlpp & 7));

					check_x86_form(&c, (const uint8_t[]){ 0xc4, (uint8_t)(0xe0 | map), w }, 3,
						       tail, (uint8_t)op, modrms[r]);
					/* XOP: 8F RXBmmmmm, maps 8 to 10 */
					if (map < 3)
						check_x86_form(&c, (const uint8_t[]){ 0x8f, (uint8_t)(0xe8 + map), w },
							       3, tail, (uint8_t)op, modrms[r]);
				}
	/* EVEX: 62 RXBR'0mmm Wvvvv1pp zL'LbV'aaa, merging into k1 or not */
	for (unsigned map = 1; map < 8; map++)
		for (unsigned wpp = 0; wpp < 8; wpp++)
			for (unsigned llbk = 0; llbk < 16; llbk++)
				for (unsigned op = 0; op < 256; op++)
					for (size_t r = 0; r < sizeof modrms; r++) {
						uint8_t p1 = (uint8_t)((wpp & 4) << 5 | 0x7c | (wpp & 3));
						uint8_t p2 = (uint8_t)((llbk & 7) << 4 | 0x08 | (llbk >> 3));

						check_x86_form(&c, (const uint8_t[]){ 0x62, (uint8_t)(0xf0 | map), p1, p2 },
							       4, tail, (uint8_t)op, modrms[r]);
					}
	for (unsigned long i = 0; i < 1ul << 20; i++) {
		uint64_t a = next_random(&seed), z = next_random(&seed);

		memcpy(b, &a, 8);
		memcpy(b + 8, &z, 8);
		check_x86_flag(&c, b, 15);
	}
	print_message("x86 forms: %lu cleared, %lu left to the full decode\n", c.clear, c.set);
	/* not vacuous: most forms are proved write-free, many are not */
	assert_true(c.clear > c.set);
	assert_true(c.set > 100000);
	decoder_free(c.d);
}

/* AArch64: 2^20 random words and every top half-word with four random
 * low halves. The filter passes only the loads-and-stores group (op0 x1x0,
 * Arm ARM C4.1), so a word it clears that arm64_writes_memory counts would
 * be a writing word outside the group. */
static void check_arm64_flag(struct decoder *d, uint32_t w, unsigned long *may_n)
{
	uint8_t p[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
	bool may;

	if (!decode_store_filter_holds(d, p, 4, &may)) {
		print_error("word %08x writes outside the loads-and-stores group\n", w);
		fail();
	}
	assert_int_equal(may, (w & 0x0a000000u) == 0x08000000u);
	*may_n += may;
}

static void arm64_store_filter_never_hides_a_write(void **state)
{
	struct decoder *d = decoder_new(ARCH_AARCH64);
	uint64_t seed = 0x5eed0008;
	unsigned long may = 0;

	for (unsigned long i = 0; i < 1ul << 20; i++)
		check_arm64_flag(d, (uint32_t)next_random(&seed), &may);
	for (uint32_t hi = 0; hi < 1u << 16; hi++)
		for (int k = 0; k < 4; k++)
			check_arm64_flag(d, hi << 16 | (uint32_t)(next_random(&seed) & 0xffff), &may);
	assert_true(may > 100000);
	decoder_free(d);
}

/* The quick path (decode/x86_quick.c) against Zydis on 2 million random
 * instructions: prefixes 0x66 and REX in front of a random one-byte or 0F
 * opcode, then random ModRM, SIB, displacement and immediate bytes, cut
 * at a random length (so operands run out mid-way too). Wherever the
 * quick path takes the bytes, length, mnemonic, branch kind, target,
 * fusion class and may_store must be Zydis's. */
static void x86_quick_path_is_zydis(void **state)
{
	struct decoder *d = decoder_new(ARCH_X86_64);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t quick = 0, differ = 0;

	for (int i = 0; i < 2000000; i++) {
		uint8_t b[16];
		uint64_t r = next_random(&seed), r2 = next_random(&seed);
		size_t at = 0;
		bool q;

		memcpy(b, &r, 8);
		memcpy(b + 8, &r2, 8);
		if (r & (1ull << 60))
			b[at++] = 0x66;
		if (r & (1ull << 61))
			b[at++] = (uint8_t)(0x40 | ((r >> 56) & 15));
		if (r & (1ull << 62))
			b[at++] = 0x0f;
		if (!decode_quick_agrees(d, b, 1 + r2 % 16, &q) && differ++ < 5)
			print_message("differ: %02x %02x %02x %02x %02x %02x\n", b[0], b[1], b[2], b[3],
				      b[4], b[5]);
		quick += q;
	}
	assert_int_equal(differ, 0);
	/* not a vacuous pass: most of the table was exercised */
	assert_true(quick > 400000);
	decoder_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_seed000_loop),
		cmocka_unit_test(x86_fusion_rules),
		cmocka_unit_test(x86_branch_kinds),
		cmocka_unit_test(x86_bad_bytes),
		cmocka_unit_test(x86_quick_path_is_zydis),
		cmocka_unit_test(arm64_seed002_loop),
		cmocka_unit_test(decode_run_matches_one_by_one),
		cmocka_unit_test(x86_stores),
		cmocka_unit_test(arm64_stores),
		cmocka_unit_test(x86_store_filter_never_hides_a_write),
		cmocka_unit_test(arm64_store_filter_never_hides_a_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
