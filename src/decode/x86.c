/* x86-64 through Zydis in minimal mode: length, mnemonic and the raw fields
 * are all layout analysis needs, and minimal mode is the cheapest decode
 * Zydis offers (bench's speed goal is measured against it). */
#include "decode.h"
#include "internal.h"

#include <Zydis/Zydis.h>
#include <stdio.h>

/* What an instruction's name tells of its memory writes (may_store). */
enum {
	WRITES_IN_REGISTER_FORM = 1,    /* with a register ModRM all the same */
	WRITES_WITHOUT_MODRM = 2,       /* through an implicit memory operand */
	READS_MEMORY_ONLY = 4,          /* never writes its ModRM memory operand */
	MOV_BY_OPCODE = 8,              /* without a ModRM, writes if A2 or A3 (moffs) */
};

struct x86_decoder {
	ZydisDecoder z;
	ZydisDecoder full;      /* with operands: for the rare dispatch walk */
	ZydisFormatter intel;   /* assembly text for llvm-mca (x86_asm_text) */
	/* per mnemonic, the flags above: one load an instruction where a
	 * switch over the lists was a tree of compares */
	uint8_t name[ZYDIS_MNEMONIC_MAX_VALUE + 1];
	/* per opcode of the one-byte map [0] and of 0F [1]: its memory
	 * operand is only read (read_only_map0, read_only_map0f) */
	bool reads_memory_only[2][256];
};

/* Register forms that write memory all the same: call and push through FF
 * (the stack), maskmovq and (v)maskmovdqu ([rdi]), VIA PadLock's xstore,
 * xcrypt and xsha ([es:rdi]) (Intel SDM Vol. 2; VIA PadLock Programming
 * Guide). */
static const ZydisMnemonic write_in_register_form[] = {
	ZYDIS_MNEMONIC_CALL, ZYDIS_MNEMONIC_PUSH, ZYDIS_MNEMONIC_MASKMOVQ,
	ZYDIS_MNEMONIC_MASKMOVDQU, ZYDIS_MNEMONIC_VMASKMOVDQU, ZYDIS_MNEMONIC_XSTORE,
	ZYDIS_MNEMONIC_XCRYPT_CBC, ZYDIS_MNEMONIC_XCRYPT_CFB, ZYDIS_MNEMONIC_XCRYPT_CTR,
	ZYDIS_MNEMONIC_XCRYPT_ECB, ZYDIS_MNEMONIC_XCRYPT_OFB, ZYDIS_MNEMONIC_XSHA1,
	ZYDIS_MNEMONIC_XSHA256,
};

/* Without a ModRM, an implicit memory operand: push, pushf, call and
 * enter (the stack), the string stores and ins ([rdi]); and mov to a moffs
 * address, by its opcode (A2, A3), not its name (mov B8 writes none).
 * movsd is also SSE's scalar move, which has a ModRM. */
static const ZydisMnemonic write_without_modrm[] = {
	ZYDIS_MNEMONIC_CALL, ZYDIS_MNEMONIC_PUSH, ZYDIS_MNEMONIC_PUSHF, ZYDIS_MNEMONIC_PUSHFD,
	ZYDIS_MNEMONIC_PUSHFQ, ZYDIS_MNEMONIC_ENTER, ZYDIS_MNEMONIC_INSB, ZYDIS_MNEMONIC_INSW,
	ZYDIS_MNEMONIC_INSD, ZYDIS_MNEMONIC_STOSB, ZYDIS_MNEMONIC_STOSW, ZYDIS_MNEMONIC_STOSD,
	ZYDIS_MNEMONIC_STOSQ, ZYDIS_MNEMONIC_MOVSB, ZYDIS_MNEMONIC_MOVSW, ZYDIS_MNEMONIC_MOVSD,
	ZYDIS_MNEMONIC_MOVSQ,
};

/* cmp, test and bt in the 80-83, F6/F7 and 0F BA groups, whose other
 * members write; the hint nops. */
static const ZydisMnemonic read_memory_only[] = {
	ZYDIS_MNEMONIC_CMP, ZYDIS_MNEMONIC_TEST, ZYDIS_MNEMONIC_BT, ZYDIS_MNEMONIC_NOP,
};

/* Opcodes whose ModRM memory operand is only read, whatever the prefix
 * and encoding (Intel SDM Vol. 2, Appendix A, the opcode maps). One-byte
 * map: the ALU ops and mov in their "r, r/m" direction (02 03 ... 3A 3B,
 * 8A 8B), cmp and test either way, movsxd, imul, lea. 0F: the prefetches
 * and hint nops (0D, 18-1F but 1B, where MPX's bndstx and bndmov store);
 * the SSE/AVX loads (10 movups/movss/movupd/movsd, 12 and 16 movlps/
 * movhps, 28 movaps, 6E movd/movq, 6F movdqa/movdqu) but not the stores
 * beside them (11, 13, 17, 29, 2B, 7E, 7F, D6, E7); conversions, compares
 * and arithmetic into a register (14 15 2A 2C-2F 51-70 74-76 C2 C6, D1-FE
 * but D6 D7 E7 F7 FF); cmov, bt, imul, bsf/bsr, popcnt, movzx, movsx. Most
 * loop instructions with a memory operand are loads (mov 8B, lea): each
 * one proved here is one full decode less. */
