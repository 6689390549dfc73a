/* model/scan.h: scanning an image (scan.c: elf -> decode -> cfg -> rules) and pricing
 * its loops (scan_costs: cost.c). */
#ifndef STRADDLE_MODEL_SCAN_H
#define STRADDLE_MODEL_SCAN_H

#include "rules.h"
#include "cost.h"
#include "shape.h"
#include "../elf/elf.h"
#include "../cfg/cfg.h"

struct scan_opts {
	const struct profile **profiles;
	size_t nprofiles;
	const char *func_glob;          /* NULL: every function */
	const char *section_glob;       /* NULL: every section */
	unsigned jobs;                  /* threads, >= 1 */
	bool keep_all;                  /* keep loops and functions without hazards */
	bool shapes;                    /* func_report.shape, for diff's matching */
	/* the cost model (cost.c): every loop's predicted slowdown, and a
	 * straddle the back end hides is no hazard */
	bool cost;
	bool cost_exact;                /* llvm-mca's simulation, not the model's bounds */
	/* its back end: NULL or MODEL_IN_PROCESS LLVM's model in process,
	 * "none" the profile's bound, else llvm-mca the program (its name) */
	const char *llvm_mca;
};

struct loop_report {
	/* from its first piece's start to its last one's end (loops in
	 * pieces); bytes: the pieces' together */
	uint64_t start, end, bytes;
	uint32_t piece, npiece;         /* into scan_result.piece, in address order */
	uint32_t sec;                   /* section of its function */
	uint32_t depth;
	bool innermost, has_call, in_loop_buffer;
	bool back_end_bound;            /* a straddle it makes, hidden by the back end (a profile's) */
	bool irreducible;               /* a cycle with more than one entry */
	bool spin;                      /* holds pause/yield/wfe: a wait */
	uint32_t ninsn;                 /* in its pieces */
	uint32_t cold_blocks;
	uint64_t cold_bytes;
	uint32_t same_span;             /* other loops of this span, reported as this one */
	uint64_t branch;                /* first back edge in the span, 0 none */
	uint64_t shape_hash;            /* FNV-1a of its mnemonic sequence */
	uint64_t form_hash;             /* ... and lengths: equal, the same bytes to the rules */
	uint32_t hazard, nhazard;       /* into scan_result.hazard */
	uint64_t samples;               /* in its span, nested loops included (hot_attribute) */
	int32_t nstore;                 /* memory writes, -1 not counted */
	uint32_t ncond;                 /* conditional branches in its span (each may fuse) */
	/* its function has an indirect jump whose targets are unknown: a
	 * cycle through it, or a longer span, cannot be seen */
	bool span_uncertain;
	struct loop_cost cost;          /* under the profile that prices it highest */
};

struct func_report {
	size_t func;                    /* index into scan_result.funcs.v */
	uint64_t entry_align;
	uint32_t loop, nloop;           /* into scan_result.loop */
	uint32_t hazard, nhazard;       /* entry hazards, into scan_result.hazard */
	uint32_t irr, nirr;             /* into scan_result.irr */
	uint32_t ninsn;
	uint32_t jump_tables;           /* indirect jumps resolved through a table */
	uint32_t unresolved;            /* indirect jumps whose targets are unknown */
	struct func_shape shape;        /* what diff matches unnamed functions by */
	uint64_t samples;               /* in the function (hot_attribute) */
	/* init/exit/unlikely/cold text: run once or rarely, never ranked
	 * above hot text (scan.c's one test, diff's too) */
	bool cold_text;
};

/* A compiler's cold part of a function by its name: foo.cold, foo.cold.1. */
bool func_name_cold_part(const char *name);

struct scan_result {
	struct elf_funcs funcs;
	/* the profiles applied: those asked for that fit the image's
	 * architecture, else that architecture's generic profile */
	const struct profile *profile[MODEL_MAX_PROFILES];
	size_t nprofile;
	/* func, loop, hazard, irr: big_realloc's memory (base.h), freed by
	 * scan_result_free */
	struct func_report *func;
	size_t nfunc;
	struct loop_report *loop;
	size_t nloop;
	struct hazard *hazard;
	size_t nhazard;
	struct cfg_irreducible *irr;
	size_t nirr;
	struct loop_piece *piece;       /* the loops' pieces */
	size_t npiece;
	size_t functions_scanned;       /* matched --func and --section */
	size_t functions_too_large;     /* of those, not analysed: past the memory bound */
	size_t padding_symbols;         /* __pfx_/__cfi_ and nop/int3-only symbols, not scanned */
	uint64_t instructions;
	uint64_t loops_total;
	uint64_t bytes_decoded;
	uint64_t undecoded;             /* AArch64 words Capstone cannot decode */
	uint64_t jump_tables, unresolved;       /* sums of func_report's */
	/* the cost model's back end per profile: "llvm-mca 14.0.6 -mcpu=znver3",
	 * "profile" (its measured bound) or "none" */
	char back_end[32][48];
	/* why some loops are priced by their bounds only, "" none: LLVM's
	 * models not loaded, or none for a profile's CPU */
	char cost_note[320];
	/* set by hot_attribute: samples are counted, of `run_samples` in all */
	bool hot;
	uint64_t file_samples, run_samples;
};

/* The windows of w a loop's pieces touch together. */
unsigned loop_touched(const struct scan_result *r, const struct loop_report *l, unsigned w);

int scan_image(const struct elf_image *img, const struct scan_opts *o,
	       struct scan_result *r, struct err *e);
void scan_result_free(struct scan_result *r);
/* Does r hold a hazard of rules (1 << enum rule)? A spin loop's count only
 * with spin, a loop whose span is uncertain only with uncertain. */
bool scan_gate(const struct scan_result *r, unsigned rules, bool spin, bool uncertain);
/* Price every loop of a scan (scan_image calls it when o->cost): one
 * llvm-mca process per CPU model for the loops that straddle; a straddle
 * the back end hides is removed from the hazards (the loop says why). */
void scan_costs(const struct elf_image *img, const struct scan_opts *o, struct scan_result *r);

#endif
