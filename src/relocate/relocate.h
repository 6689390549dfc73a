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
#include "../model/noreturn.h"

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

/* One of a function's loops: the span the scan reports and its header block. */
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
	/* the functions that never return, found on first need (addr NULL
	 * until then): the loops of place's CFG are the scan's
	 * (reloc_func_cfg) */
	struct noreturn_set noreturn;
};

/* Open an ELF file for moving: x86-64, ET_EXEC with a PT_INTERP (not
 * static) or ET_DYN, with a build-id (how the preload library finds it).
 * 0, or -1 with the reason in e. */
int reloc_open(struct reloc_file *rf, const char *path, struct err *e);
/* The vDSO of this process, for moving one of its functions in this
 * process (its image read from memory; addresses are its link addresses,
 * the bias its mapping). x86-64 only. */
int reloc_open_vdso(struct reloc_file *rf, struct err *e);
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

/* ---- a loop replayed from the program's own state ----
 *
 * The plan can also carry a loop to replay (plan.h, replay_plan.c): the
 * preload library traps at its header in the running program, forks,
 * and each child runs the rest of the loop from those registers in a
 * copy of its function at one offset under test, timed, until it
 * leaves. */
struct reloc_replay {
	const struct reloc_func *f;     /* movable, and one of the plan's */
	uint64_t loop_start, loop_end;  /* the loop's span, as reloc_loops gives it */
	const uint32_t *offset;         /* the loop's first byte's offset in its line, */
	size_t noffset;                 /*   one timed copy each */
	uint32_t align;
};

/* 0 when the loop [start, end) of f can be replayed: entered through its
 * header, every way out a branch or a fall-through the copy can catch,
 * its header's first instructions movable into a counter's trampoline.
 * Else -1 with the reason (one line, no function name) in why. x86-64. */
int reloc_replay_check(struct reloc_file *rf, const struct reloc_func *f, uint64_t start,
		       uint64_t end, char *why, size_t n);
/* reloc_plan_write, with rp's copies added to its function's file. */
int reloc_plan_write_replay(const struct reloc_plan_part *part, size_t nparts,
			    const struct reloc_replay *rp, FILE *f, struct err *e);

/* The plan's arena image of one file and where each copy starts in it:
 * the bytes the preload library writes at arena address `arena` with the
 * object at bias `bias`, its fix-ups applied by the same evaluation
 * (plan.h's plan_fixup_value), so the tests check the library's. *image
 * is malloc'd; start[i] is place[i]'s offset in it. */
int reloc_image(struct reloc_file *rf, const struct reloc_place *place, size_t n, uint64_t bias,
		uint64_t arena, uint8_t **image, size_t *size, uint64_t *start, struct err *e);

/* ---- a kernel's leaf routine made a user-space copy (kernel.c) ----
 *
 * A routine of a vmlinux (x86-64: its symbols, __ex_table and
 * .altinstructions; AArch64: its symbols and __ex_table, the file's
 * bytes at every alternative), or of a module linked in memory first as the
 * kernel's loader links it (module.c), is the code its entry reaches: every instruction a
 * branch, a fall-through or an exception-table fixup leads to, through
 * tail jumps into its neighbours (__put_user_1 falls into
 * __put_user_nocheck_1; copy_user_generic_unrolled jumps to
 * copy_user_short_string). The copy is the bytes from the first such
 * instruction to the last, unmoved among themselves, so every branch
 * inside keeps its displacement and the hot loop its offset from the
 * copy's start. What a kernel does to its own text at boot on a CPU
 * without return thunks, retpolines or tracing (arch/x86/kernel/
 * alternative.c: apply_returns, apply_retpolines; ftrace's nops) is done
 * to the copy, each an edit; a call of any other kernel function, an
 * indirect jump, a reference to kernel data or a privileged instruction
 * refuses the routine, naming it. */

enum kedit_kind {
	KEDIT_RET,              /* jmp __x86_return_thunk: ret, int3 after */
	KEDIT_CALL_REG,         /* call __x86_indirect_thunk_REG: call *%REG, nops */
	KEDIT_NOP,              /* call __fentry__, a static call whose trampoline
				 * returns at once: nops */
	KEDIT_ALT,              /* an alternative applied: its replacement, nops */
};

