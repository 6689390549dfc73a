/* What the page's files share inside report/ (html.c, html_markup.c,
 * html_layout.c, html_scan.c, html_diff.c, html_record.c, html_measure.c, html_prove.c,
 * html_bench.c, svg.c); nothing outside
 * report/ includes this: report.h is the layer's interface. */
#ifndef STRADDLE_REPORT_INTERNAL_H
#define STRADDLE_REPORT_INTERNAL_H

#include "report.h"

/* ---- markup (html_markup.c) ---- */

/* Text and attribute values: < > & " ' escaped, invalid UTF-8 as U+FFFD. */
void html_text(FILE *out, const char *s);
/* printf, escaped. */
void html_textf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "<p class="more">N more rows not shown (of TOTAL).</p>" when shown < total. */
void html_more(FILE *out, size_t shown, size_t total, const char *what);
/* <section class="result KIND" id="KIND-N"><h2>HEADING: path</h2>, and </section>. */
void html_section_begin(FILE *out, const struct report_input *in, const char *heading);
void html_section_end(FILE *out);
/* A plot's opening tag: <svg id="ID" role="img" aria-labelledby="ID-title"
 * ...><title id="ID-title">TITLE</title>; ID like "scan-1-layout-1". */
void html_svg_begin(FILE *out, const char *id, const char *title, unsigned width,
		    unsigned height);

/* The same as an HTML <table> (class: NULL or the table's class); right-
 * aligned columns get class="num", wrapping ones class="wrap". */
void table_html(const struct table *t, FILE *out, const char *class);

/* A string a typed reader left NULL (the file lacks it) as `absent`. */
const char *text_or(const char *s, const char *absent);
/* v printed by fmt into a table cell, "-" when it is not finite. */
void cell_text(char *buf, size_t n, const char *fmt, double v);

/* ---- the sections, one function per kind (the page driver, html.c,
 * calls them) ---- */

/* html_scan.c, html_diff.c, html_record.c; html_measure.c: sweep, place,
 * calibrate; html_prove.c; html_bench.c: compare, and bench. */
void html_section_scan(FILE *out, const struct report_input *in);
void html_section_diff(FILE *out, const struct report_input *in);
void html_section_record(FILE *out, const struct report_input *in);
void html_section_sweep(FILE *out, const struct report_input *in);
void html_section_place(FILE *out, const struct report_input *in);
/* html_ab.c */
void html_section_ab(FILE *out, const struct report_input *in);
void html_section_prove(FILE *out, const struct report_input *in);
void html_section_calibrate(FILE *out, const struct report_input *in);
void html_section_compare(FILE *out, const struct report_input *in);
/* Bench results are compared with each other: all of them at once. */
void html_section_benches(FILE *out, const struct report_input *in, size_t n);

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

/* ---- place's moves (place.c), its text and place --replay's ---- */

/* The offset arms of x one line each; with more than four, the fastest
 * and slowest chosen on the even rounds (split: enough rounds to split)
 * and measured on the odd ones, as *lo and *hi. How many offset arms. */
struct place_experiment;
struct place_arm;
size_t place_offset_extremes(const struct place_experiment *x, bool split,
			     const struct place_arm **lo, const struct place_arm **hi);
/* Whether a's move line is printed, and its words after the offsets:
 * " (the model's best)", " (the fastest of the even rounds)" or "". */
bool place_move_named(const struct place_arm *a, size_t n, const struct place_arm *lo,
		      const struct place_arm *hi, char *named, size_t len);

/* ---- place --replay's text (place_replay.c) ---- */

/* What was moved and how the runs went; then the clock, the snapshots,
 * each copy's row, the moves against today's and the agreement. */
void report_place_replay_head(FILE *out, const struct place_view *v);
void report_place_replay_text(FILE *out, const struct place_view *v);

#endif
