/* report: what people read. Text tables with aligned columns, CSV, SVG
 * plots, and the HTML page of `straddle report`. */
#ifndef STRADDLE_REPORT_H
#define STRADDLE_REPORT_H

#include "../base/base.h"
#include "../model/rows.h"
#include "../model/profile.h"
#include "../model/host.h"
#include "../model/rules.h"
#include "../model/scan.h"
#include "../model/diff.h"
#include "../model/hot.h"
#include "../results/head.h"
#include "../results/scan.h"
#include "../results/bench.h"
#include "../results/diff.h"
#include "../results/sweep.h"
#include "../results/place.h"
#include "../results/ab.h"
#include "../results/prove.h"
#include "../results/metrics.h"
#include "../results/kinds.h"
#include "../results/calibrate.h"
#include "../results/record.h"
#include "../results/compare.h"
#include "../kernels/kernels.h"
#include "../stats/stats.h"
#include "../measure/sample.h"
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
/* The width of its rows as table_print prints them. */
size_t table_width(const struct table *t);
/* The width lines to fd must fit (one profile's evidence is a line of
 * 1,277 characters): the terminal's, else $COLUMNS, else 80. */
size_t text_width(int fd);
/* text from column `indent` on, in words, no line past width; a word
 * longer than a line has one of its own. */
void print_wrapped(FILE *out, const char *text, size_t indent, size_t width);

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

/* ---- the cells of scan's and diff's rows, for every table (cells.c) ---- */

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
/* The line before the kernel's samples by symbol: why not in its loops
 * (image: the kernel image given, or the debug image looked for; id: the
 * image's build-id). */
void report_kernel_unplaced(FILE *out, const struct hot_run *h, enum hot_kernel_fit why,
			    const char *image, const char *id);
/* The kernel functions with at least min_share of the samples. */
void report_kernel_symbols(FILE *out, const struct hot_run *h, double min_share);
/* The rest of the run, so that the summaries add up to all its samples:
 * the kernel's, and those of files not scanned (in_files: the scanned'). */
void report_run_rest(FILE *out, const struct hot_run *h, uint64_t in_files);

/* scan's output in the format asked, a file at a time (scan_out.c), on
 * standard output; the JSON document and the SARIF log are ended by the
 * caller (results_scan_end, sarif_write), who says what failed. */
struct scan_out {
	bool json;                      /* else SARIF when sarif_asked, else text */
	bool sarif_asked;
	struct sarif_log *sarif;        /* SARIF: the log, made by scan_out_begin */
	struct scan_doc doc;            /* JSON */
	int argc;                       /* scan's command line, for the documents */
	char **argv;
	const struct profile *const *profiles;
	size_t nprofiles;
	const char *uarch_why;          /* how "host" was resolved, "" when not named */
	const char *source_root;        /* --source-root: SARIF's SRCROOT */
	bool source_lines, list_all, have_hot;
	unsigned long limit;            /* hazard rows per file, 0: all */
	double min_share;
};
/* Once the inputs are known (a shard's document says what it took). */
void scan_out_begin(struct scan_out *o, const struct shard_info *shard);
/* A file (name, of operand input) that could not be scanned, and why. */
void scan_out_failed(struct scan_out *o, const char *name, size_t input, const char *msg);
/* A file scanned into r: 0 written, 1 not (img changed while it was
 * read), -1 no memory to make it in. */
int scan_out_file(struct scan_out *o, struct elf_image *img, const struct scan_result *r,
		  size_t input);

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

/* diff's output in the format asked (diff_out.c), on standard output: a
 * pair of files (diff_out_one), or each pair of two directories
 * (diff_out_begin, a call a pair, diff_out_end). What failed is the
 * caller's to say on standard error. */
enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_MARKDOWN, DIFF_SARIF };   /* --format's order */
struct diff_out {
	enum diff_format format;
	int argc;                       /* diff's command line, for the documents */
	char **argv;
	const struct profile *const *profiles;
	size_t nprofiles;
	const char *source_root;        /* --source-root: SARIF's SRCROOT */
	bool all, source_lines;
	unsigned long limit;            /* rows per section, 0: all */
	double min_share;
	const struct hot_run *hot;      /* --hot's samples, or none (zeros) */
	unsigned fail_rules, fail_causes;
	/* two directories or packages */
	const char *op[2];              /* OLD and NEW as given */
	struct diff_doc doc;            /* JSON */
	struct sarif_log *sarif;        /* SARIF */
	bool failed;                    /* a file could not be read or diffed */
	bool fails;                     /* a pair's new hazard fails the gate */
	size_t diffed, changed, worse, only[2];
	struct strbuf only_text;        /* the text's lines of files on one side */
};
/* A pair of files; fails: the gate, exit_status diff's. NULL, or "JSON"
 * or "SARIF" when standard output could not take it. */
