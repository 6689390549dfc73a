/* diff's text and its markdown for a code-review comment: the rows of
 * rows.c, the loops resized, the renames and the summary. */
#include "report.h"

#include <inttypes.h>
#include <string.h>

/* The first column shown: "samples %" only with samples. */
static size_t first_col(const struct diff_report *r)
{
	return !r->sides.new->hot;
}

static void print_free(FILE *out, size_t nfree)
{
	if (nfree)
		fprintf(out, "%zu %s that cost nothing here (of loops with loops in them, or run from the "
			"loop buffer)\n", nfree, nfree == 1 ? "hazard" : "hazards");
}

static void print_folded(FILE *out, const struct diff_report *r, size_t nfolded)
{
	fprintf(out, "%zu more hazards in code with less than %g%% of samples\n", nfolded,
		100 * r->min_share);
}

static void print_hazards(FILE *out, const struct diff_report *r, const struct diff_rows *rows)
{
	struct table t;
	size_t n = rows->n;

	table_init(&t, DIFF_COLS - first_col(r), diff_cols + first_col(r));
	t.max[2 - first_col(r)] = 48;
	for (size_t i = 0; i < n && (!r->limit || i < r->limit); i++) {
		struct diff_cells c;

		diff_row_cells(&r->sides, &rows->v[i], rows->added, &c);
		table_row_v(&t, c.cell + first_col(r));
		sb_free(&c.profiles);
	}
	if (n || rows->folded || rows->free)
		fprintf(out, "%s\n", rows->added ? "new hazards:" : "fixed hazards:");
	if (n) {
		table_print(&t, out);
		if (n > t.nrows)
			fprintf(out, "... and %zu more (--limit 0 shows every row)\n", n - t.nrows);
	}
	print_free(out, rows->free);
	if (rows->folded)
		print_folded(out, r, rows->folded);
	if (n || rows->folded || rows->free)
		fprintf(out, "\n");
	table_free(&t);
}

static void print_resized(FILE *out, const struct diff_report *r)
{
	static const char *const cols[] = { "function", "cause", "address", "bytes" };
	struct table t;

	table_init(&t, 4, cols);
	t.max[0] = 48;
	for (size_t k = 0; k < r->d->n; k++) {
		const struct layout_change *ch = &r->d->v[k];
		char addr[64], bytes[64], tb[64];

		if (!ch->resized || ch->nadded || ch->nremoved ||
		    (r->limit && t.nrows >= r->limit))
			continue;
		diff_subject_columns(&r->sides, ch, 0, addr, bytes, tb, sizeof addr);
		table_row(&t, diff_row_name(&r->sides, ch), cause_name(ch->cause), addr, bytes);
	}
	if (t.nrows) {
		fprintf(out, "loops that changed size, same verdict:\n");
		table_print(&t, out);
		fprintf(out, "\n");
	}
	table_free(&t);
}

static const char *old_name(const struct diff_report *r, const struct func_report *f)
{
	return r->sides.old->funcs.v[f->func].shown;
}

static const char *new_name(const struct diff_report *r, const struct func_report *f)
{
	return r->sides.new->funcs.v[f->func].shown;
}

/* An fde@ name is an address: two of them are no rename worth reading. */
static bool named_rename(const struct diff_report *r, const struct func_rename *n)
{
	return r->sides.old->funcs.v[n->fold->func].source != FROM_FDE ||
	       r->sides.new->funcs.v[n->fnew->func].source != FROM_FDE;
}

static void print_renamed(FILE *out, const struct diff_report *r)
{
	size_t shown = 0, named = 0;

	for (size_t i = 0; i < r->d->nrenamed; i++) {
		const struct func_rename *n = &r->d->renamed[i];

		if (!named_rename(r, n))
			continue;
		named++;
		if (r->limit && shown >= r->limit)
			continue;
		fprintf(out, "renamed %s -> %s (by %s)\n", old_name(r, n->fold), new_name(r, n->fnew),
			match_how_name(n->how));
		shown++;
	}
	if (named > shown)
		fprintf(out, "... and %zu more renamed (--limit 0 shows every row)\n", named - shown);
	if (shown)
		fprintf(out, "\n");
}

static void print_one_sided(FILE *out, const struct diff_report *r)
{
	for (size_t i = 0; i < r->d->funcs_only_old; i++)
		fprintf(out, "only in old: %s\n", old_name(r, r->d->only_old[i]));
	for (size_t i = 0; i < r->d->funcs_only_new; i++)
		fprintf(out, "only in new: %s\n", new_name(r, r->d->only_new[i]));
}

