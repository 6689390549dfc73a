/* The document of `straddle diff --format json`: the loops and functions a
 * change made worse or better with their causes, the renames, and the
 * summary, streamed (results/ owns every result schema). */
#include "json.h"
#include "head.h"
#include "scan.h"
#include "diff.h"

#include <string.h>

struct diff_json {
	const struct diff_image *old, *new;
	const struct layout_diff *d;
	bool source_lines;
	double min_share;               /* with samples: changes under it folded */
};

static json_t *profile_names(const struct scan_result *r)
{
	json_t *names = json_array();

	for (size_t i = 0; i < r->nprofile; i++)
		json_array_append_new(names, json_string(r->profile[i]->name));
	return names;
}

/* Left out of the lists, as cmd/diff.c folds its rows. */
static bool folded(const struct diff_json *c, const struct layout_change *ch)
{
	return layout_change_folded(ch, c->new->r, c->min_share);
}

static const struct elf_func *old_func(const struct diff_json *c, const struct func_report *f)
{
	return &c->old->r->funcs.v[f->func];
}

static const struct elf_func *new_func(const struct diff_json *c, const struct func_report *f)
{
	return &c->new->r->funcs.v[f->func];
}

static const char *func_name(const struct diff_json *c, const struct layout_change *ch)
{
	return ch->fnew ? new_func(c, ch->fnew)->shown : old_func(c, ch->fold)->shown;
}


static void loop_side(const struct diff_json *c, struct jw *w, const char *key,
		      const struct diff_image *s, const struct loop_report *l)
{
	if (l)
		results_write_loop(w, key, s->img, s->r, l, c->source_lines);
	else
		jw_null(w, key);
}

static void write_loop_change(const struct diff_json *c, struct jw *w, const struct layout_change *ch)
{
	const struct layout_diff *d = c->d;

	jw_open(w, NULL, '{');
	jw_string(w, "function", func_name(c, ch));
	jw_string(w, "cause", cause_name(ch->cause));
	jw_bool(w, "cold", ch->cold);
	if (c->new->r->hot)
		jw_int(w, "samples", (long long)layout_change_samples(ch));
	loop_side(c, w, "old", c->old, ch->lold);
	loop_side(c, w, "new", c->new, ch->lnew);
	results_write_hazards(w, "added", d->refs + ch->added, NULL, ch->nadded);
	results_write_hazards(w, "removed", d->refs + ch->removed, NULL, ch->nremoved);
	jw_close(w, '}');
}

/* side: "old" or "new"; its _addr, _entry_align and _size (the page's
 * bytes and windows of an entry row, as diff's text has them). */
static void func_side(struct jw *w, const char *side, const struct elf_func *f,
		      const struct func_report *fr)
{
	char addr[16], align[24], size[16];

	snprintf(addr, sizeof addr, "%s_addr", side);
	snprintf(align, sizeof align, "%s_entry_align", side);
	snprintf(size, sizeof size, "%s_size", side);
	if (f) {
		jw_hex(w, addr, f->addr);
		jw_int(w, align, (long long)fr->entry_align);
		jw_int(w, size, (long long)f->size);
	} else {
		jw_null(w, addr);
		jw_null(w, align);
		jw_null(w, size);
	}
}

static void write_entry_change(const struct diff_json *c, struct jw *w, const struct layout_change *ch)
{
	const struct layout_diff *d = c->d;

	jw_open(w, NULL, '{');
	jw_string(w, "name", func_name(c, ch));
	jw_string(w, "cause", cause_name(ch->cause));
	jw_bool(w, "cold", ch->cold);
	if (c->new->r->hot)
		jw_int(w, "samples", (long long)layout_change_samples(ch));
	func_side(w, "old", ch->fold ? old_func(c, ch->fold) : NULL, ch->fold);
	func_side(w, "new", ch->fnew ? new_func(c, ch->fnew) : NULL, ch->fnew);
	results_write_hazards(w, "added", d->refs + ch->added, NULL, ch->nadded);
	results_write_hazards(w, "removed", d->refs + ch->removed, NULL, ch->nremoved);
	jw_close(w, '}');
}

static void write_changes(const struct diff_json *c, struct json_stream *out, const char *key,
			  bool entry)
{
	jstream_open(out, key, '[');
	for (size_t k = 0; k < c->d->n; k++) {
		struct jw w;

		if (c->d->v[k].entry != entry || folded(c, &c->d->v[k]))
			continue;
		jstream_raw(out, NULL, &w);
		(entry ? write_entry_change : write_loop_change)(c, &w, &c->d->v[k]);
	}
	jstream_close(out);
}

