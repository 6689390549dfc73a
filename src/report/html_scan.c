/* The scan section of the page of `straddle report`: a scan document read
 * back into structs (results_read_scan), never walked as
 * JSON here, and its rows from report/rows.c,
 * so the page lists the rows scan's text does, in its order, with its folding
 * and --hot's columns and summary; then the counts a reviewer asks for first
 * (by rule, profile, section) and the worst loops against the windows. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64

struct counts {
	const char *key[MAX_KEYS];
	size_t n[MAX_KEYS][4];          /* all, then by severity high, medium, low */
	size_t nkeys, other;            /* other: keys past MAX_KEYS */
};

/* 0 high, 1 medium, 2 low (severity_name's words) */
static size_t severity_index(long long severity)
{
	return severity >= SEVERITY_HIGH ? 0 : severity == SEVERITY_MEDIUM ? 1 : 2;
}

static void count(struct counts *c, const char *key, unsigned severity)
{
	size_t i = 0;

	while (i < c->nkeys && strcmp(c->key[i], key))
		i++;
	if (i == c->nkeys) {
		if (c->nkeys == MAX_KEYS) {
			c->other++;
			return;
		}
		c->key[c->nkeys++] = key;
	}
	c->n[i][0]++;
	c->n[i][1 + severity_index(severity)]++;
}

static void counts_table(FILE *out, const struct counts *c, const char *what, const char *class)
{
	static const char *const cols[] = { "", ">hazards", ">high", ">medium", ">low" };
	struct table t;

	table_init(&t, 5, cols);
	t.head[0] = what;
	for (size_t i = 0; i < c->nkeys; i++) {
		char v[4][24];

		for (int k = 0; k < 4; k++)
			snprintf(v[k], sizeof v[k], "%zu", c->n[i][k]);
		table_row(&t, c->key[i], v[0], v[1], v[2], v[3]);
	}
	table_html(&t, out, class);
	table_free(&t);
	if (c->other)
		fprintf(out, "<p class=\"more\">%zu hazards in further %ss not counted here.</p>\n",
			c->other, what);
}


struct scan_counts {
	struct counts rule, profile, section;
};

/* Every hazard of the file (each profile's and window's its own). */
static void scan_counts(FILE *out, const struct scan_result *r)
{
	struct scan_counts c = { 0 };

	for (size_t i = 0; i < r->nhazard; i++) {
		const struct hazard *h = &r->hazard[i];

		count(&c.rule, rule_name(h->rule), h->severity);
		count(&c.profile, h->profile->name, h->severity);
		count(&c.section, h->section ? h->section : "-", h->severity);
	}
	fputs("<h4>Hazards by rule, profile and section (every profile's hazard counted)</h4>\n"
	      "<div class=\"counts\">\n", out);
	counts_table(out, &c.rule, "rule", "by-rule");
	counts_table(out, &c.profile, "profile", "by-profile");
	counts_table(out, &c.section, "section", "by-section");
	fputs("</div>\n", out);
}

static void scan_summary(FILE *out, const struct scan_read_file *f)
{
	const struct scan_result *r = &f->r;

	fputs("<p class=\"summary\">", out);
	html_textf(out, "%s %s: %zu of %zu functions scanned, %" PRIu64 " instructions, %" PRIu64
		   " loops; profiles ", f->arch, f->elf_type, r->functions_scanned,
		   f->functions_total, r->instructions, r->loops_total);
	for (size_t i = 0; i < r->nprofile; i++) {
		fputs(i ? ", " : "", out);
		html_text(out, r->profile[i]->name);
	}
	if (r->hot)
		fprintf(out, "; %" PRIu64 " of the run's %" PRIu64 " samples in this file",
			r->file_samples, r->run_samples);
	fputs(".</p>\n", out);
}

