/* The x86-64 instructions most code is made of, decoded without Zydis.
 *
 * Why: a minimal-mode Zydis decode costs about 850 instructions of the host
 * per instruction decoded (callgrind, libc), the scan's whole budget (the
 * scan within 1.5x of a bare Zydis walk). Integer code is mostly a few dozen
 * one-byte and 0F opcodes whose length and meaning follow from the opcode,
 * ModRM and SIB alone (Intel SDM vol. 2, 2.1 and appendix A). Those are read
 * here; everything else (other prefixes, VEX/EVEX, SSE, x87, system
 * instructions, any doubt) returns false and goes to Zydis, as before.
 *
 * The answer must be Zydis's answer, mnemonic id included (shape hashes mix
 * the two paths): tests/unit/test_decode.c compares the two on two million
 * random instructions, tests/cmd/t_objdump.sh on every instruction of the C
 * library (`insn_dump --check`, which also ran clean over libLLVM-14 and -15
 * and a 6.1 vmlinux: 0 of 29.7 million differ). */
#include "internal.h"

#include <Zydis/Zydis.h>

enum {
	Q_MODRM = 1,            /* a ModRM byte, then SIB and displacement */
	Q_IB = 2,               /* an 8-bit immediate */
	Q_IZ = 4,               /* 16 or 32 bits, by operand size */
	Q_IV = 8,               /* mov r, imm: 64 bits with REX.W */
	Q_IW = 16,              /* ret imm16 */
	Q_REL8 = 32,            /* rel8 branch */
	Q_REL32 = 64,           /* rel32 branch */
	Q_MEM = 128,            /* the ModRM must name memory (lea) */
	Q_NO66 = 256,           /* 0x66 changes it: leave to Zydis */
	Q_IMM0 = 512,           /* the immediate only with ModRM.reg 0 (test) */
};

/* ModRM.reg picks the mnemonic; 0 (ZYDIS_MNEMONIC_INVALID) leaves it to
 * Zydis (an undefined or rare form). */
enum { G_NONE, G_ALU, G_SHIFT, G_UNARY, G_INCDEC, G_FF, G_MOV, G_POP, G_BT, G_NOP, G_COUNT };

static const uint16_t group_mnemonic[G_COUNT][8] = {
	[G_ALU] = { ZYDIS_MNEMONIC_ADD, ZYDIS_MNEMONIC_OR, ZYDIS_MNEMONIC_ADC, ZYDIS_MNEMONIC_SBB,
		    ZYDIS_MNEMONIC_AND, ZYDIS_MNEMONIC_SUB, ZYDIS_MNEMONIC_XOR, ZYDIS_MNEMONIC_CMP },
	[G_SHIFT] = { ZYDIS_MNEMONIC_ROL, ZYDIS_MNEMONIC_ROR, ZYDIS_MNEMONIC_RCL, ZYDIS_MNEMONIC_RCR,
		      ZYDIS_MNEMONIC_SHL, ZYDIS_MNEMONIC_SHR, 0, ZYDIS_MNEMONIC_SAR },
	[G_UNARY] = { ZYDIS_MNEMONIC_TEST, 0, ZYDIS_MNEMONIC_NOT, ZYDIS_MNEMONIC_NEG,
		      ZYDIS_MNEMONIC_MUL, ZYDIS_MNEMONIC_IMUL, ZYDIS_MNEMONIC_DIV, ZYDIS_MNEMONIC_IDIV },
	[G_INCDEC] = { ZYDIS_MNEMONIC_INC, ZYDIS_MNEMONIC_DEC },
	/* call and jmp through memory or a register; far forms to Zydis */
	[G_FF] = { ZYDIS_MNEMONIC_INC, ZYDIS_MNEMONIC_DEC, ZYDIS_MNEMONIC_CALL, 0,
		   ZYDIS_MNEMONIC_JMP, 0, ZYDIS_MNEMONIC_PUSH, 0 },
	[G_MOV] = { ZYDIS_MNEMONIC_MOV },               /* C6/C7 /7 F8 is xabort/xbegin */
	[G_POP] = { ZYDIS_MNEMONIC_POP },               /* 8F /1-7 is AMD's XOP */
	[G_BT] = { 0, 0, 0, 0, ZYDIS_MNEMONIC_BT, ZYDIS_MNEMONIC_BTS, ZYDIS_MNEMONIC_BTR,
		   ZYDIS_MNEMONIC_BTC },
	[G_NOP] = { ZYDIS_MNEMONIC_NOP },               /* 0F 1F /0: the multi-byte nop */
};