static const uint8_t read_only_map0[] = {
	0x02, 0x03, 0x0a, 0x0b, 0x12, 0x13, 0x1a, 0x1b, 0x22, 0x23, 0x2a, 0x2b, 0x32, 0x33,
	0x38, 0x39, 0x3a, 0x3b, 0x63, 0x69, 0x6b, 0x84, 0x85, 0x8a, 0x8b, 0x8d,
};
static const uint8_t read_only_map0f[] = {
	0x0d, 0x10, 0x12, 0x14, 0x15, 0x16, 0x18, 0x19, 0x1a, 0x1c, 0x1d, 0x1e, 0x1f,
	0x28, 0x2a, 0x2c, 0x2d, 0x2e, 0x2f,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d,
	0x4e, 0x4f, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c,
	0x5d, 0x5e, 0x5f, 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a,
	0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x74, 0x75, 0x76,
	0xa3, 0xaf, 0xb6, 0xb7, 0xb8, 0xbc, 0xbd, 0xbe, 0xbf, 0xc2, 0xc6,
	0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
	0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee,
	0xef, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd,
	0xfe,
};


void *x86_decoder_new(void)
{
	struct x86_decoder *d = xcalloc(1, sizeof *d);

	ZydisDecoderInit(&d->z, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&d->z, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
	ZydisDecoderInit(&d->full, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	/* Intel syntax with every memory operand's size: LLVM's assembler
	 * refuses AT&T's "nop %ax,(%rax)" without the size suffix Zydis
	 * leaves out */
	ZydisFormatterInit(&d->intel, ZYDIS_FORMATTER_STYLE_INTEL);
	ZydisFormatterSetProperty(&d->intel, ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE);
	for (size_t k = 0; k < sizeof write_in_register_form / sizeof *write_in_register_form; k++)
		d->name[write_in_register_form[k]] |= WRITES_IN_REGISTER_FORM;
	for (size_t k = 0; k < sizeof write_without_modrm / sizeof *write_without_modrm; k++)
		d->name[write_without_modrm[k]] |= WRITES_WITHOUT_MODRM;
	for (size_t k = 0; k < sizeof read_memory_only / sizeof *read_memory_only; k++)
		d->name[read_memory_only[k]] |= READS_MEMORY_ONLY;
	d->name[ZYDIS_MNEMONIC_MOV] |= MOV_BY_OPCODE;
	for (size_t k = 0; k < sizeof read_only_map0; k++)
		d->reads_memory_only[0][read_only_map0[k]] = true;
	for (size_t k = 0; k < sizeof read_only_map0f; k++)
		d->reads_memory_only[1][read_only_map0f[k]] = true;
	return d;
}

/* Condition classes for fusion, from the Intel Optimization Reference
 * Manual's macro-fusion table. */
enum { COND_NONE, COND_ZF_SIGNED, COND_CARRY, COND_SIGN_OVERFLOW_PARITY };
enum { FUSE_NONE, FUSE_TEST_AND, FUSE_CMP_ADD_SUB, FUSE_INC_DEC };

static uint8_t cond_class(uint16_t m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_JZ: case ZYDIS_MNEMONIC_JNZ:
	case ZYDIS_MNEMONIC_JL: case ZYDIS_MNEMONIC_JNL:
	case ZYDIS_MNEMONIC_JLE: case ZYDIS_MNEMONIC_JNLE:
		return COND_ZF_SIGNED;
	case ZYDIS_MNEMONIC_JB: case ZYDIS_MNEMONIC_JNB:
	case ZYDIS_MNEMONIC_JBE: case ZYDIS_MNEMONIC_JNBE:
		return COND_CARRY;
	case ZYDIS_MNEMONIC_JS: case ZYDIS_MNEMONIC_JNS:
	case ZYDIS_MNEMONIC_JO: case ZYDIS_MNEMONIC_JNO:
	case ZYDIS_MNEMONIC_JP: case ZYDIS_MNEMONIC_JNP:
		return COND_SIGN_OVERFLOW_PARITY;
	default:
		return COND_NONE;       /* jrcxz, loop: never fuse */
	}
}

static uint8_t fuse_class(const struct x86_facts *f)
{
	uint8_t c;
	bool mem = f->has_modrm && f->mod != 3;
	bool rip = f->has_modrm && f->mod == 0 && f->rm == 5;

	switch (f->mnemonic) {
	case ZYDIS_MNEMONIC_TEST: case ZYDIS_MNEMONIC_AND: c = FUSE_TEST_AND; break;
	case ZYDIS_MNEMONIC_CMP: case ZYDIS_MNEMONIC_ADD:
	case ZYDIS_MNEMONIC_SUB: c = FUSE_CMP_ADD_SUB; break;
	case ZYDIS_MNEMONIC_INC: case ZYDIS_MNEMONIC_DEC: c = FUSE_INC_DEC; break;
	default: return FUSE_NONE;
	}
	if (rip || (mem && f->has_imm))
		return FUSE_NONE;
	return c;
}

/* Direct means a relative immediate (rel8/rel32). ZYDIS_ATTRIB_IS_RELATIVE
 * is also set for a RIP-relative memory operand, which would turn the PLT's
 * `jmp *GOT(%rip)` into a jump to the next instruction. */
static uint8_t branch_kind(const struct x86_facts *f)
{
	switch (f->mnemonic) {
	case ZYDIS_MNEMONIC_JMP:
		return f->rel ? BR_JUMP : BR_JUMP_IND;
	case ZYDIS_MNEMONIC_CALL:
		return f->rel ? BR_CALL : BR_CALL_IND;
	case ZYDIS_MNEMONIC_RET: case ZYDIS_MNEMONIC_IRET: case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRETQ: case ZYDIS_MNEMONIC_SYSRET:
		return BR_RET;
	case ZYDIS_MNEMONIC_UD0: case ZYDIS_MNEMONIC_UD1: case ZYDIS_MNEMONIC_UD2:
	case ZYDIS_MNEMONIC_HLT: case ZYDIS_MNEMONIC_INT3:
		return BR_STOP;
	case ZYDIS_MNEMONIC_JB: case ZYDIS_MNEMONIC_JBE: case ZYDIS_MNEMONIC_JCXZ:
	case ZYDIS_MNEMONIC_JECXZ: case ZYDIS_MNEMONIC_JL: case ZYDIS_MNEMONIC_JLE:
	case ZYDIS_MNEMONIC_JNB: case ZYDIS_MNEMONIC_JNBE: case ZYDIS_MNEMONIC_JNL:
	case ZYDIS_MNEMONIC_JNLE: case ZYDIS_MNEMONIC_JNO: case ZYDIS_MNEMONIC_JNP:
	case ZYDIS_MNEMONIC_JNS: case ZYDIS_MNEMONIC_JNZ: case ZYDIS_MNEMONIC_JO:
	case ZYDIS_MNEMONIC_JP: case ZYDIS_MNEMONIC_JRCXZ: case ZYDIS_MNEMONIC_JS:
	case ZYDIS_MNEMONIC_JZ: case ZYDIS_MNEMONIC_LOOP: case ZYDIS_MNEMONIC_LOOPE:
	case ZYDIS_MNEMONIC_LOOPNE:
		return f->rel ? BR_COND : BR_NONE;
	default:
		return BR_NONE;
	}
}

/* Can the instruction write memory, as far as the scan's own decode (the
 * quick path or Zydis's minimal mode) tells? Decoding every loop's operands
 * to count its stores was the largest cost the scan added, so only these are
 * decoded again. Without a ModRM, and with a register ModRM, only the names
 * listed write (write_without_modrm, write_in_register_form). A memory ModRM
 * operand may be written, unless its name (read_memory_only) or its opcode
 * (read_only_map0, read_only_map0f) says it is only read.
 * tests/unit/test_decode.c holds this to the full decode over every opcode
 * and prefix form. */
static bool may_store(const struct x86_decoder *d, const struct x86_facts *f, uint8_t map,
		      uint8_t opcode)
{
	uint8_t name = d->name[f->mnemonic];

	if (!f->has_modrm)
		return (name & WRITES_WITHOUT_MODRM) ||
		       ((name & MOV_BY_OPCODE) && (opcode | 1) == 0xa3);
	if (f->mod == 3)
		return name & WRITES_IN_REGISTER_FORM;
	if (name & READS_MEMORY_ONLY)
		return false;
	_Static_assert(ZYDIS_OPCODE_MAP_DEFAULT == 0 && ZYDIS_OPCODE_MAP_0F == 1,
		       "reads_memory_only is indexed by Zydis's map number");
	return map > ZYDIS_OPCODE_MAP_0F || !d->reads_memory_only[map][opcode];
}

/* Zydis's minimal decode, as facts; false when the bytes do not decode. */
static bool zydis_facts(struct x86_decoder *d, const uint8_t *p, size_t n, struct x86_facts *f)
{
	ZydisDecodedInstruction z;

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d->z, NULL, p, n, &z)))
		return false;
	*f = (struct x86_facts){
		.mnemonic = (uint16_t)z.mnemonic, .len = z.length,
		.has_modrm = z.raw.modrm.offset != 0, .mod = z.raw.modrm.mod, .rm = z.raw.modrm.rm,
		.has_imm = z.raw.imm[0].size != 0, .rel = z.raw.imm[0].is_relative,
		.imm = z.raw.imm[0].value.s,
	};
	return true;
}

