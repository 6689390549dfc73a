/* x86-64 through Zydis in minimal mode: length, mnemonic and the raw
 * fields are all layout analysis needs, and minimal mode is the cheapest
 * decode Zydis offers (issue 2's speed goal is measured against it). */
#include "decode.h"
#include "internal.h"

#include <Zydis/Zydis.h>
#include <stdio.h>

struct x86_decoder {
	ZydisDecoder z;
};

void *x86_decoder_new(void)
{
	struct x86_decoder *d = xcalloc(1, sizeof *d);

	ZydisDecoderInit(&d->z, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&d->z, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
	return d;
}

/* Condition classes for fusion, from the Intel Optimization Reference
 * Manual's macro-fusion table. */
enum { COND_NONE, COND_ZF_SIGNED, COND_CARRY, COND_SIGN_OVERFLOW_PARITY };
enum { FUSE_NONE, FUSE_TEST_AND, FUSE_CMP_ADD_SUB, FUSE_INC_DEC };

static uint8_t cond_class(ZydisMnemonic m)
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

static uint8_t fuse_class(const ZydisDecodedInstruction *z)
{
	uint8_t c;
	bool has_modrm = z->raw.modrm.offset != 0;
	bool mem = has_modrm && z->raw.modrm.mod != 3;
	bool rip = has_modrm && z->raw.modrm.mod == 0 && z->raw.modrm.rm == 5;

	switch (z->mnemonic) {
	case ZYDIS_MNEMONIC_TEST: case ZYDIS_MNEMONIC_AND: c = FUSE_TEST_AND; break;
	case ZYDIS_MNEMONIC_CMP: case ZYDIS_MNEMONIC_ADD:
	case ZYDIS_MNEMONIC_SUB: c = FUSE_CMP_ADD_SUB; break;
	case ZYDIS_MNEMONIC_INC: case ZYDIS_MNEMONIC_DEC: c = FUSE_INC_DEC; break;
	default: return FUSE_NONE;
	}
	if (rip || (mem && z->raw.imm[0].size != 0))
		return FUSE_NONE;
	return c;
}

/* Direct means a relative immediate (rel8/rel32). ZYDIS_ATTRIB_IS_RELATIVE
 * is also set for a RIP-relative memory operand, which would turn the PLT's
 * `jmp *GOT(%rip)` into a jump to the next instruction. */
static uint8_t branch_kind(const ZydisDecodedInstruction *z)
{
	bool rel = z->raw.imm[0].is_relative;

	switch (z->mnemonic) {
	case ZYDIS_MNEMONIC_JMP:
		return rel ? BR_JUMP : BR_JUMP_IND;
	case ZYDIS_MNEMONIC_CALL:
		return rel ? BR_CALL : BR_CALL_IND;
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
		return rel ? BR_COND : BR_NONE;
	default:
		return BR_NONE;
	}
}

void x86_decode_one(void *dv, const uint8_t *p, size_t n, uint64_t addr, struct insn *out)
{
	struct x86_decoder *d = dv;
	ZydisDecodedInstruction z;

	out->addr = addr;
	out->target = 0;
	out->fuse_first = FUSE_NONE;
	out->fuse_cond = COND_NONE;
	out->padding = 0;
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d->z, NULL, p, n, &z))) {
		out->len = 1;
		out->kind = BR_INVALID;
		out->shape = 0xffff;
		return;
	}
	out->len = z.length;
	out->shape = (uint16_t)z.mnemonic;
	out->kind = branch_kind(&z);
	out->padding = z.mnemonic == ZYDIS_MNEMONIC_NOP;
	if (out->kind == BR_COND || out->kind == BR_JUMP || out->kind == BR_CALL)
		out->target = addr + z.length + (uint64_t)z.raw.imm[0].value.s;
	if (out->kind == BR_COND)
		out->fuse_cond = cond_class(z.mnemonic);
	else if (out->kind == BR_NONE)
		out->fuse_first = fuse_class(&z);
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

const char *x86_library_version(void)
{
	static char v[32];

	snprintf(v, sizeof v, "Zydis %u.%u.%u", ZYDIS_VERSION_MAJOR(ZYDIS_VERSION),
		 ZYDIS_VERSION_MINOR(ZYDIS_VERSION), ZYDIS_VERSION_PATCH(ZYDIS_VERSION));
	return v;
}
