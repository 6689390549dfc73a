/* Reading result files back (compare): every check a file can fail is one
 * line saying what is wrong, never a crash on a hand-edited file (negative,
 * empty, NaN or infinite samples, a metric twice, metrics that do not fit the
 * command). A directory is one side made of several files: their runs are
 * pooled, in the order of the files' names. */
#include "json.h"
#include "metrics.h"
#include "kinds.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The largest sample read: 1e15 ns is 11 days for one operation, 1e15 ops/s a
 * million per nanosecond. Beyond it the statistics overflow: two samples of
 * 1e308 made the median inf and the change -nan%, and compare --format json
 * wrote "metrics": [] and exit 0; the squares of the stddev overflow from
 * about 1e154. */
#define SAMPLE_MAX 1e15

static int read_run(json_t *a, struct metric_run *run, const char *what, struct err *e)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return err_set(e, "%s: no samples", what);
	if (json_array_size(a) == 0)
		return err_set(e, "%s: no samples (an empty list)", what);
	run->n = json_array_size(a);
	run->v = xcalloc(run->n, sizeof *run->v);
	json_array_foreach(a, i, v) {
		double x = json_number_value(v);

		if (!json_is_number(v) || !isfinite(x))
			return err_set(e, "%s: sample %zu is not a number", what, i);
		if (x < 0)
			return err_set(e, "%s: sample %zu is negative (%g)", what, i, x);
		if (x > SAMPLE_MAX)
			return err_set(e, "%s: sample %zu is %g, more than %g (no time or rate "
				       "straddle measures comes near it)", what, i, x, SAMPLE_MAX);
		run->v[i] = x;
	}
	return 0;
}

/* bench: "runs": [{"samples": [...]}, ...]; sweep (one run): "samples". */
static int read_runs(json_t *o, const char *command, struct metric *m, const char *what,
		     struct err *e)
{
	json_t *runs = json_object_get(o, "runs"), *r;
	size_t i, total = 0;
	char label[200];

	if (strcmp(command, "bench") == 0) {
		if (!json_is_array(runs) || json_array_size(runs) == 0)
			return err_set(e, "%s: a bench metric without \"runs\" (an older straddle's "
				       "file? run bench again)", what);
		m->nruns = json_array_size(runs);
		m->runs = xcalloc(m->nruns, sizeof *m->runs);
		json_array_foreach(runs, i, r) {
			snprintf(label, sizeof label, "%.140s, run %zu", what, i + 1);
			if (read_run(json_object_get(r, "samples"), &m->runs[i], label, e))
				return -1;
			total += m->runs[i].n;
		}
	} else {
		m->nruns = 1;
		m->runs = xcalloc(1, sizeof *m->runs);
		if (read_run(json_object_get(o, "samples"), &m->runs[0], what, e))
			return -1;
		total = m->runs[0].n;
	}
	if (json_is_integer(json_object_get(o, "n")) &&
	    (size_t)json_integer_value(json_object_get(o, "n")) != total)
		return err_set(e, "%s: \"n\" is %lld, the samples %zu", what,
			       (long long)json_integer_value(json_object_get(o, "n")), total);
	return 0;
}

/* An integer field in [0, max] where it is there (absent: 0 is fine);
 * -1 with its line. */
static int check_range(json_t *o, const char *key, json_int_t max, const char *what,
		       struct err *e)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
		return err_set(e, "%s: \"%s\" is not an integer from 0 to %lld", what, key,
			       (long long)max);
	return 0;
}

/* What each command's metrics must carry besides name, unit, direction. A
 * sweep's offsets are what sweep writes: a code offset in a page (--offsets'
 * bound) and the loop's place in a 64 B line; +-2^63 made the report's
 * arithmetic on them overflow. */
static int check_kind(json_t *o, const char *command, const char *what, struct err *e)
{
	if (strcmp(command, "bench") == 0 && !json_is_string(json_object_get(o, "workload")))
		return err_set(e, "%s: a bench metric without \"workload\"", what);
	/* place's placements are a sweep's: a function (as "kernel") at an
	 * offset; ab's arms are a build's */
	if ((strcmp(command, "sweep") == 0 || strcmp(command, "place") == 0 ||
	     strcmp(command, "ab") == 0) &&
	    (!json_is_string(json_object_get(o, "kernel")) ||
					      !json_is_integer(json_object_get(o, "offset"))))
		return err_set(e, "%s: a sweep metric without \"kernel\" and \"offset\"", what);
	if (strcmp(command, "sweep") == 0 &&
	    (check_range(o, "offset", 4095, what, e) || check_range(o, "loop_offset", 63, what, e)))
		return -1;
	return 0;
}

