/* model/rows.h: the rows of scan and diff, for every renderer (rows.c):
 * which hazards make a row, the one order with and without samples, what
 * --min-share folds; and a hazard in words (words.c): its severity, fix,
 * placement, cost, profiles and windows, the fix in the words of the
 * compiler that built the code. The tables of report/ and the SARIF of
 * results/ say a row the same way. */
#ifndef STRADDLE_MODEL_ROWS_H
#define STRADDLE_MODEL_ROWS_H

#include "diff.h"
#include "hot.h"
#include "rules.h"
#include "scan.h"

/* ---- a hazard in words (words.c) ---- */

const char *severity_name(enum severity severity);      /* high, medium, low */
void format_fix(const struct hazard *h, char *buf, size_t n);      /* ".p2align 4 (+6 B)" */
void format_placement(const struct hazard *h, char *buf, size_t n); /* "certain", "3 of 4" */
/* ... of a loop's hazard: a loop whose span is uncertain (an unresolved
 * indirect jump in its function) is never called certain. */
void format_loop_placement(const struct hazard *h, bool span_uncertain, char *buf, size_t n);
/* "1.92x", the predicted slowdown ("<=1.08x" a bound from above); "-"
 * for a rule the cost model does not price. */
void format_cost(const struct hazard *h, char *buf, size_t n);
/* The share of a run aligning would save, of a hazard in code with `share`
 * of it: share - share / slowdown; a rule not priced: its whole share. */
double hazard_saves(const struct hazard *h, double share);
/* The hazard of a row h[0..n) the cost model prices highest (the row's
 * cost, and what aligning saves), else h[0]. */
const struct hazard *costliest_hazard(const struct hazard *const *h, size_t n);
/* What ranks a row by its costliest hazard h: 0 a price above 1x, 1 a
 * bound ("<=") or a rule the model does not price, 2 a price of 1x: it
 * costs nothing here (a loop with loops in it, one run from the loop
 * buffer) and is folded like code with no samples. */
enum price_tier { TIER_PRICED, TIER_BOUND, TIER_FREE };
enum price_tier price_tier(const struct hazard *h);
/* A row is one subject's hazards of one rule over every profile and window,
 * h[0..n): the hazard that leads it, its profiles "skylake,zen5" (each once),
 * its windows "16,64", and one fix that holds for all of them when there is
 * one, else each profile's. */
const struct hazard *worst_hazard(const struct hazard *const *h, size_t n);
void format_profiles(const struct hazard *const *h, size_t n, struct strbuf *out);
/* The distinct windows of h[0..n), smallest first (at most 16). */
size_t hazard_windows(const struct hazard *const *h, size_t n, unsigned out[16]);
void format_window_list(const struct hazard *const *h, size_t n, char *buf, size_t len);
void format_fix_all(const struct hazard *const *h, size_t n, char *buf, size_t len);
/* The alignment of that one fix, 0 when some hazard has none. */
unsigned fix_align_all(const struct hazard *const *h, size_t n);
/* The same fix, .p2align of `align` bytes, in the words of what built the
 * code, from its unit's DW_AT_producer (elf_producer): GCC's and Clang's
 * flag for the unit and attribute for the function or loop, the kernel's
 * macro or config, and for a branch of Skylake's JCC erratum (jcc) the
 * assembler's branch padding; "" when the producer is unknown or align is 0. */
void format_compiler_fix(const char *producer, unsigned align, bool loop, bool jcc, bool kernel,
			 char *buf, size_t n);

/* vmlinux or a kernel module (their fixes are the kernel's macros). */
bool image_is_kernel(const struct elf_image *img);
/* The .p2align of `align` bytes before a loop (or a function's entry) at
 * addr, in the words of its unit's compiler (format_compiler_fix); "" when
 * the unit is not known. */
void compiler_fix(struct elf_image *img, uint32_t sec, uint64_t addr, unsigned align, bool loop,
		  const struct hazard *lead, char *buf, size_t n);

/* ---- the rows of scan and diff (rows.c) ---- */

/* A row of scan: one subject's hazards of one rule over every profile and
 * window (--uarch all gave one loop ten rows, "30 hazards" for 3). source and
 * compiler_fix are what the caller resolved before rendering (DWARF:
 * elf_source_line, compiler_fix; the page: the document's), NULL for none;
 * scan_rows_free frees them. */
