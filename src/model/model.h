/* model: what a CPU's front end cares about (profiles, each number with its
 * evidence), which CPU this is, the hazard rules, the padding that fixes a
 * hazard, and the scan of a whole image that applies them to every loop
 * and function (elf -> decode -> cfg -> rules). */
#ifndef STRADDLE_MODEL_H
#define STRADDLE_MODEL_H

#include "../base/base.h"
#include "../elf/elf.h"
#include "../decode/decode.h"
#include "../cfg/cfg.h"

/* ---- profiles (profiles.c) ---- */

/* The window sizes the model knows, smallest first: a fetch block, a
 * uop-cache window, a cache line. Every table of windows uses these. */
#define MODEL_NWINDOWS 3
extern const unsigned model_windows[MODEL_NWINDOWS];

enum branch_rule {
	BRANCH_RULE_NONE,
	/* Skylake's JCC erratum: a jump, or a macro-fused pair taken whole,
	 * that crosses or ends on a 32 B boundary is not cached in the DSB. */
	BRANCH_RULE_JCC_ERRATUM,
	/* Golden Cove: a branch, or its fused pair taken whole, spanning a
	 * 64 B line. Measured on EMR (straddle sweep clear_movq_imm): the
	 * decl or the jnz across the line ~1.9x, the line between them 1.13x. */
	BRANCH_RULE_PAIR_CROSSES,
};

struct profile {
	const char *name;
	enum arch arch;
	const char *cpus;               /* what it covers */
	unsigned fetch;                 /* fetch window, bytes */
	unsigned uop_window;            /* decoded-uop-cache window, 0 none */
	unsigned line;                  /* cache line */
	enum branch_rule branch_rule;
	unsigned branch_window;
	unsigned loop_buffer;           /* instructions a loop buffer holds, 0 none */
	const char *evidence;           /* source of every number above */
	/* the windows whose straddling is a hazard, when evidence narrows
	 * them; all 0: the fetch window, the uop-cache window and the line,
	 * unless straddle_measured says the list is exactly what was measured
	 * (and may be empty) */
	unsigned straddle_windows[3];
	bool straddle_measured;
	/* The back-end bound (issue 11): a loop whose iteration needs at
	 * least as many cycles, at issue_width instructions and
	 * stores_per_cycle stores a cycle, as fetching one window more than
	 * it must (the front end fetches a window a cycle) pays nothing for
	 * the straddle. 0: not measured, no bound. */
	unsigned issue_width, stores_per_cycle;
	/* What one window fetched more than the best placement needs costs an
	 * iteration, in cycles (cost.c, fetch_cycles); 0: not measured, a whole
	 * cycle (the front end fetches a window a cycle). */
	double window_cycles;
};

size_t profile_count(void);
const struct profile *profile_at(size_t i);
const struct profile *profile_named(const char *name);
const char *branch_rule_name(enum branch_rule r);
/* The distinct windows a loop must not straddle under p (at most 3). */
size_t profile_straddle_windows(const struct profile *p, unsigned out[3]);
/* The branch rule as a word in profile files: "none", "jcc-erratum",
 * "pair-crosses"; -1 when the word is none of them. */
const char *branch_rule_id(enum branch_rule r);
int branch_rule_from_id(const char *id);

/* ---- host detection (host.c) ---- */

struct host {
	char vendor[16];
	unsigned family, model, stepping;
	char model_name[64];
	uint32_t midr;                  /* AArch64 only */
	const struct profile *profile;  /* NULL when the CPU is not in the table */
	char why[128];                  /* how it was matched */
};

void host_detect(struct host *h);
/* Where `straddle calibrate` keeps this CPU's profile:
 * $XDG_DATA_HOME/straddle/profiles/VENDOR-FAMILY-MODEL-STEPPING.json, else
 * under ~/.local/share (XDG Base Directory Specification). -1 with the
 * reason when neither $XDG_DATA_HOME nor $HOME is set, or when the path
 * does not fit in n bytes (never cut: a cut one named a directory nobody
 * asked for, which calibrate made; issue 25, finding 10). */
