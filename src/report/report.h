/* report: what people read. Text tables with aligned columns (more to come:
 * CSV, SVG plots, the HTML page). */
#ifndef STRADDLE_REPORT_H
#define STRADDLE_REPORT_H

#include "../base/base.h"
#include "../model/model.h"
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

#endif
