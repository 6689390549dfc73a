/* The page's section of an ab result: the verdict in one line, then both
 * builds' distributions (every sample of every arm, A's and B's marked
 * apart), the change, the layouts' band and the aligned change, and the
 * arms' table behind the plot. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "real: beyond layout noise: B is +4.8% [+3.9, +5.6] against A": a real
 * change drawn as compare draws a regression, anything else plain */
static void verdict_line(FILE *out, const struct ab_doc *d)
{
	bool real = d->verdict && strcmp(d->verdict, "real") == 0;

	fprintf(out, "<p class=\"verdict %s\">", real ? "fail" : "pass");
	html_textf(out, "%s: %s: B is ", text_or(d->verdict, "-"), text_or(d->reason, "-"));
	if (isfinite(d->change.pct))
		html_textf(out, "%+.1f%% [%+.1f, %+.1f] against A (p %.2g)", d->change.pct,
			   d->change.lo, d->change.hi, d->change.p);
	else
		fputs("-", out);
	fputs("</p>\n", out);
}

static void settings(FILE *out, const struct ab_doc *d)
{
	fputs("<p>", out);
	for (int b = 0; b < 2; b++) {
		html_textf(out, "%c: ", 'A' + b);
		fputs("<code>", out);
		html_text(out, d->command[b]);
		fputs("</code>", out);
		if (d->why_not[b])
			html_textf(out, " (unmoved only: %s)", d->why_not[b]);
		else
			html_textf(out, " (%.0f functions moved)", d->moved[b]);
		fputs("; ", out);
	}
	html_textf(out, "measured: %s; stopped by %s after %.0f rounds (%.1f s); ",
		   text_or(d->measure, "-"), text_or(d->stopped_by, "-"), d->rounds, d->elapsed_s);
	if (d->checked)
		html_textf(out, "output identical in %.0f of %.0f runs, A's and B's the same.",
			   d->identical, d->runs);
	else
		fputs("output not checked.", out);
	fputs("</p>\n", out);
}

/* The change, the noise, the band and the aligned change in words. */
static void findings(FILE *out, const struct ab_doc *d)
{
	fputs("<ul class=\"ab\">\n<li>", out);
	html_textf(out, "B against A, round by round: %+.2f%% [%+.2f, %+.2f], p %.2g; B over A "
		   "varies by %.2f%% from round to round", d->change.pct, d->change.lo,
		   d->change.hi, d->change.p, d->round_sd_pct);
	fputs("</li>\n<li>", out);
	if (d->has_band)
		html_textf(out, "the layouts' band (new random offsets of the same code, 95%%): "
			   "B over A from %+.2f%% to %+.2f%%", d->band_lo, d->band_hi);
	else
		fputs("no layouts' band (no layout arm, or too few rounds)", out);
	fputs("</li>\n", out);
	if (d->aligned.present) {
		fputs("<li>", out);
		html_textf(out, "every function at offset 0 of a %.0f-byte block: B against A "
			   "%+.2f%% [%+.2f, %+.2f], p %.2g", d->align, d->aligned.pct, d->aligned.lo,
			   d->aligned.hi, d->aligned.p);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* Every sample of every arm, a row each, A's and B's markers apart. */
static void distributions(FILE *out, const struct report_input *in)
{
	const struct result_file *f = &in->file;
	static const char *const sides[2] = { "A", "B" };
	struct strip_row *rows = xcalloc(f->n + 1, sizeof *rows);
	char id[48], note[160];

	for (size_t i = 0; i < f->n; i++)
		rows[i] = (struct strip_row){ f->m[i].name, f->m[i].runs[0].v, f->m[i].runs[0].n,
					      f->m[i].kernel && strcmp(f->m[i].kernel, "B") == 0 };
	snprintf(id, sizeof id, "ab-%zu", in->index);
	snprintf(note, sizeof note, "more than %d samples: each arm's density; every raw sample "
		 "is in the result file", STRIP_DOTS);
	struct strip_plot p = { "every run of each arm (box: quartiles, bar: median)",
				f->n && *f->m[0].unit ? f->m[0].unit : "the metric", NULL, rows, f->n,
				sides, 2 };
	p.note = strip_dense(&p) ? note : NULL;
	strip_svg_inline(out, &p, id);
	free(rows);
}

static void arms_table(FILE *out, const struct report_input *in)
{
	static const char *const cols[] = { "arm", ">runs", ">min", ">median", ">max", ">cv %" };
	const struct result_file *f = &in->file;
	struct table t;

	table_init(&t, 6, cols);
	for (size_t i = 0; i < f->n; i++) {
		struct summary s;
		char n[24], mn[32], med[32], mx[32], cv[32];

		stats_summarize(f->m[i].runs[0].v, f->m[i].runs[0].n, 1, f->m[i].lower_is_better, &s);
		snprintf(n, sizeof n, "%zu", s.n);
		snprintf(mn, sizeof mn, "%.6g", s.min);
		snprintf(med, sizeof med, "%.6g", s.median);
		snprintf(mx, sizeof mx, "%.6g", s.max);
		snprintf(cv, sizeof cv, "%.2f", 100 * s.cv);
		table_row(&t, f->m[i].name, n, mn, med, mx, cv);
	}
	table_html(&t, out, "data");
	table_free(&t);
}

void html_section_ab(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "ab");
	verdict_line(out, &in->ab);
	settings(out, &in->ab);
	findings(out, &in->ab);
	distributions(out, in);
	arms_table(out, in);
	html_section_end(out);
}