int host_profile_path(const struct host *h, char *buf, size_t n, struct err *e);

/* Reads a calibrated profile file (results/ does, model/ cannot read
 * JSON): the profile, to live until exit, or NULL with *e set. */
typedef const struct profile *(*profile_loader)(const char *path, struct err *e);

/* The one selection of profiles for scan, diff and sweep: SPEC is
 * NAME[,NAME...], "all", "host" or FILE.json (a name with a '/' or
 * ending in .json). "host" is this CPU's calibrated profile when its file
 * exists, else the built-in profile its cpuid/MIDR matches, else the
 * architecture's generic one; `why` says which. Fills out[] (at most
 * max); -1 with *e (naming the file or the word) when SPEC is wrong. */
int profile_select(const char *spec, profile_loader load, const struct profile **out,
		   size_t max, size_t *n, char *why, size_t why_len, struct err *e);
/* Profile for a CPU identified by cpuid family/model (x86) or MIDR part. */
const struct profile *profile_for_x86(const char *vendor, unsigned family, unsigned model);
const struct profile *profile_for_midr(uint32_t midr);

/* ---- hazard rules (rules.c) ---- */

enum rule {
	RULE_LOOP_STRADDLES,            /* loop-straddles-window */
	RULE_BRANCH_CROSSES,            /* branch-crosses-window */
	RULE_BRANCH_ENDS,               /* branch-ends-window */
	RULE_ENTRY_MISALIGNED,          /* entry-misaligned */
};

const char *rule_name(enum rule r);
int rule_from_name(const char *name);  /* -1 when unknown */
/* One sentence of what the rule finds, and a paragraph of why it costs
 * and what fixes it (SARIF's rule help). */
const char *rule_summary(enum rule r);
const char *rule_help(enum rule r);

/* A branch inside a loop's span and its fused partner, as offsets from
 * the loop's start. */
struct loop_branch {
	uint32_t pair;                  /* first byte of the fused pair, = branch if unfused */
	uint32_t branch;                /* first byte of the branch */
	uint32_t end;                   /* one past the branch */
	uint8_t kind;                   /* enum branch_kind */
	/* closes the loop: goes back to a block of the loop at or before it,
	 * or is a latch's branch to the header */
	bool back;
};

/* [start, end): a piece of a loop, as addresses, or as offsets from the
 * loop's start. */
struct loop_piece {
	uint64_t start, end;
};

/* What the rules need of a loop, independent of where it is placed. The
 * branch array belongs to the geometry and is reused from loop to loop
 * (loop_geometry_free releases it). */
struct loop_geometry {
	uint32_t bytes;                 /* its pieces' together */
	/* the pieces every iteration fetches (one for a loop in one run),
	 * as offsets from its start, and the index of each one's first
	 * instruction (the CFG's: geo->first is the loop's) */
	struct loop_piece *piece;
	uint32_t *piece_first;
	uint32_t npiece, first;         /* npiece 0: one run of `bytes` */
	size_t piece_cap, piece_first_cap;
	struct loop_branch *branch;     /* every branch in the span, in address order */
	uint32_t nbranch;
	size_t branch_cap;
	uint8_t *in_loop;               /* scratch: the loop's blocks */
	size_t in_loop_cap;
	bool fits_loop_buffer_shape;    /* innermost, no call */
	uint32_t ninsn;
	int32_t nstore;                 /* memory writes; -1 not counted (loop_count_stores) */
};

