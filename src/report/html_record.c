/* The record section of the page of `straddle report` (issue 14): where
 * the samples of a run fell, the hottest loops and functions first, each
 * loop with the hazards the record's scan saw. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static long long int_of(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void share(char *buf, size_t n, long long part, long long whole)
{
	snprintf(buf, n, "%.1f", whole > 0 ? 100.0 * (double)part / (double)whole : 0.0);
}

/* "loop-straddles-window 64 B (zen5): .p2align 4 (+6 B)", one per hazard
 * the record's scan saw. */
static void hazard_list(const json_t *hazards, struct strbuf *b)
{
	const json_t *j;
	size_t i;

	json_array_foreach(hazards, i, j) {
		struct profile_names names = { 0 };
		struct hazard h;
		char fix[128];

		results_read_hazard(j, &names, &h);
		format_fix(&h, fix, sizeof fix);
		results_profile_names_free(&names);
		sb_addf(b, "%s%s %lld B (%s): %s", i ? "; " : "", doc_str(j, "rule", "-"),
			int_of(j, "window"), doc_str(j, "profile", "-"), fix);
	}
}

struct hot_row {
	const json_t *file, *row;       /* a loop or a function of the record */
	long long samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct hot_row *x = a, *y = b;

	return (x->samples < y->samples) - (x->samples > y->samples);
}

/* Every file's loops (or functions), hottest first across the files. */
static size_t hottest(const json_t *files, const char *key, struct hot_row **out)
{
	const json_t *f, *l;
	size_t i, j, n = 0, cap = 0;
	struct hot_row *v = NULL;

	json_array_foreach(files, i, f)
		json_array_foreach(json_object_get(f, key), j, l) {
			GROW(v, cap, n + 1);
			v[n++] = (struct hot_row){ f, l, int_of(l, "samples") };
		}
	if (n)
		qsort(v, n, sizeof *v, by_samples);
	*out = v;
	return n;
}

static void record_files(FILE *out, const json_t *files, long long total)
{
	static const char *const cols[] = { "file", ">samples", ">% of all", "build id", "note" };
	size_t n = json_array_size(files), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct table t;

	table_init(&t, 5, cols);
	t.wrap[0] = t.wrap[4] = true;
	for (size_t i = 0; i < shown; i++) {
		const json_t *f = json_array_get(files, i);
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", int_of(f, "samples"));
		share(p, sizeof p, int_of(f, "samples"), total);
		table_row(&t, doc_str(f, "path", "-"), s, p, doc_str(f, "build_id", "-"),
			  json_object_get(f, "error") ? doc_str(f, "error", "-") : "");
	}
	table_html(&t, out, "files");
	table_free(&t);
	html_more(out, shown, n, "files");
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
		html_text(out, doc_str(v[i].row, "function", "-"));
		fprintf(out, " %s</text>\n", doc_str(v[i].row, "start", "-"));
		fprintf(out, "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" class=\"rec-bar\"/>\n",
			LBL, y + 2, pct / 100.0 * (W - LBL - 70), BAR_H - 6);
		fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"rec-val\">%.1f%%</text>\n",
			LBL + pct / 100.0 * (W - LBL - 70) + 4, y + 15, pct);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%zu\" class=\"rec-axis\"/>\n", LBL, LBL,
		shown * BAR_H + 6);
	fputs("</svg>\n", out);
}