static void fill_insn(const struct x86_facts *f, uint64_t addr, struct insn *out)
{
	out->addr = addr;
	out->target = 0;
	out->fuse_first = FUSE_NONE;
	out->fuse_cond = COND_NONE;
	out->undecoded = 0;
	out->len = f->len;
	out->shape = f->mnemonic;
	out->kind = branch_kind(f);
	/* compilers and the kernel fill with nops, or with int3 after an
	 * unconditional jump (GCC -mharden-sls, clang's function padding) */
	out->padding = f->mnemonic == ZYDIS_MNEMONIC_NOP || f->mnemonic == ZYDIS_MNEMONIC_INT3;
	out->spin = f->mnemonic == ZYDIS_MNEMONIC_PAUSE;
	if (out->kind == BR_COND || out->kind == BR_JUMP || out->kind == BR_CALL)
		out->target = addr + f->len + (uint64_t)f->imm;
	if (out->kind == BR_COND)
		out->fuse_cond = cond_class(f->mnemonic);
	else if (out->kind == BR_NONE)
		out->fuse_first = fuse_class(f);
}

/* The quick path first (x86_quick.c): most instructions never reach
 * Zydis. */
static inline void decode_into(struct x86_decoder *d, const uint8_t *p, size_t n, uint64_t addr,
			       struct insn *out)
{
	struct x86_facts f;

