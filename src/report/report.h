/* report: what people read. Text tables with aligned columns, CSV, SVG
 * plots, and the HTML page of `straddle report`. */
#ifndef STRADDLE_REPORT_H
#define STRADDLE_REPORT_H

#include "../base/base.h"
#include "../model/model.h"
#include "../results/results.h"
#include "../stats/stats.h"
#include <stdio.h>

/* As many columns as asked for (compare has one a file, and any number
 * of files): a fixed bound once cut the last of them off unsaid. */
struct table {
	size_t ncols;
	const char **head;              /* ncols of each, set by table_init */
	bool *right;                    /* right-align (numbers) */
	size_t *max;                    /* longer cells are cut to this, 0: no limit */
	bool *wrap;                     /* HTML: long text that may wrap (others do not) */
	char **cell;                    /* nrows * ncols owned strings */
	size_t nrows, cap;
};

/* Columns given as "name" (left) or ">name" (right-aligned). */
void table_init(struct table *t, size_t ncols, const char *const *cols);
/* Add one row: exactly ncols strings, copied. */
void table_row(struct table *t, ...);
/* The same from an array of ncols strings. */
void table_row_v(struct table *t, const char *const *cells);
void table_print(const struct table *t, FILE *out);
void table_free(struct table *t);

/* An SVG line plot (svg.c): points with optional whiskers, marked points
 * (filled and ringed), dashed vertical guides (window boundaries), shaded
 * x bands; series told apart by marker shape and dash as well as hue; axis
 * ticks at round numbers, the legend above the plot area. Each point is
 * an element of class "point" ("point slow" when marked), each whisker
 * "ci", each band "predicted", each guide "boundary". A series of more
 * than 512 points draws its line only. */
struct plot_series {
	const char *name;
	const double *x, *y;
	const double *lo, *hi;          /* whiskers, or NULL */
	const bool *mark;               /* or NULL */
	size_t n;
};

struct plot {
	const char *title, *xlabel, *ylabel;
	const struct plot_series *series;
	size_t nseries;
	const double *vlines;
	size_t nvlines;
	const double *shade;            /* x values whose band is shaded (predicted slow) */
	size_t nshade;
	const char *note;               /* what the marks and shading mean, or NULL */
	const char *const *vlabels;     /* each guide's label, or NULL: its x */
};

/* A file of its own (xmlns, <title>). */
int plot_svg(FILE *out, const struct plot *p);
/* Inside the page: opened by html_svg_begin with id. */
void plot_svg_inline(FILE *out, const struct plot *p, const char *id);

/* A strip plot (svg.c): one row per run, every sample a dot (class
 * "sample", the marker of its side) or, in a plot of more than STRIP_DOTS
 * samples, each run's density (one path of class "density", data-samples
 * its count), the box of its quartiles and its median over them; the
 * value axis logarithmic when the samples span a factor of 4 or more. */
#define STRIP_DOTS 150
struct strip_row {
	const char *label;              /* "base, run 1" */
	const double *v;
	size_t n;
	unsigned side;                  /* 0 the base, 1.. each new file: the marker */
};

struct strip_plot {
	const char *title, *xlabel, *note;
	const struct strip_row *rows;
	size_t nrows;
	const char *const *sides;       /* the legend: a name per side */
	size_t nsides;
};

void strip_svg_inline(FILE *out, const struct strip_plot *p, const char *id);
/* Whether p draws densities: more than STRIP_DOTS samples in all. */
bool strip_dense(const struct strip_plot *p);
unsigned strip_svg_height(const struct strip_plot *p);

/* A change plot (svg.c): one row per compared metric, its change in % with
 * the CI as a whisker (class "ci") and the verdict as the marker's shape
 * (class "change"), 0 and the threshold band (class "threshold") behind. */
struct change_plot_row {
	const char *label;
	double change, lo, hi;          /* %, the CI NAN when there is none */
	const char *verdict;            /* compare_verdict's words */
};

