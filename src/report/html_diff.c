/* The diff section of the page of `straddle report`: the gate's verdict
 * first, then the rows of report/rows.c from the document read back into
 * structs (results_read_diff; no json_t walked here), the columns, order and
 * folding of diff's text, "samples %" too with --hot; the worst new hazards'
 * loops old above new on one scale; the summary and the renames. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The rows of one kind, with the source lines the document has. */
static void doc_rows(const struct diff_read *doc, bool added, struct diff_rows *rows)
{
	diff_rows(&doc->d, &doc->new, added, doc->min_share, rows);
	rows->folded += added ? doc->folded_new_rows : doc->folded_fixed_rows;
	for (size_t i = 0; i < rows->n; i++) {
		const char *src = doc->source[rows->v[i].ch - doc->d.v];

		if (src)
			rows->v[i].source = xstrdup(src);
	}
}

static void diff_table(FILE *out, const struct diff_read *doc, const struct diff_rows *rows,
		       const char *class)
{
	const struct diff_sides sides = { &doc->old, &doc->new };
	const size_t first = !doc->new.hot;     /* "samples %" only with samples */
	size_t shown = rows->n < HTML_ROWS ? rows->n : HTML_ROWS;
	struct table t;

	table_init(&t, DIFF_COLS - first, diff_cols + first);
	t.max[2 - first] = 48;
	t.max[5 - first] = 48;
	for (size_t c = 2; c < DIFF_COLS; c++)
		t.wrap[c - first] = c == 2 || c == 5 || c >= 9;
	for (size_t i = 0; i < shown; i++) {
		struct diff_cells c;

		diff_row_cells(&sides, &rows->v[i], rows->added, &c);
		table_row_v(&t, c.cell + first);
		sb_free(&c.profiles);
	}
	table_html(&t, out, class);
	table_free(&t);
	html_more(out, shown, rows->n, "rows");
}

/* The line diff's text has for the rows --min-share folds. */
static void folded_line(FILE *out, const struct diff_read *doc, const struct diff_rows *rows)
{
	if (rows->folded)
		fprintf(out, "<p class=\"folded\">%zu more hazards in code with less than %g%% of "
			"samples</p>\n", rows->folded, 100 * doc->min_share);
}

/* An old loop above its new one over the same 64 B lines, when they are
 * near (a move within a page): what moved shows against one grid. */
static void same_lines(struct layout_loop *old, struct layout_loop *new)
{
	uint64_t from = old->from < new->from ? old->from : new->from;
	uint64_t to = old->to > new->to ? old->to : new->to;

	if (to - from > 4096)
		return;
	old->from = new->from = from;
	old->to = new->to = to;
}

/* The loops of the worst new hazards, each change once: its old side (if
 * any) above its new, so what moved or grew shows against the windows. */
static size_t pick_diff_loops(const struct diff_read *doc, const struct diff_rows *added,
			      struct layout_loop *v, size_t max)
{
	const struct diff_sides sides = { &doc->old, &doc->new };
	const struct layout_change *seen[LAYOUT_LOOPS];
	size_t n = 0, nseen = 0;

	for (size_t i = 0; i < added->n && n + 2 <= max && nseen < LAYOUT_LOOPS; i++) {
		const struct diff_row *r = &added->v[i];
		const struct loop_report *lo = r->ch->lold, *ln = r->ch->lnew;
		const char *name = diff_row_name(&sides, r->ch);
		bool dup = false;

		if (r->ch->entry || !ln || !layout_fits(ln->start, ln->bytes))
			continue;
		for (size_t k = 0; k < nseen; k++)
			dup |= seen[k] == r->ch;
		if (dup)
			continue;
		seen[nseen++] = r->ch;
		if (lo && layout_fits(lo->start, lo->bytes))
			layout_set(&v[n++], name, "old", lo->start, lo->bytes, NULL);
		layout_set(&v[n++], name, "new", ln->start, ln->bytes, r->lead);
		if (n >= 2 && !strcmp(v[n - 2].side, "old"))
			same_lines(&v[n - 2], &v[n - 1]);
	}
	return n;
}

/* "a, b": the names of the bits of mask, in enum order. */
static void name_list(FILE *out, unsigned mask, const char *(*name)(int), int n)
{
	bool first = true;

	for (int k = 0; k < n; k++)
		if (mask & (1u << k)) {
			fputs(first ? "" : ", ", out);
			html_text(out, name(k));
			first = false;
		}
}

static const char *rule_word(int k)
{
	return rule_name((enum rule)k);
}

