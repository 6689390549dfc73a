/* diff's output in the one format asked: a pair of files as text,
 * markdown, JSON or SARIF; two directories' pairs one after the other,
 * the files on one side only listed and the pairs counted at the end. */
#include "report.h"
#include "../results/sarif.h"

#include <stdlib.h>

static void print_report(const struct diff_out *o, struct diff_build *old, struct diff_build *new,
			 const struct layout_diff *d, bool fails)
{
	struct diff_report r = { .old_img = &old->img, .new_img = &new->img,
		.sides = { &old->r, &new->r }, .d = d, .limit = o->limit,
		.min_share = o->min_share, .all = o->all, .hot_source = o->hot->source,
		.hot_total = o->hot->total, .fails = fails };
	/* the images' DWARF is read on first use: a cache, not their content */
	struct diff_images im = { &old->img, &new->img, r.sides };

	diff_rows(d, &new->r, true, o->min_share, &r.added);
	diff_rows_resolve(&r.added, &im, true, o->limit, o->source_lines);
	diff_rows(d, &new->r, false, o->min_share, &r.removed);
	diff_rows_resolve(&r.removed, &im, false, o->limit, o->source_lines);
	if (o->format == DIFF_MARKDOWN)
		report_diff_markdown(stdout, &r);
	else
		report_diff_text(stdout, &r);
	diff_rows_free(&r.added);
	diff_rows_free(&r.removed);
}

static struct sarif_log *new_sarif(const struct diff_out *o, const struct shard_info *shard)
{
	return sarif_new(&(struct sarif_head){ o->source_root, o->argc, o->argv, o->profiles,
					       o->nprofiles, shard });
}

static void add_sarif(const struct diff_out *o, struct sarif_log *log, struct diff_build *new,
		      const struct layout_diff *d)
{
	sarif_add_diff(log, &new->img, &new->r, d, &(struct sarif_rows){ o->min_share,
		       o->source_root, o->source_lines, 1 });
}

const char *diff_out_one(struct diff_out *o, struct diff_build *old, struct diff_build *new,
			 const struct layout_diff *d, bool fails, int exit_status)
{
	struct sarif_log *log;

	if (o->format == DIFF_JSON) {
		json_t *head = results_diff_head(o->argc, o->argv, &(struct diff_gate){
			o->fail_rules, o->fail_causes, fails, exit_status });

		return results_diff(stdout, head, &(struct diff_image){ &old->img, &old->r },
				    &(struct diff_image){ &new->img, &new->r }, d, o->source_lines,
				    o->min_share) ? "JSON" : NULL;
	}
	if (o->format == DIFF_SARIF) {
		log = new_sarif(o, NULL);
		add_sarif(o, log, new, d);
		return sarif_write(log, stdout, true) ? "SARIF" : NULL;
	}
	print_report(o, old, new, d, fails);
	return NULL;
}

void diff_out_begin(struct diff_out *o, const struct shard_info *shard)
{
	if (o->format == DIFF_JSON)
		results_diff_begin(&o->doc, stdout, results_diff_many_head(o->argc, o->argv,
			o->op[0], o->op[1], o->profiles, o->nprofiles, shard));
	if (o->format == DIFF_SARIF)
		o->sarif = new_sarif(o, shard);
}

void diff_out_failed(struct diff_out *o, const char *member, const char *path, const char *why)
{
	if (o->format == DIFF_JSON)
		results_diff_error(&o->doc, member, path, why);
	if (o->format == DIFF_SARIF)
		sarif_notify(o->sarif, path, 1, member, why);
	o->failed = true;
}

void diff_out_member(struct diff_out *o, const char *member, struct diff_build *old,
		     struct diff_build *new, const struct layout_diff *d, bool fails)
{
	o->fails |= fails;
	o->diffed++;
	o->changed += d->n > 0;
	o->worse += d->hazards_added > 0;
	if (o->format == DIFF_JSON)
		results_diff_pair(&o->doc, member, &(struct diff_image){ &old->img, &old->r },
				  &(struct diff_image){ &new->img, &new->r }, d, o->source_lines,
				  o->min_share);
	else if (o->format == DIFF_SARIF)
		add_sarif(o, o->sarif, new, d);
	else if (d->n) {        /* the text: the files something changed in */
		print_report(o, old, new, d, fails);
		printf("\n");
	}
}

void diff_out_only(struct diff_out *o, const char *member, bool in_new)
{
	o->only[in_new]++;
	if (o->format == DIFF_JSON)
		results_diff_only(&o->doc, in_new, member);
	if (o->format == DIFF_TEXT || o->format == DIFF_MARKDOWN)
		sb_addf(&o->only_text, "only in %s: %s\n", o->op[in_new], member);
}

const char *diff_out_end(struct diff_out *o, int exit_status)
{
	const char *what = NULL;

	if (o->format == DIFF_JSON && results_diff_end(&o->doc, &(struct diff_gate){
		o->fail_rules, o->fail_causes, o->fails, exit_status }))
		what = "JSON";
	if (o->format == DIFF_SARIF && sarif_write(o->sarif, stdout, !o->failed))
		what = "SARIF";
	if (o->format == DIFF_TEXT || o->format == DIFF_MARKDOWN)
		printf("%s%zu files diffed, %zu changed, %zu with new hazards; %zu only in %s, %zu "
		       "only in %s\n", sb_str(&o->only_text), o->diffed, o->changed, o->worse,
		       o->only[0], o->op[0], o->only[1], o->op[1]);
	sb_free(&o->only_text);
	return what;
}