struct hazard {
	const struct profile *profile;
	uint8_t rule;                   /* enum rule */
	uint8_t severity;               /* 3 branch rule, 2 line, 1 window or entry */
	uint16_t window;
	bool certain;                   /* hazardous wherever it can be placed */
	uint16_t bad_placements;        /* when not certain: of all_placements */
	uint16_t all_placements;
	/* The fix: the smallest .p2align that removes the hazard wherever
	 * the subject lands with that alignment (a property of its bytes, so
	 * it holds in another build), 0 when none up to 64 does; the padding
	 * it costs at today's address. */
	uint16_t fix_align;
	uint16_t fix_pad;
	bool fix_clean;                 /* brings in no other hazard of the profile */
	/* no alignment fixes a loop in pieces: the exit laid out between
	 * them must move out of the way (the compiler's block layout) */
	bool fix_layout;
	/* a smaller .p2align that removes it only at today's address, 0 none */
	uint16_t here_align;
	uint16_t here_pad;
	bool here_clean;
	/* branch rules: the branch at fault, and the first byte of its fused
	 * pair (= branch when unfused); 0 for the other rules */
	uint8_t branch_kind;            /* enum branch_kind */
	uint64_t branch, pair;
	const char *section;            /* of the image scanned; NULL for code in memory */
	/* loop-straddles-window: the predicted slowdown at today's placement
	 * (at the worst, when the placement is not certain) against the
	 * best (cost.c); 0 for the rules the cost model does not price */
	float slowdown;
	/* ... a bound from above: the model's dispatch width alone, not a
	 * simulation of the loop */
	bool slowdown_at_most;
};

/* Windows touched and the best any placement achieves (DESIGN). */
unsigned windows_touched(uint64_t start, uint64_t end, unsigned w);
/* The windows of w that the pieces p[0..n) (in address order) touch
 * together, each moved by `base` (DESIGN, hazard model: loops in
 * pieces). */
unsigned pieces_touched(const struct loop_piece *p, size_t n, uint64_t base, unsigned w);
/* The windows the loop touches at `start`: its pieces', or, without
 * pieces (npiece 0), those of one run of its bytes. */
unsigned loop_geometry_touched(const struct loop_geometry *g, uint64_t start, unsigned w);
unsigned windows_best(uint64_t bytes, unsigned w);

/* Evaluate every rule of `p` on a loop at `start`, in a section whose
 * placement is known modulo `placement_align`. Appends to *out. */
size_t loop_hazards(const struct profile *p, const struct loop_geometry *g,
		    uint64_t start, uint64_t placement_align,
		    struct hazard *out, size_t max);

/* Does the loop run from p's loop buffer (innermost, no call, small
 * enough), so that where its bytes lie does not matter? */
bool in_loop_buffer(const struct profile *p, const struct loop_geometry *g);
/* Does p's back-end bound hide a straddle of window w by this loop? */
bool back_end_hides(const struct profile *p, const struct loop_geometry *g, unsigned w);

/* ---- geometry (geometry.c) ---- */

void loop_geometry(const struct cfg *g, const struct cfg_loop *l, struct loop_geometry *geo);
void loop_geometry_free(struct loop_geometry *geo);
/* Does the loop straddle one of p's windows (at `start`, or at a
 * placement modulo placement_align) that p's back-end bound hides? */
bool back_end_hid_straddle(const struct profile *p, const struct loop_geometry *geo,
			   uint64_t start, uint64_t placement_align);
/* Count the stores of a loop whose bytes are code[0..geo->bytes), decoded
 * as insn[] (insn[0] at code[0]), at `start` with placements known modulo
 * `placement_align` (loop_hazards), when p's verdict depends on them and
 * they are not counted yet (decoding operands costs several times the
 * scan's decode: issue 8). */
void loop_count_stores(struct loop_geometry *geo, const struct profile *p, struct decoder *d,
		       const struct insn *insn, const uint8_t *code, uint64_t start,
		       uint64_t placement_align);
/* Room loop_hazards needs for one profile's hazards of a loop. */
size_t loop_hazards_max(const struct loop_geometry *geo);