	if (x86_quick_facts(p, n, &f) || zydis_facts(d, p, n, &f)) {
		fill_insn(&f, addr, out);
		return;
	}
	*out = (struct insn){ .addr = addr, .len = 1, .kind = BR_INVALID, .shape = 0xffff };
}

/* Does the quick path give Zydis's instruction? Every field, the
 * mnemonic too (diff's shape hashes mix the two paths). */
bool x86_quick_agrees(void *dv, const uint8_t *p, size_t n, bool *quick)
{
	struct x86_facts q, z;
	struct insn a, b;

	*quick = x86_quick_facts(p, n, &q);
	if (!*quick)
		return true;
	if (!zydis_facts(dv, p, n, &z))
		return false;
	fill_insn(&q, 0x1000, &a);
	fill_insn(&z, 0x1000, &b);
	return a.len == b.len && a.shape == b.shape && a.kind == b.kind && a.target == b.target &&
	       a.fuse_first == b.fuse_first && a.fuse_cond == b.fuse_cond &&
	       a.padding == b.padding && a.spin == b.spin;
}

/* The cheap look before a full decode (decode_count_stores): the scan's
 * own decode of p[0..n) again, a fraction of the full decode's cost, and
 * may_store on it. Done only for the loops whose verdict depends on their
 * stores (4% of libLLVM-14's instructions), not in the decode of every
 * instruction. The quick path takes no prefix but one 0x66 and a REX, so
 * its opcode byte and map are found again behind them. Undecodable bytes
 * write nothing. */
bool x86_may_store(void *dv, const uint8_t *p, size_t n)
{
	struct x86_decoder *d = dv;
	struct x86_facts f;
	ZydisDecodedInstruction z;
	uint8_t map, opcode;

	if (x86_quick_facts(p, n, &f)) {
		x86_quick_opcode(p, n, &map, &opcode);
		return may_store(d, &f, map, opcode);
	}
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d->z, NULL, p, n, &z)))
		return false;
	f = (struct x86_facts){ .mnemonic = (uint16_t)z.mnemonic,
				.has_modrm = z.raw.modrm.offset != 0, .mod = z.raw.modrm.mod };
	return may_store(d, &f, (uint8_t)z.opcode_map, z.opcode);
}

void x86_decode_one(void *dv, const uint8_t *p, size_t n, uint64_t addr, struct insn *out)
{
	decode_into(dv, p, n, addr, out);
}

size_t x86_decode_run(void *dv, const uint8_t *p, size_t n, uint64_t addr, struct insn *out,
		      size_t max, size_t *used)
{
	size_t k = 0, off = 0;

	for (; off < n && k < max; off += out[k++].len)
		decode_into(dv, p + off, n - off, addr + off, &out[k]);
	*used = off;
	return k;
}

bool x86_fuses(const struct insn *first, const struct insn *jcc)
{
	switch (first->fuse_first) {
	case FUSE_TEST_AND:
		return jcc->fuse_cond != COND_NONE;
	case FUSE_CMP_ADD_SUB:
		return jcc->fuse_cond == COND_ZF_SIGNED || jcc->fuse_cond == COND_CARRY;
	case FUSE_INC_DEC:
		return jcc->fuse_cond == COND_ZF_SIGNED;
	default:
		return false;
	}
}

/* jmp *disp32(%rip): FF /4 with ModRM mod 00, rm 101 (Intel SDM Vol. 2,
 * Table 2-7, RIP-relative addressing). */
uint64_t x86_stub_slot(void *dv, const uint8_t *p, size_t n, uint64_t addr)
{
	struct x86_decoder *d = dv;
	ZydisDecodedInstruction z;

	for (size_t off = 0; off < n; off += z.length) {
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d->z, NULL, p + off, n - off, &z)))
			return 0;
		if (z.mnemonic != ZYDIS_MNEMONIC_JMP)
			continue;
		if (z.raw.modrm.offset == 0 || z.raw.modrm.mod != 0 || z.raw.modrm.rm != 5)
			return 0;
		return addr + off + z.length + (uint64_t)z.raw.disp.value;
	}
	return 0;
}