struct kedit {
	uint32_t at, len;       /* the bytes of the copy it rewrites */
	uint8_t kind;           /* enum kedit_kind */
	uint8_t reg;            /* KEDIT_CALL_REG: the register's number (rax 0..r15 15) */
	uint32_t bytes, nbytes; /* KEDIT_ALT: its relocated replacement in kroutine.pool */
	char what[40];          /* the symbol, for the listing */
};

/* An exception-table entry as the fault handler applies it (the kernel's
 * arch/x86/mm/extable.c, arch/arm64/mm/extable.c, EX_TYPE_*): the
 * register it sets, then on at the fixup. Registers by number, as the
 * kernel's: rax 0 .. r15 15, x0 0 .. x30 30. */
enum kex_kind {
	KEX_JUMP,               /* DEFAULT, UACCESS */
	KEX_FAULT_AX,           /* FAULT, COPY: rax = the trap number (14, #PF) */
	KEX_IMM_REG,            /* IMM_REG: reg = imm (EFAULT_REG: -14) */
	KEX_UCOPY_LEN,          /* UCOPY_LEN: rcx = reg + imm * rcx */
	KEX_POP_IMM_REG,        /* POP_REG: rsp += 8, then reg = imm */
	KEX_UNMODELLED,         /* ZEROPAD (load_unaligned_zeropad): the load's
				 * register made from the aligned word before the
				 * page; not done here, a fault there is an oops */
	KEX_ERR_ZERO,           /* AArch64's UACCESS_ERR_ZERO: reg = -EFAULT, then
				 * register imm = 0 (x0 .. x30; 31 is xzr: none) */
};

#define KEX_CLEAR_AX 1          /* EX_FLAG_CLEAR_AX: rax = 0 first */
#define KEX_CLEAR_DX 2          /* EX_FLAG_CLEAR_DX */

struct kex {
	uint32_t fault, fixup;  /* offsets in the copy */
	uint8_t kind;           /* enum kex_kind */
	uint8_t reg, flags;
	uint8_t type;           /* the file's EX_TYPE_ number, for the listing */
	int32_t imm;
};

/* An .altinstructions entry whose site is in the copy. */
struct kalt {
	uint32_t at, len;       /* the site in the copy */
	uint16_t feature;       /* X86_FEATURE_*: word * 32 + bit */
	bool inverted;          /* ALT_NOT: applied when the feature is absent */
	bool applied;           /* by --alternative */
	uint8_t repl_len;
	char repl_text[48];     /* its first instruction, "rep movsb" */
};

struct kroutine_loop {
	uint32_t start, end;    /* offsets in the copy */
	uint32_t depth;
	bool innermost;
};

struct kroutine {
	char *path, *name;
	enum arch arch;
	char release[64];       /* "6.1.0-57-amd64" (linux_banner), "" */
	uint64_t entry_addr;    /* the routine's address in the file */
	uint64_t base;          /* the address of code[0] */
	uint8_t *code;          /* the file's bytes of the copy, before the edits */
	uint32_t size, entry;   /* entry: offset of the routine's first byte */
	struct kedit *edit;
	size_t nedit;
	struct kex *ex;
	size_t nex;
	struct kalt *alt;
	size_t nalt;
	struct kroutine_loop *loop;     /* by start */
	size_t nloop;
	uint8_t *pool;          /* replacement bytes */
	size_t npool;
};

struct kroutine_opts {
	const char *func;
	/* features whose alternatives to apply ("ERMS", "!FSRM" for an
	 * ALT_NOT one, "9*32+9"); none: the file's bytes */
	const char *const *alternatives;
	size_t nalternatives;
};

/* The routine `o->func` of the kernel image or module at path (a .ko,
 * compressed or not, or a package's member PACKAGE:/path), analysed. 0,
 * or -1 with one line in e (no symbols, no such routine, what it calls, an
 * exception-table type, an alternative or a module's relocation it does
 * not know). */
int kroutine_open(const char *path, const struct kroutine_opts *o, struct kroutine *out,
		  struct err *e);
void kroutine_free(struct kroutine *k);

/* "ERMS", "REP_GOOD", else "9*32+9"; a feature from such a name, -1 when
 * it is none. The lower-case name is the host kernel's /proc/cpuinfo flag. */
const char *kfeature_name(uint16_t feature, char buf[static 16]);
int kfeature_from_name(const char *name);
/* The host kernel's /proc/cpuinfo flag of a feature: NULL when the kernel
 * sets it on every CPU (ALWAYS), "" when straddle does not know it. */
const char *kfeature_flag(uint16_t feature);

#endif
