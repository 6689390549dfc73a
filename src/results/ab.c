/* The result file of `straddle ab`: the two commands, what of each was
 * moved, B's change over A with its CI and p, the noise, the layouts'
 * band, the aligned change, the verdict, and one metric per arm with
 * every raw sample, in place's shape (a build, as "kernel", at an
 * offset), so compare and report read it as they read place's. Read
 * back typed for the page (results_ab_doc). */
#include "ab.h"
#include "head.h"
#include "json.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double pct(double ratio)
{
	return 100 * (ratio - 1);
}

static json_t *paired_json(const struct paired *p)
{
	return json_pack("{s:f, s:f, s:[f,f], s:f, s:i}", "ratio", p->ratio, "pct", pct(p->ratio),
			 "ci_pct", pct(p->lo), pct(p->hi), "p", p->p, "rounds", (int)p->n);
}

static json_t *argv_json(char **argv)
{
	json_t *a = json_array();

	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(a, json_text(argv[i]));
	return a;
}

static json_t *build_json(const struct ab_build *b)
{
	json_t *files = json_array(), *why = json_object();
	char name[2] = { b->name, 0 };

	for (size_t i = 0; i < b->nfiles; i++)
		json_array_append_new(files, json_text(b->files[i]));
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (b->refused[r])
			json_object_set_new(why, reloc_refusal_name(r), json_integer((json_int_t)b->refused[r]));
	return json_pack("{s:s, s:o, s:o, s:i, s:o, s:b, s:o}", "name", name, "command",
			 argv_json(b->argv), "files", files, "moved", (int)b->refused[RELOC_OK],
			 "refused", why, "layout", b->movable, "why_not",
			 b->why_not[0] ? json_text(b->why_not) : json_null());
}

static json_t *band_json(const struct layout_band *b)
{
	if (b->n < AB_BAND_MIN_ROUNDS)
		return json_null();
	return json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "runs", (int)b->n,
			 "center_pct", pct(exp(b->center)), "observed_sd_pct", 100 * b->observed_sd,
			 "noise_sd_pct", 100 * b->noise_sd, "layout_sd_pct", 100 * b->layout_sd,
			 "low_pct", pct(b->lo), "high_pct", pct(b->hi), "seen_low_pct", pct(b->seen_lo),
			 "seen_high_pct", pct(b->seen_hi));
}

/* The band in A's terms: where B over A lands were B's code A's, moved. */
static json_t *layout_json(const struct ab_judgement *j)
{
	if (!j->has_band)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:o, s:o}", "low_pct", pct(j->lo), "high_pct", pct(j->hi),
			 "band_pct", fmax(fabs(pct(j->lo)), fabs(pct(j->hi))), "a", band_json(&j->band[0]),
			 "b", band_json(&j->band[1]));
}

static json_t *arm_json(const struct ab_experiment *t, const struct ab_build *b,
			const struct place_arm *a)
{
	json_t *samples = json_array();
	char name[48], build[2] = { b->name, 0 };

	for (size_t i = 0; i < a->n; i++)
		json_array_append_new(samples, json_real(a->v[i]));
	if (a->kind == PLACE_UNMOVED)
		snprintf(name, sizeof name, "%c", b->name);
	else
		snprintf(name, sizeof name, "%c@%s", b->name, a->name);
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:o, s:s, s:s, s:f, s:[f,f], s:f, s:f, s:o}",
			 "name", name, "kernel", build, "build", build, "arm", a->name, "offset", 0,
			 "align", a->kind == PLACE_UNMOVED ? json_null() :
			 json_integer(a->align ? a->align : b->x.align), "unit", t->metric ? "" : "s",
			 "direction", t->higher ? "higher" : "lower", "median", a->sum.median, "ci",
			 a->sum.ci_lo, a->sum.ci_hi, "stddev", a->sum.stddev, "cv", a->sum.cv,
			 "samples", samples);
}

static json_t *settings_json(const struct ab_experiment *t)
{
	return json_pack("{s:s, s:s, s:i, s:f, s:s, s:f, s:f, s:I, s:b, s:o, s:s}", "measure",
			 t->metric ? t->metric_text : t->wall ? "wall" : "cpu", "direction",
			 t->higher ? "higher" : "lower", "rounds", (int)t->rounds, "elapsed_s",
			 t->elapsed_s, "stopped_by", t->stopped_by, "alpha", t->alpha, "material",
			 t->material, "seed", (json_int_t)t->seed, "layout", t->layout, "align_all",
			 t->align_all ? json_integer(t->align_all) : json_null(), "stdin",
			 t->input ? t->input->what : "/dev/null");
}