static void write_renamed(const struct diff_json *c, struct json_stream *out)
{
	jstream_open(out, "renamed", '[');
	for (size_t i = 0; i < c->d->nrenamed; i++) {
		const struct func_rename *r = &c->d->renamed[i];
		struct jw w;

		jstream_raw(out, NULL, &w);
		jw_open(&w, NULL, '{');
		jw_string(&w, "old", old_func(c, r->fold)->name);
		jw_string(&w, "new", new_func(c, r->fnew)->name);
		jw_string(&w, "by", match_how_name(r->how));
		jw_close(&w, '}');
	}
	jstream_close(out);
}

static json_t *by_cause(const size_t *n, enum diff_cause one_sided)
{
	json_t *o = json_object();

	json_object_set_new(o, "changed", json_integer((json_int_t)n[CAUSE_CHANGED]));
	json_object_set_new(o, "moved", json_integer((json_int_t)n[CAUSE_MOVED]));
	json_object_set_new(o, cause_name(one_sided), json_integer((json_int_t)n[one_sided]));
	return o;
}

/* The rows of n hazards (sorted by rule): one per rule, as diff's text
 * counts what it folds. */
static size_t rows_of(const struct hazard *const *h, uint32_t n)
{
	size_t rows = 0;

	for (uint32_t i = 0; i < n; i++)
		rows += i == 0 || h[i]->rule != h[i - 1]->rule;
	return rows;
}

/* The hazards of the changes folded away, new and fixed, and their rows (the
 * page's line for them says what the text's does). */
static json_t *folded_counts(const struct diff_json *c)
{
	size_t added = 0, removed = 0, changes = 0, new_rows = 0, fixed_rows = 0;

	for (size_t k = 0; k < c->d->n; k++)
		if (folded(c, &c->d->v[k])) {
			const struct layout_change *ch = &c->d->v[k];

			changes++;
			added += ch->nadded;
			removed += ch->nremoved;
			new_rows += rows_of(c->d->refs + ch->added, ch->nadded);
			fixed_rows += rows_of(c->d->refs + ch->removed, ch->nremoved);
		}
	return json_pack("{s:f, s:I, s:I, s:I, s:I, s:I}", "min_share", c->min_share,
			 "changes", (json_int_t)changes, "new_hazards", (json_int_t)added,
			 "fixed_hazards", (json_int_t)removed, "new_rows", (json_int_t)new_rows,
			 "fixed_rows", (json_int_t)fixed_rows);
}

static json_t *summary(const struct diff_json *c)
{
	const struct layout_diff *d = c->d;
	json_t *s = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		"new_hazards", (json_int_t)d->hazards_added,
		"fixed_hazards", (json_int_t)d->hazards_removed,
		"loops_resized", (json_int_t)d->loops_resized,
		"loops_added", (json_int_t)d->loops_added,
		"loops_removed", (json_int_t)d->loops_removed,
		"functions_matched", (json_int_t)d->funcs_matched,
		"functions_unchanged", (json_int_t)d->funcs_unchanged,
		"functions_renamed", (json_int_t)d->nrenamed,
		"functions_only_old", (json_int_t)d->funcs_only_old,
		"functions_only_new", (json_int_t)d->funcs_only_new,
		"functions_cold_left_out", (json_int_t)d->funcs_cold_left_out);
	json_t *how = json_object();

	for (int h = 0; h < NMATCH; h++)
		json_object_set_new(how, match_how_name(h), json_integer((json_int_t)d->matched_by[h]));
	json_object_set_new(s, "new_by_cause", by_cause(d->added_by, CAUSE_NEW));
	json_object_set_new(s, "fixed_by_cause", by_cause(d->removed_by, CAUSE_REMOVED));
	json_object_set_new(s, "matched_by", how);
	if (c->new->r->hot)
		json_object_set_new(s, "folded", folded_counts(c));
	return s;
}

/* The gate as the exit status gives it, with what it was asked to fail on, so
 * a report of the file can say it. */
json_t *results_diff_gate(const struct diff_gate *g)
{
	json_t *rules = json_array(), *causes = json_array();

	for (int r = RULE_LOOP_STRADDLES; r <= RULE_ENTRY_MISALIGNED; r++)
		if (g->fail_rules & (1u << r))
			json_array_append_new(rules, json_string(rule_name(r)));
	for (int k = CAUSE_CHANGED; k < CAUSE_REMOVED; k++)
		if (g->fail_causes & (1u << k))
			json_array_append_new(causes, json_string(cause_name(k)));
	return json_pack("{s:b, s:i, s:o, s:o}", "fails", g->fails, "exit_status",
			 g->exit_status, "fail_on", rules, "causes", causes);
}