struct change_plot {
	const char *title, *xlabel, *note;
	const struct change_plot_row *rows;
	size_t nrows;
	double threshold;               /* a fraction */
};

void change_svg_inline(FILE *out, const struct change_plot *p, const char *id);
unsigned change_svg_height(const struct change_plot *p);

/* How a hazard reads in a table (hazard.c). */
const char *severity_name(unsigned severity);           /* high, medium, low */
void format_fix(const struct hazard *h, char *buf, size_t n);      /* ".p2align 4 (+6 B)" */
void format_placement(const struct hazard *h, char *buf, size_t n); /* "certain", "3 of 4" */
/* ... of a loop's hazard: a loop whose span is uncertain (an unresolved
 * indirect jump in its function) is never called certain (issue 26). */
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
/* A row is one subject's hazards of one rule over every profile and
 * window, h[0..n) (issue 24): the hazard that leads it, its profiles
 * "skylake,zen5" (each once), its windows "16,64", and one fix that holds
 * for all of them when there is one, else each profile's. */
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

/* ---- the rows of scan and diff, for every renderer (rows.c) ---- */

/* A row of scan: one subject's hazards of one rule over every profile and
 * window (issue 24: --uarch all gave one loop ten rows, "30 hazards" for
 * 3). source and compiler_fix are what the caller resolved before
 * rendering (DWARF: elf_source_line, compiler_fix; the page: the
 * document's), NULL for none; scan_rows_free frees them. */
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

/* A row's cells, in the order of scan_cols: samples %, saves %, severity,
 * function, section, address, source, bytes, window, detail, rule,
 * profile, placement, cost, fix (with the compiler's words). */
#define SCAN_COLS 15
extern const char *const scan_cols[SCAN_COLS];

struct scan_cells {
	struct strbuf profiles;         /* sb_free it after use */
	char samples[16], saves[16], addr[20], bytes[24], windows[48], detail[192];
	char placement[48], cost[16], fix[512];
	const char *cell[SCAN_COLS];
};

void scan_row_cells(const struct scan_result *r, const struct scan_row *x, struct scan_cells *c);

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
/* "old -> new" of the address and bytes, and with w the windows touched/best. */
void diff_subject_columns(const struct diff_sides *s, const struct layout_change *ch,
			  unsigned w, char *addr, char *bytes, char *tb, size_t n);

/* The cells, in the order of diff_cols: samples %, severity, function,
 * cause, address, source, bytes, window, touched/best, rule, profile,
 * cost (of a new hazard in the new build, of a fixed one in the old),
 * fix. */
#define DIFF_COLS 13
extern const char *const diff_cols[DIFF_COLS];

struct diff_cells {
	struct strbuf profiles;         /* sb_free it after use */
	char samples[16], addr[64], bytes[64], windows[48], detail[192], cost[16], fix[512];
	const char *cell[DIFF_COLS];
};

void diff_row_cells(const struct diff_sides *s, const struct diff_row *v, bool added,
		    struct diff_cells *c);

/* ---- scan's and diff's text and markdown (scan_text.c, diff_text.c) ---- */

struct scan_text_opts {
	bool list_all;                  /* --all: every loop, and the counts of the head */
	double min_share;               /* --hot's folding, for its lines */
};

/* One file: its head line, the table of rows, --all's loops, --hot's
 * summary of where its samples went, and the count of its rows. */
void report_scan_text(FILE *out, const struct elf_image *img, const struct scan_result *r,
		      const struct scan_rows *rows, const struct scan_text_opts *o);
/* Why a hot loop is fine, costs, or cannot be judged. */
void report_judge_loop(const struct scan_result *r, const struct func_report *f,
		       const struct loop_report *l, char *buf, size_t n);

