/* decode: one interface, two back ends (x86-64 through Zydis, AArch64
 * through Capstone). It yields what layout analysis needs of an
 * instruction: its length, its branch kind and target, and whether it can
 * macro-fuse with the conditional branch after it. Nothing above this layer
 * knows an opcode. */
#ifndef STRADDLE_DECODE_H
#define STRADDLE_DECODE_H

#include "../base/base.h"
#include "../elf/elf.h"

enum branch_kind {
	BR_NONE,        /* falls through */
	BR_COND,        /* conditional, direct: target and fall-through */
	BR_JUMP,        /* unconditional, direct */
	BR_JUMP_IND,    /* unconditional, indirect: successors unknown */
	BR_CALL,        /* direct call: falls through */
	BR_CALL_IND,    /* indirect call: falls through */
	BR_RET,
	BR_STOP,        /* ud2, hlt, int3, brk...: no successor */
	BR_INVALID      /* bytes that do not decode: one byte (x86) or word */
};

struct insn {
	uint64_t addr;
	uint64_t target;        /* BR_COND, BR_JUMP, BR_CALL */
	uint16_t shape;         /* mnemonic id, for shape hashes */
	uint8_t len;
	uint8_t kind;           /* enum branch_kind */
	uint8_t fuse_first;     /* class as the first of a fused pair, 0 none */
	uint8_t fuse_cond;      /* class of a conditional branch's condition */
	uint8_t padding;        /* a nop: alignment filler when nothing reaches it */
};

struct decoder;

struct decoder *decoder_new(enum arch arch);
/* "Zydis 4.0.0, Capstone 4.0.2": the decoders straddle was built with. */
const char *decode_library_versions(void);
void decoder_free(struct decoder *d);

/* Decode one instruction of `p[0..n)` at virtual address `addr`. Never
 * fails: undecodable bytes give BR_INVALID of the smallest step (1 byte on
 * x86, as objdump's "(bad)"; 4 on AArch64). n must be > 0. */
void decode_one(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
		struct insn *out);

/* Does `first` macro-fuse with the conditional branch `jcc` that follows
 * it? Intel's rules (Optimization Reference Manual, "Macro-fusion"): TEST
 * and AND fuse with every jcc; CMP, ADD and SUB with all but the sign,
 * overflow and parity ones; INC and DEC only with the ZF/SF-OF ones; none
 * with a memory operand and an immediate, or a RIP-relative operand. */
bool insn_fuses(const struct insn *first, const struct insn *jcc);

/* Is this a branch that ends a basic block? */
static inline bool insn_ends_block(const struct insn *i)
{
	return i->kind != BR_NONE && i->kind != BR_CALL && i->kind != BR_CALL_IND;
}

#endif