static const char *cause_word(int k)
{
	return cause_name((enum diff_cause)k);
}

/* The rows that fail gate g, counted from the rows themselves (the rules
 * and causes it was asked to fail on). */
static size_t failing_rows(const struct diff_read_gate *g, const struct diff_rows *added)
{
	size_t failing = 0;

	for (size_t i = 0; i < added->n; i++)
		failing += !g->known || ((g->rules & (1u << added->v[i].lead->rule)) &&
					 (g->causes & (1u << added->v[i].ch->cause)));
	return failing;
}

/* The gate as diff's exit status gave it, and its failing rows. */
static void diff_verdict(FILE *out, const struct diff_read_gate *g, size_t failing)
{
	if (!g->known) {
		fprintf(out, "<p class=\"verdict %s\">%s: %zu new hazard rows (the gate's rules "
			"were not recorded in this file)</p>\n", failing ? "fail" : "pass",
			failing ? "New hazards" : "No new hazard", failing);
		return;
	}
	if (g->fails)
		fprintf(out, "<p class=\"verdict fail\">The gate fails (exit status %d): %zu "
			"new hazard row%s of a selected rule and cause.</p>\n",
			g->exit_status, failing, failing == 1 ? "" : "s");
	else
		fprintf(out, "<p class=\"verdict pass\">The gate passes (exit status %d): no "
			"new hazard of a selected rule and cause.</p>\n", g->exit_status);
	fputs("<p class=\"gate\">Fails on rules: ", out);
	name_list(out, g->rules, rule_word, RULE_ENTRY_MISALIGNED + 1);
	fputs("; causes: ", out);
	name_list(out, g->causes, cause_word, NCAUSE);
	fputs(".</p>\n", out);
}

static void count_row(struct table *t, const char *name, size_t n)
{
	char v[24];

	snprintf(v, sizeof v, "%zu", n);
	table_row(t, name, v);
}

/* The summary's counts under the JSON's keys, in words. */
static void diff_summary(FILE *out, const struct layout_diff *d)
{
	static const char *const cols[] = { "", ">count" };
	static const enum diff_cause new_causes[] = { CAUSE_CHANGED, CAUSE_MOVED, CAUSE_NEW };
	static const enum diff_cause fixed_causes[] = { CAUSE_CHANGED, CAUSE_MOVED, CAUSE_REMOVED };
	struct table t;

	table_init(&t, 2, cols);
	t.head[0] = "summary";
	count_row(&t, "new hazards", d->hazards_added);
	count_row(&t, "fixed hazards", d->hazards_removed);
	count_row(&t, "loops resized", d->loops_resized);
	count_row(&t, "loops added", d->loops_added);
	count_row(&t, "loops removed", d->loops_removed);
	count_row(&t, "functions matched", d->funcs_matched);
	count_row(&t, "functions unchanged", d->funcs_unchanged);
	count_row(&t, "functions renamed", d->nrenamed);
	count_row(&t, "functions only old", d->funcs_only_old);
	count_row(&t, "functions only new", d->funcs_only_new);
	count_row(&t, "functions cold left out", d->funcs_cold_left_out);
	for (size_t k = 0; k < 3; k++) {
		char name[48];

		snprintf(name, sizeof name, "new hazards, %s", cause_name(new_causes[k]));
		count_row(&t, name, d->added_by[new_causes[k]]);
	}
	for (size_t k = 0; k < 3; k++) {
		char name[48];

		snprintf(name, sizeof name, "fixed hazards, %s", cause_name(fixed_causes[k]));
		count_row(&t, name, d->removed_by[fixed_causes[k]]);
	}
	table_html(&t, out, "summary");
	table_free(&t);
}

static void diff_renamed(FILE *out, const struct diff_read *doc)
{
	static const char *const cols[] = { "old name", "new name", "matched by" };
	size_t n = doc->nrenamed, shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct table t;

	if (!n)
		return;
	table_init(&t, 3, cols);
	for (size_t i = 0; i < shown; i++)
		table_row(&t, doc->renamed[i].old, doc->renamed[i].new, doc->renamed[i].by);
	fputs("<h4>Functions matched under another name</h4>\n", out);
	table_html(&t, out, "renamed");
	table_free(&t);
	html_more(out, shown, n, "renamed functions");
}

static void rows_or_none(FILE *out, const struct diff_read *doc, const struct diff_rows *rows,
			 const char *class)
{
	if (rows->n)
		diff_table(out, doc, rows, class);
	else if (!rows->folded)
		fputs("<p class=\"none\">None.</p>\n", out);
	folded_line(out, doc, rows);
}

