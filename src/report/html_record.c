/* The record section of the page of `straddle report`: where the samples of a
 * run fell, the hottest loops and functions first, each loop with the hazards
 * the record's scan saw. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void share(char *buf, size_t n, long long part, long long whole)
{
	snprintf(buf, n, "%.1f", whole > 0 ? 100.0 * (double)part / (double)whole : 0.0);
}

/* "loop-straddles-window 64 B (zen5): .p2align 4 (+6 B)", one per hazard
 * the record's scan saw. */
static void hazard_list(const struct record_loop_read *l, struct strbuf *b)
{
	for (size_t i = 0; i < l->nhazard; i++) {
		const struct record_hazard_read *h = &l->hazard[i];
		char fix[128];

		format_fix(&h->h, fix, sizeof fix);
		sb_addf(b, "%s%s %lld B (%s): %s", i ? "; " : "", text_or(h->rule, "-"), h->window,
			text_or(h->profile, "-"), fix);
	}
}

struct hot_row {
	const struct record_file_read *file;
	const struct record_loop_read *loop;            /* a loop, or */
	const struct record_function_read *function;    /* a function of the record */
	long long samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct hot_row *x = a, *y = b;

	return (x->samples < y->samples) - (x->samples > y->samples);
}

/* Every file's loops (or functions), hottest first across the files. */
static size_t hottest(const struct record_read *r, bool loops, struct hot_row **out)
{
	size_t n = 0, cap = 0;
	struct hot_row *v = NULL;

	for (size_t i = 0; i < r->nfile; i++) {
		const struct record_file_read *f = &r->file[i];
		size_t m = loops ? f->nloop : f->nfunction;

		for (size_t j = 0; j < m; j++) {
			GROW(v, cap, n + 1);
			v[n++] = loops ? (struct hot_row){ f, &f->loop[j], NULL, f->loop[j].samples } :
				(struct hot_row){ f, NULL, &f->function[j], f->function[j].samples };
		}
	}
	if (n)
		qsort(v, n, sizeof *v, by_samples);
	*out = v;
	return n;
}

static void record_files(FILE *out, const struct record_read *r)
{
	static const char *const cols[] = { "file", ">samples", ">% of all", "build id", "note" };
	size_t shown = r->nfile < HTML_ROWS ? r->nfile : HTML_ROWS;
	struct table t;

	table_init(&t, 5, cols);
	t.wrap[0] = t.wrap[4] = true;
	for (size_t i = 0; i < shown; i++) {
		const struct record_file_read *f = &r->file[i];
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", f->samples);
		share(p, sizeof p, f->samples, r->total);
		table_row(&t, text_or(f->path, "-"), s, p, text_or(f->build_id, "-"),
			  f->has_error ? text_or(f->error, "-") : "");
	}
	table_html(&t, out, "files");
	table_free(&t);
	html_more(out, shown, r->nfile, "files");
}

static void record_loops_plot(FILE *out, const struct report_input *in, const struct hot_row *v,
			      size_t n, long long total)
{
	enum { W = 1000, LBL = 330, BAR_H = 22 };
	size_t shown = n < 10 ? n : 10;
	char id[48];

	snprintf(id, sizeof id, "%s-%zu-loops", in->command, in->index);
	html_svg_begin(out, id, "The hottest loops' share of all samples", W,
		       (unsigned)(shown * BAR_H + 30));
	fputs("<style>.rec-lbl{font:12px monospace;text-anchor:end}.rec-bar{fill:#555;stroke:#000}"
	      ".rec-val{font:12px sans-serif}.rec-axis{stroke:#000}</style>\n", out);
	for (size_t i = 0; i < shown; i++) {
		double pct = total > 0 ? 100.0 * (double)v[i].samples / (double)total : 0;
		double y = 4 + (double)i * BAR_H;

		fprintf(out, "<text x=\"%d\" y=\"%.0f\" class=\"rec-lbl\">", LBL - 6, y + 15);
		html_text(out, text_or(v[i].loop->function, "-"));
		fprintf(out, " %s</text>\n", text_or(v[i].loop->start, "-"));
		fprintf(out, "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" class=\"rec-bar\"/>\n",
			LBL, y + 2, pct / 100.0 * (W - LBL - 70), BAR_H - 6);
		fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"rec-val\">%.1f%%</text>\n",
			LBL + pct / 100.0 * (W - LBL - 70) + 4, y + 15, pct);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%zu\" class=\"rec-axis\"/>\n", LBL, LBL,
		shown * BAR_H + 6);
	fputs("</svg>\n", out);
}