static void scan_errors(FILE *out, const struct scan_read *doc)
{
	if (!doc->nerror)
		return;
	fputs("<h4>Files not scanned</h4>\n<ul class=\"errors\">\n", out);
	for (size_t i = 0; i < doc->nerror; i++) {
		fputs("<li><span class=\"path\">", out);
		html_text(out, doc->error[i].path);
		fputs("</span>: ", out);
		html_text(out, doc->error[i].error);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* The page's headings of scan_cols, and what may wrap: all but numbers,
 * addresses and single words. */
static const char *const html_cols[SCAN_COLS] = { ">samples %", ">saves %", "severity",
	"function", "section", "address", "source", ">bytes", ">window", "detail", "rule",
	"profiles", "placement", "cost", "fix" };

static void hazard_table(FILE *out, const struct scan_result *r, const struct scan_rows *rows)
{
	const size_t first = r->hot ? 0 : 2;
	size_t shown = rows->n < HTML_ROWS ? rows->n : HTML_ROWS;
	struct table t;

	table_init(&t, SCAN_COLS - first, html_cols + first);
	t.max[3 - first] = 48;          /* C++ names: scan's text cuts them there too */
	t.max[6 - first] = 48;
	for (size_t c = 3; c < SCAN_COLS; c++)
		t.wrap[c - first] = c != 5 && c != 7 && c != 8 && c != 13;
	for (size_t i = 0; i < shown; i++) {
		struct scan_cells c;

		scan_row_cells(r, &rows->v[i], &c);
		table_row_v(&t, c.cell + first);
		sb_free(&c.profiles);
	}
	table_html(&t, out, "hazards");
	table_free(&t);
	html_more(out, shown, rows->n, "hazard rows");
}

/* The line scan's text has for the rows --min-share folds. */
static void folded_line(FILE *out, const struct scan_rows *rows, double min_share)
{
	if (rows->free)
		fprintf(out, "<p class=\"folded\">%zu %s that cost nothing here (of loops with loops in "
			"them, or run from the loop buffer)</p>\n", rows->free,
			rows->free == 1 ? "hazard" : "hazards");
	if (rows->folded)
		fprintf(out, "<p class=\"folded\">%zu more hazards in code with less than %g%% of "
			"samples</p>\n", rows->folded, 100 * min_share);
}

/* --hot: where the file's samples went, the lines of scan's text. */
static void hot_lines(FILE *out, const struct scan_result *r, double min_share)
{
	struct hot_summary s;

	hot_summary(r, min_share, &s);
	fprintf(out, "<h4>Where this file's %.1f%% of the run went</h4>\n<ul class=\"hot\">\n",
		100 * hot_share(r, r->file_samples));
	for (size_t k = 0; k < s.n; k++) {
		const struct loop_report *l = &r->loop[s.order[k]];
		const struct func_report *f = &r->func[s.owner[s.order[k]]];
		char why[160];

		report_judge_loop(r, f, l, why, sizeof why);
		fprintf(out, "<li>%.1f%% loop %#" PRIx64 " in ", 100 * hot_share(r, s.self[s.order[k]]),
			l->start);
		html_text(out, r->funcs.v[f->func].shown);
		html_textf(out, " (%" PRIu64 " B): %s", l->bytes, why);
		fputs("</li>\n", out);
	}
	if (s.small)
		fprintf(out, "<li>%.1f%% in loops of less than %g%% each</li>\n",
			100 * hot_share(r, s.small), 100 * min_share);
	if (s.unseen)
		fprintf(out, "<li>%.1f%% cannot be judged: in no loop found, in functions with "
			"unresolved indirect jumps (a loop through them cannot be seen)</li>\n",
			100 * hot_share(r, s.unseen));
	if (s.straight)
		fprintf(out, "<li>%.1f%% in no loop (straight-line code)</li>\n",
			100 * hot_share(r, s.straight));
	if (s.no_function)
		fprintf(out, "<li>%.1f%% in no function scanned</li>\n", 100 * hot_share(r, s.no_function));
	fputs("</ul>\n", out);
	hot_summary_free(&s);
}

/* The loops of the worst rows, each once (its worst hazard). */
static size_t pick_layout_loops(const struct scan_result *r, const struct scan_rows *rows,
				struct layout_loop *v, size_t max)
{
	const struct loop_report *seen[LAYOUT_LOOPS];
	size_t n = 0;

	for (size_t i = 0; i < rows->n && n < max && n < LAYOUT_LOOPS; i++) {
		const struct scan_row *x = &rows->v[i];
		bool dup = false;

		if (!x->loop || !layout_fits(x->loop->start, x->loop->bytes))
			continue;
		for (size_t k = 0; k < n; k++)
			dup |= seen[k] == x->loop;
		if (dup)
			continue;
		seen[n] = x->loop;
		layout_set(&v[n++], r->funcs.v[x->func->func].shown, "", x->loop->start, x->loop->bytes,
			   x->lead);
	}
	return n;
}

/* The rows of a file, with the loops' source lines the document has. */
static void file_rows(const struct scan_read_file *f, double min_share, struct scan_rows *rows)
{
	scan_rows(&f->r, 0, min_share, false, rows);
	for (size_t i = 0; i < rows->n; i++)
		if (rows->v[i].loop && f->loop_source[rows->v[i].loop - f->r.loop])
			rows->v[i].source = xstrdup(f->loop_source[rows->v[i].loop - f->r.loop]);
}

static void scan_file(FILE *out, const struct report_input *in, size_t index,
		      const struct scan_read_file *f, double min_share, bool several)
{
	struct scan_rows rows;
	struct layout_loop v[LAYOUT_LOOPS];
	char id[64];

	if (several) {
		fputs("<h3 class=\"file path\">", out);
		html_text(out, f->path);
		fputs("</h3>\n", out);
	}
	scan_summary(out, f);
	file_rows(f, min_share, &rows);
	if (!rows.n && !rows.folded && !rows.free)
		fputs("<p class=\"none\">No hazard.</p>\n", out);
	if (rows.n) {
		fprintf(out, "<h4>Worst hazards first%s</h4>\n",
			f->r.hot ? " (the most aligning saves first: share of the run's samples)" : "");
		hazard_table(out, &f->r, &rows);
	}
	folded_line(out, &rows, min_share);
	if (f->r.hot)
		hot_lines(out, &f->r, min_share);
	if (rows.n || rows.folded)
		scan_counts(out, &f->r);
	snprintf(id, sizeof id, "%s-%zu-layout-%zu", in->command, in->index, index + 1);
	layout_plot(out, id, "The worst loops against the windows", v,
		    pick_layout_loops(&f->r, &rows, v, LAYOUT_LOOPS));
	scan_rows_free(&rows);
}

/* A scan of many files: one row each first (a scan of /usr/lib is
 * hundreds), then the details of the first FILES_DETAILED with hazards. */
enum { FILES_DETAILED = 10 };

static void scan_files_table(FILE *out, const struct scan_read *doc)
{
	static const char *const cols[] = { "file", "arch", ">functions", ">loops", ">hazards",
		">high", ">medium", ">low" };
	size_t shown = doc->nfile < HTML_ROWS ? doc->nfile : HTML_ROWS;
	struct table t;

	table_init(&t, 8, cols);
	t.wrap[0] = true;
	for (size_t i = 0; i < shown; i++) {
		const struct scan_read_file *f = &doc->file[i];
		size_t sev[4] = { f->r.nhazard, 0, 0, 0 };
		char v[6][24];

		for (size_t k = 0; k < f->r.nhazard; k++)
			sev[1 + severity_index(f->r.hazard[k].severity)]++;
		snprintf(v[0], sizeof v[0], "%zu", f->r.functions_scanned);
		snprintf(v[1], sizeof v[1], "%" PRIu64, f->r.loops_total);
		for (int k = 0; k < 4; k++)
			snprintf(v[2 + k], sizeof v[2 + k], "%zu", sev[k]);
		table_row(&t, f->path, f->arch, v[0], v[1], v[2], v[3], v[4], v[5]);
	}
	table_html(&t, out, "scanned");
	table_free(&t);
	html_more(out, shown, doc->nfile, "files");
}

void html_section_scan(FILE *out, const struct report_input *in)
{
	const struct scan_read *doc = &in->scan;
	size_t detailed = 0, left = 0;

	html_section_begin(out, in, "scan");
	if (doc->host) {
		fputs("<p class=\"host\">", out);
		html_text(out, doc->host);
		fputs("</p>\n", out);
	}
	if (doc->nfile > 1)
		scan_files_table(out, doc);
	for (size_t i = 0; i < doc->nfile; i++) {
		if (doc->nfile > 1 && !doc->file[i].r.nhazard)
			continue;
		if (detailed == FILES_DETAILED) {
			left++;
			continue;
		}
		detailed++;
		scan_file(out, in, i, &doc->file[i], doc->min_share, doc->nfile > 1);
	}
	if (left)
		fprintf(out, "<p class=\"more\">%zu more files with hazards not detailed here.</p>\n",
			left);
	scan_errors(out, doc);
	html_section_end(out);
}