const char *diff_out_one(struct diff_out *o, struct diff_build *old, struct diff_build *new,
			 const struct layout_diff *d, bool fails, int exit_status);
void diff_out_begin(struct diff_out *o, const struct shard_info *shard);
/* Each pair of the directories' file member: diffed, not read or diffed
 * (path, why), or a file on one side only (in_new: NEW's). */
void diff_out_member(struct diff_out *o, const char *member, struct diff_build *old,
		     struct diff_build *new, const struct layout_diff *d, bool fails);
void diff_out_failed(struct diff_out *o, const char *member, const char *path, const char *why);
void diff_out_only(struct diff_out *o, const char *member, bool in_new);
/* The end, diff exiting with exit_status: NULL, or "JSON" or "SARIF"
 * when standard output could not take the document. */
const char *diff_out_end(struct diff_out *o, int exit_status);

/* ---- compare (compare.c) ---- */

/* compare's defaults, also the report's (--alpha, --threshold) */
#define COMPARE_ALPHA STATS_ALPHA
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
 * measured; source: where it came from, " (--drift)") with the
 * invocations a side that resolve it, when the units are runs. */
void compare_noise(const struct comparison *cmp, double threshold, const char *source,
		   char *buf, size_t n);
void report_compare_text(FILE *out, const struct compare *c, bool lkp, bool verbose);
void report_compare_markdown(FILE *out, const struct compare *c, bool verbose);
/* Warnings to `warn` (standard error), the CSV alone on out. */
void report_compare_csv(FILE *out, FILE *warn, const struct compare *c, bool verbose);

/* ---- sweep (sweep.c) ---- */

/* A placement's cells, one column list for sweep's text and the page: each
 * shows the columns it names, in the list's order. STAT is the floor, or
 * an older file's median; MODEL the cost model's ratio there; A/A the
 * floor of a second copy of the placement over the first's. */
enum sweep_column {
	SWEEP_OFFSET, SWEEP_LOOP, SWEEP_SAMPLES, SWEEP_STAT, SWEEP_CI, SWEEP_MEDIAN, SWEEP_GBPS,
	SWEEP_RATIO, SWEEP_P, SWEEP_SLOW, SWEEP_MODEL, SWEEP_PREDICTED, SWEEP_AA, SWEEP_COLUMNS
};
extern const char *const sweep_columns[SWEEP_COLUMNS];

struct sweep_cells {
	char text[SWEEP_COLUMNS][48], predicted[400];
	const char *cell[SWEEP_COLUMNS];
};

/* "loop-straddles-window@64,..." (sep between them), "-" for none. */
void format_predicted(const struct measured_hazard *h, size_t nh, const char *sep, char *buf,
		      size_t n);
/* A placement of the sweep measured as its document reads back. */
void sweep_point(const struct sweep *s, const struct variant *v, struct measured_point *m);
/* m's cells: control, its A/A copy or NULL; a kernel that is not placed
 * has no offsets and "n/a" predicted; sep between predicted hazards. */
void sweep_row(const struct measured_point *m, const struct measured_point *control,
	       bool placeable, const char *sep, struct sweep_cells *c);
/* A table of the columns cols[0..n), and a row of it. */
void sweep_table_init(struct table *t, const enum sweep_column *cols, size_t n, bool by_floor);
void sweep_table_row(struct table *t, const enum sweep_column *cols, size_t n,
		     const struct sweep_cells *c);

/* What sweep's text, CSV and plot show: the sweep measured; its kernels,
 * the first nprimary as asked, control[i] the A/A copy of kernels[i] or
 * NULL (control NULL: no --aa); the profiles, the first the predicted
 * column's; the workload when an operation is several calls; the
 * offsets swept, first to last. */
struct sweep_view {
	const struct sweep *s;
	const struct kernel *const *kernels;
	size_t nkernels, nprimary;
	const struct kernel *const *control;
	const struct profile *const *profiles;
	size_t nprofiles;
	const char *workload;
	uint32_t first, last;
};

/* The clock and the stop, each kernel's table, slow offsets, sensitivity,
 * agreement and fix, the A/A spread, the kernels at their best. */
void report_sweep_text(FILE *out, const struct sweep_view *w);
void report_sweep_csv(FILE *out, const struct sweep *s);
/* Time against offset, whole or not at all at path; 0, or -1 with e. */
int report_sweep_plot(const char *path, const struct sweep_view *w, struct err *e);

/* ---- uarch's text (uarch.c) ---- */