json_t *results_ab(const struct ab_experiment *t, int argc, char **argv)
{
	json_t *doc = results_run_info("ab", argc, argv), *metrics = json_array(), *builds = json_array();
	const struct ab_judgement *j = &t->j;
	unsigned runs = 0, identical = 0;

	for (int b = 0; b < 2; b++) {
		const struct ab_build *bd = &t->build[b];

		json_array_append_new(builds, build_json(bd));
		runs += bd->x.checked ? bd->x.checked - 1 : 0;
		identical += bd->x.identical;
		for (size_t i = 0; i < bd->x.narms; i++)
			json_array_append_new(metrics, arm_json(t, bd, &bd->x.arm[i]));
	}
	json_object_set_new(doc, "ab", settings_json(t));
	json_object_set_new(doc, "builds", builds);
	json_object_set_new(doc, "output_check", json_pack("{s:b, s:i, s:i}", "checked",
		!t->no_output_check, "runs", (int)runs, "identical", (int)identical));
	json_object_set_new(doc, "change", paired_json(&j->change));
	json_object_set_new(doc, "noise", json_pack("{s:f, s:f, s:i}", "round_sd_pct",
		100 * t->round_sd, "fixed_sd_pct", 100 * sqrt(t->noise_var), "df", (int)t->noise_df));
	json_object_set_new(doc, "layout_band", layout_json(j));
	json_object_set_new(doc, "aligned", j->aligned.n ? json_pack("{s:i, s:o, s:o}", "align",
		(int)t->align_all, "change", paired_json(&j->aligned), "shrink",
		paired_json(&j->shrink)) : json_null());
	json_object_set_new(doc, "verdict", json_string(ab_verdict_name(j->verdict)));
	json_object_set_new(doc, "reason", json_string(ab_reason_text(j->reason)));
	json_object_set_new(doc, "metrics", metrics);
	return doc;
}

/* ---- read back, for the page ---- */

static void change_of(const json_t *c, struct ab_change *out)
{
	*out = (struct ab_change){ .present = json_is_object(c), .pct = doc_num(c, "pct"),
		.lo = doc_num_at(c, "ci_pct", 0), .hi = doc_num_at(c, "ci_pct", 1),
		.p = doc_num(c, "p"), .rounds = doc_num(c, "rounds") };
}

/* "cmd arg arg": a build's command line as one string (owned). */
static char *joined(const json_t *argv)
{
	struct strbuf b = { 0 };
	const json_t *a;
	size_t i;
	char *s;

	json_array_foreach(argv, i, a)
		sb_addf(&b, "%s%s", i ? " " : "", json_is_string(a) ? json_string_value(a) : "?");
	s = xstrdup(sb_str(&b));
	sb_free(&b);
	return s;
}

void results_ab_doc(const json_t *doc, struct ab_doc *d)
{
	const json_t *ab = json_object_get(doc, "ab"), *band = json_object_get(doc, "layout_band");
	const json_t *al = json_object_get(doc, "aligned"), *builds = json_object_get(doc, "builds");
	const json_t *c = json_object_get(doc, "output_check");

	*d = (struct ab_doc){ .verdict = doc_str(doc, "verdict"), .reason = doc_str(doc, "reason"),
		.measure = doc_str(ab, "measure"), .stopped_by = doc_str(ab, "stopped_by"),
		.rounds = doc_num(ab, "rounds"), .elapsed_s = doc_num(ab, "elapsed_s"),
		.round_sd_pct = doc_num(json_object_get(doc, "noise"), "round_sd_pct"),
		.has_band = json_is_object(band), .band_lo = doc_num(band, "low_pct"),
		.band_hi = doc_num(band, "high_pct"), .align = doc_num(al, "align"),
		.identical = doc_num(c, "identical"), .runs = doc_num(c, "runs"),
		.checked = json_is_true(json_object_get(c, "checked")) };
	change_of(json_object_get(doc, "change"), &d->change);
	change_of(json_object_get(al, "change"), &d->aligned);
	for (size_t i = 0; i < 2; i++) {
		const json_t *b = json_array_get(builds, i);

		d->command[i] = joined(json_object_get(b, "command"));
		d->why_not[i] = doc_str(b, "why_not");
		d->moved[i] = doc_num(b, "moved");
	}
}

void results_ab_doc_free(struct ab_doc *d)
{
	free(d->command[0]);
	free(d->command[1]);
	memset(d, 0, sizeof *d);
}