static void print_summary(FILE *out, const struct diff_report *r)
{
	const struct layout_diff *d = r->d;
	size_t added_by[NCAUSE], removed_by[NCAUSE];
	size_t added = diff_row_count(d, true, added_by), removed = diff_row_count(d, false, removed_by);

	fprintf(out, "%zu new hazards (%zu changed, %zu moved, %zu new), "
		"%zu fixed (%zu changed, %zu moved, %zu removed); "
		"%zu loops resized, %zu added, %zu removed; "
		"%zu functions unchanged of %zu matched (%zu renamed), %zu only in old, "
		"%zu only in new", added, added_by[CAUSE_CHANGED], added_by[CAUSE_MOVED],
		added_by[CAUSE_NEW], removed, removed_by[CAUSE_CHANGED], removed_by[CAUSE_MOVED],
		removed_by[CAUSE_REMOVED], d->loops_resized, d->loops_added, d->loops_removed,
		d->funcs_unchanged, d->funcs_matched, d->nrenamed, d->funcs_only_old,
		d->funcs_only_new);
	if (d->funcs_cold_left_out)
		fprintf(out, "; %zu cold left out", d->funcs_cold_left_out);
	fputc('\n', out);
}

static bool no_change(const struct layout_diff *d)
{
	return !d->hazards_added && !d->hazards_removed && !d->loops_resized && !d->loops_added &&
	       !d->loops_removed && !d->funcs_only_old && !d->funcs_only_new &&
	       d->funcs_unchanged == d->funcs_matched && !d->nrenamed;
}

static void print_profiles(FILE *out, const struct diff_report *r)
{
	for (size_t i = 0; i < r->sides.new->nprofile; i++)
		fprintf(out, "%s %s", i ? "," : "", r->sides.new->profile[i]->name);
}

void report_diff_text(FILE *out, const struct diff_report *r)
{
	fprintf(out, "%s -> %s: %s; profile", r->old_img->path, r->new_img->path,
		arch_name(r->new_img->arch));
	print_profiles(out, r);
	fprintf(out, "\n");
	if (r->sides.new->hot)
		fprintf(out, "samples of %s: %" PRIu64 " of %" PRIu64 " in %s, %" PRIu64 " in %s\n",
			r->hot_source, r->sides.old->file_samples, r->hot_total, r->old_img->path,
			r->sides.new->file_samples, r->new_img->path);
	fprintf(out, "\n");
	print_hazards(out, r, &r->added);
	print_hazards(out, r, &r->removed);
	print_resized(out, r);
	print_renamed(out, r);
	if (r->all)
		print_one_sided(out, r);
	if (no_change(r->d)) {
		fprintf(out, "no layout change (%zu functions)\n", r->d->funcs_matched);
		return;
	}
	print_summary(out, r);
}

/* ---- markdown ---- */

/* A cell of a GitHub table: a pipe would end it, names go in code spans
 * (C++ and kernel names are full of underscores, which emphasise). */
static void md_cell(FILE *out, const char *s, bool code)
{
	fputs(code ? "| `" : "| ", out);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : *s == '`' ? "'" : (char[2]){ *s, 0 }, out);
	fputs(code ? "` " : " ", out);
}

static void md_hazards(FILE *out, const struct diff_report *r, const struct diff_rows *rows)
{
	size_t n = rows->n, shown = r->limit && r->limit < n ? r->limit : n;

	if (n || rows->folded || rows->free)
		fprintf(out, "\n**%s hazards**\n", rows->added ? "New" : "Fixed");
	if (n) {
		fprintf(out, "\n");
		for (size_t k = first_col(r); k < DIFF_COLS; k++)
			fprintf(out, "| %s ", diff_cols[k] + (diff_cols[k][0] == '>'));
		fprintf(out, "|\n");
		for (size_t k = first_col(r); k < DIFF_COLS; k++)
			fprintf(out, "|---");
		fprintf(out, "|\n");
	}
	for (size_t i = 0; i < shown; i++) {
		struct diff_cells c;

		diff_row_cells(&r->sides, &rows->v[i], rows->added, &c);
		for (size_t k = first_col(r); k < DIFF_COLS; k++)
			md_cell(out, c.cell[k], k == 2 || k == DIFF_COLS - 1);
		fprintf(out, "|\n");
		sb_free(&c.profiles);
	}
	if (n > shown)
		fprintf(out, "\n... and %zu more.\n", n - shown);
	if (rows->free) {
		fprintf(out, "\n");
		print_free(out, rows->free);
	}
	if (rows->folded) {
		fprintf(out, "\n");
		print_folded(out, r, rows->folded);
	}
}

void report_diff_markdown(FILE *out, const struct diff_report *r)
{
	fprintf(out, "### straddle diff: `%s` -> `%s` (%s; profile", r->old_img->path,
		r->new_img->path, arch_name(r->new_img->arch));
	print_profiles(out, r);
	fprintf(out, ")\n\n");
	if (r->sides.new->hot)
		fprintf(out, "Samples of `%s`: %" PRIu64 " of %" PRIu64 " in `%s`, %" PRIu64 " in `%s`.\n\n",
			r->hot_source, r->sides.old->file_samples, r->hot_total, r->old_img->path,
			r->sides.new->file_samples, r->new_img->path);
	if (no_change(r->d)) {
		fprintf(out, "No layout change (%zu functions).\n", r->d->funcs_matched);
		return;
	}
	fprintf(out, "%s\n\n", r->fails ?
		"**The gate fails**: a new hazard of a selected rule and cause." : "The gate passes.");
	print_summary(out, r);
	md_hazards(out, r, &r->added);
	md_hazards(out, r, &r->removed);
}