/* A table of the profiles per architecture fitted to width (what each
 * covers cut, or left out), cal (this CPU's calibrated profile, from
 * path) last; the host line. */
void report_uarch(FILE *out, const struct host *h, const struct profile *cal, const char *path,
		  size_t width);
/* One profile, every number and where it comes from; why: how "host" was
 * resolved, or "". */
void report_profile(FILE *out, const struct profile *p, const char *why, size_t width);

/* ---- calibrate's text and plots (calibrate.c) ---- */

struct calib_report {
	const struct profile *profile;  /* made of the fit */
	const struct calib_fit *fit;
	const struct calib_experiment *x;
	size_t nx;
	bool from;                      /* recorded experiments, fitted again */
};

/* The CPU, the experiments' time, each rule's verdict, the back end,
 * the loop buffer, a line more, the profile. */
void report_calibrate_text(FILE *out, const struct calib_report *c);
/* x's floors against the offset in its line, where profile predicts a
 * hazard shaded: DIR/NAME.svg, whole or not at all; 0, or -1 with e
 * naming the file. */
int report_calibrate_plot(const char *dir, const struct profile *profile,
			  const struct calib_experiment *x, struct err *e);

/* ---- kernels' text (kernels.c) ---- */

/* Every built-in kernel, its seed, kind, placement, hot loop and the
 * features it wants, marked "(missing)" where have (KFEAT_*) lacks them. */
void report_kernels(FILE *out, unsigned have);

/* ---- place --file vdso's table (vdso_place.c) ---- */

/* Each arm's median hot ns and cold ticks, each against the control
 * (a[1]) round by round, and whether its clock_gettime was right. */
void report_vdso_place(FILE *out, const struct vdso_move *m, const struct vdso_arm *a, size_t n);

/* ---- place (place.c) ---- */

/* An arm's cells, one column list for place's text and the page's place
 * section: MODEL is the cost model's slowdown there (the text's). */
enum place_column {
	PLACE_COL_ARM, PLACE_COL_OFFSET, PLACE_COL_RUNS, PLACE_COL_MEDIAN, PLACE_COL_CI, PLACE_COL_RATIO, PLACE_COL_P,
	PLACE_COL_SLOW, PLACE_COL_MODEL, PLACE_COL_PREDICTED, PLACE_COL_COLUMNS
};
extern const char *const place_columns[PLACE_COL_COLUMNS];

struct place_cells {
	char text[PLACE_COL_COLUMNS][64], predicted[400];
	const char *cell[PLACE_COL_COLUMNS];
};

/* An arm of the experiment as its document reads back. */
void place_point(const struct place_arm *a, struct measured_point *m);
/* m's cells: placed, an arm at an offset (else no prediction: "n/a");
 * offset, whether it has one to show; unit after the median; sep between
 * predicted hazards. */
void place_row(const struct measured_point *m, bool placed, bool offset, const char *unit,
	       const char *sep, struct place_cells *c);
void place_table_init(struct table *t, const enum place_column *cols, size_t n);
void place_table_row(struct table *t, const enum place_column *cols, size_t n,
		     const struct place_cells *c);

/* What place's text and plot show: the experiment, the file named first,
 * the functions moved and refused by reason, --metric (or NULL), --func. */
struct place_view {
	const struct place_experiment *x;
	const char *file;
	const size_t *refused;
	const char *metric, *func;
};

/* What was moved and how the runs went (its notes on standard error come
 * after this), then report_place_text: how fast the plan was applied,
 * each arm's row, the marks, each move against the control, the model's
 * agreement. */
void report_place_head(FILE *out, const struct place_view *v);
void report_place_text(FILE *out, const struct place_view *v);
/* The measure against the offset, whole or not at all at path; 0, or -1
 * with e. */
int report_place_plot(const char *path, const struct place_view *v, struct err *e);

/* ---- ab (ab.c) ---- */

/* Each build and what of it moved, how the runs went, every arm's row,
 * B's change over A against the layouts' band and aligned, the verdict. */
void report_ab_text(FILE *out, const struct ab_experiment *t);

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
	struct ab_doc ab;               /* ab: its change, band and verdict */
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

/* record's words on its sampling (record.c), "" when there are none:
 * what one sample cost the program at hz (cost_ns, < 0 unknown), said for
 * a rate record chose, and for -F (given) only over SAMPLING_COST_GOAL;
 * how far a share of `samples` can be off, when they are few. */
void record_cost_words(char *buf, size_t n, unsigned long hz, bool given, double cost_ns);
void record_few_words(char *buf, size_t n, uint64_t samples, unsigned long hz);

#endif