/* One diff's rows, plot and renames: the document's, or a pair's (id
 * tells their plots apart). */
static void diff_body(FILE *out, const char *id, const struct diff_read *doc,
		      const struct diff_rows *added)
{
	struct diff_rows removed;
	struct layout_loop v[LAYOUT_LOOPS];

	doc_rows(doc, false, &removed);
	fprintf(out, "<h4>New hazards, worst first%s (changed: its own bytes changed; moved: the "
		"same bytes at a new address; new: only in the new build)</h4>\n",
		doc->new.hot ? ", the hottest first" : "");
	rows_or_none(out, doc, added, "added");
	layout_plot(out, id, "The loops of the worst new hazards, old above new", v,
		    pick_diff_loops(doc, added, v, LAYOUT_LOOPS));
	fputs("<h4>Fixed hazards</h4>\n", out);
	rows_or_none(out, doc, &removed, "removed");
	diff_renamed(out, doc);
	diff_rows_free(&removed);
}

static void sides(FILE *out, const struct diff_read *doc)
{
	fputs("<p class=\"sides\">old <span class=\"path\">", out);
	html_text(out, doc->old_path);
	fputs("</span>, new <span class=\"path\">", out);
	html_text(out, doc->new_path);
	fputs("</span></p>\n", out);
}

/* The files of one side only, and those that could not be diffed. */
static void one_side_lists(FILE *out, const struct diff_read *doc)
{
	static const char *const cols[] = { "path", "error" };
	struct table t;

	for (int k = 0; k < 2; k++) {
		if (!doc->nonly[k])
			continue;
		fprintf(out, "<h4>Only in the %s build (%zu files)</h4>\n<p class=\"path\">",
			k ? "new" : "old", doc->nonly[k]);
		for (size_t i = 0; i < doc->nonly[k]; i++) {
			fputs(i ? ", " : "", out);
			html_text(out, doc->only[k][i]);
		}
		fputs("</p>\n", out);
	}
	if (!doc->nerrors)
		return;
	table_init(&t, 2, cols);
	for (size_t i = 0; i < doc->nerrors; i++)
		table_row(&t, doc->errors[i].path, doc->errors[i].error);
	fputs("<h4>Files that could not be diffed</h4>\n", out);
	table_html(&t, out, "errors");
	table_free(&t);
}

/* Two directories or packages: the run's gate and summary, then each
 * file that changed, by its path inside. */
static void pairs_body(FILE *out, const struct report_input *in, const struct diff_read *doc)
{
	size_t changed = 0, failing = 0;

	for (size_t i = 0; i < doc->npair; i++) {
		struct diff_rows added;

		doc_rows(&doc->pair[i], true, &added);
		failing += failing_rows(&doc->gate, &added);
		diff_rows_free(&added);
	}
	diff_verdict(out, &doc->gate, failing);
	sides(out, doc);
	fprintf(out, "<p>%zu files diffed; the summary is theirs together.</p>\n", doc->npair);
	diff_summary(out, &doc->d);
	one_side_lists(out, doc);
	for (size_t i = 0; i < doc->npair; i++) {
		const struct diff_read *p = &doc->pair[i];
		struct diff_rows added;
		char id[64];

		if (!p->d.n)
			continue;
		changed++;
		doc_rows(p, true, &added);
		fputs("<h3 class=\"path\">", out);
		html_text(out, doc->member[i]);
		fputs("</h3>\n", out);
		sides(out, p);
		snprintf(id, sizeof id, "%s-%zu-%zu-layout", in->command, in->index, i + 1);
		diff_body(out, id, p, &added);
		diff_rows_free(&added);
	}
	if (!changed)
		fputs("<p class=\"none\">No file's layout changed.</p>\n", out);
}

void html_section_diff(FILE *out, const struct report_input *in)
{
	const struct diff_read *doc = &in->diff;
	struct diff_rows added;
	char id[48];

	doc_rows(doc, true, &added);
	html_section_begin(out, in, "diff");
	if (doc->of_pairs) {
		pairs_body(out, in, doc);
	} else {
		diff_verdict(out, &doc->gate, failing_rows(&doc->gate, &added));
		sides(out, doc);
		diff_summary(out, &doc->d);
		snprintf(id, sizeof id, "%s-%zu-layout", in->command, in->index);
		diff_body(out, id, doc, &added);
	}
	diff_rows_free(&added);
	html_section_end(out);
}
