/* kernels: the copy and clear routines of the seeds, as position-independent
 * leaf code with an exception table, and the byte-exact fault contract that
 * makes them behave like the kernel's user-copy routines.
 *
 * Calling convention (the kernel's, with a C return):
 * 	clear(dst, len)      -> bytes not cleared
 * 	copy(dst, src, len)  -> bytes not copied
 * Contract: after a fault, every byte before the first inaccessible byte (of
 * the destination, or for a copy of the source) has been processed, none
 * after it has been written, and the return value counts from that byte to
 * the end. Seed 001: 130 bytes from 66 before an unmapped page -> 66
 * processed, 64 returned. */
#ifndef STRADDLE_KERNELS_H
#define STRADDLE_KERNELS_H

#include "../base/base.h"
#include "../arena/arena.h"
#include "../relocate/relocate.h"

/* clear(dst, len), copy(dst, src, len); a kernel image's routines also
 * put_user and get_user of a fixed size, and a checksum of src. */
enum kernel_kind { KERNEL_CLEAR, KERNEL_COPY, KERNEL_PUT, KERNEL_GET, KERNEL_CSUM };

/* CPU features a kernel wants (cpuid leaf 7). */
enum {
	KFEAT_ERMS = 1u << 0,   /* enhanced rep movsb/stosb: leaf 7.0 EBX bit 9 */
	KFEAT_FSRM = 1u << 1,   /* fast short rep movsb: leaf 7.0 EDX bit 4 */
	KFEAT_FZRM = 1u << 2,   /* fast zero-length rep movsb: leaf 7.1 EAX bit 10 */
	KFEAT_FSRS = 1u << 3,   /* fast short rep stosb: leaf 7.1 EAX bit 11 */
	KFEAT_COUNT = 4
};

/* How a kernel image's routine is called (routine.c): which register
 * holds what, by number (rax 0 .. r15 15, x0 0 .. x28 28, relocate.h),
 * and what it returns. */
#define KREG_NONE 0xff

enum kernel_returns {
	KRET_LEFT,              /* bytes not processed (clear, copy) */
	KRET_DST,               /* the destination (memset, memcpy): no faults */
	KRET_ERROR,             /* 0 or -EFAULT (put, get) */
	KRET_SUM,               /* a 32-bit ones' complement sum, unfolded */
};

struct kernel_call {
	uint8_t dst, src, len, value;   /* inputs; value: what a put stores */
	uint8_t ret, out;               /* the result; out: what a get loads */
	uint8_t returns;                /* enum kernel_returns */
	uint8_t size;                   /* put, get: bytes */
	uint8_t nset;
	struct kernel_const {
		uint8_t reg;
		uint64_t value;
	} set[2];                       /* constants: clear_user's rax 0 */
	/* the count after a fault: to the byte, or (granule 8) the whole
	 * 8-byte stores done while at least 8 bytes were left, at lengths
	 * below exact_from (clear_user_original: 130 bytes from 66 before the
	 * edge clear 64) */
	uint8_t granule;
	uint32_t exact_from;
	/* the access narrows to fit the length, and the count is in whole
	 * accesses to the end: granule-byte ones from granule bytes, then
	 * the largest power of two a shorter length holds (arm64's
	 * __arch_clear_user: 8, then one 4-, 2- or 1-byte store from each end) */
	bool narrows;
	/* which side is the user's, the one a fault may hit (KUSER_*): a
	 * fault on the kernel's side is the kernel's bug, an oops, not made */
	uint8_t user;
	/* KCOUNT_*: how the count after a fault is made, when granule does
	 * not say it */
	uint8_t count;
};

enum { KUSER_BOTH, KUSER_DST, KUSER_SRC };
/* KCOUNT_A64_COPY: arm64's copy_template.S (copy_to_user.S and
 * copy_from_user.S, 5.14 on; check.c walks its accesses) */