/* The hazards under `p` of the innermost loop containing
 * loop_addr in the code bytes code[0..size) placed at addr (a placement
 * in memory: addresses mod 4096 are exact). For the sweep's prediction. */
size_t code_loop_hazards(const struct profile *p, const uint8_t *code, size_t size,
			 uint64_t addr, uint64_t loop_addr, struct hazard *out, size_t max);

/* Seed 003: a function no larger than a line that touches two lines. */
size_t entry_hazards(const struct profile *p, uint64_t addr, uint64_t size,
		     uint64_t placement_align, struct hazard *out, size_t max);

/* ---- noreturn functions (noreturn.c) ---- */

/* Start addresses of the functions that never return, sorted. */
struct noreturn_set {
	uint64_t *addr;
	size_t n;
};

/* `jobs` threads read the functions' code (1: the caller alone); the set
 * does not depend on how many. */
void noreturn_find(const struct elf_image *img, const struct elf_funcs *f, unsigned jobs,
		   struct noreturn_set *s);
bool noreturn_has(const struct noreturn_set *s, uint64_t addr);

/* ---- the shape of code, for diff to match it by (shape.c) ---- */

/* A function's instructions reduced to what survives a rebuild elsewhere:
 * its mnemonics in order (shape; alignment nops left out, their count
 * depends on where the code lands), the same with every length (form:
 * equal forms are equal bytes to every rule, so a function or loop whose
 * form is unchanged only moved), and a histogram of mnemonics (mix), whose
 * distance says how near two shapes are after an edit. */
#define SHAPE_MIX 16

struct func_shape {
	uint64_t shape, form;
	uint16_t mix[SHAPE_MIX];        /* saturating counts, mnemonic hashed to a bucket */
};

void func_shape(const struct insn *insn, size_t n, struct func_shape *out);
uint64_t form_hash(const struct insn *insn, size_t n);
/* Instructions the two mixes disagree on (the L1 distance). */
unsigned shape_distance(const struct func_shape *a, const struct func_shape *b);

/* ---- what a straddle costs (cost.c, mca.c) ---- */

/* What decides a loop's iteration time (issue 26). A straddle costs only
 * under COST_FRONT_END; the others say why a loop across a window has no
 * hazard. */
enum cost_bound {
	COST_AT_BEST,           /* at its best placement: nothing to price */
	COST_FRONT_END,         /* fetching the windows it touches */
	COST_LATENCY,           /* a dependency chain (llvm-mca: cycles well above throughput) */
	COST_DIVIDE,            /* a divide or square root */
	COST_STORE,             /* its stores */
	COST_ISSUE,             /* its instructions at the issue width, or the ports */
	COST_LOOP_BUFFER,       /* runs from the loop buffer: not fetched */
	NCOST_BOUND
};

/* Where the back end's cycles came from. */
enum cost_source {
	COST_SOURCE_NONE,
	COST_SOURCE_PROFILE,            /* the profile's measured bound */
	COST_SOURCE_MCA,                /* llvm-mca's simulation of the loop */
	COST_SOURCE_MCA_WIDTH,          /* its model's dispatch width alone: not simulated */
};

struct loop_cost {
	float slowdown;                 /* today's placement against the best, >= 1; 0 not priced */
	float front_end;                /* cycles to fetch an iteration today (windows touched) */
	float front_end_best;           /* ... at the best placement */
	float back_end;                 /* cycles to execute it, 0 unknown */
	uint16_t window;                /* the window that decides the slowdown, 0 none */
	uint8_t bound;                  /* enum cost_bound */
	uint8_t source;                 /* enum cost_source */
	uint8_t profile;                /* index into scan_result.profile */
};

/* "at-best", "front-end", "latency", "divide", "store", "issue", "loop-buffer" */
const char *cost_bound_name(enum cost_bound b);
const char *cost_source_name(enum cost_source s);

/* The back end of one loop under one profile: the largest of llvm-mca's
 * cycles an iteration and the profile's measured bound (instructions at
 * its issue width, stores at its store rate). */
