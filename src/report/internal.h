/* Helpers the page's sections share (html_measure.c, html_bench.c,
 * html_layout.c, html_scan.c, html_diff.c, html_record.c); nothing
 * outside report/ includes this. */
#ifndef STRADDLE_REPORT_INTERNAL_H
#define STRADDLE_REPORT_INTERNAL_H

#include "report.h"

/* A number field of o (of element i of an array field), NAN when absent:
 * a hand-edited file prints "-", never garbage. */
double json_num(const json_t *o, const char *key);
double json_num_at(const json_t *o, const char *key, size_t i);
/* A string field of o, `absent` when it is not there (the layout
 * sections print "-", the measured ones ""). */
const char *json_str(const json_t *o, const char *key, const char *absent);
/* Whether the array list has the string name. */
bool json_list_has(const json_t *list, const char *name);
/* v printed by fmt into a table cell, "-" when it is not finite. */
void cell_text(char *buf, size_t n, const char *fmt, double v);

/* Rows shown per table of the layout sections: the page of a whole
 * vmlinux stays a few hundred KB; loops drawn against the windows. */
enum { HTML_ROWS = 50, LAYOUT_LOOPS = 12 };

/* A loop's bytes against the 16, 32 and 64 B windows (html_layout.c): a
 * row per loop over the 64 B lines it touches, the loop hatched, the
 * branch at fault a triangle. Lines and patterns, not colour, tell them
 * apart. */
struct layout_loop {
	const char *name, *side;        /* side: "old" or "new" in a diff, else "" */
	uint64_t addr, bytes, branch;   /* branch: the one at fault, 0 none */
	uint64_t from, to;              /* the 64 B lines it touches */
	char hazard[64];                /* "branch-crosses-window 32 B", "-" */
};

/* lead: the row's worst hazard (its rule, window and branch), NULL none. */
void layout_set(struct layout_loop *L, const char *name, const char *side, uint64_t addr,
		uint64_t bytes, const struct hazard *lead);
/* A loop the picture can draw: a larger one (or a document's nonsense) is
 * left to the table. */
bool layout_fits(uint64_t addr, uint64_t bytes);
/* The plot of v[0..n) (nothing when n is 0) under an <h4> heading, its
 * table after it. */
void layout_plot(FILE *out, const char *id, const char *heading, const struct layout_loop *v,
		 size_t n);
/* The strings of a JSON array, escaped, ", " between them. */
void html_text_list(FILE *out, const json_t *array);

#endif
