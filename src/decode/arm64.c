/* AArch64 through Capstone. Every instruction is 4 bytes; Capstone tells
 * the branch kind and resolves the target of direct branches. */
#include "decode.h"
#include "internal.h"

#include <capstone/capstone.h>
#include <stdlib.h>

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
	out->len = (uint8_t)(n < 4 ? n : 4);
	if (n < 4 || !cs_disasm_iter(d->cs, &code, &size, &at, d->insn)) {
		out->kind = BR_INVALID;
		out->shape = 0xffff;
		return;
	}
	out->shape = (uint16_t)d->insn->id;
	out->kind = branch_kind(d->insn);
	out->padding = d->insn->id == ARM64_INS_NOP;
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

#define STR_(x) #x
#define STR(x) STR_(x)

const char *arm64_library_version(void)
{
	return "Capstone " STR(CS_VERSION_MAJOR) "." STR(CS_VERSION_MINOR) "." STR(CS_VERSION_EXTRA);
}
