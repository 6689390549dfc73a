/* A side of `straddle compare` read from its result files (the compare
 * document's fields had no owner in results/): its runs' or invocations'
 * statistics, the drift between its A/A invocations and the band bench
 * --invocations records, its machine states, its files' times and how two
 * sides' machines differ. report/compare.c builds the comparison from these;
 * results_compare writes it. */
#include "json.h"
#include "metrics.h"
#include "compare.h"
#include "kinds.h"
#include "place.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

double *results_run_stats(const struct metric *m, enum stat_kind k)
{
	double *v = xmalloc((m->nruns ? m->nruns : 1) * sizeof *v);

	for (size_t r = 0; r < m->nruns; r++)
		v[r] = stats_of(m->runs[r].v, m->runs[r].n, k, m->lower_is_better);
	return v;
}

/* Runs of one invocation share its machine state, so when a side is
 * several invocations (a directory), the unit is the invocation: the mean of
 * its runs' statistics, one number a file. *n: how many. */
static double *invocation_stats(const struct metric *m, enum stat_kind k, size_t nfiles,
				size_t *n)
{
	double *runs = results_run_stats(m, k), *v = xcalloc(nfiles ? nfiles : 1, sizeof *v);
	size_t *count = xcalloc(nfiles ? nfiles : 1, sizeof *count);

	for (size_t r = 0; r < m->nruns; r++) {
		v[m->runs[r].file] += runs[r];
		count[m->runs[r].file]++;
	}
	*n = 0;
	for (size_t f = 0; f < nfiles; f++)
		if (count[f])
			v[(*n)++] = v[f] / (double)count[f];
	free(runs);
	free(count);
	return v;
}

double *results_unit_stats(const struct result_file *f, const struct metric *m,
			   enum stat_kind k, bool by_invocation, size_t *n)
{
	if (by_invocation)
		return invocation_stats(m, k, f->nfiles, n);
	*n = m->nruns;
	return results_run_stats(m, k);
}

double results_drift_band(const struct result_file *aa, const struct metric *m,
			  enum stat_kind k)
{
	double *v, lo, hi, mean, pct;
	size_t n;

