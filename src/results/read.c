/* Reading result files back (compare, report): every check a file can fail
 * is one line saying what is wrong, never a crash on a hand-edited file. */
#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int read_samples(json_t *a, struct metric *m, size_t index, struct err *e)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a) || json_array_size(a) == 0)
		return err_set(e, "metric %zu (%s): no samples", index, m->name);
	m->n = json_array_size(a);
	m->samples = xcalloc(m->n, sizeof *m->samples);
	json_array_foreach(a, i, v) {
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			return err_set(e, "metric %zu (%s): sample %zu is not a number", index,
				       m->name, i);
		m->samples[i] = json_number_value(v);
	}
	return 0;
}

static int read_metric(json_t *o, struct metric *m, size_t index, struct err *e)
{
	const char *name = json_string_value(json_object_get(o, "name"));
	const char *unit = json_string_value(json_object_get(o, "unit"));
	const char *dir = json_string_value(json_object_get(o, "direction"));

	if (!json_is_object(o) || !name || !*name)
		return err_set(e, "metric %zu has no name", index);
	m->name = xstrdup(name);
	m->unit = xstrdup(unit ? unit : "");
	if (!dir || (strcmp(dir, "lower") != 0 && strcmp(dir, "higher") != 0))
		return err_set(e, "metric %zu (%s): direction is not \"lower\" or \"higher\"",
			       index, name);
	m->lower_is_better = strcmp(dir, "lower") == 0;
	return read_samples(json_object_get(o, "samples"), m, index, e);
}

int results_read(const char *path, struct result_file *r, struct err *e)
{
	json_error_t je;
	json_t *metrics, *schema;
	size_t i;
	json_t *o;

	memset(r, 0, sizeof *r);
	r->path = xstrdup(path);
	r->doc = json_load_file(path, 0, &je);
	if (!r->doc)
		return err_set(e, "not a result file: %s (line %d)", je.text, je.line);
	schema = json_object_get(r->doc, "schema");
	if (!json_is_object(r->doc) || !json_is_integer(schema))
		return err_set(e, "not a result file: no \"schema\"");
	if (json_integer_value(schema) != 1)
		return err_set(e, "schema %lld; this straddle reads schema 1",
			       (long long)json_integer_value(schema));
	r->command = json_string_value(json_object_get(r->doc, "command"));
	if (!r->command)
		r->command = "?";
	r->machine = json_object_get(r->doc, "machine");
	metrics = json_object_get(r->doc, "metrics");
	if (!json_is_array(metrics) || json_array_size(metrics) == 0)
		return err_set(e, "no \"metrics\" in a %s result", r->command);
	r->m = xcalloc(json_array_size(metrics), sizeof *r->m);
	json_array_foreach(metrics, i, o) {
		r->n++;
		if (read_metric(o, &r->m[i], i, e))
			return -1;
	}
	return 0;
}

void results_file_free(struct result_file *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->m[i].name);
		free(r->m[i].unit);
		free(r->m[i].samples);
	}
	free(r->m);
	free(r->path);
	json_decref(r->doc);
	memset(r, 0, sizeof *r);
}

const struct metric *results_metric(const struct result_file *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->m[i].name, name) == 0)
			return &r->m[i];
	return NULL;
}
