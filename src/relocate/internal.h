/* What analyse.c finds and plan.c lays out; nothing outside relocate/
 * includes this. */
#ifndef STRADDLE_RELOCATE_INTERNAL_H
#define STRADDLE_RELOCATE_INTERNAL_H

#include "relocate.h"
#include "plan.h"
#include "../cfg/cfg.h"

#include <stdio.h>

enum fix_kind {
	FIX_REL32,              /* a rel32 branch or RIP-relative operand to `target`
				 * outside the function: rebased from the copy */
	FIX_REL8_STUB,          /* a rel8 branch out: to a jump stub after the copy */
	FIX_RIP_TABLE,          /* a RIP-relative operand naming table `table`:
				 * the copy's own table */
	FIX_ABS_SELF,           /* an absolute address of the function's own code
				 * (fixed-address code only): the copy's */
	FIX_ABS_TABLE,          /* an absolute address of table `table` */
	/* AArch64 (arm64.c): `size` is the PLAN_A64_ form of the word's
	 * immediate, `field` and `end` both the word's address (its PC) */
	FIX_A64,                /* a b/bl out, or an adrp: rebased from the copy */
	FIX_A64_STUB,           /* a b.cond, cbz or tbz out: to a `b` stub after
				 * the copy */
};

struct reloc_fix {
	uint8_t kind;           /* enum fix_kind */
	uint8_t size;           /* of the field: 1, 4 or 8 */
	uint32_t table;         /* FIX_RIP_TABLE, FIX_ABS_TABLE: the file's table index */
	uint64_t field;         /* ELF vaddr of the field */
	uint64_t end;           /* ELF vaddr of the end of its instruction */
	uint64_t target;        /* what it refers to */
	bool branch;            /* a branch's (else an operand's): a branch to a moved
				 * function goes to its copy, a pointer to the original */
};

struct reloc_table {
	struct table_shape shape;
	const uint8_t *bytes;   /* the entries, in the file */
	uint64_t at;            /* its offset in its function's arena block */
};

/* A direct branch from one function into another's middle (analyse.c). */
struct reloc_xref {
	uint64_t insn;          /* the instruction's first byte */
	uint64_t field, end, target;
	uint64_t from;          /* the function it is in */
	uint8_t size;
};

/* analyse.c: every direct branch of the file into a function's middle,
 * sorted by target, found once per file. */
struct reloc_xrefs {
	struct reloc_xref *v;
	size_t n, cap;
};

void reloc_find_xrefs(struct reloc_file *rf, struct reloc_xrefs *x);
/* The first of x's branches into f's middle (x sorted by target): those
 * into f follow it while their target is below f's end. */
size_t reloc_xrefs_into(const struct reloc_xrefs *x, const struct reloc_func *f);
void reloc_add_fix(struct reloc_file *rf, struct reloc_func *f, struct reloc_fix fx);
void reloc_refuse(struct reloc_func *f, enum reloc_refusal why, uint64_t at);
/* arm64.c: an AArch64 function's instructions insn[0..n) as fix-ups, its
 * dispatch tables checked (they are read in place). */
void reloc_a64_analyse(struct reloc_file *rf, struct reloc_func *f, const struct insn *insn,
		       size_t n);
void reloc_analyse(struct reloc_file *rf, struct reloc_func *f, const struct reloc_xrefs *x);

/* Lay out each function's block: copy, stubs, tables (plan.c). */
void reloc_block_layout(struct reloc_file *rf, struct reloc_func *f);

/* unwind.c: refuse f when its unwind data cannot be given to a copy (an
 * FDE that covers code outside it, an address in its instructions, an
 * encoding or augmentation not known, an LSDA with its own LPStart);
 * else note its FDEs (first_fde, nfde). */
void reloc_unwind_check(struct reloc_file *rf, struct reloc_func *f);

/* A moved function and its block's offset in the arena. */
struct reloc_copy {
	const struct reloc_func *f;
	uint64_t at;
};

/* The arena's read-only part, from offset `at` (a page boundary): an ELF
 * image for gdb's JIT interface naming each copy, holding the copies'
 * .eh_frame at `eh_frame` (from `at`) that the unwinder is given. Its
 * fix-ups are the arena's (at_in PLAN_IN_COPY, offsets from the arena). */
struct reloc_tail {
	uint64_t at;
	uint8_t *bytes;
	size_t size, cap;
	struct plan_fixup *fix;
	size_t nfix, fix_cap;
	uint64_t eh_frame, eh_frame_size;
};