	v = invocation_stats(m, k, aa->nfiles, &n);
	if (n < 2) {
		free(v);
		return NAN;
	}
	lo = hi = v[0];
	for (size_t i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	mean = stats_mean(v, n);
	pct = mean ? 100 * (hi - lo) / fabs(mean) : NAN;
	free(v);
	return pct;
}

json_t *results_drift_record(const struct result_file *aa, const char *side,
			     const char *versus)
{
	json_t *band = json_object();

	for (size_t i = 0; i < aa->n; i++) {
		json_t *per = json_object();

		for (int k = STAT_MEAN95; k <= STAT_MAX; k++) {
			double pct = results_drift_band(aa, &aa->m[i], (enum stat_kind)k);

			if (!isnan(pct))
				json_object_set_new(per, stat_name((enum stat_kind)k), json_real(pct));
		}
		json_object_set_new(band, aa->m[i].name, per);
	}
	return json_pack("{s:i, s:s, s:o, s:o}", "invocations", (int)aa->nfiles, "side", side,
			 "versus", versus ? json_text(versus) : json_null(), "band_pct", band);
}

bool results_has_metrics(const char *path)
{
	struct err e;
	json_t *doc = results_open(path, RESULT_ANY, NULL, &e);
	bool yes = json_array_size(json_object_get(doc, "metrics")) > 0;

	json_decref(doc);
	return yes;
}

/* The file's command line names where it will be once the directory is
 * renamed (DIR/a/01.json), not the partial name it was written under. */
static void final_path(json_t *doc, const char *final_out)
{
	json_t *argv = json_object_get(doc, "command_line");

	for (size_t i = 0; i + 1 < json_array_size(argv); i++)
		if (json_is_string(json_array_get(argv, i)) &&
		    strcmp(json_string_value(json_array_get(argv, i)), "-o") == 0) {
			json_array_set_new(argv, i + 1, json_text(final_out));
			return;
		}
}

json_t *results_drift_stamp(const char *path, const json_t *rec, size_t order, size_t of,
			    const char *final_out)
{
	struct err e;
	json_t *doc = results_open(path, RESULT_ANY, NULL, &e), *mine;

	final_path(doc, final_out);
	mine = json_deep_copy(rec);
	json_object_set_new(mine, "order", json_integer((json_int_t)order));
	json_object_set_new(mine, "of", json_integer((json_int_t)of));
	if (!doc || json_object_set_new(doc, "drift", mine)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

double results_recorded_drift(const struct result_file *base, const char *metric,
			      enum stat_kind k, size_t *invocations)
{
	json_t *d = json_object_get(base->doc, "drift");
	json_t *v = json_object_get(json_object_get(json_object_get(d, "band_pct"), metric),
				    stat_name(k));
	json_t *n = json_object_get(d, "invocations");

	if (!json_is_number(v) || !json_is_integer(n) || json_integer_value(n) < 2 ||
	    !(json_number_value(v) >= 0))
		return NAN;
	*invocations = (size_t)json_integer_value(n);
	return json_number_value(v);
}

double results_state_mean(const struct result_file *f, const char *key, int index)
{
	double sum = 0;
	size_t n = 0, i;
	json_t *s;

	json_array_foreach(f->states, i, s) {
		json_t *v = json_object_get(s, key);

		if (index >= 0)
			v = json_array_get(v, (size_t)index);
		if (json_is_number(v)) {
			sum += json_number_value(v);
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

const char *results_state_string(const struct result_file *f, const char *key)
{
	const char *first = NULL;
	size_t i;
	json_t *s;

	json_array_foreach(f->states, i, s) {
		const char *v = json_string_value(json_object_get(s, key));

		if (!v)
			continue;
		if (first && strcmp(first, v) != 0)
			return "mixed";
		first = first ? first : v;
	}
	return first;
}

size_t results_state_count(const struct result_file *f)
{
	return json_array_size(f->states);
}

bool results_time_span(const struct result_file *f, const char **first, const char **last)
{
	size_t i;
	json_t *d;

	*first = *last = json_string_value(json_object_get(f->doc, "time"));
	if (!*first)
		return false;
	json_array_foreach(f->more, i, d) {
		const char *t = json_string_value(json_object_get(d, "time"));

		if (!t)
			return false;
		*first = strcmp(t, *first) < 0 ? t : *first;
		*last = strcmp(t, *last) > 0 ? t : *last;
	}
	return true;
}

void results_machine_diff(const struct result_file *a, const struct result_file *b,
			  struct strbuf *out)
{
	static const char *const fields[] = { "vendor", "family", "model", "stepping",
		"model_name", "microcode", "kernel", "arch" };

	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		json_t *x = json_object_get(a->machine, fields[i]);
		json_t *y = json_object_get(b->machine, fields[i]);
		char *sa, *sb;

		if ((!x && !y) || json_equal(x, y))
			continue;
		sa = x ? json_dumps(x, JSON_ENCODE_ANY) : xstrdup("none");
		sb = y ? json_dumps(y, JSON_ENCODE_ANY) : xstrdup("none");
		sb_addf(out, "%s%s %s vs %s", out->len ? "; " : "", fields[i], sa, sb);
		free(sa);
		free(sb);
	}
}

void compare_notes_add(struct compare_notes *n, const char *fmt, ...)
{
	char line[600];
	json_t *text;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	text = json_text(line);         /* paths may not be UTF-8: U+FFFD, as the JSON says */
	GROW(n->v, n->cap, n->n + 1);
	n->v[n->n++] = xstrdup(json_string_value(text));
	json_decref(text);
}

void compare_notes_free(struct compare_notes *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	memset(n, 0, sizeof *n);
}

/* ---- a comparison's sides read ---- */

/* --layout-noise: the band of a place --offsets random result (a change
 * no larger than what a new layout does is layout noise). */
static int layout_noise(struct compare *c, const char *path, struct err *e)
{
	struct result_file f;
	struct err why;
	int rc = 0;

	if (results_read(path, &f, &why))
		return err_set(e, "--layout-noise: %s", why.msg);
	if (results_place_layout_band(&f, &c->layout_pct))
		rc = err_set(e, "--layout-noise: %s: not a place --offsets random result (no "
			     "layout_noise band)", path);
	results_file_free(&f);
	return rc;
}

/* --drift: A/A invocations, 2 or more, of BASE's command. */
static int drift(struct compare *c, const char *path, struct err *e)
{
	struct result_file *d = xcalloc(1, sizeof *d);
	const struct result_file *base = &c->files[0];
	struct err why;

	c->drift = d;
	if (results_read(path, d, &why))
		return err_set(e, "--drift: %s", why.msg);
	if (d->nfiles < 2)
		return err_set(e, "--drift: %s: %zu invocation; the drift between invocations "
			       "needs 2 or more result files in a directory", path, d->nfiles);
	if (strcmp(d->command, base->command) != 0)
		return err_set(e, "--drift: %s: %s results; BASE %s is a %s one", path, d->command,
			       base->path, base->command);
	return 0;
}

/* NEW against BASE: the same command, and at least one metric in common
 * of the same unit and direction. */
static int comparable(const struct result_file *base, const struct result_file *f,
		      struct err *e)
{
	size_t common = 0;

	if (strcmp(f->command, base->command) != 0)
		return err_set(e, "%s: a %s result; BASE %s is a %s one", f->path, f->command,
			       base->path, base->command);
	for (size_t i = 0; i < base->n; i++) {
		const struct metric *m = &base->m[i], *n = results_counterpart(base, m, f);

		if (n && (n->lower_is_better != m->lower_is_better || strcmp(n->unit, m->unit) != 0))
			return err_set(e, "%s: %s is %s, %s is better; in %s %s, %s", f->path, n->name,
				       n->unit, n->lower_is_better ? "lower" : "higher", base->path,
				       m->unit, m->lower_is_better ? "lower" : "higher");
		common += n != NULL;
	}
	if (!common)
		return err_set(e, "%s: no metric in common with %s", f->path, base->path);
	return 0;
}

int results_compare_open(struct compare *c, char *const *paths, size_t n, const char *drift_path,
			 const char *layout_path, struct err *e)
{
	struct result_file *files = xcalloc(n, sizeof *files);

	c->files = files;
	c->nfiles = n;
	for (size_t f = 0; f < n; f++)
		if (results_read(paths[f], &files[f], e))
			return -1;
	if ((drift_path && drift(c, drift_path, e)) ||
	    (layout_path && layout_noise(c, layout_path, e)))
		return -1;
	for (size_t f = 1; f < n; f++)
		if (comparable(&files[0], &files[f], e))
			return -1;
	return 0;
}

void results_compare_close(struct compare *c)
{
	for (size_t f = 0; f < c->nfiles; f++)
		results_file_free((struct result_file *)&c->files[f]);
	free((void *)c->files);
	if (c->drift)
		results_file_free((struct result_file *)c->drift);
	free((void *)c->drift);
	c->files = c->drift = NULL;
	c->nfiles = 0;
}
