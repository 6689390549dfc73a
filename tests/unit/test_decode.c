/* The decoder on byte sequences whose meaning is known (Intel SDM vol. 2,
 * Arm ARM; the AArch64 words were checked with aarch64-linux-gnu-objdump). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_seed000_loop),
		cmocka_unit_test(x86_fusion_rules),
		cmocka_unit_test(x86_branch_kinds),
		cmocka_unit_test(x86_bad_bytes),
		cmocka_unit_test(arm64_seed002_loop),
		cmocka_unit_test(decode_run_matches_one_by_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