struct back_end {
	double cycles;                  /* the largest of those below, 0 none known */
	double mca_cycles, mca_throughput;      /* 0: not modelled */
	double issue, store;            /* the profile's bound, 0 not measured */
	/* a profile with no measured width: the model's, for the instructions
	 * less the conditional branches (each may fuse), 0 none */
	double dispatch;
	bool divides;                   /* holds a divide or square root */
	int32_t nstore;
	uint8_t source;                 /* enum cost_source */
};

/* The front end fetches a window a cycle (rules.c, back_end_hides): a
 * loop's iteration takes the larger of the windows it touches and its back
 * end's cycles. Its predicted time at a placement `start` against its best
 * placement: the largest, over p's straddle windows, of
 * max(touched, be) / max(best, be). What `straddle place` holds a measured
 * ratio against (be from loop_back_end). *window: the window deciding it,
 * 0 when it straddles none. */
double cost_ratio_at(const struct profile *p, uint64_t start, uint64_t bytes, double be,
		     unsigned *window);
/* What bounds the loop's iteration given its cycles at this placement. */
enum cost_bound cost_bound_of(const struct back_end *b, double front_end);

/* The back end of the loop whose bytes are code[0..n) at addr, under p:
 * llvm-mca (llvm_mca: NULL find one, "none" the profile alone) for this
 * one loop. -1 with the reason when the bytes do not decode. */
int loop_back_end(const char *llvm_mca, const struct profile *p, struct decoder *d,
		  const uint8_t *code, size_t n, uint64_t addr, struct back_end *out, struct err *e);

/* The loops of one llvm-mca input: each its lines of assembly text. */
struct mca_loop {
	size_t text, text_end;          /* into mca_input.text */
	uint32_t ninsn;
};

struct mca_input {
	enum arch arch;
	unsigned iterations;            /* of each region, 0: the default (mca.c) */
	struct strbuf text;
	struct mca_loop *loop;
	size_t nloop, cap;
};

struct mca_region {
	double cycles;                  /* an iteration, in the steady state */
	double throughput;              /* Block RThroughput: the ports alone */
	bool ok;
};

/* The -mcpu of p's CPUs that the llvm-mca `want` (NULL: the newest
 * installed) knows, NULL when none or no llvm-mca. */
const char *mca_cpu(const char *want, const struct profile *p);
const char *mca_version(const char *want);
/* The model's dispatch width, instructions a cycle at most: 0 unknown. */
unsigned mca_dispatch_width(const char *want, const char *mcpu, enum arch arch);
/* One llvm-mca process over every loop of in; out[k] for in->loop[k]
 * (ok false for a loop it could not model). -1 with the reason when it
 * could not run at all. */
int mca_run(const char *want, const char *mcpu, enum arch arch, const struct mca_input *in,
	    struct mca_region *out, struct err *e);
/* The loops of in with select[k] simulated again, longer: out[k].cycles
 * (mca_run's) becomes the steady state, without the pipeline's filling. */
void mca_steady(const char *want, const char *mcpu, const struct mca_input *in,
		const bool *select, struct mca_region *out);

/* ---- scanning an image (scan.c) ---- */

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
	const char *llvm_mca;           /* its back end: NULL find one, "none" the profile's bound */
};

struct loop_report {
	/* from its first piece's start to its last one's end (DESIGN,
	 * hazard model: loops in pieces); bytes: the pieces' together */
	uint64_t start, end, bytes;
	uint32_t piece, npiece;         /* into scan_result.piece, in address order */
	uint32_t sec;                   /* section of its function */
	uint32_t depth;
	bool innermost, has_call, in_loop_buffer;
	bool back_end_bound;            /* a straddle it makes, hidden by the back end (a profile's) */
	bool irreducible;               /* a cycle with more than one entry */
	bool spin;                      /* holds pause/yield/wfe: a wait (issue 21) */
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
	 * cycle through it, or a longer span, cannot be seen (issue 26) */
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
	 * above hot text */
	bool cold_text;
};