enum { KCOUNT_BYTES, KCOUNT_A64_COPY };

typedef size_t (*kernel_clear_fn)(void *dst, size_t len);
typedef size_t (*kernel_copy_fn)(void *dst, const void *src, size_t len);

struct kernel {
	const char *name;
	enum kernel_kind kind;
	enum arch arch;
	const char *seed;               /* "000", "001", "002"; "-" for libc's */
	const char *summary;            /* one line */
	unsigned features;              /* KFEAT_* it wants */
	bool placeable;                 /* false: libc's, called where it is */
	const uint8_t *code;            /* the bytes the arena copies */
	size_t size;
	const struct kex *fixups;       /* the exception table, as relocate.h's */
	size_t nfixups;
	uint32_t entry;                 /* where a call enters: 0 but for a routine */
	const struct kernel_call *call; /* a kernel image's routine; NULL: the C one */
	uint32_t loop_start;            /* hot loop: first byte, one past the last */
	uint32_t loop_end;
	kernel_clear_fn ref_clear;      /* references only: libc wrapped in the */
	kernel_copy_fn ref_copy;        /* kernel convention (they return 0) */
};

/* The kernels this host can run: its architecture's, then libc's memset and
 * memcpy. */
size_t kernel_count(void);
const struct kernel *kernel_at(size_t i);
const struct kernel *kernel_named(const char *name);

/* KFEAT_* of this CPU (0 on AArch64), and a feature bit's name. */
unsigned kernels_host_features(void);
const char *kernel_feature_name(unsigned bit);
/* "clear" or "copy" */
const char *kernel_kind_name(enum kernel_kind kind);

/* The entry for a fault at `offset` from the kernel's first byte, or NULL. */
const struct kex *kernel_fixup_at(const struct kernel *k, uint32_t offset);

/* The SIGSEGV/SIGBUS handler: a fault in registered placed kernel code with
 * a table entry goes on at the fixup; any other fault gets the previous
 * disposition back and happens again (a real crash stays a crash).
 * Idempotent; kernel_place installs it. */
int kernels_install_fault_handler(struct err *e);

/* A second kernel of k's code under another name (sweep --aa's control,
 * measured beside k at each offset); a routine's clone is known to the
 * fault handler as the routine is. Undo with kernel_unclone. */
int kernel_clone(const struct kernel *k, const char *name, struct kernel *out, struct err *e);
void kernel_unclone(struct kernel *k);

/* Copy a placeable kernel to `offset` of a fresh mapping and register it
 * (arena_place + arena_register): *p must not move until arena_free(p). */
int kernel_place(const struct kernel *k, uint32_t offset, struct placement *p,
		 struct err *e);

/* Run a kernel: placed code through `p`, a reference directly (p unused).
 * For a clear, src is ignored. */
size_t kernel_run(const struct kernel *k, const struct placement *p, void *dst,
		  const void *src, size_t len);

/* A fault in a routine's copy at an instruction its exception table does
 * not list: the kernel would oops there. */
struct kernel_oops {
	uint32_t offset;                /* in the copy */
	uintptr_t addr;                 /* the address it touched */
	/* the fault was not in the copy: a call or jump through a register
	 * (a retpoline made `call *%reg`) led out of it, to addr */
	bool outside;
};

/* kernel_run, but such a fault of a routine (k->call) returns -1 with
 * where it was instead of killing the process; 0 and *ret otherwise. */
int kernel_run_guarded(const struct kernel *k, const struct placement *p, void *dst,
		       const void *src, size_t len, size_t *ret, struct kernel_oops *oops);

/* `straddle kernels --check`: the contract for every placeable kernel at
 * each code offset (offsets not valid for the architecture are rounded up
 * to its instruction size), every length 0..max_len without a fault, and
 * every start 0..fault_span bytes before a PROT_NONE page for each length
 * that reaches it (destination; for copies the source too), with contents
 * compared byte for byte; and seed 001's case by name. Failures (at most
 * a few per kernel) and one line per kernel go to `out`. */