static void record_loops(FILE *out, const struct report_input *in, const struct record_read *r)
{
	static const char *const cols[] = { "file", "function", "start", "end", ">bytes",
		">depth", ">samples", ">% of all", ">% of file", "hazards" };
	struct hot_row *v;
	size_t n = hottest(r, true, &v), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct strbuf hz = { 0 };
	struct table t;

	fputs("<h4>Hottest loops</h4>\n", out);
	if (!n) {
		fputs("<p class=\"none\">No sample in a loop.</p>\n", out);
		free(v);
		return;
	}
	record_loops_plot(out, in, v, n, r->total);
	table_init(&t, 10, cols);
	t.wrap[0] = t.wrap[1] = t.wrap[9] = true;
	for (size_t i = 0; i < shown; i++) {
		const struct record_loop_read *l = v[i].loop;
		char b[24], d[24], s[24], p[16], pf[16];

		snprintf(b, sizeof b, "%" PRIu64, l->bytes);
		snprintf(d, sizeof d, "%lld", l->depth);
		snprintf(s, sizeof s, "%lld", v[i].samples);
		share(p, sizeof p, v[i].samples, r->total);
		share(pf, sizeof pf, v[i].samples, v[i].file->samples);
		sb_reset(&hz);
		hazard_list(l, &hz);
		table_row(&t, text_or(v[i].file->path, "-"), text_or(l->function, "-"),
			  text_or(l->start, "-"), text_or(l->end, "-"), b, d, s, p, pf,
			  hz.len ? sb_str(&hz) : "none");
	}
	table_html(&t, out, "loops");
	table_free(&t);
	html_more(out, shown, n, "loops");
	sb_free(&hz);
	free(v);
}

static void record_functions(FILE *out, const struct record_read *r)
{
	static const char *const cols[] = { "file", "function", "address", ">samples",
		">% of all" };
	struct hot_row *v;
	size_t n = hottest(r, false, &v), shown = n < HTML_ROWS ? n : HTML_ROWS;
	size_t nk = r->nkernel_function;
	struct table t;

	fputs("<h4>Hottest functions</h4>\n", out);
	table_init(&t, 5, cols);
	t.wrap[0] = t.wrap[1] = true;
	for (size_t i = 0; i < shown; i++) {
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", v[i].samples);
		share(p, sizeof p, v[i].samples, r->total);
		table_row(&t, text_or(v[i].file->path, "-"), text_or(v[i].function->name, "-"),
			  text_or(v[i].function->addr, "-"), s, p);
	}
	for (size_t i = 0; i < nk && i < HTML_ROWS; i++) {
		const struct record_function_read *f = &r->kernel_function[i];
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", f->samples);
		share(p, sizeof p, f->samples, r->total);
		table_row(&t, "[kernel]", text_or(f->name, "-"), text_or(f->addr, "-"), s, p);
	}
	table_html(&t, out, "functions");
	table_free(&t);
	html_more(out, shown, n, "functions");
	html_more(out, nk < HTML_ROWS ? nk : HTML_ROWS, nk, "kernel functions");
	free(v);
}

/* A field the writer makes an integer, "-" when a file has none. */
static void int_or_dash(FILE *out, bool has, long long v)
{
	if (has)
		fprintf(out, "%lld", v);
	else
		fputs("-", out);
}

void html_section_record(FILE *out, const struct report_input *in)
{
	const struct record_read *r = &in->record;

	html_section_begin(out, in, "record");
	fprintf(out, "<p class=\"summary\">%lld samples of ", r->total);
	html_text(out, text_or(r->event, "-"));
	fputs(" at ", out);
	int_or_dash(out, r->has_frequency, r->frequency);
	fprintf(out, " Hz: %lld in user space, %lld in the kernel, %lld unmapped, %lld lost; "
		"the program's exit status ", r->user, r->kernel, r->unmapped, r->lost);
	int_or_dash(out, r->has_exit_status, r->exit_status);
	fputs(".</p>\n", out);
	for (size_t i = 0; i < r->nnote; i++) {
		fputs("<p class=\"note\">", out);
		html_text(out, r->note[i]);
		fputs("</p>\n", out);
	}
	record_loops(out, in, r);
	record_functions(out, r);
	fputs("<h4>Sampled files</h4>\n", out);
	record_files(out, r);
	html_section_end(out);
}