struct scan_result {
	struct elf_funcs funcs;
	/* the profiles applied: those asked for that fit the image's
	 * architecture, else that architecture's generic profile */
	const struct profile *profile[32];
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
	/* set by hot_attribute: samples are counted, of `run_samples` in all */
	bool hot;
	uint64_t file_samples, run_samples;
};

/* The windows of w a loop's pieces touch together. */
unsigned loop_touched(const struct scan_result *r, const struct loop_report *l, unsigned w);

int scan_image(const struct elf_image *img, const struct scan_opts *o,
	       struct scan_result *r, struct err *e);
void scan_result_free(struct scan_result *r);
/* Price every loop of a scan (scan_image calls it when o->cost): one
 * llvm-mca process per CPU model for the loops that straddle; a straddle
 * the back end hides is removed from the hazards (the loop says why). */
void scan_costs(const struct elf_image *img, const struct scan_opts *o, struct scan_result *r);

/* ---- comparing two scans (diff.c) ---- */

/* Why a subject's hazards changed (issue 10): its own bytes changed (seed
 * 000), the same bytes moved (seed 003), or it is only on one side. */
enum diff_cause { CAUSE_CHANGED, CAUSE_MOVED, CAUSE_NEW, CAUSE_REMOVED, NCAUSE };

/* How two functions were found to be the same function, in the order
 * tried: the name, the name without a compiler suffix (.constprop.N ...),
 * the mnemonic sequence, the nearest mnemonic mix, the order between two
 * functions already matched. */
enum match_how { MATCH_NAME, MATCH_BASE_NAME, MATCH_SHAPE, MATCH_NEAREST, MATCH_ORDER, NMATCH };

const char *cause_name(enum diff_cause c);
int cause_from_name(const char *name);         /* -1 when unknown */
const char *match_how_name(enum match_how h);

/* Init, exit, unlikely and cold text: code that runs once or rarely. */
bool func_is_cold(const struct elf_image *img, const struct elf_func *f);

/* One subject that changed: a loop (matched, added or removed) or a
 * function's entry (entry set, no loops). */
struct layout_change {
	const struct func_report *fold, *fnew;  /* NULL for the side it is missing from */
	const struct loop_report *lold, *lnew;
	bool entry;                     /* the function entry itself */
	bool resized;                   /* loop bytes changed */
	bool moved;                     /* entry alignment changed */
	bool cold;                      /* in cold text (func_is_cold) */
	uint8_t cause;                  /* enum diff_cause */
	uint32_t added, nadded;         /* into layout_diff.refs: hazards gained */
	uint32_t removed, nremoved;     /* hazards lost */
};

/* Two functions matched under different names. */
struct func_rename {
	const struct func_report *fold, *fnew;
	uint8_t how;                    /* enum match_how */
};

struct layout_diff {
	struct layout_change *v;
	size_t n, cap;
	const struct hazard **refs;
	size_t nrefs, refs_cap;
	const struct func_report **only_old, **only_new;
	size_t only_old_cap, only_new_cap;
	struct func_rename *renamed;
	size_t nrenamed, renamed_cap;
	size_t funcs_matched, funcs_unchanged, funcs_only_old, funcs_only_new;
	size_t matched_by[NMATCH];
	size_t funcs_cold_left_out;     /* matched or not, not compared (skip_cold) */
	size_t loops_added, loops_removed, loops_resized;
	size_t hazards_added, hazards_removed;
	size_t added_by[NCAUSE], removed_by[NCAUSE];
};

struct diff_side {
	const struct elf_image *img;    /* for section names; NULL: none is cold */
	const struct scan_result *r;    /* scanned with keep_all */
};

struct diff_opts {
	bool skip_cold;                 /* leave cold functions out (func_is_cold) */
};