/* ---- dispatch tables ----
 * GCC and Clang, PIC: `cmp $N,%i; ja default; lea T(%rip),%t; (mov %i,%i;)
 * movslq (%t,%i,4),%r; add %b,%r; jmp *%r`, entries int32 relative to
 * b (b = t, or a `lea B(%rip),%b` of its own for GCC's computed gotos).
 * The index may itself be read from a byte table (`movzbl U(%u),%i`, GCC's
 * two-level switch): the entries are then as many as U's largest byte
 * plus one. Non-PIC: `jmp *T(,%i,8)`, entries absolute. Each step is the
 * last write of the register it reads, walking back along the path to the
 * jump (dispatch_prev). */

/* One instruction p[0..n) with its operands (the full decoder): does it
 * write memory? An address computed but not accessed (lea) or a hint
 * (nop, prefetch) is no write; nor are undecodable bytes. */
bool x86_writes_memory(void *dv, const uint8_t *p, size_t n)
{
	struct x86_decoder *d = dv;
	ZydisDecodedInstruction i;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->full, p, n, &i, op)))
		return false;
	if (i.mnemonic == ZYDIS_MNEMONIC_NOP)
		return false;
	for (uint8_t k = 0; k < i.operand_count; k++)
		if (op[k].type == ZYDIS_OPERAND_TYPE_MEMORY && op[k].mem.type == ZYDIS_MEMOP_TYPE_MEM &&
		    (op[k].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
			return true;
	return false;
}

struct x86_full {
	ZydisDecodedInstruction i;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
};

struct x86_walk {
	const struct x86_decoder *d;
	const struct dispatch *w;
	const struct elf_image *img;
};

static bool full_at(const struct x86_walk *x, size_t k, struct x86_full *a)
{
	const struct insn *in = &x->w->insn[k];

	return ZYAN_SUCCESS(ZydisDecoderDecodeFull(&x->d->full,
						   x->w->code + (in->addr - x->w->insn[0].addr),
						   in->len, &a->i, a->op));
}

static ZydisRegister family(ZydisRegister r)
{
	return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
}

static bool is_reg(const ZydisDecodedOperand *o, ZydisRegister fam)
{
	return o->type == ZYDIS_OPERAND_TYPE_REGISTER && family(o->reg.value) == fam;
}

static bool writes(const struct x86_full *a, ZydisRegister fam)
{
	for (unsigned k = 0; k < a->i.operand_count; k++)
		if ((a->op[k].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) && is_reg(&a->op[k], fam))
			return true;
	return false;
}

/* The last instruction on the path before insn[from] that writes `fam`. */
static bool def_before(const struct x86_walk *x, size_t from, ZydisRegister fam, size_t *at,
		       struct x86_full *a)
{
	size_t k = from;

	for (unsigned step = 0; step < DISPATCH_WINDOW; step++) {
		if ((k = dispatch_prev(x->w, k)) == DISPATCH_NONE || !full_at(x, k, a))
			return false;
		if (writes(a, fam)) {
			*at = k;
			return true;
		}
	}
	return false;
}

/* `lea X(%rip),%reg` as the last write of reg before insn[from]: X. */
static bool rip_address(const struct x86_walk *x, size_t from, ZydisRegister reg, uint64_t *addr)
{
	struct x86_full a;
	size_t k;

	if (!def_before(x, from, reg, &k, &a) || a.i.mnemonic != ZYDIS_MNEMONIC_LEA ||
	    a.op[1].mem.base != ZYDIS_REGISTER_RIP || a.op[1].mem.index != ZYDIS_REGISTER_NONE)
		return false;
	*addr = x->w->insn[k].addr + x->w->insn[k].len + (uint64_t)a.op[1].mem.disp.value;
	return true;
}

/* The entry count a `cmp $imm` guards with the jcc that follows it on
 * the path: ja and jbe leave imm+1 entries, jae and jb imm. */
static bool guard(const struct x86_walk *x, size_t jcc, int64_t imm, uint64_t *count)
{
	struct x86_full a;

	if (jcc == DISPATCH_NONE || imm < 0 || !full_at(x, jcc, &a))
		return false;
	switch (a.i.mnemonic) {
	case ZYDIS_MNEMONIC_JNBE: case ZYDIS_MNEMONIC_JBE: *count = (uint64_t)imm + 1; return true;
	case ZYDIS_MNEMONIC_JNB: case ZYDIS_MNEMONIC_JB: *count = (uint64_t)imm; return true;
	default: return false;
	}
}

static bool bound(const struct x86_walk *x, size_t from, ZydisRegister idx, uint64_t *count,
		  int depth);

/* movzbl U(%u),%i: the index is a byte of table U, itself indexed by u
 * under a bound of its own; the entries are its largest byte plus one. */
static bool byte_table_bound(const struct x86_walk *x, size_t k, const ZydisDecodedOperand *m,
			     uint64_t *count, int depth)
{
	uint64_t table, n;
	const uint8_t *p;
	uint8_t top = 0;

	if (depth > 0 || m->type != ZYDIS_OPERAND_TYPE_MEMORY || m->size != 8 ||
	    m->mem.index == ZYDIS_REGISTER_NONE || m->mem.scale > 1)
		return false;
	if (m->mem.base == ZYDIS_REGISTER_NONE)
		table = 0;
	else if (!rip_address(x, k, family(m->mem.base), &table))
		return false;
	table += (uint64_t)m->mem.disp.value;
	if (!bound(x, k, family(m->mem.index), &n, depth + 1) || n > 65536 ||
	    !(p = elf_vaddr_bytes(x->img, table, n)))
		return false;
	for (uint64_t e = 0; e < n; e++)
		top = p[e] > top ? p[e] : top;
	*count = (uint64_t)top + 1;
	return true;
}

static bool same_memory(const ZydisDecodedOperand *a, const ZydisDecodedOperand *b)
{
	return a->type == ZYDIS_OPERAND_TYPE_MEMORY && b->type == ZYDIS_OPERAND_TYPE_MEMORY &&
	       a->size == b->size && a->mem.base == b->mem.base && a->mem.index == b->mem.index &&
	       a->mem.scale == b->mem.scale && a->mem.disp.value == b->mem.disp.value &&
	       a->mem.segment == b->mem.segment;
}

static int64_t imm_of(const ZydisDecodedOperand *o)
{
	return o->imm.is_signed ? o->imm.value.s : (int64_t)o->imm.value.u;
}

/* Back from insn[from] to the `cmp $N, idx` bounding the index, following
 * register moves (`mov %eax,%eax`, `movzbl %al,%eax`) and a load from
 * memory compared in place (`cmpl $11,8(%rbx); ja; mov 8(%rbx),%eax`).
 * A cmp of another register counts when the index turns out to be its
 * copy, made before the cmp and with neither changed since (GCC hoists the
 * copy out of the loop: libc's _nl_intern_locale_data). */
static bool bound(const struct x86_walk *x, size_t from, ZydisRegister idx, uint64_t *count,
		  int depth)
{
	struct x86_full a;
	ZydisDecodedOperand mem = { 0 };
	size_t k = from, jcc = DISPATCH_NONE, other_jcc = DISPATCH_NONE;
	ZydisRegister other = ZYDIS_REGISTER_NONE;
	int64_t other_imm = 0;

	for (unsigned step = 0; step < DISPATCH_WINDOW; step++) {
		if ((k = dispatch_prev(x->w, k)) == DISPATCH_NONE || !full_at(x, k, &a))
			return false;
		if (x->w->insn[k].kind == BR_COND)
			jcc = k;        /* the nearest after the cmp, once it is found */
		if (a.i.mnemonic == ZYDIS_MNEMONIC_CMP && a.op[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		    (mem.type ? same_memory(&a.op[0], &mem) : is_reg(&a.op[0], idx)))
			return guard(x, jcc, imm_of(&a.op[1]), count);
		if (other != ZYDIS_REGISTER_NONE && writes(&a, other))
			other = ZYDIS_REGISTER_NONE;    /* not the value compared */
		if (a.i.mnemonic == ZYDIS_MNEMONIC_CMP && a.op[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		    a.op[0].type == ZYDIS_OPERAND_TYPE_REGISTER && other == ZYDIS_REGISTER_NONE &&
		    !mem.type) {
			other = family(a.op[0].reg.value);
			other_imm = imm_of(&a.op[1]);
			other_jcc = jcc;
		}
		if (mem.type) {
			/* the compared memory is no longer the loaded one */
			if ((mem.mem.base != ZYDIS_REGISTER_NONE && writes(&a, family(mem.mem.base))) ||
			    (mem.mem.index != ZYDIS_REGISTER_NONE && writes(&a, family(mem.mem.index))))
				return false;
			continue;
		}
		if (!writes(&a, idx))
			continue;
		/* a load of one place, compared in place (`cmpb $12,8(%rdx); ja;
		 * movzbl 8(%rdx),%ecx`: libc's re_compile_internal) */
		if (a.op[1].type == ZYDIS_OPERAND_TYPE_MEMORY && a.op[1].mem.base != ZYDIS_REGISTER_RIP &&
		    (a.i.mnemonic == ZYDIS_MNEMONIC_MOV || (a.i.mnemonic == ZYDIS_MNEMONIC_MOVZX &&
		     a.op[1].mem.index == ZYDIS_REGISTER_NONE))) {
			mem = a.op[1];
			continue;
		}
		if (a.i.mnemonic == ZYDIS_MNEMONIC_MOVZX && a.op[1].type == ZYDIS_OPERAND_TYPE_MEMORY)
			return byte_table_bound(x, k, &a.op[1], count, depth);
		if ((a.i.mnemonic != ZYDIS_MNEMONIC_MOV && a.i.mnemonic != ZYDIS_MNEMONIC_MOVZX) ||
		    a.op[1].type != ZYDIS_OPERAND_TYPE_REGISTER)
			return false;
		idx = family(a.op[1].reg.value);
		if (idx == other)
			return guard(x, other_jcc, other_imm, count);
	}
	return false;
}

/* jmp *T(,%i,8): a table of absolute addresses. */
static bool absolute_table(const struct x86_walk *x, const ZydisDecodedOperand *m,
			   struct table_shape *t)
{
	if (m->mem.base != ZYDIS_REGISTER_NONE || m->mem.index == ZYDIS_REGISTER_NONE ||
	    m->mem.scale != 8)
		return false;
	*t = (struct table_shape){ .table = (uint64_t)m->mem.disp.value, .size = 8 };
	return bound(x, x->w->j, family(m->mem.index), &t->count, 0);
}

bool x86_table_shape(void *dv, const struct elf_image *img, const struct dispatch *w,
		     struct table_shape *t)
{
	struct x86_walk x = { dv, w, img };
	struct x86_full j, add, mov;
	size_t kadd, kmov;
	ZydisRegister r;

	if (!full_at(&x, w->j, &j))
		return false;
	if (j.op[0].type == ZYDIS_OPERAND_TYPE_MEMORY)
		return absolute_table(&x, &j.op[0], t);
	if (j.op[0].type != ZYDIS_OPERAND_TYPE_REGISTER)
		return false;
	r = family(j.op[0].reg.value);
	/* add %b,%r */
	if (!def_before(&x, w->j, r, &kadd, &add) || add.i.mnemonic != ZYDIS_MNEMONIC_ADD ||
	    !is_reg(&add.op[0], r) || add.op[1].type != ZYDIS_OPERAND_TYPE_REGISTER)
		return false;
	/* movslq (%t,%i,4),%r */
	if (!def_before(&x, kadd, r, &kmov, &mov) || mov.i.mnemonic != ZYDIS_MNEMONIC_MOVSXD ||
	    mov.op[1].type != ZYDIS_OPERAND_TYPE_MEMORY || mov.op[1].mem.scale != 4 ||
	    mov.op[1].mem.index == ZYDIS_REGISTER_NONE || mov.op[1].mem.base == ZYDIS_REGISTER_NONE)
		return false;
	*t = (struct table_shape){ .size = 4, .sign = true };
	if (!rip_address(&x, kmov, family(mov.op[1].mem.base), &t->table) ||
	    !rip_address(&x, kadd, family(add.op[1].reg.value), &t->base))
		return false;
	t->table += (uint64_t)mov.op[1].mem.disp.value;
	return bound(&x, kmov, family(mov.op[1].mem.index), &t->count, 0);
}

const char *x86_library_version(void)
{
	static char v[32];

	snprintf(v, sizeof v, "Zydis %u.%u.%u", ZYDIS_VERSION_MAJOR(ZYDIS_VERSION),
		 ZYDIS_VERSION_MINOR(ZYDIS_VERSION), ZYDIS_VERSION_PATCH(ZYDIS_VERSION));
	return v;
}

/* The address fields of one instruction (decode_address_fields): the raw
 * displacement and immediates as Zydis locates them. A relative immediate
 * is a branch's displacement; a memory operand based on RIP holds a
 * RIP-relative disp32; one with no base register, a 4-byte displacement
 * (the sign-extended absolute address of `jmp *T(,%rax,8)`); otherwise a
 * 4- or 8-byte immediate may be an address (`mov $label, %eax` in code
 * linked at a fixed address). */
bool x86_address_fields(void *dv, const uint8_t *p, size_t n, uint64_t addr,
			struct address_fields *out)
{
	struct x86_decoder *d = dv;
	ZydisDecodedInstruction i;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];

	*out = (struct address_fields){ 0 };
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->full, p, n, &i, op)))
		return false;
	for (uint8_t k = 0; k < i.operand_count && i.raw.disp.size; k++) {
		const ZydisDecodedOperand *o = &op[k];

		if (o->type != ZYDIS_OPERAND_TYPE_MEMORY || !o->mem.disp.has_displacement)
			continue;
		if (o->mem.base == ZYDIS_REGISTER_RIP) {
			out->rip_at = i.raw.disp.offset;
			out->rip_target = addr + i.length + (uint64_t)i.raw.disp.value;
		} else if (o->mem.base == ZYDIS_REGISTER_NONE && i.raw.disp.size == 32) {
			out->abs_at = i.raw.disp.offset, out->abs_size = 4;
			out->abs_value = (uint64_t)i.raw.disp.value;
		}
		break;
	}
	for (int k = 0; k < 2 && i.raw.imm[k].size; k++) {
		if (i.raw.imm[k].is_relative) {
			out->rel_at = i.raw.imm[k].offset, out->rel_size = i.raw.imm[k].size / 8;
			out->rel_target = addr + i.length + (uint64_t)i.raw.imm[k].value.s;
		} else if ((i.raw.imm[k].size == 32 || i.raw.imm[k].size == 64) && !out->abs_at) {
			out->abs_at = i.raw.imm[k].offset, out->abs_size = i.raw.imm[k].size / 8;
			out->abs_value = i.raw.imm[k].size == 32 ? (uint32_t)i.raw.imm[k].value.u :
				         i.raw.imm[k].value.u;
		}
	}
	return true;
}