struct quick_op {
	uint16_t mnemonic;      /* 0: see group, or not handled at all */
	uint16_t flags;
	uint8_t group;
};

#define ALU(base, m)                                                            \
	[base] = { m, Q_MODRM, 0 }, [base + 1] = { m, Q_MODRM, 0 },             \
	[base + 2] = { m, Q_MODRM, 0 }, [base + 3] = { m, Q_MODRM, 0 },         \
	[base + 4] = { m, Q_IB, 0 }, [base + 5] = { m, Q_IZ, 0 }

/* Condition codes in encoding order (SDM vol. 2, B.1.4.7). */
#define CC(op, x, flags)                                                        \
	[op + 0] = { x##O, flags, 0 }, [op + 1] = { x##NO, flags, 0 },          \
	[op + 2] = { x##B, flags, 0 }, [op + 3] = { x##NB, flags, 0 },          \
	[op + 4] = { x##Z, flags, 0 }, [op + 5] = { x##NZ, flags, 0 },          \
	[op + 6] = { x##BE, flags, 0 }, [op + 7] = { x##NBE, flags, 0 },        \
	[op + 8] = { x##S, flags, 0 }, [op + 9] = { x##NS, flags, 0 },          \
	[op + 10] = { x##P, flags, 0 }, [op + 11] = { x##NP, flags, 0 },        \
	[op + 12] = { x##L, flags, 0 }, [op + 13] = { x##NL, flags, 0 },        \
	[op + 14] = { x##LE, flags, 0 }, [op + 15] = { x##NLE, flags, 0 }

#define EIGHT(op, m, flags)                                                     \
	[op] = { m, flags, 0 }, [op + 1] = { m, flags, 0 }, [op + 2] = { m, flags, 0 }, \
	[op + 3] = { m, flags, 0 }, [op + 4] = { m, flags, 0 }, [op + 5] = { m, flags, 0 }, \
	[op + 6] = { m, flags, 0 }, [op + 7] = { m, flags, 0 }

static const struct quick_op one_byte[256] = {
	ALU(0x00, ZYDIS_MNEMONIC_ADD), ALU(0x08, ZYDIS_MNEMONIC_OR),
	ALU(0x10, ZYDIS_MNEMONIC_ADC), ALU(0x18, ZYDIS_MNEMONIC_SBB),
	ALU(0x20, ZYDIS_MNEMONIC_AND), ALU(0x28, ZYDIS_MNEMONIC_SUB),
	ALU(0x30, ZYDIS_MNEMONIC_XOR), ALU(0x38, ZYDIS_MNEMONIC_CMP),
	EIGHT(0x50, ZYDIS_MNEMONIC_PUSH, Q_NO66), EIGHT(0x58, ZYDIS_MNEMONIC_POP, Q_NO66),
	[0x63] = { ZYDIS_MNEMONIC_MOVSXD, Q_MODRM | Q_NO66, 0 },
	[0x68] = { ZYDIS_MNEMONIC_PUSH, Q_IZ | Q_NO66, 0 },
	[0x69] = { ZYDIS_MNEMONIC_IMUL, Q_MODRM | Q_IZ, 0 },
	[0x6a] = { ZYDIS_MNEMONIC_PUSH, Q_IB | Q_NO66, 0 },
	[0x6b] = { ZYDIS_MNEMONIC_IMUL, Q_MODRM | Q_IB, 0 },
	CC(0x70, ZYDIS_MNEMONIC_J, Q_REL8 | Q_NO66),
	[0x80] = { 0, Q_MODRM | Q_IB, G_ALU },
	[0x81] = { 0, Q_MODRM | Q_IZ, G_ALU },
	[0x83] = { 0, Q_MODRM | Q_IB, G_ALU },
	[0x84] = { ZYDIS_MNEMONIC_TEST, Q_MODRM, 0 }, [0x85] = { ZYDIS_MNEMONIC_TEST, Q_MODRM, 0 },
	[0x86] = { ZYDIS_MNEMONIC_XCHG, Q_MODRM, 0 }, [0x87] = { ZYDIS_MNEMONIC_XCHG, Q_MODRM, 0 },
	[0x88] = { ZYDIS_MNEMONIC_MOV, Q_MODRM, 0 }, [0x89] = { ZYDIS_MNEMONIC_MOV, Q_MODRM, 0 },
	[0x8a] = { ZYDIS_MNEMONIC_MOV, Q_MODRM, 0 }, [0x8b] = { ZYDIS_MNEMONIC_MOV, Q_MODRM, 0 },
	[0x8d] = { ZYDIS_MNEMONIC_LEA, Q_MODRM | Q_MEM, 0 },
	[0x8f] = { 0, Q_MODRM | Q_NO66, G_POP },
	[0xa8] = { ZYDIS_MNEMONIC_TEST, Q_IB, 0 }, [0xa9] = { ZYDIS_MNEMONIC_TEST, Q_IZ, 0 },
	EIGHT(0xb0, ZYDIS_MNEMONIC_MOV, Q_IB), EIGHT(0xb8, ZYDIS_MNEMONIC_MOV, Q_IV),
	[0xc0] = { 0, Q_MODRM | Q_IB, G_SHIFT }, [0xc1] = { 0, Q_MODRM | Q_IB, G_SHIFT },
	[0xc2] = { ZYDIS_MNEMONIC_RET, Q_IW | Q_NO66, 0 },
	[0xc3] = { ZYDIS_MNEMONIC_RET, Q_NO66, 0 },
	[0xc6] = { 0, Q_MODRM | Q_IB, G_MOV }, [0xc7] = { 0, Q_MODRM | Q_IZ, G_MOV },
	[0xc9] = { ZYDIS_MNEMONIC_LEAVE, Q_NO66, 0 },
	[0xcc] = { ZYDIS_MNEMONIC_INT3, 0, 0 },
	[0xd0] = { 0, Q_MODRM, G_SHIFT }, [0xd1] = { 0, Q_MODRM, G_SHIFT },
	[0xd2] = { 0, Q_MODRM, G_SHIFT }, [0xd3] = { 0, Q_MODRM, G_SHIFT },
	[0xe8] = { ZYDIS_MNEMONIC_CALL, Q_REL32 | Q_NO66, 0 },
	[0xe9] = { ZYDIS_MNEMONIC_JMP, Q_REL32 | Q_NO66, 0 },
	[0xeb] = { ZYDIS_MNEMONIC_JMP, Q_REL8 | Q_NO66, 0 },
	[0xf6] = { 0, Q_MODRM | Q_IB | Q_IMM0, G_UNARY },
	[0xf7] = { 0, Q_MODRM | Q_IZ | Q_IMM0, G_UNARY },
	[0xfe] = { 0, Q_MODRM, G_INCDEC },
	[0xff] = { 0, Q_MODRM | Q_NO66, G_FF },
};

static const struct quick_op two_byte[256] = {
	[0x05] = { ZYDIS_MNEMONIC_SYSCALL, Q_NO66, 0 },
	[0x0b] = { ZYDIS_MNEMONIC_UD2, Q_NO66, 0 },
	[0x1f] = { 0, Q_MODRM, G_NOP },
	CC(0x40, ZYDIS_MNEMONIC_CMOV, Q_MODRM),
	CC(0x80, ZYDIS_MNEMONIC_J, Q_REL32 | Q_NO66),
	CC(0x90, ZYDIS_MNEMONIC_SET, Q_MODRM | Q_NO66),
	[0xa2] = { ZYDIS_MNEMONIC_CPUID, Q_NO66, 0 },
	[0xa3] = { ZYDIS_MNEMONIC_BT, Q_MODRM, 0 },
	[0xab] = { ZYDIS_MNEMONIC_BTS, Q_MODRM, 0 },
	[0xaf] = { ZYDIS_MNEMONIC_IMUL, Q_MODRM, 0 },
	[0xb3] = { ZYDIS_MNEMONIC_BTR, Q_MODRM, 0 },
	[0xb6] = { ZYDIS_MNEMONIC_MOVZX, Q_MODRM, 0 }, [0xb7] = { ZYDIS_MNEMONIC_MOVZX, Q_MODRM, 0 },
	[0xba] = { 0, Q_MODRM | Q_IB, G_BT },
	[0xbb] = { ZYDIS_MNEMONIC_BTC, Q_MODRM, 0 },
	[0xbe] = { ZYDIS_MNEMONIC_MOVSX, Q_MODRM, 0 }, [0xbf] = { ZYDIS_MNEMONIC_MOVSX, Q_MODRM, 0 },
};

/* ModRM, SIB and displacement: their length, from p at the ModRM byte
 * (SDM vol. 2, tables 2-2 and 2-3, 64-bit addressing without 0x67). */
static unsigned modrm_length(const uint8_t *p, size_t n)
{
	unsigned mod = p[0] >> 6, rm = p[0] & 7, len = 1;

	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (n < 2)
			return 0;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;       /* no base: disp32 */
		len++;
	} else if (mod == 0 && rm == 5) {
		len += 4;               /* RIP-relative */
	}
	return len + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

/* The immediate (or relative displacement) bytes of op. */
static unsigned immediate_length(const struct quick_op *op, unsigned reg, bool opsize16,
				 bool rex_w)
{
	uint16_t f = op->flags;

	if ((f & Q_IMM0) && reg != 0)
		return 0;
	if (f & (Q_IB | Q_REL8))
		return 1;
	if (f & Q_IW)
		return 2;
	if (f & Q_REL32)
		return 4;
	if (f & Q_IV)
		return rex_w ? 8 : opsize16 ? 2 : 4;
	if (f & Q_IZ)
		return opsize16 && !rex_w ? 2 : 4;
	return 0;
}

static int64_t read_signed(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	if (size < 8 && (v >> (8 * size - 1) & 1))
		v |= ~(uint64_t)0 << (8 * size);
	return (int64_t)v;
}

/* The mnemonic Zydis gives op, where an operand size or REX bit changes
 * it; 0 when the form is left to Zydis. */
static uint16_t mnemonic_of(const struct quick_op *op, unsigned reg)
{
	return op->group ? group_mnemonic[op->group][reg] : op->mnemonic;
}

/* Past the prefixes the quick path reads, one 0x66 then REX (any other
 * goes to Zydis): the index of the opcode byte (0x0F for the two-byte
 * map), and the 0x66 and REX byte found (0 for none). */
static size_t opcode_at(const uint8_t *p, size_t n, bool *opsize16, uint8_t *rex)
{
	size_t at = 0;

	*opsize16 = n > 0 && p[0] == 0x66;
	at += *opsize16;
	*rex = at < n && (p[at] & 0xf0) == 0x40 ? p[at] : 0;
	return at + (*rex != 0);
}

void x86_quick_opcode(const uint8_t *p, size_t n, uint8_t *map, uint8_t *opcode)
{
	bool opsize16;
	uint8_t rex;
	size_t at = opcode_at(p, n, &opsize16, &rex);

	*map = p[at] == 0x0f ? ZYDIS_OPCODE_MAP_0F : ZYDIS_OPCODE_MAP_DEFAULT;
	*opcode = p[at + (p[at] == 0x0f)];
}

bool x86_quick_facts(const uint8_t *p, size_t n, struct x86_facts *f)
{
	const struct quick_op *op;
	bool opsize16;
	uint8_t rex;
	size_t at = opcode_at(p, n, &opsize16, &rex);
	bool rex_w = rex & 8, rex_b = rex & 1;
	unsigned reg = 0, len;

	if (at >= n)
		return false;
	if (p[at] == 0x0f) {
		if (++at >= n)
			return false;
		op = &two_byte[p[at]];
	} else {
		op = &one_byte[p[at]];
		/* 0x90 is nop, but xchg with r8 under REX.B (SDM: XCHG) */
		if (p[at] == 0x90 && !rex_b) {
			*f = (struct x86_facts){ .mnemonic = ZYDIS_MNEMONIC_NOP,
						 .len = (uint8_t)(at + 1) };
			return true;
		}
	}
	at++;                           /* past the opcode */
	if (!op->flags && !op->mnemonic && !op->group)
		return false;
	if (opsize16 && (op->flags & Q_NO66))
		return false;
	*f = (struct x86_facts){ 0 };
	if (op->flags & Q_MODRM) {
		if (at >= n)
			return false;
		f->has_modrm = true;
		f->mod = p[at] >> 6;
		f->rm = p[at] & 7;
		reg = (p[at] >> 3) & 7;
		if ((op->flags & Q_MEM) && f->mod == 3)
			return false;
		if (!(len = modrm_length(p + at, n - at)))
			return false;
		at += len;
	}
	f->mnemonic = mnemonic_of(op, reg);
	if (!f->mnemonic)
		return false;
	len = immediate_length(op, reg, opsize16, rex_w);
	if (at + len > n)
		return false;
	f->has_imm = len != 0;
	f->rel = op->flags & (Q_REL8 | Q_REL32);
	f->imm = len ? read_signed(p + at, len) : 0;
	f->len = (uint8_t)(at + len);
	return true;
}