struct scan_row {
	const struct func_report *func;
	const struct loop_report *loop;         /* NULL: a function entry hazard */
	const struct hazard *lead;              /* the worst of them (worst_hazard) */
	const struct hazard *priced;            /* the costliest (costliest_hazard) */
	const struct hazard *const *h;          /* the row's hazards, nh of them */
	size_t nh;
	char *source, *compiler_fix;
};

struct scan_rows {
	struct scan_row *v;             /* the rows shown, in order */
	size_t n;
	size_t total;                   /* every row of the file */
	size_t folded;                  /* in code with less than min_share of the samples */
	size_t free;                    /* priced at nothing here (costs_nothing) */
	size_t more;                    /* past the limit ("... and more": without samples
					 * only the first past it is counted) */
	const struct hazard **hazards;  /* the rows' h */
};

/* The rows of a scan in the one order (without samples worst first, cold
 * text and spin loops last; with them the most a fix saves first), with
 * --hot's folding (rows under min_share of the run, never without samples),
 * the rows that cost nothing here folded unless keep_free (scan --all),
 * and at most limit shown (0: all). */
void scan_rows(const struct scan_result *r, unsigned long limit, double min_share,
	       bool keep_free, struct scan_rows *out);
void scan_rows_free(struct scan_rows *rs);
/* The row's windows in the order of its window column, each with how many
 * of them the row touches and how many it needs (the detail cell's
 * "touched/best"; a loop in pieces: over its pieces): SARIF's message
 * says the same numbers in words. */
struct row_window {
	unsigned window, touched, best;
};

size_t scan_row_windows(const struct scan_result *r, const struct scan_row *x,
			struct row_window out[static 16]);
/* <0 when x comes before y in that order. */
int scan_row_order(const struct scan_result *r, const struct scan_row *x, const struct scan_row *y);
bool scan_row_folded(const struct scan_result *r, const struct scan_row *x, double min_share);
size_t scan_row_hazards(const struct scan_result *r, const struct scan_row *x,
			const struct hazard **out);
uint64_t scan_row_addr(const struct scan_result *r, const struct scan_row *x);
uint64_t scan_row_bytes(const struct scan_result *r, const struct scan_row *x);
uint64_t scan_row_samples(const struct scan_row *x);
/* A spin loop's row (pause, yield, wfe): ranked after the others. */
bool scan_row_spins(const struct scan_row *x);

/* The two scans of a diff. */
struct diff_sides {
	const struct scan_result *old, *new;
};

/* A row of diff: a change's hazards gained (or lost) of one rule. */
struct diff_row {
	const struct layout_change *ch;
	const struct hazard *const *h;  /* n of them */
	uint32_t n;
	const struct hazard *lead;      /* the worst (worst_hazard) */
	const struct hazard *priced;    /* the costliest (costliest_hazard) */
	double share;                   /* of the samples (--hot), on whichever side has them */
	char *source, *compiler_fix;    /* resolved by the caller, as scan_row's */
};

struct diff_rows {
	struct diff_row *v;
	size_t n;
	size_t folded;                  /* --hot: under min_share, left out */
	size_t free;                    /* priced at nothing here (price_tier), left out */
	bool added;
};

/* The rows of the hazards gained (added) or lost, worst first (with
 * samples the hottest first), without those under min_share. */
void diff_rows(const struct layout_diff *d, const struct scan_result *new, bool added,
	       double min_share, struct diff_rows *out);
void diff_rows_free(struct diff_rows *rs);
/* Rows gained (or lost), folded or not, and by cause: the summary's. */
size_t diff_row_count(const struct layout_diff *d, bool added, size_t by_cause[NCAUSE]);
const char *diff_row_name(const struct diff_sides *s, const struct layout_change *ch);

/* The source line (when source_lines) and the compiler's fix of each row
 * shown, read from the image before rendering (the page has them from
 * the document). */
void scan_rows_resolve(struct scan_rows *rows, struct elf_image *img, const struct scan_result *r,
		       bool source_lines);
/* A diff's two images, beside its scans. */
struct diff_images {
	struct elf_image *old, *new;
	struct diff_sides sides;
};
/* The same of the first limit (0: all) rows of diff_rows(added): each
 * row's subject on the side it is on, the fix of a gained hazard. */
void diff_rows_resolve(struct diff_rows *rows, const struct diff_images *im, bool added,
		       size_t limit, bool source_lines);

#endif
