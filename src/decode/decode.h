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
	BR_INVALID      /* x86 bytes that do not decode: one byte, as objdump's (bad) */
};

struct insn {
	uint64_t addr;
	uint64_t target;        /* BR_COND, BR_JUMP, BR_CALL */
	uint16_t shape;         /* mnemonic id, for shape hashes */
	uint8_t len;
	uint8_t kind;           /* enum branch_kind */
	uint8_t fuse_first;     /* class as the first of a fused pair, 0 none */
	uint8_t fuse_cond;      /* class of a conditional branch's condition */
	uint8_t padding;        /* a nop or int3: filler when nothing reaches it */
	/* a wait hint: x86 pause, AArch64 yield or wfe (a loop holding one is
	 * a spin loop) */
	uint8_t spin;
	/* AArch64: a word Capstone 4 cannot decode (SVE, MTE, newer
	 * extensions). Every branch encoding is in the base ISA, which it
	 * decodes, so such a word is a plain instruction that falls through. */
	uint8_t undecoded;
};

struct decoder;

struct decoder *decoder_new(enum arch arch);
/* "Zydis 4.0.0, Capstone 4.0.2": the decoders straddle was built with. */
const char *decode_library_versions(void);
void decoder_free(struct decoder *d);

/* Decode one instruction of `p[0..n)` at virtual address `addr`. Never
 * fails: undecodable x86 bytes give BR_INVALID of one byte (objdump's
 * "(bad)"); an undecodable AArch64 word is BR_NONE with `undecoded` set (a
 * tail shorter than a word is BR_INVALID). n must be > 0. */
void decode_one(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
		struct insn *out);
/* decode_one from p[0] on, instruction after instruction, into out[0..max):
 * the count decoded, and in *used the bytes they cover (less than n when out
 * filled first). The scan's loop: one call a run instead of two an
 * instruction. */
size_t decode_run(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
		  struct insn *out, size_t max, size_t *used);

/* x86-64: most instructions are decoded without Zydis (decode/x86_quick.c).
 * Does that give exactly Zydis's instruction for p[0..n)? *quick says
 * whether the quick path took the bytes at all (true is returned when it
 * did not). For the tests and `insn_dump --check`; false on AArch64. */
bool decode_quick_agrees(struct decoder *d, const uint8_t *p, size_t n, bool *quick);

/* The memory writes among the instructions of code[0..n): stores,
 * read-modify-writes, string stores, pushes and calls (the return
 * address). What bounds a store-heavy loop's iteration however its bytes
 * lie (model/rules.c, the back-end bound). insn[] are the records of those
 * bytes as decode_run made them, insn[0] at code[0]. Decoding operands
 * costs several times the scan's decode, so the model asks only for loops
 * whose verdict depends on it, and only an instruction a cheap look (the
 * scan's own decode again, x86_quick.c first; AArch64's encoding group)
 * cannot clear is decoded with them. */
unsigned decode_count_stores(struct decoder *d, const struct insn *insn, const uint8_t *code,
			     size_t n);
/* That cheap look at the instruction p[0..n), for the tests: false when it
 * clears one the full decode finds writing memory. *may says whether it
 * left the instruction to the full decode. */
bool decode_store_filter_holds(struct decoder *d, const uint8_t *p, size_t n, bool *may);

/* The instruction p[0..n) at `addr` as assembly text that LLVM's
 * assembler reads (llvm-mca, the cost model's back end): Intel syntax on
 * x86-64 with every operand size (Zydis's formatter; the text follows
 * ".intel_syntax noprefix"), Capstone's on AArch64; branch targets as
 * labels named by their distance from `base` (".Lb-24": the same loop
 * elsewhere is the same text). *divides says whether it is a divide or square root
 * (its unit bounds a loop that holds one). False when the bytes do not
 * decode or the text does not fit in cap. */
bool decode_asm_text(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr, uint64_t base,
		     char *buf, size_t cap, bool *divides);

/* Does `first` macro-fuse with the conditional branch `jcc` that follows
 * it? Intel's rules (Optimization Reference Manual, "Macro-fusion"): TEST
 * and AND fuse with every jcc; CMP, ADD and SUB with all but the sign,
 * overflow and parity ones; INC and DEC only with the ZF/SF-OF ones; none
 * with a memory operand and an immediate, or a RIP-relative operand. */
bool insn_fuses(const struct insn *first, const struct insn *jcc);

/* Can p[0..n) hold a return instruction? A cheap filter (a byte or word
 * search, no decode) for finding functions that never return: false means
 * there is certainly no ret; true means decode and see. */
bool decode_may_hold_ret(enum arch arch, const uint8_t *p, size_t n);

/* The memory slot whose contents the first indirect jump of the stub code
 * p[0..n) at `addr` jumps to, 0 when there is none: `jmp *disp(%rip)` (after
 * endbr64, with or without bnd) on x86-64; `adrp xN, page; ldr xM, [xN,
 * #off]; ... br xM` on AArch64. Fits elf_stub_slot_fn with the decoder as
 * context, for naming PLT stubs. */
uint64_t decode_stub_slot(void *decoder, const uint8_t *p, size_t n, uint64_t addr);

/* The successors of an indirect jump through a dispatch table (a switch),
 * sorted and unique; a reusable buffer. */
struct jump_targets {
	uint64_t *v;
	size_t n, cap;
};