/* Divides and square roots: their unit, not the issue width, bounds a
 * loop that holds one (integer and x87, SSE and AVX forms; Intel SDM
 * Vol. 2). */
static bool x86_divides(ZydisMnemonic m)
{
	static const ZydisMnemonic divide[] = {
		ZYDIS_MNEMONIC_DIV, ZYDIS_MNEMONIC_IDIV, ZYDIS_MNEMONIC_DIVPD, ZYDIS_MNEMONIC_DIVPS,
		ZYDIS_MNEMONIC_DIVSD, ZYDIS_MNEMONIC_DIVSS, ZYDIS_MNEMONIC_VDIVPD, ZYDIS_MNEMONIC_VDIVPH,
		ZYDIS_MNEMONIC_VDIVPS, ZYDIS_MNEMONIC_VDIVSD, ZYDIS_MNEMONIC_VDIVSH, ZYDIS_MNEMONIC_VDIVSS,
		ZYDIS_MNEMONIC_FDIV, ZYDIS_MNEMONIC_FDIVP, ZYDIS_MNEMONIC_FDIVR, ZYDIS_MNEMONIC_FDIVRP,
		ZYDIS_MNEMONIC_FIDIV, ZYDIS_MNEMONIC_FIDIVR, ZYDIS_MNEMONIC_FSQRT, ZYDIS_MNEMONIC_SQRTPD,
		ZYDIS_MNEMONIC_SQRTPS, ZYDIS_MNEMONIC_SQRTSD, ZYDIS_MNEMONIC_SQRTSS, ZYDIS_MNEMONIC_VSQRTPD,
		ZYDIS_MNEMONIC_VSQRTPH, ZYDIS_MNEMONIC_VSQRTPS, ZYDIS_MNEMONIC_VSQRTSD,
		ZYDIS_MNEMONIC_VSQRTSH, ZYDIS_MNEMONIC_VSQRTSS,
	};

	for (size_t k = 0; k < sizeof divide / sizeof *divide; k++)
		if (m == divide[k])
			return true;
	return false;
}