static void record_loops(FILE *out, const struct report_input *in, const json_t *files,
			 long long total)
{
	static const char *const cols[] = { "file", "function", "start", "end", ">bytes",
		">depth", ">samples", ">% of all", ">% of file", "hazards" };
	struct hot_row *v;
	size_t n = hottest(files, "loops", &v), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct strbuf hz = { 0 };
	struct table t;

	fputs("<h4>Hottest loops</h4>\n", out);
	if (!n) {
		fputs("<p class=\"none\">No sample in a loop.</p>\n", out);
		free(v);
		return;
	}
	record_loops_plot(out, in, v, n, total);
	table_init(&t, 10, cols);
	t.wrap[0] = t.wrap[1] = t.wrap[9] = true;
	for (size_t i = 0; i < shown; i++) {
		const json_t *l = v[i].row;
		char b[24], d[24], s[24], p[16], pf[16];

		snprintf(b, sizeof b, "%" PRIu64, results_addr(l, "end") - results_addr(l, "start"));
		snprintf(d, sizeof d, "%lld", int_of(l, "depth"));
		snprintf(s, sizeof s, "%lld", v[i].samples);
		share(p, sizeof p, v[i].samples, total);
		share(pf, sizeof pf, v[i].samples, int_of(v[i].file, "samples"));
		sb_reset(&hz);
		hazard_list(json_object_get(l, "hazards"), &hz);
		table_row(&t, doc_str(v[i].file, "path", "-"), doc_str(l, "function", "-"),
			  doc_str(l, "start", "-"),
			  doc_str(l, "end", "-"), b, d, s, p, pf, hz.len ? sb_str(&hz) : "none");
	}
	table_html(&t, out, "loops");
	table_free(&t);
	html_more(out, shown, n, "loops");
	sb_free(&hz);
	free(v);
}

static void record_functions(FILE *out, const json_t *files, const json_t *kernel,
			     long long total)
{
	static const char *const cols[] = { "file", "function", "address", ">samples",
		">% of all" };
	struct hot_row *v;
	size_t n = hottest(files, "functions", &v), shown = n < HTML_ROWS ? n : HTML_ROWS;
	size_t nk = json_array_size(json_object_get(kernel, "functions"));
	struct table t;

	fputs("<h4>Hottest functions</h4>\n", out);
	table_init(&t, 5, cols);
	t.wrap[0] = t.wrap[1] = true;
	for (size_t i = 0; i < shown; i++) {
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", v[i].samples);
		share(p, sizeof p, v[i].samples, total);
		table_row(&t, doc_str(v[i].file, "path", "-"), doc_str(v[i].row, "name", "-"),
			  doc_str(v[i].row, "addr", "-"), s, p);
	}
	for (size_t i = 0; i < nk && i < HTML_ROWS; i++) {
		const json_t *f = json_array_get(json_object_get(kernel, "functions"), i);
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", int_of(f, "samples"));
		share(p, sizeof p, int_of(f, "samples"), total);
		table_row(&t, "[kernel]", doc_str(f, "name", "-"), doc_str(f, "addr", "-"), s, p);
	}
	table_html(&t, out, "functions");
	table_free(&t);
	html_more(out, shown, n, "functions");
	html_more(out, nk < HTML_ROWS ? nk : HTML_ROWS, nk, "kernel functions");
	free(v);
}

void html_section_record(FILE *out, const struct report_input *in)
{
	const json_t *s = json_object_get(in->doc, "samples"), *files = json_object_get(in->doc,
										   "files");
	const json_t *note;
	long long total = int_of(s, "total");
	size_t i;

	html_section_begin(out, in, "record");
	fprintf(out, "<p class=\"summary\">%lld samples of ", total);
	html_field(out, in->doc, "event");
	fputs(" at ", out);
	html_field(out, in->doc, "frequency");
	fprintf(out, " Hz: %lld in user space, %lld in the kernel, %lld unmapped, %lld lost; "
		"the program's exit status ", int_of(s, "user"), int_of(s, "kernel"),
		int_of(s, "unmapped"), int_of(s, "lost"));
	html_field(out, in->doc, "exit_status");
	fputs(".</p>\n", out);
	json_array_foreach(json_object_get(in->doc, "notes"), i, note) {
		fputs("<p class=\"note\">", out);
		html_text(out, json_string_value(note));
		fputs("</p>\n", out);
	}
	record_loops(out, in, files, total);
	record_functions(out, files, json_object_get(in->doc, "kernel"), total);
	fputs("<h4>Sampled files</h4>\n", out);
	record_files(out, files, total);
	html_section_end(out);
}