#define KERNELS_CHECK_MAX_LEN 300
#define KERNELS_CHECK_FAULT_SPAN 256

struct kernels_check_opts {
	/* NULL: 0,1,7,13,33,63 (x86-64) or 0,4,12,28,36,60 (AArch64). */
	const uint32_t *offsets;
	size_t noffsets;
	size_t max_len;                 /* KERNELS_CHECK_MAX_LEN */
	size_t fault_span;              /* KERNELS_CHECK_FAULT_SPAN */
	const char *only;               /* one kernel's name, or NULL: all */
	const struct kernel *kernel;    /* or this one, a routine (routine.c) */
	FILE *out;
};

struct kernels_check_result {
	unsigned long passed, failed;
};

int kernels_check(const struct kernels_check_opts *o, struct kernels_check_result *r,
		  struct err *e);

/* ---- a kernel image's own routine (routine.c) ---- */

struct routine_opts {
	const char *path, *func;
	const char *call;               /* --call SPEC; NULL: the built-in one */
	/* --loop: an address in the hot loop (0x... in the file, or +OFF
	 * from the entry); NULL: the innermost loop of the most bytes */
	const char *loop;
	const char *label;              /* its name in tables; NULL: func */
	const char *const *alternatives;        /* relocate.h's kroutine_opts */
	size_t nalternatives;
};

struct routine {
	struct kernel k;                /* what kernel_place, sweep and check take */
	struct kroutine r;              /* relocate.h's analysis */
	struct kernel_call call;
	uint8_t *code;                  /* r's bytes with its edits made */
	bool builtin;                   /* the call is a built-in spec */
	/* another architecture's (AArch64 on x86-64): not placed here, run
	 * under qemu-user by the runner beside straddle (emulate.c) */
	bool emulated;
	char runner[4096], qemu[4096];
	const char *when;               /* host flags under which the kernel calls it */
	const char *what;               /* the built-in call's description */
	size_t hot;                     /* r.loop[hot] is the sweep's loop (r.nloop: none) */
	char name[96], summary[192];
};

/* The routine o->func of the kernel image o->path, ready to place (the
 * host's architecture) or to run under qemu-user (AArch64 on x86-64: its
 * runner and qemu-aarch64 found, else refused); one line in e when it is
 * refused or its call is not known (give --call). */
int routine_open(const struct routine_opts *o, struct routine **out, struct err *e);
void routine_free(struct routine *rt);
/* For people: where it comes from, its call, what was made user-space,
 * its exception table, loops (the hot one marked), alternatives with the
 * host kernel's pick, and whether the host kernel's call site reaches it. */
void routine_describe(const struct routine *rt, FILE *out);
/* --call's grammar, registers of arch: "clear,dst=rdi,len=rcx,ret=rcx,rax=0"
 * or "clear,dst=x0,len=x1,ret=x0" (KIND: clear,
 * copy, put1|2|4|8, get1|2|4|8, csum; REG=NUMBER sets a constant input;
 * returns=left|dst|error|sum; granule=N exact-from=N narrows=0|1: the
 * count after a fault, kernel_call). */
int kernel_call_parse(const char *text, enum arch arch, enum kernel_kind *kind,
		      struct kernel_call *call, struct err *e);
/* Has func a built-in call? *role: the job it does across releases
 * ("clear_user", "copy_user": the routine without fast strings), NULL
 * when its name stayed. The i-th routine of a role, NULL past the last. */
bool routine_builtin(const char *func, const char **role);
/* The i-th name with a built-in call, NULL past the last. */
const char *routine_builtin_at(size_t i);
const char *routine_of_role(const char *role, size_t i);
/* ---- another architecture's routine under qemu-user (emulate.c) ----
 *
 * An emulator has no layout timing: it translates the code, so fetch
 * windows and lines mean nothing there. What it says is whether the
 * routine's own bytes, placed at every offset, do what their contract
 * says. The routine goes to the runner (straddle-kroutine-aarch64, a
 * static AArch64 program built beside straddle) on its standard input
 * as kernel_wire_write writes it. */