/* A direct branch's target as a label (LLVM's Intel syntax takes no
 * absolute address there; the label need not be defined), a hint nop
 * without the operands Zydis shows (LLVM reads "nop" alone). */
bool x86_asm_text(void *dv, const uint8_t *p, size_t n, uint64_t addr, uint64_t base, char *buf,
		  size_t cap, bool *divides)
{
	struct x86_decoder *d = dv;
	ZydisDecodedInstruction i;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	ZyanU64 target;

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->full, p, n, &i, op)))
		return false;
	*divides = x86_divides(i.mnemonic);
	if (i.mnemonic == ZYDIS_MNEMONIC_NOP)
		return (size_t)snprintf(buf, cap, "nop") < cap;
	if (i.operand_count_visible == 1 && op[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
	    op[0].imm.is_relative &&
	    ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&i, &op[0], addr, &target)))
		return (size_t)snprintf(buf, cap, "%s .Lb%lld", ZydisMnemonicGetString(i.mnemonic),
					(long long)(target - base)) < cap;
	return ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&d->intel, &i, op, i.operand_count_visible,
							    buf, cap, addr, NULL));
}

/* Privilege level 0 by Zydis's attribute (from Intel's CPL column); the
 * I/O privilege level guards the rest, and Linux runs user space at IOPL
 * 0 (Intel SDM vol. 1, 18.2; iret also restores flags only ring 0 may). */
