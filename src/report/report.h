/* report: what people read. Text tables with aligned columns (more to come:
 * CSV, SVG plots, the HTML page). */
#ifndef STRADDLE_REPORT_H
#define STRADDLE_REPORT_H

#include "../base/base.h"
#include "../model/model.h"
#include "../results/results.h"
#include "../stats/stats.h"
#include <stdio.h>

#define TABLE_MAX_COLS 16

struct table {
	size_t ncols;
	const char *head[TABLE_MAX_COLS];
	bool right[TABLE_MAX_COLS];     /* right-align (numbers) */
	size_t max[TABLE_MAX_COLS];     /* longer cells are cut to this, 0: no limit */
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
 * in red, dashed vertical guides (window boundaries), shaded x bands;
 * axis ticks at round numbers, the legend above the plot area. */
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
};

int plot_svg(FILE *out, const struct plot *p);

/* How a hazard reads in a table (hazard.c). */
const char *severity_name(unsigned severity);           /* high, medium, low */
void format_fix(const struct hazard *h, char *buf, size_t n);      /* ".p2align 4 (+6 B)" */
void format_placement(const struct hazard *h, char *buf, size_t n); /* "certain", "3 of 4" */

/* ---- compare (compare.c) ---- */

#define COMPARE_MAX_NEW 16

struct compare_row {
	const struct metric *base;
	enum stat_kind stat;            /* the one statistic of the row (issue 12) */
	double value, sd_pct;           /* BASE: the mean of its runs' statistic, their spread */
	const struct metric *new[COMPARE_MAX_NEW];      /* NULL where a NEW lacks it */
	struct comparison cmp[COMPARE_MAX_NEW];
};

struct compare {
	/* given */
	const struct result_file *files;        /* [0] is BASE */
	size_t nfiles;
	bool stat_given;                /* --stats: every row; else by direction */
	enum stat_kind stat;
	double alpha, threshold;
	/* made by compare_build */
	struct compare_row *rows;
	size_t nrows;
	bool regression;
	json_t *warnings;               /* machines and states: always printed */
	json_t *noise;                  /* metrics whose runs vary: --verbose */
	size_t noisy;
	double worst_cv;
	char worst[200];
};

void compare_build(struct compare *c);
void compare_free(struct compare *c);
const char *compare_label(const struct result_file *f);
/* "REGRESSION", "better", "changed, within the threshold", "no change",
 * "inconclusive" */
const char *compare_verdict(const struct comparison *cmp);
void report_compare_text(FILE *out, const struct compare *c, bool lkp, bool verbose);
void report_compare_markdown(FILE *out, const struct compare *c, bool verbose);
/* Warnings to `warn` (standard error), the CSV alone on out. */
void report_compare_csv(FILE *out, FILE *warn, const struct compare *c, bool verbose);
json_t *report_compare_json(const struct compare *c);

/* ---- bench's table (bench.c) ---- */

void report_bench(FILE *out, const struct bench_record *b);

#endif