/* scan --hot: where every sample of the file went. Each hot loop (its own
 * samples, nested loops apart) with at least min_share, hottest first, is
 * fine, a hazard with its cost, or cannot be judged; the time in no loop
 * is straight-line code, or cannot be judged where its function has an
 * unresolved indirect jump (a loop through it is invisible). The parts add
 * up to the file's samples. */
struct hot_summary {
	uint64_t *self;                 /* self[i]: r->loop[i]'s own samples */
	size_t *owner;                  /* owner[i]: the index of its function */
	size_t *order;                  /* the loops shown, n of them */
	size_t n;
	uint64_t small, unseen, straight, no_function;
};

void hot_summary(const struct scan_result *r, double min_share, struct hot_summary *s);
void hot_summary_free(struct hot_summary *s);
/* The kernel functions with at least min_share of the samples. */
void report_kernel_symbols(FILE *out, const struct hot_run *h, double min_share);
/* The rest of the run, so that the summaries add up to all its samples:
 * the kernel's, and those of files not scanned (in_files: the scanned'). */
void report_run_rest(FILE *out, const struct hot_run *h, uint64_t in_files);

/* What diff's text and markdown need besides the rows. */
struct diff_report {
	const struct elf_image *old_img, *new_img;
	struct diff_sides sides;
	const struct layout_diff *d;
	struct diff_rows added, removed;        /* rows resolved (source, fix) */
	unsigned long limit;                    /* rows per section, 0 all */
	double min_share;
	bool all;                               /* --all: the one-sided functions */
	const char *hot_source;                 /* the record, with samples */
	uint64_t hot_total;
	bool fails;                             /* the gate */
};

void report_diff_text(FILE *out, const struct diff_report *r);
void report_diff_markdown(FILE *out, const struct diff_report *r);

/* ---- compare (compare.c) ---- */

/* compare's defaults, also the report's (--alpha, --threshold) */
#define COMPARE_ALPHA 0.05
#define COMPARE_THRESHOLD 0.02

void compare_build(struct compare *c);
void compare_free(struct compare *c);
const char *compare_label(const struct result_file *f);
/* Why that verdict, in words: "2:3 runs: a verdict needs 3 a side",
 * "p 0.41 >= alpha 0.05", ... */
void compare_reason(const struct comparison *cmp, double alpha, double threshold, char *buf,
		    size_t n);
/* The noise the verdict saw and the units a side that resolve the
 * threshold at it, and the drift between invocations (or that it was not
 * measured) when the units are runs (issue 22). */
void compare_noise(const struct comparison *cmp, double threshold, char *buf, size_t n);
void report_compare_text(FILE *out, const struct compare *c, bool lkp, bool verbose);
void report_compare_markdown(FILE *out, const struct compare *c, bool verbose);
/* Warnings to `warn` (standard error), the CSV alone on out. */
void report_compare_csv(FILE *out, FILE *warn, const struct compare *c, bool verbose);

/* ---- bench's table (bench.c) ---- */

void report_bench(FILE *out, const struct bench_record *b);

/* ---- the HTML page of `straddle report` (html*.c) ----
 *
 * One page, nothing outside it: inline CSS and SVG, no script, no URL.
 * Every result is one <section class="result KIND" id="KIND-N"> (N: the
 * 1-based index among the results of that kind) starting with <h2>; every
 * plot is an inline <svg role="img" aria-labelledby=ID> with a <title
 * id=ID>, followed by the table behind it as its text alternative (a
 * <table>, or <details><summary>data</summary><table>...). The browser
 * test (tests/browser) relies on this. */

/* A calibrate file as the page needs it: the profile it made and its
 * experiments, as calibrate --from and --uarch FILE read them. */
struct report_calibration {
	const struct profile *profile;  /* kept until exit (results_profile_of) */
	struct host host;               /* the machine it was measured on */
	struct calib_experiment *x;
	size_t nx;
	struct calib_doc doc;           /* its rules and experiments' points */
};

