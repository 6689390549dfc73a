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
 * under ~/.local/share (XDG Base Directory Specification). -1 when
 * neither $XDG_DATA_HOME nor $HOME is set. */
int host_profile_path(const struct host *h, char *buf, size_t n);

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

/* A back-edge branch and its fused partner, as offsets from loop start. */
struct back_edge {
	uint32_t pair;                  /* first byte of the fused pair, = branch if unfused */
	uint32_t branch;                /* first byte of the branch */
	uint32_t end;                   /* one past the branch */
};

#define MAX_BACK_EDGES 4

/* What the rules need of a loop, independent of where it is placed. */
struct loop_geometry {
	uint32_t bytes;
	struct back_edge edge[MAX_BACK_EDGES];
	uint32_t nedge;
	bool fits_loop_buffer_shape;    /* innermost, no call */
	uint32_t ninsn;
};

struct hazard {
	const struct profile *profile;
	uint8_t rule;                   /* enum rule */
	uint8_t severity;               /* 3 branch rule, 2 line, 1 window or entry */
	uint16_t window;
	bool certain;                   /* hazardous wherever it can be placed */
	uint16_t bad_placements;        /* when not certain: of all_placements */
	uint16_t all_placements;
	uint16_t fix_align;             /* .p2align bytes that fix it, 0: none does */
	uint16_t fix_pad;               /* padding bytes it costs here */
	bool fix_clean;                 /* brings in no other hazard of the profile */
};

/* Windows touched and the best any placement achieves (DESIGN). */
unsigned windows_touched(uint64_t start, uint64_t end, unsigned w);
unsigned windows_best(uint64_t bytes, unsigned w);

/* Evaluate every rule of `p` on a loop at `start`, in a section whose
 * placement is known modulo `placement_align`. Appends to *out. */
size_t loop_hazards(const struct profile *p, const struct loop_geometry *g,
		    uint64_t start, uint64_t placement_align,
		    struct hazard *out, size_t max);

/* ---- geometry (geometry.c) ---- */

void loop_geometry(const struct cfg *g, const struct cfg_loop *l, struct loop_geometry *geo);

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

void noreturn_find(const struct elf_image *img, const struct elf_funcs *f,
		   struct noreturn_set *s);
bool noreturn_has(const struct noreturn_set *s, uint64_t addr);

/* ---- scanning an image (scan.c) ---- */

struct scan_opts {
	const struct profile **profiles;
	size_t nprofiles;
	const char *func_glob;          /* NULL: every function */
	unsigned jobs;                  /* threads, >= 1 */
	bool keep_all;                  /* keep loops and functions without hazards */
};

struct loop_report {
	uint64_t start, end;
	uint32_t depth;
	bool innermost, has_call, in_loop_buffer;
	bool irreducible;               /* a cycle with more than one entry */
	uint32_t ninsn;
	uint32_t cold_blocks;
	uint64_t cold_bytes;
	uint64_t branch;                /* first back-edge branch */
	uint64_t shape_hash;            /* FNV-1a of its mnemonic sequence */
	uint32_t hazard, nhazard;       /* into scan_result.hazard */
};

struct func_report {
	size_t func;                    /* index into scan_result.funcs.v */
	uint64_t entry_align;
	uint32_t loop, nloop;           /* into scan_result.loop */
	uint32_t hazard, nhazard;       /* entry hazards, into scan_result.hazard */
	uint32_t irr, nirr;             /* into scan_result.irr */
	uint32_t ninsn;
};

struct scan_result {
	struct elf_funcs funcs;
	/* the profiles applied: those asked for that fit the image's
	 * architecture, else that architecture's generic profile */
	const struct profile *profile[32];
	size_t nprofile;
	struct func_report *func;
	size_t nfunc;
	struct loop_report *loop;
	size_t nloop;
	struct hazard *hazard;
	size_t nhazard;
	struct cfg_irreducible *irr;
	size_t nirr;
	size_t functions_scanned;       /* matched --func */
	uint64_t instructions;
	uint64_t loops_total;
	uint64_t bytes_decoded;
};

int scan_image(const struct elf_image *img, const struct scan_opts *o,
	       struct scan_result *r, struct err *e);
void scan_result_free(struct scan_result *r);

/* ---- comparing two scans (diff.c) ---- */

/* One subject that changed: a loop (matched, added or removed) or a
 * function's entry (entry set, no loops). */
struct layout_change {
	const struct func_report *fold, *fnew;  /* NULL for the side it is missing from */
	const struct loop_report *lold, *lnew;
	bool entry;                     /* the function entry itself */
	bool resized;                   /* loop bytes changed */
	bool moved;                     /* entry alignment changed */
	uint32_t added, nadded;         /* into layout_diff.refs: hazards gained */
	uint32_t removed, nremoved;     /* hazards lost */
};

struct layout_diff {
	struct layout_change *v;
	size_t n, cap;
	const struct hazard **refs;
	size_t nrefs, refs_cap;
	const struct func_report **only_old, **only_new;
	size_t only_old_cap, only_new_cap;
	size_t funcs_matched, funcs_unchanged, funcs_only_old, funcs_only_new;
	size_t loops_added, loops_removed, loops_resized;
	size_t hazards_added, hazards_removed;
};

/* Both scans made with keep_all (every function and loop reported). */
void layout_diff(const struct scan_result *old, const struct scan_result *new,
		 struct layout_diff *d);
void layout_diff_free(struct layout_diff *d);

/* The loop's highest-severity hazard, 0 when it has none. */
unsigned loop_severity(const struct scan_result *r, const struct loop_report *l);

#endif