bool x86_privileged(void *dv, const uint8_t *p, size_t n, const char **name)
{
	static const ZydisMnemonic iopl[] = {
		ZYDIS_MNEMONIC_CLI, ZYDIS_MNEMONIC_STI, ZYDIS_MNEMONIC_IN, ZYDIS_MNEMONIC_OUT,
		ZYDIS_MNEMONIC_INSB, ZYDIS_MNEMONIC_INSW, ZYDIS_MNEMONIC_INSD, ZYDIS_MNEMONIC_OUTSB,
		ZYDIS_MNEMONIC_OUTSW, ZYDIS_MNEMONIC_OUTSD, ZYDIS_MNEMONIC_IRET, ZYDIS_MNEMONIC_IRETD,
		ZYDIS_MNEMONIC_IRETQ, ZYDIS_MNEMONIC_SYSRET, ZYDIS_MNEMONIC_SYSEXIT,
	};
	struct x86_decoder *d = dv;
	ZydisDecodedInstruction i;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->full, p, n, &i, op)))
		return false;
	*name = ZydisMnemonicGetString(i.mnemonic);
	if (i.attributes & ZYDIS_ATTRIB_IS_PRIVILEGED)
		return true;
	for (size_t k = 0; k < sizeof iopl / sizeof *iopl; k++)
		if (i.mnemonic == iopl[k])
			return true;
	return false;
}
