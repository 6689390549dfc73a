/* AArch64 through Capstone. Every instruction is 4 bytes; Capstone tells
 * the branch kind and resolves the target of direct branches. */
#include "decode.h"
#include "internal.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arm64_decoder {
	csh cs;
	cs_insn *insn;
};

void *arm64_decoder_new(void)
{
	struct arm64_decoder *d = xcalloc(1, sizeof *d);

	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &d->cs) != CS_ERR_OK) {
		free(d);
		return NULL;
	}
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->cs);
	return d;
}

void arm64_decoder_free(void *dv)
{
	struct arm64_decoder *d = dv;

	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

/* The last immediate operand of a direct branch is its target. */
static uint64_t branch_target(const cs_insn *i)
{
	const cs_arm64 *a = &i->detail->arm64;

	for (int k = a->op_count - 1; k >= 0; k--)
		if (a->operands[k].type == ARM64_OP_IMM)
			return (uint64_t)a->operands[k].imm;
	return 0;
}

static uint8_t branch_kind(const cs_insn *i)
{
	switch (i->id) {
	case ARM64_INS_B:
		return i->detail->arm64.cc != ARM64_CC_INVALID &&
		       i->detail->arm64.cc != ARM64_CC_AL ? BR_COND : BR_JUMP;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		return BR_COND;
	case ARM64_INS_BL: return BR_CALL;
	case ARM64_INS_BLR: return BR_CALL_IND;
	case ARM64_INS_BR: return BR_JUMP_IND;
	case ARM64_INS_RET: case ARM64_INS_ERET: return BR_RET;
	case ARM64_INS_BRK: case ARM64_INS_HLT: return BR_STOP;
	default: return BR_NONE;
	}
}

void arm64_decode_one(void *dv, const uint8_t *p, size_t n, uint64_t addr, struct insn *out)
{
	struct arm64_decoder *d = dv;
	const uint8_t *code = p;
	size_t size = n < 4 ? n : 4;
	uint64_t at = addr;

	out->addr = addr;
	out->target = 0;
	out->fuse_first = 0;
	out->fuse_cond = 0;
	out->padding = 0;
	out->spin = 0;
	out->undecoded = 0;
	out->len = (uint8_t)(n < 4 ? n : 4);
	if (n < 4) {
		out->kind = BR_INVALID;
		out->shape = 0xffff;
		return;
	}
	if (!cs_disasm_iter(d->cs, &code, &size, &at, d->insn)) {
		uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[3] << 24;

		out->shape = 0xffff;
		/* UDF #imm16 (0000 xxxx), which Capstone 4 does not decode
		 * either, traps like brk: a block end with no successor */
		if ((w & 0xffff0000u) == 0) {
			out->kind = BR_STOP;
			return;
		}
		/* SVE/MTE words Capstone 4 lacks: never a branch (the branch
		 * encodings are all base A64, ARM ARM C4.1), so they fall
		 * through. Ending the block here lost libc's SVE memcpy loop. */
		out->kind = BR_NONE;
		out->undecoded = 1;
		return;
	}
	out->shape = (uint16_t)d->insn->id;
	out->kind = branch_kind(d->insn);
	out->padding = d->insn->id == ARM64_INS_NOP;
	out->spin = d->insn->id == ARM64_INS_YIELD || d->insn->id == ARM64_INS_WFE;
	if (out->kind == BR_COND || out->kind == BR_JUMP || out->kind == BR_CALL)
		out->target = branch_target(d->insn);
	/* Compare-and-branch fusion (CMP/CMN/TST + B.cond) on Arm's big
	 * cores; CBZ/TBZ need no partner. */
	if (d->insn->id == ARM64_INS_CMP || d->insn->id == ARM64_INS_CMN ||
	    d->insn->id == ARM64_INS_TST)
		out->fuse_first = 1;  /* the class that fuses with every condition */
	if (d->insn->id == ARM64_INS_B && out->kind == BR_COND)
		out->fuse_cond = 1;
}

/* Capstone 4 does not decode the ARMv8.1 atomics, so their encodings
 * (Arm ARM C4.1.94): atomic memory operations, size 111 0 00 A R 1 Rs o3
 * opc 00 Rn Rt, all writing but LDAPR (o3 1, opc 100); CAS, x 001000 1 L
 * 1 Rs o0 11111 Rn Rt; CASP, 0 x 001000 0 L 1 Rs o0 11111 Rn Rt. */
static bool atomic_word_writes(uint32_t w)
{
	if ((w & 0x3f200c00u) == 0x38200000u)
		return ((w >> 12) & 0xf) != 0xc;
	return (w & 0x3fa07c00u) == 0x08a07c00u || (w & 0xbfa07c00u) == 0x08207c00u;
}

/* Could the word write memory? Every store and atomic is in the
 * loads-and-stores encoding group, op0 x1x0 (Arm ARM C4.1): outside it no
 * word is decoded again (tests/unit/test_decode.c holds this to
 * arm64_writes_memory). */
bool arm64_may_store(const uint8_t *p, size_t n)
{
	return n >= 4 && (p[3] & 0x0a) == 0x08;
}

/* Does the word write memory? Every A64 store's mnemonic begins with
 * "st" (str, stp, stur, stlr, stxr, stnp, st1..st4, stg, ...): the name
 * decides, one string test and no operand walk; the atomics that write
 * (swp, cas, the LSE ld<op>s) by their encoding. */
bool arm64_writes_memory(void *dv, const uint8_t *p, size_t n)
{
	struct arm64_decoder *d = dv;
	const uint8_t *code = p;
	size_t size = n < 4 ? n : 4;
	uint64_t at = 0;
	const char *m;

	if (n < 4)
		return false;
	if (atomic_word_writes((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			       (uint32_t)p[3] << 24))
		return true;
	if (!cs_disasm_iter(d->cs, &code, &size, &at, d->insn))
		return false;
	m = d->insn->mnemonic;
	return m[0] == 's' && m[1] == 't';
}

/* The PLT stub's load of its GOT slot, by encoding (Arm ARM C6.2): ADRP
 * is 1 immlo 10000 immhi Rd, the page of PC plus imm << 12; LDR (immediate,
 * unsigned offset, 64-bit) is F94 imm12 Rn Rt, address Rn + imm12 * 8. The
 * slot is found once the ldr reads through the adrp's register. */
uint64_t arm64_stub_slot(const uint8_t *p, size_t n, uint64_t addr)
{
	uint64_t page = 0;
	unsigned page_reg = 32;         /* none yet */

	for (size_t off = 0; off + 4 <= n; off += 4) {
		uint32_t w = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
			     (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;

		if ((w & 0x9f000000u) == 0x90000000u) {
			int64_t imm = (int64_t)((((w >> 5) & 0x7ffffu) << 2) | ((w >> 29) & 3u));

			imm = (imm ^ 0x100000) - 0x100000;      /* sign of 21 bits */
			page = ((addr + off) & ~(uint64_t)0xfff) + (uint64_t)(imm * 4096);
			page_reg = w & 31u;
		} else if ((w & 0xffc00000u) == 0xf9400000u && ((w >> 5) & 31u) == page_reg) {
			return page + ((w >> 10) & 0xfffu) * 8;
		}
	}
	return 0;
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	return (int64_t)((v ^ m) - m);
}

/* The PC-relative immediate of one word, by encoding (Arm ARM C4.1.2,
 * C4.1.4 "Loads and Stores"): B/BL x00101 imm26; B.cond (and BC.cond)
 * 0101010 0 imm19 x cond; CBZ/CBNZ x011010 x imm19 Rt; TBZ/TBNZ x011011 x
 * b40 imm14 Rt; LDR/LDRSW/PRFM (literal) xx011 V 00 imm19 Rt; ADR/ADRP
 * x immlo 10000 immhi Rd. Capstone is not asked: the fields are fixed bit
 * ranges, and relocate/ re-encodes exactly these. */
bool arm64_address_fields(const uint8_t *p, size_t n, uint64_t addr, struct address_fields *out)
{
	uint32_t w;
	int64_t d = 0;

	*out = (struct address_fields){ 0 };
	if (n < 4)
		return false;
	w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if ((w & 0x7c000000u) == 0x14000000u)
		out->a64_form = A64_IMM26, d = sign_extend(w & 0x3ffffffu, 26) * 4;
	else if ((w & 0xff000000u) == 0x54000000u || (w & 0x7e000000u) == 0x34000000u ||
		 (w & 0x3b000000u) == 0x18000000u)
		out->a64_form = A64_IMM19, d = sign_extend((w >> 5) & 0x7ffffu, 19) * 4;
	else if ((w & 0x7e000000u) == 0x36000000u)
		out->a64_form = A64_IMM14, d = sign_extend((w >> 5) & 0x3fffu, 14) * 4;
	else if ((w & 0x1f000000u) == 0x10000000u) {
		d = sign_extend(((w >> 5) & 0x7ffffu) << 2 | ((w >> 29) & 3u), 21);
		out->a64_form = w >> 31 ? A64_ADRP : A64_ADR;
	}
	if (out->a64_form == A64_ADRP)
		out->a64_target = (addr & ~(uint64_t)0xfff) + (uint64_t)(d * 4096), out->a64_reg = w & 31;
	else if (out->a64_form)
		out->a64_target = addr + (uint64_t)d;
	/* ADD (immediate, 64-bit, unshifted) 1 00 100010 0 imm12 Rn Rd; LDR/STR
	 * (unsigned offset) size 111 V 01 opc imm12 Rn Rt, scaled by size (by
	 * 16 for a q register: V 1, size 00, opc 1x) */
	if ((w & 0xffc00000u) == 0x91000000u)
		out->a64_lo12 = true, out->a64_lo12_off = (w >> 10) & 0xfffu;
	else if ((w & 0x3b000000u) == 0x39000000u) {
		unsigned scale = w >> 30;

		if ((w >> 26 & 1) && scale == 0 && (w >> 23 & 1))
			scale = 4;
		out->a64_lo12 = true, out->a64_lo12_off = ((w >> 10) & 0xfffu) << scale;
	}
	/* BR, BLR: 1101011 000x 11111 000000 Rn 00000 */
	if (out->a64_lo12 || (w & 0xffdffc1fu) == 0xd61f0000u)
		out->a64_reg = (w >> 5) & 31;
	return true;
}

/* ---- dispatch tables ----
 * GCC: `cmp wI, #N; b.hi default; adrp xT, T; add xT, xT, #:lo12:T;
 * ldrb|ldrh|ldr wV, [xT, wI, uxtw #s]; adr xB, base; add xR, xB, wV,
 * sxtb|sxth|sxtw|uxt.. #2; br xR`: entry e leads to base + (ext(e) << 2).
 * Each step is the last write of the register it reads, walking back along
 * the straight path, as on x86 (x86.c). */

/* x0..x30 and w0..w30 as 0..30; -1 for anything else (sp, zr, vectors). */
static int gpr(unsigned r)
{
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return (int)(r - ARM64_REG_W0);
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return (int)(r - ARM64_REG_X0);
	if (r == ARM64_REG_X29)
		return 29;
	if (r == ARM64_REG_X30)
		return 30;
	return -1;
}

static bool arm64_at(struct arm64_decoder *d, const struct dispatch *w, size_t k)
{
	const struct insn *in = &w->insn[k];
	const uint8_t *code = w->code + (in->addr - w->insn[0].addr);
	size_t size = 4;
	uint64_t at = in->addr;

	return in->len == 4 && cs_disasm_iter(d->cs, &code, &size, &at, d->insn);
}

/* Instructions whose first register operand is read, not written. */
static bool first_is_read(unsigned id)
{
	switch (id) {
	case ARM64_INS_STR: case ARM64_INS_STRB: case ARM64_INS_STRH: case ARM64_INS_STP:
	case ARM64_INS_STUR: case ARM64_INS_STURB: case ARM64_INS_STURH: case ARM64_INS_STNP:
	case ARM64_INS_STLR: case ARM64_INS_STLRB: case ARM64_INS_STLRH:
	case ARM64_INS_CMP: case ARM64_INS_CMN: case ARM64_INS_TST: case ARM64_INS_CCMP:
	case ARM64_INS_CCMN: case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ:
	case ARM64_INS_TBNZ: case ARM64_INS_PRFM: case ARM64_INS_B:
		return true;
	default:
		return false;
	}
}

static bool writes(const cs_insn *i, int reg)
{
	const cs_arm64 *a = &i->detail->arm64;

	if (a->op_count == 0)
		return false;
	if (a->operands[0].type == ARM64_OP_REG && gpr(a->operands[0].reg) == reg && !first_is_read(i->id))
		return true;
	if ((i->id == ARM64_INS_LDP || i->id == ARM64_INS_LDNP || i->id == ARM64_INS_LDPSW) &&
	    a->op_count > 1 && a->operands[1].type == ARM64_OP_REG && gpr(a->operands[1].reg) == reg)
		return true;
	for (int k = 0; a->writeback && k < a->op_count; k++)
		if (a->operands[k].type == ARM64_OP_MEM && gpr(a->operands[k].mem.base) == reg)
			return true;
	return false;
}

/* The last instruction on the path before insn[from] that writes
 * x/w`reg`, left decoded in d->insn. */
static bool def_before(struct arm64_decoder *d, const struct dispatch *w, size_t from, int reg,
		       size_t *at)
{
	size_t k = from;

	for (unsigned step = 0; step < DISPATCH_WINDOW; step++) {
		if ((k = dispatch_prev(w, k)) == DISPATCH_NONE || !arm64_at(d, w, k))
			return false;
		if (writes(d->insn, reg)) {
			*at = k;
			return true;
		}
	}
	return false;
}

/* The entry count a `cmp wI, #imm` guards with the b.cond that follows it
 * on the path: b.hi and b.ls leave imm+1 entries, b.hs and b.lo imm. */
static bool guard(struct arm64_decoder *d, const struct dispatch *w, size_t bcc, int64_t imm,
		  uint64_t *count)
{
	if (bcc == DISPATCH_NONE || imm < 0 || !arm64_at(d, w, bcc) || d->insn->id != ARM64_INS_B)
		return false;
	switch (d->insn->detail->arm64.cc) {
	case ARM64_CC_HI: case ARM64_CC_LS: *count = (uint64_t)imm + 1; return true;
	case ARM64_CC_HS: case ARM64_CC_LO: *count = (uint64_t)imm; return true;
	default: return false;
	}
}

/* Back from insn[from] to the `cmp wI, #N` bounding the index, following
 * register moves. */
static bool bound(struct arm64_decoder *d, const struct dispatch *w, size_t from, int idx,
		  uint64_t *count)
{
	size_t k = from, bcc = DISPATCH_NONE;

	for (unsigned step = 0; step < DISPATCH_WINDOW; step++) {
		const cs_arm64 *a;

		if ((k = dispatch_prev(w, k)) == DISPATCH_NONE || !arm64_at(d, w, k))
			return false;
		if (w->insn[k].kind == BR_COND)
			bcc = k;
		a = &d->insn->detail->arm64;
		if (d->insn->id == ARM64_INS_CMP && a->op_count == 2 && gpr(a->operands[0].reg) == idx &&
		    a->operands[1].type == ARM64_OP_IMM && a->operands[1].shift.value == 0)
			return guard(d, w, bcc, a->operands[1].imm, count);
		if (!writes(d->insn, idx))
			continue;
		if (d->insn->id != ARM64_INS_MOV || a->op_count != 2 ||
		    a->operands[1].type != ARM64_OP_REG || gpr(a->operands[1].reg) < 0)
			return false;
		idx = gpr(a->operands[1].reg);
	}
	return false;
}

/* The extension of `add xR, xB, wV, <ext> #s`: its signedness and width
 * in bytes. */
static uint8_t extension(arm64_extender ext, bool *sign)
{
	*sign = ext == ARM64_EXT_SXTB || ext == ARM64_EXT_SXTH || ext == ARM64_EXT_SXTW;
	switch (ext) {
	case ARM64_EXT_SXTB: case ARM64_EXT_UXTB: return 1;
	case ARM64_EXT_SXTH: case ARM64_EXT_UXTH: return 2;
	case ARM64_EXT_SXTW: case ARM64_EXT_UXTW: return 4;
	default: return 0;
	}
}

static uint8_t load_size(unsigned id, unsigned dest)
{
	switch (id) {
	case ARM64_INS_LDRB: case ARM64_INS_LDRSB: return 1;
	case ARM64_INS_LDRH: case ARM64_INS_LDRSH: return 2;
	case ARM64_INS_LDRSW: return 4;
	case ARM64_INS_LDR: return dest >= ARM64_REG_W0 && dest <= ARM64_REG_W30 ? 4 : 0;
	default: return 0;
	}
}

/* adrp xT, page; add xT, xT, #lo: the table's address, from insn[from]
 * back. */
static bool table_address(struct arm64_decoder *d, const struct dispatch *w, size_t from, int reg,
			  uint64_t *table)
{
	size_t k;
	const cs_arm64 *a;
	uint64_t lo;

	if (!def_before(d, w, from, reg, &k))
		return false;
	a = &d->insn->detail->arm64;
	if (d->insn->id != ARM64_INS_ADD || a->op_count != 3 || gpr(a->operands[1].reg) != reg ||
	    a->operands[2].type != ARM64_OP_IMM || a->operands[2].shift.value != 0)
		return false;
	lo = (uint64_t)a->operands[2].imm;
	if (!def_before(d, w, k, reg, &k) || d->insn->id != ARM64_INS_ADRP)
		return false;
	*table = (uint64_t)d->insn->detail->arm64.operands[1].imm + lo;
	return true;
}

bool arm64_table_shape(void *dv, const struct elf_image *img, const struct dispatch *w,
		       struct table_shape *t)
{
	struct arm64_decoder *d = dv;
	const cs_arm64 *a = &d->insn->detail->arm64;
	size_t kadd, kb, kld;
	int r, rb, rv, rt, idx;
	uint8_t ext;

	(void)img;              /* x86's reads the table from it; one signature */
	*t = (struct table_shape){ 0 };
	if (!arm64_at(d, w, w->j) || d->insn->id != ARM64_INS_BR || (r = gpr(a->operands[0].reg)) < 0)
		return false;
	/* add xR, xB, wV, sxtb #2 */
	if (!def_before(d, w, w->j, r, &kadd) || d->insn->id != ARM64_INS_ADD || a->op_count != 3 ||
	    a->operands[2].type != ARM64_OP_REG || !(ext = extension(a->operands[2].ext, &t->sign)) ||
	    (rb = gpr(a->operands[1].reg)) < 0 || (rv = gpr(a->operands[2].reg)) < 0)
		return false;
	t->shift = (uint8_t)a->operands[2].shift.value;
	/* adr xB, base */
	if (!def_before(d, w, kadd, rb, &kb) || d->insn->id != ARM64_INS_ADR)
		return false;
	t->base = (uint64_t)a->operands[1].imm;
	/* ldrb wV, [xT, wI, uxtw] */
	if (!def_before(d, w, kadd, rv, &kld) || a->op_count != 2 || a->operands[1].type != ARM64_OP_MEM ||
	    !(t->size = load_size(d->insn->id, a->operands[0].reg)) ||
	    (rt = gpr(a->operands[1].mem.base)) < 0 || (idx = gpr(a->operands[1].mem.index)) < 0 ||
	    a->operands[1].mem.disp != 0)
		return false;
	/* a load zero-extends: a wider signed extension sees a positive
	 * number, a narrower one is not a dispatch GCC emits */
	if (ext > t->size)
		t->sign = false;
	else if (ext < t->size)
		return false;
	return table_address(d, w, kld, rt, &t->table) && bound(d, w, kld, idx, &t->count);
}

#define STR_(x) #x
#define STR(x) STR_(x)

const char *arm64_library_version(void)
{
	return "Capstone " STR(CS_VERSION_MAJOR) "." STR(CS_VERSION_MINOR) "." STR(CS_VERSION_EXTRA);
}

/* Capstone's text is the Arm ARM's, which llvm-mc reads. */
bool arm64_asm_text(void *dv, const uint8_t *p, size_t n, uint64_t addr, uint64_t base, char *buf,
		    size_t cap, bool *divides)
{
	struct arm64_decoder *d = dv;
	const uint8_t *code = p;
	size_t size = n < 4 ? n : 4;
	uint64_t at = addr - base;      /* branch targets relative to base */
	const char *m;

	if (n < 4 || !cs_disasm_iter(d->cs, &code, &size, &at, d->insn))
		return false;
	m = d->insn->mnemonic;
	*divides = !strcmp(m, "udiv") || !strcmp(m, "sdiv") || !strcmp(m, "fdiv") ||
		   !strcmp(m, "fsqrt");
	return (size_t)snprintf(buf, cap, "%s %s", m, d->insn->op_str) < cap;
}

/* A system register user space may name in msr or mrs (Arm ARM D1.2,
 * D13: the EL0 registers; NZCV and the floating-point controls; of the
 * PSTATE fields, DIT, SSBS and TCO). */
static bool el0_register(const char *r)
{
	static const char *const el0[] = { "nzcv", "fpcr", "fpsr", "dit", "ssbs", "tco" };
	size_t n = strlen(r);

	if (n > 4 && strcmp(r + n - 4, "_el0") == 0)
		return true;
	for (size_t k = 0; k < sizeof el0 / sizeof *el0; k++)
		if (strcmp(r, el0[k]) == 0)
			return true;
	return false;
}

/* The system register of an msr or mrs: the operand that is no x or w
 * register ("msr pan, #1", "mrs x0, tpidr_el1"). */
static bool el0_access(const char *op)
{
	char r[32];
	const char *comma = strchr(op, ',');
	bool first_is_gpr = op[0] == 'x' || op[0] == 'w';
	const char *at = first_is_gpr && comma ? comma + 1 : op;
	size_t n = 0;

	while (*at == ' ')
		at++;
	while (at[n] && at[n] != ',' && at[n] != ' ' && n < sizeof r - 1) {
		r[n] = at[n];
		n++;
	}
	r[n] = '\0';
	return el0_register(r);
}

bool arm64_privileged(void *dv, const uint8_t *p, size_t n, const char **name)
{
	static const char *const always[] = { "eret", "eretaa", "eretab", "hvc", "smc", "tlbi",
		"at" };
	struct arm64_decoder *d = dv;
	const uint8_t *code = p;
	size_t size = n < 4 ? n : 4;
	uint64_t at = 0;
	const char *m;

	if (n < 4 || !cs_disasm_iter(d->cs, &code, &size, &at, d->insn))
		return false;
	m = *name = d->insn->mnemonic;
	for (size_t k = 0; k < sizeof always / sizeof *always; k++)
		if (strcmp(m, always[k]) == 0)
			return true;
	if (strcmp(m, "msr") == 0 || strcmp(m, "mrs") == 0)
		return !el0_access(d->insn->op_str);
	return false;
}