/* What an indirect jump is, as far as its bytes and those before it say. */
enum jump_kind {
	JUMP_TABLE,     /* a dispatch whose table was read: out holds its targets */
	JUMP_SLOT,      /* through a pointer slot (jmp *GOT(%rip)): a tail call
			 * leaving the function, never a switch */
	JUMP_UNKNOWN    /* anything else: successors unknown */
};

/* What a dispatch's bytes say of its table: where it is, how to read an
 * entry, and how an entry becomes an address (relocate/ copies and rebases
 * it). */
struct table_shape {
	uint64_t table;         /* address of entry 0 */
	uint64_t count;         /* entries */
	uint8_t size;           /* bytes per entry: 1, 2, 4, 8 */
	bool sign;              /* entries are signed */
	uint8_t shift;          /* target = base + (entry << shift) */
	uint64_t base;          /* 0 with size 8: absolute addresses */
};

/* Resolve the indirect jump insn[j] of one function, whose instructions
 * insn[0..n) were decoded contiguously from `code`, through its dispatch
 * table: on x86-64 `lea T(%rip),t; movslq (t,i,4),r; add t,r; jmp *r` or
 * `jmp *T(,i,8)`; on AArch64 `adrp t; add t,t,#lo; ldrb|ldrh|ldr v,[t,i..];
 * adr b; add r,b,v,sxtb|uxtb|..|sxtw #s; br r`. The entry count comes from
 * the `cmp i,#N` and the `ja|jae|b.hi|b.hs` (or inverse) that guards the
 * dispatch. The table is read from the image; its targets inside the
 * function go to `out` (sorted, unique), those elsewhere in code (a cold
 * part) are left out. Not JUMP_TABLE when the jump is not such a dispatch,
 * the bound is not found, or an entry leads out of code (out->n = 0). */
enum jump_kind decode_jump_table(struct decoder *d, const struct elf_image *img,
				 const uint8_t *code, const struct insn *insn, size_t n, size_t j,
				 struct jump_targets *out);
/* decode_jump_table, and for a JUMP_TABLE the table's shape in *shape. */
enum jump_kind decode_jump_table_shape(struct decoder *d, const struct elf_image *img,
				       const uint8_t *code, const struct insn *insn, size_t n,
				       size_t j, struct jump_targets *out, struct table_shape *shape);

/* The fields of one instruction that hold an address, where relocate/
 * must rewrite them when the code moves: offsets into the instruction's
 * bytes, 0 when absent (no x86 field starts at byte 0). */
struct address_fields {
	uint8_t rel_at, rel_size;       /* a branch's displacement (1 or 4 bytes) */
	uint64_t rel_target;
	uint8_t rip_at;                 /* a RIP-relative disp32 */
	uint64_t rip_target;
	uint8_t abs_at, abs_size;       /* an absolute memory displacement (no base
					 * register, disp32 sign-extended) or an
					 * immediate of 4 or 8 bytes: maybe an address */
	uint64_t abs_value;
	/* AArch64: the one PC-relative immediate of the word (at byte 0, so
	 * told by its form, not by an offset), and the address it yields */
	uint8_t a64_form;               /* enum a64_form */
	uint64_t a64_target;
	/* ... and what pairs with an adrp: its result register, or the base
	 * register and byte offset of an `add xD, xN, #imm12` or a load or
	 * store with an unsigned offset (the :lo12: half of an address); of a
	 * br or blr, the register it goes through */
	uint8_t a64_reg;
	bool a64_lo12;
	uint32_t a64_lo12_off;
};

/* The PC-relative immediates of A64 (Arm ARM C4.1), by their encoding. */
enum a64_form {
	A64_NONE,
	A64_IMM26,      /* b, bl: +-128 MiB, in words */
	A64_IMM19,      /* b.cond, cbz, cbnz; ldr (literal), ldrsw, prfm: +-1 MiB */
	A64_IMM14,      /* tbz, tbnz: +-32 KiB */
	A64_ADR,        /* adr: +-1 MiB, in bytes */
	A64_ADRP,       /* adrp: +-4 GiB, in 4 KiB pages of the PC's page */
};

/* The address fields of the instruction p[0..n) at addr: x86-64's
 * displacements and immediates, AArch64's PC-relative immediate; false
 * when it does not decode. */
bool decode_address_fields(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
			   struct address_fields *out);

/* Would the instruction p[0..n) fault in user space? x86-64: one of
 * privilege level 0 (Zydis's privileged attribute: clac, stac, wrmsr, mov
 * to a control register, hlt, swapgs, wbinvd...) or one the I/O privilege
 * level guards (cli, sti, in, out, ins, outs, iret: Intel SDM vol. 1,
 * 18.2); AArch64: eret, hvc, smc, and msr or mrs of a register user space
 * cannot reach (Arm ARM D1.2: only NZCV, DAIF reads aside, FPCR, FPSR,
 * TPIDR_EL0, TPIDRRO_EL0 reads, the counters; every PSTATE field but the
 * user ones). *name: its mnemonic. False when the bytes do not decode. */
bool decode_privileged(struct decoder *d, const uint8_t *p, size_t n, const char **name);

/* "jcc", "jmp", "call", "ret", ... (the same words for AArch64's b.cond,
 * b, bl, ret). */
const char *branch_kind_name(enum branch_kind k);

/* Is this a branch that ends a basic block? */
static inline bool insn_ends_block(const struct insn *i)
{
	return i->kind != BR_NONE && i->kind != BR_CALL && i->kind != BR_CALL_IND;
}

#endif