json_t *results_diff_head(int argc, char **argv, const struct diff_gate *g)
{
	json_t *head = results_run_info("diff", argc, argv);

	json_object_set_new(head, "gate", results_diff_gate(g));
	return head;
}

/* A side's path, its architecture and, with samples, the run's and each
 * side's counts (diff --hot: the page's "samples %"). */
static void put_sides(struct json_stream *out, const struct diff_json *c, bool with_profiles)
{
	jstream_put(out, "old", json_text(c->old->img->path));
	jstream_put(out, "new", json_text(c->new->img->path));
	jstream_put(out, "arch", json_string(arch_name(c->new->img->arch)));
	if (with_profiles)
		jstream_put(out, "profiles", profile_names(c->new->r));
	if (c->new->r->hot)
		jstream_put(out, "samples", json_pack("{s:I, s:I, s:I}",
			"run", (json_int_t)c->new->r->run_samples,
			"old", (json_int_t)c->old->r->file_samples,
			"new", (json_int_t)c->new->r->file_samples));
}

/* The changes, renames and summary of one pair, into the object open. */
static void put_changes(struct json_stream *out, const struct diff_json *c)
{
	write_changes(c, out, "loops", false);
	write_changes(c, out, "functions", true);
	write_renamed(c, out);
	jstream_put(out, "summary", summary(c));
}

int results_diff(FILE *f, json_t *head, const struct diff_image *old,
		 const struct diff_image *new, const struct layout_diff *d, bool source_lines,
		 double min_share)
{
	const struct diff_json c = { old, new, d, source_lines, min_share };
	struct json_stream out;

	jstream_begin(&out, f, head);
	put_sides(&out, &c, true);
	put_changes(&out, &c);
	return jstream_end(&out);
}

/* ---- two directories or packages: a pair per file ---- */

void results_diff_sum(json_t *total, const json_t *part)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)part, key, v) {
		json_t *t = json_object_get(total, key);

		if (json_is_object(v) && !t)
			json_object_set_new(total, key, t = json_object());
		if (json_is_object(v))
			results_diff_sum(t, v);
		else if (json_is_integer(v))
			json_object_set_new(total, key, json_integer(json_integer_value(t) +
								     json_integer_value(v)));
		else if (!t)
			json_object_set(total, key, v);
	}
}

json_t *results_diff_many_head(int argc, char **argv, const char *old, const char *new,
				const struct profile *const *profiles, size_t n,
				const struct shard_info *shard)
{
	json_t *head = results_run_info("diff", argc, argv), *names = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(names, json_string(profiles[i]->name));
	json_object_set_new(head, "old", json_text(old));
	json_object_set_new(head, "new", json_text(new));
	json_object_set_new(head, "profiles", names);
	if (shard)
		json_object_set_new(head, "shard", results_shard(shard));
	return head;
}

void results_diff_begin(struct diff_doc *d, FILE *f, json_t *head)
{
	memset(d, 0, sizeof *d);
	d->only_old = json_array();
	d->only_new = json_array();
	d->errors = json_array();
	d->summary = json_object();
	jstream_begin(&d->out, f, head);
	jstream_open(&d->out, "pairs", '[');
}

void results_diff_pair(struct diff_doc *d, const char *member, const struct diff_image *old,
		       const struct diff_image *new, const struct layout_diff *ld, bool source_lines,
		       double min_share)
{
	const struct diff_json c = { old, new, ld, source_lines, min_share };
	json_t *sum = summary(&c);

	jstream_open(&d->out, NULL, '{');
	jstream_put(&d->out, "member", json_text(member));
	put_sides(&d->out, &c, false);
	put_changes(&d->out, &c);
	jstream_close(&d->out);
	results_diff_sum(d->summary, sum);
	json_decref(sum);
}

void results_diff_only(struct diff_doc *d, bool in_new, const char *member)
{
	json_array_append_new(in_new ? d->only_new : d->only_old, json_text(member));
}

void results_diff_error(struct diff_doc *d, const char *member, const char *path,
			const char *error)
{
	json_array_append_new(d->errors, json_pack("{s:o, s:o, s:o}", "member", json_text(member),
						   "path", json_text(path), "error", json_text(error)));
}

int results_diff_end(struct diff_doc *d, const struct diff_gate *g)
{
	jstream_close(&d->out);
	jstream_put(&d->out, "only_old", d->only_old);
	jstream_put(&d->out, "only_new", d->only_new);
	jstream_put(&d->out, "errors", d->errors);
	jstream_put(&d->out, "summary", d->summary);
	jstream_put(&d->out, "gate", results_diff_gate(g));
	return jstream_end(&d->out);
}