void layout_diff(const struct diff_side *old, const struct diff_side *new,
		 const struct diff_opts *o, struct layout_diff *d);
void layout_diff_free(struct layout_diff *d);
/* The samples of a change's loop or function (diff --hot): a record is of
 * one build, so those of the side that has them. */
uint64_t layout_change_samples(const struct layout_change *ch);
/* diff --hot --min-share: a change in code with less than min_share of the
 * samples of r's run is folded into one line (never without samples). */
bool layout_change_folded(const struct layout_change *ch, const struct scan_result *r,
			  double min_share);

/* ---- hot code: where the samples of a run fall (hot.c) ---- */

/* A histogram: keys (file offsets, addresses) and how often each was hit. */
struct sample_count {
	uint64_t key;
	uint64_t count;
};

struct sample_hist {
	struct sample_count *v;
	size_t n, cap;
};

/* Sort by key and fold equal keys into one entry. */
void sample_hist_merge(struct sample_hist *h);
/* Samples with a key in [start, end) of a merged histogram. */
uint64_t sample_hist_sum(const struct sample_hist *h, uint64_t start, uint64_t end);

/* The samples of a run that fell in one file, by the file's own virtual
 * addresses (or, for the kernel, the running kernel's addresses). */
struct hot_file {
	char *path;                     /* "[vdso]", "[kernel]" or a path */
	char build_id[130];             /* hex, "" unknown */
	struct sample_hist addrs;
	uint64_t samples;
};

/* A kernel function named by /proc/kallsyms (or by perf script). */
struct hot_ksym {
	char *name;
	uint64_t addr;                  /* runtime address */
	uint64_t samples;
};

/* Everything scan --hot and diff --hot need of a record. */
struct hot_run {
	char *source;                   /* the record or perf script file */
	uint64_t total;                 /* every sample, user and kernel */
	struct hot_file *file;
	size_t nfile, file_cap;
	/* kernel samples: runtime addresses, and what maps them */
	struct hot_file kernel;
	uint64_t kernel_text;           /* runtime address of _text, 0 unknown */
	char kernel_build_id[130];
	char kernel_release[128];
	struct hot_ksym *ksym;
	size_t nksym, ksym_cap;
};

struct hot_file *hot_run_file(struct hot_run *h, const char *path);  /* added if missing */
/* The samples of a file: by build-id when both know it, else by path,
 * else by file name when only one file has it (a record or perf script
 * text from another machine, where the paths differ). */
const struct hot_file *hot_run_find(const struct hot_run *h, const char *path,
				    const char *build_id);
void hot_run_free(struct hot_run *h);

/* The samples of f (NULL: none) in every loop of a scan (its whole span,
 * nested loops included) and every reported function, of run_samples. */
void hot_attribute(struct scan_result *r, const struct hot_file *f, uint64_t run_samples);
/* A loop's or function's share of the run's samples, 0 to 1. */
double hot_share(const struct scan_result *r, uint64_t samples);

/* A loop's own samples: those of its span less those of the loops of
 * its function whose spans lie inside it (self[i] for r->loop[i]); and per
 * function (outside[f] for r->func[f]) the samples in no loop of it. Each
 * sample of the file is then counted once (scan --hot's summary). */
void hot_loop_self(const struct scan_result *r, uint64_t *self, uint64_t *outside);
/* The share of the run aligning the loop would save: its share less that
 * share over its predicted slowdown (0 when not priced). */
double hot_saves(const struct scan_result *r, const struct loop_report *l);

/* Kernel samples to the kernel symbols (sorted by address) they fall
 * in: each symbol's samples; those before the first symbol count nowhere. */
void hot_attribute_ksyms(struct hot_run *h);

/* The order of scan --hot and diff --hot: the larger share of samples
 * first, then the higher severity; 0 when both are equal. */
int hot_order(double share_x, unsigned severity_x, double share_y, unsigned severity_y);

#endif
