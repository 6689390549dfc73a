/* relocate: the plan that moves functions of a real x86-64 ELF (a
 * dynamically linked executable, PIE or not, or a shared object) so that a
 * chosen loop of each (or its entry) starts at a chosen offset of a line or
 * a page, while the unmodified program runs.
 *
 * Each moved function is copied whole into an arena mapped beside the
 * object at run time; what its bytes say of addresses (decode/'s address
 * fields and dispatch tables) becomes the copy's fix-ups: rel32 branches
 * and calls that leave it, RIP-relative operands, absolute addresses of its
 * own code, its jump tables (copied beside it, entries rebased), rel8
 * branches that leave it (through a jump stub after the copy). Its entry
 * becomes a jump to the copy, so every caller reaches it; rel32 branches
 * from elsewhere into its middle (a .cold part's way back) are redirected.
 * The plan is applied by the preload library (preload.c, plan.h), which
 * decodes nothing. A function that cannot be moved safely is refused with
 * its reason, never moved half. */
#ifndef STRADDLE_RELOCATE_H
#define STRADDLE_RELOCATE_H

#include "../base/base.h"
#include "../elf/elf.h"
#include "../decode/decode.h"

enum reloc_refusal {
	RELOC_OK,
	RELOC_TOO_SHORT,                /* shorter than the 5-byte entry jump */
	RELOC_UNDECODABLE,              /* bytes that do not decode */
	RELOC_INDIRECT_JUMP,            /* an indirect jump not resolved as a table */
	RELOC_TABLE_FORM,               /* a table whose entries or base it cannot rebase */
	RELOC_SHORT_BRANCH_IN,          /* a rel8 branch from elsewhere into its middle */
	RELOC_SHORT_BRANCH_OUT,         /* a rel8 branch out, no stub within reach */
	RELOC_POINTED_INTO,             /* data holds an address of its middle (a table
					 * of labels, a computed goto): reached there,
					 * the original would run */
	RELOC_NEAR_REF_OUT,             /* AArch64: an adr or a literal load of
					 * something outside it (+-1 MiB of the
					 * original, maybe not of the copy) */
	RELOC_ADRP_OWN_PAGE,            /* AArch64: an adrp of a page of its own
					 * code (an address of its middle, maybe) */
	RELOC_POOL_FIELD,               /* AArch64: a word its literal loads read
					 * that reads as a PC-relative field: data
					 * the copy would rewrite */
	RELOC_UNWIND,                   /* unwind data (.eh_frame, its LSDA) a copy
					 * cannot be given: a C++ exception thrown
					 * through the copy would end the program */
	RELOC_NREFUSALS
};

const char *reloc_refusal_name(enum reloc_refusal r);

/* One of a function's loops: the span the scan reports (DESIGN, hazard
 * model) and its header block. */
struct reloc_loop {
	uint64_t start, end, header;
	uint32_t depth;
	bool innermost;
};

struct reloc_func {
	uint64_t addr, size;
	const char *name;               /* as people read it (demangled) */
	const char *symbol;             /* as the symbol table spells it */
	const uint8_t *code;            /* its bytes, in the file */
	enum reloc_refusal refused;
	uint64_t refused_at;            /* the instruction at fault */
	uint64_t unresolved_jump;       /* the first indirect jump that is no table:
					 * a tail call through a pointer */
	uint32_t first_fix, nfix;       /* into the file's fix-ups */
	uint32_t first_table, ntable;
	uint32_t nstub;                 /* rel8 branches out: jump stubs after the copy */
	/* its last instruction falls through its end into the next code
	 * (glibc's __memmove_chk_* run on into __memmove_*): the copy ends
	 * with a jump there */
	bool falls_off;
	uint64_t block;                 /* bytes of its arena block before tables */
	uint64_t tables_at;             /* offset of its first table in the block */
	uint64_t block_size;
	uint32_t first_fde, nfde;       /* its FDEs in the file's eh */
	/* a branch of its own lands in the bytes its entry jump overwrites
	 * (after the first): a thread in its original code could come back
	 * there, so its entry is not patched while other threads run */
	bool entry_is_target;
};

struct reloc_fix;
struct reloc_table;
struct reloc_xrefs;
struct reloc_pointer {
	uint64_t value, at;
};

/* One ELF file and the functions chosen from it, analysed. */
struct reloc_file {
	struct elf_image img;
	struct elf_funcs funcs;
	struct elf_eh eh;               /* .eh_frame, for the copies' own */
	struct decoder *dec;
	struct reloc_func *fn;
	size_t nfn;
	size_t refused[RELOC_NREFUSALS];
	struct reloc_fix *fix;
	size_t nfix, fix_cap;
	struct reloc_table *table;
	size_t ntable, table_cap;
	/* direct branches into functions' middles, found on first need */
	struct reloc_xrefs *xrefs;
	/* code addresses held in data (RELATIVE relocations; in fixed-address
	 * code every aligned word that is one): where, and what, by what */
	struct reloc_pointer *ptr;
	size_t nptr, ptr_cap;
	bool fixed_address;             /* ET_EXEC: absolute addresses are final */
};

/* Open an ELF file for moving: x86-64, ET_EXEC with a PT_INTERP (not
 * static) or ET_DYN, with a build-id (how the preload library finds it).
 * 0, or -1 with the reason in e. */
int reloc_open(struct reloc_file *rf, const char *path, struct err *e);
/* Analyse the functions whose name matches glob (NULL: every function):
 * each is movable (refused == RELOC_OK) or refused with a reason. The
 * count chosen, 0 when none matches. */
size_t reloc_choose(struct reloc_file *rf, const char *glob);
/* The function holding ELF vaddr addr, analysed (and added to the chosen
 * ones), or NULL when none does. */
struct reloc_func *reloc_choose_at(struct reloc_file *rf, uint64_t addr);
void reloc_close(struct reloc_file *rf);

/* The loops of a chosen function, outermost first by start: *out is
 * malloc'd. */
size_t reloc_loops(struct reloc_file *rf, const struct reloc_func *f, struct reloc_loop **out);

/* Where a moved function goes: the byte `anchor` of it (its loop's start,
 * or its entry) at `offset` modulo `align` (64 for a line, 4096 for a
 * page) in the running program. */
struct reloc_place {
	const struct reloc_func *f;
	uint64_t anchor;
	uint32_t offset, align;
};

/* The plan moving each place[i].f of each file (a plan covers several
 * files), written to f. Every place[].f must be movable. 0, or -1 with e. */
struct reloc_plan_part {
	struct reloc_file *rf;
	const struct reloc_place *place;
	size_t n;
};
int reloc_plan_write(const struct reloc_plan_part *part, size_t nparts, FILE *f,
		     struct err *e);

/* The plan's arena image of one file and where each copy starts in it,
 * for the tests: the bytes as the preload library would write them at
 * arena address `arena` with the object at bias `bias` (fix-ups applied).
 * *image is malloc'd; start[i] is place[i]'s offset in it. */
int reloc_image(struct reloc_file *rf, const struct reloc_place *place, size_t n, uint64_t bias,
		uint64_t arena, uint8_t **image, size_t *size, uint64_t *start, struct err *e);

#endif