struct report_input {
	const char *path;               /* as given */
	json_t *doc;                    /* the result document */
	enum result_kind kind;
	const char *command;            /* its "command": scan, diff, record, ... */
	size_t index;                   /* 1-based among the inputs of that command */
	/* read once, by report_input_read, as their own commands read them */
	struct result_head head;        /* every kind: machine, command line, time */
	struct result_file file;        /* bench, sweep, place: the metrics and runs */
	struct scan_read scan;          /* scan: its files' scans, as scan made them */
	struct diff_read diff;          /* diff: its changes over the two sides' scans */
	struct record_read record;      /* record: its files, loops and functions */
	struct bench_doc bench;         /* bench: its settings and states */
	struct sweep_doc sweep;         /* sweep: its placements */
	struct place_doc place;         /* place: its arms */
	struct prove_doc prove;         /* prove: its trials */
	struct report_calibration cal;  /* calibrate */
	struct compare_doc compared;    /* compare */
};

/* The whole page: header (machines, tool versions, command lines and
 * times), contents, then one section per input in the order given, the
 * bench inputs together. */
int report_html(FILE *out, const struct report_input *in, size_t n);

/* One result file read for the page, once (input.c: read_input, JSON
 * without duplicate keys, a kind the page shows with the field it cannot
 * do without, and the kind's own reader: results_file_of for bench, sweep
 * and place, the profile and experiments of calibrate, the run counts of
 * compare): 0 with in set (report_input_free it), or -1 with the line
 * after "straddle: " in e and nothing to free. The command and the fuzz
 * target (fuzz/fuzz_report.c) read through it alike. */
int report_input_read(const char *path, struct report_input *in, struct err *e);
void report_input_free(struct report_input *in);

/* prove's table, one trial a row (prove.c), for its text and the page's
 * prove section alike. */
enum { PROVE_COLUMNS = 11 };
extern const char *const prove_columns[PROVE_COLUMNS];
void prove_row(struct table *t, const struct loop_trial *x);

/* straddle prove's table (prove.c): each trial's prediction beside its
 * measurement, the hot loops at their best, and the agreement. */
void report_prove_text(const struct loop_trial *x, size_t n, size_t at_best, double min_share,
		       const char *profile, FILE *out);

/* ---- what scan and diff say of a row (sarif_row.c) ---- */

/* vmlinux or a kernel module (their fixes are the kernel's macros). */
bool image_is_kernel(const struct elf_image *img);
/* The .p2align of `align` bytes before a loop (or a function's entry) at
 * addr, in the words of its unit's compiler (format_compiler_fix); "" when
 * the unit is not known. */
void compiler_fix(struct elf_image *img, uint32_t sec, uint64_t addr, unsigned align, bool loop,
		  const struct hazard *lead, char *buf, size_t n);

/* Which of the file's functions of one name (by_name, over funcs.v) and
 * of reported fde@ functions of one shape (by_shape, over func[]) each
 * is, in address order: the fingerprint tells them apart. */
struct sarif_ordinals {
	uint32_t *by_name, *by_shape;
};

void sarif_ordinals(const struct scan_result *r, struct sarif_ordinals *o);
void sarif_ordinals_free(struct sarif_ordinals *o);

/* A row of scan or diff: a subject's hazards h[0..n) of one rule. */
struct sarif_row {
	struct elf_image *img;
	const struct scan_result *r;
	const struct func_report *func;
	const struct loop_report *loop;         /* NULL: the function's entry */
	const struct hazard *const *h;
	size_t n;
	const char *cause;                      /* diff: "changed", "moved", "new"; scan NULL */
	const char *source_root;                /* --source-root, or NULL */
	bool lines;                             /* look the source line up (not --no-source) */
	const struct sarif_ordinals *ord;       /* of r */
	size_t input;                           /* the operand img came from (inputs.h) */
};

void sarif_add_row(struct sarif_log *log, const struct sarif_row *s);

#endif