/* kernels --check: the runner's lines to out, its count in *r. 0, 1 when
 * a check failed, or -1 with e (the runner could not run). */
int routine_check_emulated(const struct routine *rt, FILE *out,
			   struct kernels_check_result *r, struct err *e);
/* sweep: at offsets first..last (step; those not a multiple of 4 are no
 * AArch64 placement and are skipped) the calls of these sizes, each
 * checked byte for byte; a table to out. 0, 1 when a call failed, -1. */
int routine_sweep_emulated(const struct routine *rt, uint32_t first, uint32_t last,
			   uint32_t step, const uint32_t *calls, size_t ncalls, FILE *out,
			   struct err *e);

/* The wire between them: a routine and what to do with it, as text. */
enum kernel_wire_mode { KWIRE_CHECK, KWIRE_SWEEP };

struct kernel_wire {
	struct kernel k;
	struct kernel_call call;
	char name[96];
	uint8_t *code;
	struct kex *ex;
	enum kernel_wire_mode mode;
	uint32_t offsets[64];
	size_t noffsets;
	size_t calls[64];
	size_t ncalls;
};

void kernel_wire_write(FILE *f, const struct kernel *k, enum kernel_wire_mode mode,
		       const uint32_t *offsets, size_t noffsets, const size_t *calls,
		       size_t ncalls);
/* 0, or -1 with e (the text is not the wire's); kernel_wire_free after. */
int kernel_wire_read(FILE *f, struct kernel_wire *w, struct err *e);
void kernel_wire_free(struct kernel_wire *w);

/* Does the host kernel have this /proc/cpuinfo flag? -1: cannot tell. */
int kernels_host_flag(const char *flag);

/* ---- synthetic loops (synth.c): straddle calibrate's experiments ---- */

/* A loop generated from the architecture's template table: optional
 * store (seed 000's shape), nop filler up to `bytes`, a count-down and a
 * conditional branch back, fused (adjacent) or kept apart by a nop; or,
 * with func_bytes, a loop calling a function of that size whose entry is
 * at func_offset of a line (seed 003). Called as clear(dst, len): len/8
 * iterations, returns 0. */
struct synth_spec {
	const char *name;
	enum arch arch;
	uint32_t bytes;                 /* the loop, 4..128 */
	bool store, imm;                /* a store per iteration; of an immediate */
	bool fused;                     /* count-down and branch adjacent */
	uint32_t fill;                  /* filler nop length (x86 1..8; 0: 8) */
	uint32_t func_bytes;            /* 0, or the callee's size */
	uint32_t func_offset;           /* the callee's entry mod 64 */
	uint32_t stores;                /* with store: how many to the same address (0: 1) */
	uint32_t chain;                 /* imuls in series an iteration (x86 only) */
};

/* A link's latency (imul %r9,%r9, synth.c's R_CHAIN): calibrate's ruler */
#define SYNTH_CHAIN_LINK_CYCLES 3

struct synth_kernel {
	struct kernel k;                /* what the arena and the sweep use */
	char name[48];
	uint8_t code[256];
	uint32_t bytes, ninsn;          /* of the loop */
	uint32_t nstore;                /* stores in the loop (a call's push counts) */
	uint32_t nchain;                /* imuls in series: 3 cycles each */
	uint32_t pair, branch;          /* from the loop's start: the fused pair, the branch */
	uint32_t func_start, func_bytes;        /* the callee, from the kernel's start */
};

/* 0, or -1 when the template table cannot make it. s must not move while
 * s->k is placed (s->k.code points into it). */
int synth_build(const struct synth_spec *spec, struct synth_kernel *s, struct err *e);

#endif