static int read_metric(json_t *o, const char *command, struct metric *m, size_t index,
		       struct err *e)
{
	const char *name = json_string_value(json_object_get(o, "name"));
	const char *unit = json_string_value(json_object_get(o, "unit"));
	const char *dir = json_string_value(json_object_get(o, "direction"));
	const char *kernel = json_string_value(json_object_get(o, "kernel"));
	char what[160];

	if (!json_is_object(o) || !name || !*name)
		return err_set(e, "metric %zu has no name", index);
	snprintf(what, sizeof what, "metric %zu (%s)", index, name);
	/* escaped once here, so every table, line and page of them is safe
	 * for a terminal; names stay distinct */
	m->name = escaped(name);
	m->unit = escaped(unit ? unit : "");
	m->kernel = kernel ? escaped(kernel) : NULL;
	if (!dir || (strcmp(dir, "lower") != 0 && strcmp(dir, "higher") != 0))
		return err_set(e, "%s: direction is not \"lower\" or \"higher\"", what);
	m->lower_is_better = strcmp(dir, "lower") == 0;
	if (check_kind(o, command, what, e))
		return -1;
	return read_runs(o, command, m, what, e);
}

static int check_duplicates(const struct result_file *r, struct err *e)
{
	for (size_t i = 1; i < r->n; i++)
		for (size_t k = 0; k < i; k++)
			if (strcmp(r->m[i].name, r->m[k].name) == 0)
				return err_set(e, "metric %zu (%s): the same name as metric %zu", i,
					       r->m[i].name, k);
	return 0;
}

/* The states of the runs, one per run (null where none was recorded). */
static void collect_states(struct result_file *r)
{
	json_t *runs = json_object_get(r->doc, "runs");
	size_t n = r->n ? r->m[0].nruns : 0;

	r->states = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_object_get(json_array_get(runs, i), "state");

		json_array_append(r->states, s ? s : json_null());
	}
}

static int read_file(const char *path, struct result_file *r, struct err *e)
{
	json_t *doc = results_open(path, RESULT_METRICS, NULL, e);
	int rc;

	if (!doc) {
		memset(r, 0, sizeof *r);
		r->path = xstrdup(path);
		r->more = json_array();
		return -1;
	}
	rc = results_file_of(path, doc, r, e);
	json_decref(doc);
	return rc;
}

int results_file_of(const char *path, json_t *doc, struct result_file *r, struct err *e)
{
	json_t *metrics, *o;
	size_t i;

	memset(r, 0, sizeof *r);
	r->path = xstrdup(path);
	r->nfiles = 1;
	r->more = json_array();
	r->doc = json_incref(doc);
	r->command = json_string_value(json_object_get(r->doc, "command"));
	r->machine = json_object_get(r->doc, "machine");
	metrics = json_object_get(r->doc, "metrics");
	if (doc_str(json_object_get(r->doc, "failure"), "why")) {      /* a failed place's */
		const json_t *f = json_object_get(r->doc, "failure");
		const char *arm = doc_str(f, "arm");

		return err_set(e, "%s: a %s that failed (%s: %s): nothing measured to read", path,
			       r->command, arm ? arm : "?", doc_str(f, "why"));
	}
	if (!json_is_array(metrics) || json_array_size(metrics) == 0)
		return err_set(e, "%s: no \"metrics\" in a %s result", path, r->command);
	r->m = xcalloc(json_array_size(metrics), sizeof *r->m);
	json_array_foreach(metrics, i, o) {
		r->n++;
		if (read_metric(o, r->command, &r->m[i], i, e)) {
			char msg[sizeof e->msg];

			snprintf(msg, sizeof msg, "%s", e->msg);
			return err_set(e, "%s: %s", path, msg);
		}
	}
	for (i = 1; i < r->n; i++)
		if (r->m[i].nruns != r->m[0].nruns)
			return err_set(e, "%s: metric %zu (%s): %zu runs, metric 0 %zu", path, i,
				       r->m[i].name, r->m[i].nruns, r->m[0].nruns);
	if (check_duplicates(r, e)) {
		char msg[sizeof e->msg];

		snprintf(msg, sizeof msg, "%s", e->msg);
		return err_set(e, "%s: %s", path, msg);
	}
	collect_states(r);
	return 0;
}

