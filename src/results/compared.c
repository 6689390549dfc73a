/* The document of `straddle compare --format json`, typed for the page of
 * straddle report: the settings, the verdict, the warnings, and each
 * metric's comparison against every NEW file as compare recorded it
 * (report/compare.c writes it), checked as it is read; what a
 * hand-edited file lacks beyond that is NAN, NULL or false. */
#include "results.h"

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
 * then a size_t (UBSan, issue 25). */
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