/* module.c: a kernel module (ET_REL) linked in memory, as the module
 * loader links it, into an image kernel.c reads as a vmlinux: allocated
 * sections at addresses of the module area, each undefined symbol
 * (__x86_return_thunk, kmalloc) at an address of its own in
 * [extern_lo, extern_hi) that elf_symbol_at names, the allocated
 * sections' relocations applied. A relocation of a type not applied is
 * kept in `unapplied` with its field's address: its bytes are the file's. */
struct kmodule_reloc {
	uint64_t place;         /* the field's address in the linked image */
	uint32_t type;
	char where[80];         /* ".text+0x4b" */
	char sym[64];           /* the symbol it names */
	char why[40];           /* "R_X86_64_GOTPCREL" */
};

struct kmodule {
	uint32_t symtab;        /* its section index */
	uint64_t extern_lo, extern_hi;
	struct kmodule_reloc *unapplied;
	size_t nunapplied, unapplied_cap;
};

/* obj: an ET_REL image; out: the linked one (ET_EXEC), its own bytes.
 * 0, or -1 with one line in e naming obj. */
int kmodule_link(const struct elf_image *obj, struct elf_image *out, struct kmodule *m,
		 struct err *e);
void kmodule_free(struct kmodule *m);

/* A function's instructions and its CFG with its resolved dispatch tables
 * (file.c). */
struct reloc_func_cfg {
	struct insn *insn;
	size_t n;
	struct cfg g;
	struct cfg_jump_table *jt;
	struct jump_targets *tg;
	size_t nt;
};

void reloc_func_cfg(struct reloc_file *rf, const struct reloc_func *f, struct reloc_func_cfg *c);
void reloc_func_cfg_free(struct reloc_func_cfg *c);

/* The arena of one file being built (plan.c): its image, the copies by
 * function address, the fix-ups and patches that tie it to the object. */
struct arena {
	uint8_t *image;
	uint64_t size;
	struct reloc_copy *p;               /* sorted by function address */
	size_t n;
	struct plan_fixup *fix;
	size_t nfix, fix_cap;
	struct plan_patch *patch;
	size_t npatch, patch_cap;
	uint64_t data_at, eh_frame_at, symfile_size;    /* the read-only part: plan.h */
	struct replay_build *replay;        /* the loop to replay in it, or NULL */
};

void arena_put_fix(struct arena *a, struct plan_fixup f);
void arena_put_le(uint8_t *p, uint64_t v, unsigned n);
/* A rel32 field of the arena at `field` that refers to `target` (an ELF
 * vaddr: in a copy when a moved function holds it), relative to `ref`. */
void arena_rel32(struct arena *a, uint64_t field, uint64_t target, bool branch, uint64_t ref);
/* Where a replay copy's branch out of its loop and its function goes
 * instead: the exit stub's arena offset, or 0 (its own target). */
struct exit_redirect {
	uint64_t (*stub)(const void *ctx, uint64_t field, uint64_t target);
	const void *ctx;
};
/* The function's bytes at p->at, its fix-ups and tables (x: NULL, or a
 * replay copy's exits). */
void arena_copy(struct arena *a, const struct reloc_file *rf, const struct reloc_copy *p,
		const struct exit_redirect *x);
/* n bytes to f, padded to 8; 0 or -1. */
int plan_put(FILE *f, const void *p, size_t n);

/* replay_plan.c: the copies a replay of one loop adds to its file's arena
 * (plan.h, "a loop replayed"): analysed, laid out from `cursor` (the new
 * cursor returned), written once the image is, and the plan's record. */
struct replay_build;
struct replay_build *replay_build_new(struct reloc_file *rf, const struct reloc_replay *rp,
				      struct err *e);
uint64_t replay_layout(struct replay_build *rb, uint64_t cursor);
/* The copies the unwinder and debuggers are told of besides the moved
 * ones: the skip copy, which runs in the program. */
struct reloc_copy replay_skip_copy(const struct replay_build *rb);
void replay_write(struct arena *a, const struct reloc_file *rf, struct replay_build *rb,
		  uint64_t run);
int replay_put(FILE *f, const struct replay_build *rb, uint32_t object);
void replay_build_free(struct replay_build *rb);

void reloc_tail_build(const struct reloc_file *rf, const struct reloc_copy *cp, size_t n,
		      uint64_t at, struct reloc_tail *t);
void reloc_tail_free(struct reloc_tail *t);

#endif
