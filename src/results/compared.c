/* The document of `straddle compare --format json`, typed for the page of
 * straddle report: the settings, the verdict, the warnings, and each
 * metric's comparison against every NEW file as compare recorded it
 * (results_compare below writes it), checked as it is read; what a
 * hand-edited file lacks beyond that is NAN, NULL or false. */
#include "json.h"
#include "metrics.h"
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool yes(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static const char **strings(const json_t *a, size_t *n)
{
	const char **s = xcalloc(json_array_size(a) + 1, sizeof *s);
	const json_t *v;
	size_t i;

	*n = 0;
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			s[(*n)++] = json_string_value(v);
	return s;
}

static void entry_of(const json_t *m, const json_t *e, struct compared *c)
{
	const json_t *ci = json_object_get(e, "change_ci");

	*c = (struct compared){ .metric = doc_str(m, "name"), .stat = doc_str(m, "stat"),
		.path = doc_str(e, "path"), .verdict = doc_str(e, "verdict"),
		.lower_is_better = !doc_str(m, "direction") || strcmp(doc_str(m, "direction"), "higher") != 0,
		.base = doc_num(m, "value"), .value = doc_num(e, "value"),
		.base_runs = (size_t)json_integer_value(json_object_get(e, "base_runs")),
		.runs = (size_t)json_integer_value(json_object_get(e, "runs")),
		.base_range = doc_num(e, "base_range"), .range = doc_num(e, "range"),
		.change_pct = doc_num(e, "change_pct"), .change_pct_mmtests = doc_num(e, "change_pct_mmtests"),
		.p = doc_num(e, "p"), .ci_lo = NAN, .ci_hi = NAN,
		.enough_runs = yes(e, "enough_runs"), .stands_out = yes(e, "stands_out"),
		.significant = yes(e, "significant"), .regression = yes(e, "regression") };
	if (json_is_array(ci)) {
		c->ci_lo = json_number_value(json_array_get(ci, 0));
		c->ci_hi = json_number_value(json_array_get(ci, 1));
	}
}

/* A compare document has its base and metrics, and each comparison's run
 * counts are counts: fuzz_report found a missing "base_runs" made NaN and
 * then a size_t (UBSan). */
static int check(const char *path, const json_t *doc, struct err *e)
{
	const json_t *metrics = json_object_get(doc, "metrics"), *m, *x;
	size_t i, k;

	if (!json_is_array(metrics) || !json_is_string(json_object_get(doc, "base")))
		return err_set(e, "%s: a compare document without \"base\" and \"metrics\"", path);
	json_array_foreach(metrics, i, m) {
		json_array_foreach(json_object_get(m, "new"), k, x) {
			const json_t *b = json_object_get(x, "base_runs"), *r = json_object_get(x, "runs");

			if (!json_is_integer(b) || !json_is_integer(r) || json_integer_value(b) < 0 ||
			    json_integer_value(r) < 0)
				return err_set(e, "%s: metric %zu, comparison %zu: \"base_runs\" and "
					       "\"runs\" are not counts", path, i, k);
		}
	}
	return 0;
}

int results_compare_doc(const char *path, const json_t *doc, struct compare_doc *d,
			struct err *err)
{
	const json_t *metrics = json_object_get(doc, "metrics"), *m, *e;
	size_t i, k, cap = 1;

	memset(d, 0, sizeof *d);
	if (check(path, doc, err))
		return -1;

	json_array_foreach(metrics, i, m)
		cap += json_array_size(json_object_get(m, "new"));
	*d = (struct compare_doc){ .base = doc_str(doc, "base"), .alpha = doc_num(doc, "alpha"),
		.threshold = doc_num(doc, "threshold"), .min_runs = doc_num(doc, "min_runs"),
		.regression = yes(doc, "regression") };
	d->warnings = strings(json_object_get(doc, "warnings"), &d->nwarnings);
	d->noisy = strings(json_object_get(doc, "noisy"), &d->nnoisy);
	d->row = xcalloc(cap, sizeof *d->row);
	json_array_foreach(metrics, i, m)
		json_array_foreach(json_object_get(m, "new"), k, e)
			if (json_is_object(e))
				entry_of(m, e, &d->row[d->nrows++]);
	return 0;
}

void results_compare_doc_free(struct compare_doc *d)
{
	free(d->warnings);
	free(d->noisy);
	free(d->row);
	memset(d, 0, sizeof *d);
}

/* ---- the document written (straddle compare --format json) ---- */

const char *compare_verdict(const struct comparison *cmp)
{
	if (!cmp->enough)
		return "inconclusive";
	if (cmp->state_changed)
		return "inconclusive: machine state changed";
	if (cmp->one_invocation)
		return "inconclusive: one invocation a side";
	if (cmp->significant && cmp->inside_drift)
		return "inconclusive: inside the drift between invocations";
	if (cmp->significant && cmp->drift_from_host && !cmp->disjoint)
		return "inconclusive: the runs overlap";
	if (cmp->significant && cmp->inside_layout)
		return "inconclusive: within layout noise";
	return cmp->regression ? "REGRESSION" : cmp->improvement ? "better" :
	       cmp->significant ? "changed, within the threshold" : "no change";
}

const char *compare_units(const struct comparison *cmp)
{
	return cmp->by_invocation ? "invocations" : "runs";
}

static json_t *notes_json(const struct compare_notes *n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n->n; i++)
		json_array_append_new(a, json_string(n->v[i]));
	return a;
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *comparison_json(const struct compare *c, size_t f, const struct comparison *cmp,
			       const struct metric *m)
{
	json_t *j = json_pack("{s:o, s:s, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:b, s:b,"
			      " s:b, s:s}",
		"path", json_text(c->files[f].path), "name", m->name, "base_runs",
		(json_int_t)cmp->base_runs, "runs", (json_int_t)cmp->new_runs, "value", cmp->new,
		"stddev_pct", cmp->new_sd_pct, "change_pct", cmp->change_robot,
		"change_pct_mmtests", cmp->change_mmtests, "base_range", cmp->base_spread,
		"range", cmp->new_spread, "enough_runs", cmp->enough, "stands_out", cmp->stands_out,
		"significant", cmp->significant, "regression", cmp->regression,
		"verdict", compare_verdict(cmp));

	json_object_set_new(j, "units", json_string(compare_units(cmp)));
	json_object_set_new(j, "noise_pct", number_or_null(cmp->noise_pct));
	json_object_set_new(j, "needed", json_integer((json_int_t)cmp->needed));
	json_object_set_new(j, "drift_pct", number_or_null(cmp->drift_pct));
	json_object_set_new(j, "inside_drift", json_boolean(cmp->inside_drift));
	json_object_set_new(j, "drift_from_host", json_boolean(cmp->drift_from_host));
	json_object_set_new(j, "disjoint", json_boolean(cmp->disjoint));
	json_object_set_new(j, "invocations_needed", json_integer((json_int_t)cmp->invocations_needed));
	json_object_set_new(j, "state_changed", json_boolean(cmp->state_changed));
	json_object_set_new(j, "one_invocation", json_boolean(cmp->one_invocation));
	json_object_set_new(j, "t", number_or_null(cmp->t));
	json_object_set_new(j, "df", number_or_null(cmp->df));
	json_object_set_new(j, "p", number_or_null(cmp->p));
	json_object_set_new(j, "change_ci", isfinite(cmp->change_lo) ?
			    json_pack("[f,f]", cmp->change_lo, cmp->change_hi) : json_null());
	return j;
}

json_t *results_compare(const struct compare *c)
{
	json_t *doc = results_new("compare"), *news = json_array(), *metrics = json_array();

	for (size_t f = 1; f < c->nfiles; f++)
		json_array_append_new(news, json_text(c->files[f].path));
	json_object_set_new(doc, "base", json_text(c->files[0].path));
	json_object_set_new(doc, "new", news);
	json_object_set_new(doc, "alpha", json_real(c->alpha));
	json_object_set_new(doc, "threshold", json_real(c->threshold));
	json_object_set_new(doc, "min_runs", json_integer(STATS_MIN_RUNS));
	json_object_set_new(doc, "drift", c->drift ? json_text(c->drift->path) : json_null());
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];
		json_t *per = json_array();

		for (size_t f = 1; f < c->nfiles; f++)
			json_array_append_new(per, r->new[f - 1] ?
				comparison_json(c, f, &r->cmp[f - 1], r->new[f - 1]) : json_null());
		json_array_append_new(metrics, json_pack("{s:o, s:o, s:s, s:s, s:I, s:f, s:f, s:o}",
			"name", json_text(r->base->name), "unit", json_text(r->base->unit),
			"direction", r->base->lower_is_better ? "lower" : "higher", "stat",
			stat_name(r->stat), "runs", (json_int_t)r->base->nruns, "value", r->value,
			"stddev_pct", r->sd_pct, "new", per));
	}
	json_object_set_new(doc, "metrics", metrics);
	json_object_set_new(doc, "warnings", notes_json(&c->warnings));
	json_object_set_new(doc, "noisy", notes_json(&c->noise));
	json_object_set_new(doc, "regression", json_boolean(c->regression));
	return doc;
}