/* Another file of the same side: the same command and metrics, its runs
 * appended. */
static int merge(struct result_file *into, struct result_file *more, struct err *e)
{
	if (strcmp(into->command, more->command) != 0)
		return err_set(e, "%s: a %s result among %s results", more->path, more->command,
			       into->command);
	if (more->n != into->n)
		return err_set(e, "%s: %zu metrics, %s %zu", more->path, more->n, into->path,
			       into->n);
	for (size_t i = 0; i < into->n; i++) {
		struct metric *a = &into->m[i];
		const struct metric *b = results_metric(more, a->name);

		if (!b)
			return err_set(e, "%s: no metric %s, which %s has", more->path, a->name,
				       into->path);
		a->runs = xrealloc(a->runs, (a->nruns + b->nruns) * sizeof *a->runs);
		for (size_t k = 0; k < b->nruns; k++) {
			a->runs[a->nruns + k].n = b->runs[k].n;
			a->runs[a->nruns + k].file = into->nfiles;
			a->runs[a->nruns + k].v = xmalloc(b->runs[k].n * sizeof(double));
			memcpy(a->runs[a->nruns + k].v, b->runs[k].v, b->runs[k].n * sizeof(double));
		}
		a->nruns += b->nruns;
	}
	json_array_extend(into->states, more->states);
	into->nfiles++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_dir(const char *path, struct result_file *r, struct err *e)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			GROW(names, cap, n + 1);
			names[n] = xmalloc(strlen(path) + len + 2);
			sprintf(names[n++], "%s/%s", path, de->d_name);
		}
	}
	closedir(d);
	if (n == 0) {
		memset(r, 0, sizeof *r);
		r->path = xstrdup(path);
		free(names);
		return err_set(e, "%s: a directory without a .json result file", path);
	}
	qsort(names, n, sizeof *names, by_name);
	rc = read_file(names[0], r, e);
	for (size_t i = 1; i < n && rc == 0; i++) {
		struct result_file more;

		rc = read_file(names[i], &more, e) || merge(r, &more, e) ? -1 : 0;
		if (rc == 0)
			json_array_append(r->more, more.doc);
		results_file_free(&more);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(r->path);
	r->path = xstrdup(path);
	return rc;
}

int results_read(const char *path, struct result_file *r, struct err *e)
{
	struct stat st;
	int rc;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = read_dir(path, r, e);
	else
		rc = read_file(path, r, e);
	return rc;
}

void results_file_free(struct result_file *r)
{
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < r->m[i].nruns; k++)
			free(r->m[i].runs[k].v);
		free(r->m[i].runs);
		free(r->m[i].name);
		free(r->m[i].unit);
		free(r->m[i].kernel);
	}
	free(r->m);
	free(r->path);
	json_decref(r->doc);
	json_decref(r->states);
	json_decref(r->more);
	memset(r, 0, sizeof *r);
}

const struct metric *results_metric(const struct result_file *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->m[i].name, name) == 0)
			return &r->m[i];
	return NULL;
}

/* Sweep results of one kernel at two placements: "clear_movq_imm@0" and
 * "clear_movq_imm@40" are the same code, moved, when each file placed
 * the kernel once (seed 000: the same loop at two offsets). */
static const struct metric *only_placement(const struct result_file *r, const char *kernel)
{
	const struct metric *found = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->m[i].kernel && strcmp(r->m[i].kernel, kernel) == 0) {
			found = &r->m[i];
			n++;
		}
	return n == 1 ? found : NULL;
}

const struct metric *results_counterpart(const struct result_file *base, const struct metric *m,
					 const struct result_file *r)
{
	const struct metric *found = results_metric(r, m->name);

	if (found || !m->kernel || only_placement(base, m->kernel) != m)
		return found;
	return only_placement(r, m->kernel);
}
