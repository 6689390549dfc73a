/* The result file of `straddle bench`: the settings, one entry per run with
 * the machine's state over it, and per metric its batch size and every raw
 * sample, run by run. */
#include "json.h"
#include "head.h"
#include "bench.h"
#include "metrics.h"
#include "../stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *results_state(const struct machine_state *m)
{
	json_t *j = json_pack("{s:f, s:[f,f,f], s:f, s:f, s:f, s:i, s:s}", "seconds", m->seconds,
		"load", m->load[0], m->load[1], m->load[2], "steal_pct", m->steal_pct,
		"others_pct", m->others_pct, "busy_pct", m->busy_pct, "cpus", (int)m->ncpus,
		"clocksource", m->clocksource);

	json_object_set_new(j, "governor", *m->governor ? json_string(m->governor) : json_null());
	json_object_set_new(j, "mhz", m->mhz > 0 ? json_real(m->mhz) : json_null());
	return j;
}

/* The CPU each batch-timed workload pinned itself to in this run: its
 * details' "cpu", or "hot_cpu" and "cold_cpu" as gettime.hot, gettime.cold. */
json_t *results_bench_pinned(const struct workload *const *sel, const struct wl_result *res,
			     size_t nsel)
{
	json_t *p = json_object();

	for (size_t i = 0; i < nsel; i++) {
		const char *key;
		json_t *v;

		json_object_foreach(res[i].details, key, v) {
			size_t len = strlen(key);
			char name[64];

			if (!json_is_integer(v) || len < 3 || strcmp(key + len - 3, "cpu") != 0)
				continue;
			if (len == 3)
				snprintf(name, sizeof name, "%s", sel[i]->name);
			else if (key[len - 4] == '_')
				snprintf(name, sizeof name, "%s.%.*s", sel[i]->name, (int)(len - 4), key);
			else
				continue;
			json_object_set(p, name, v);
		}
	}
	return p;
}

void results_bench_run_free(struct bench_run *r)
{
	json_decref(r->pinned);
	r->pinned = NULL;
}

static json_t *summary_json(const double *v, size_t n, bool lower_is_better)
{
	struct summary s;

	stats_summarize(v, n, 1, lower_is_better, &s);
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)n,
		"median", s.median, "mean95", s.mean95, "mean", s.mean, "stddev", s.stddev,
		"cv", s.cv, "min", s.min, "max", s.max);
}

static json_t *metric_json(const struct wl_metric *m)
{
	json_t *j = summary_json(m->samples, m->n, m->lower_is_better), *runs = json_array();

	json_object_update_missing_new(j, json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", m->name,
		"workload", m->workload, "unit", m->unit, "direction",
		m->lower_is_better ? "lower" : "higher", "statistic",
		stat_name(stat_default(m->lower_is_better))));
	if (m->iters) {
		json_t *cal = json_array();

		for (size_t i = 0; i < WL_CALIBRATIONS; i++)
			json_array_append_new(cal, json_integer((json_int_t)m->calibrations[i]));
		json_object_set_new(j, "calls_per_sample", json_integer((json_int_t)m->iters));
		json_object_set_new(j, "calibrations", cal);
	}
	if (m->want_mode) {
		double *copy = xmalloc(m->n * sizeof *copy);

		memcpy(copy, m->samples, m->n * sizeof *copy);
		json_object_set_new(j, "mode", json_real(wl_mode(copy, m->n)));
		free(copy);
	}
	for (size_t r = 0; r < m->nruns; r++) {
		const double *v;
		size_t n = wl_run_samples(m, r, &v);
		json_t *run = summary_json(v, n, m->lower_is_better), *samples = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(samples, json_real(v[i]));
		json_object_set_new(run, "samples", samples);
		json_array_append_new(runs, run);
	}
	json_object_set_new(j, "runs", runs);
	return j;
}

static json_t *settings_json(const struct bench_record *b)
{
	json_t *names = json_array(), *tasks = json_array();
	const struct wl_options *o = b->o;

	for (size_t i = 0; i < b->nsel; i++)
		json_array_append_new(names, json_string(b->sel[i]->name));
	for (size_t i = 0; i < o->ntasks; i++)
		json_array_append_new(tasks, json_integer(o->tasks[i]));
	return json_pack("{s:o, s:i, s:s, s:o, s:i, s:o, s:s, s:i, s:f}", "workloads", names,
		"runs", (int)b->nruns, "modes", o->modes == WIS_PROCESSES ? "processes" :
		o->modes == WIS_THREADS ? "threads" : "both", "duration_s",
		o->duration_s > 0 ? json_real(o->duration_s) : json_string("default"),
		"warmup_intervals", (int)o->warmup, "tasks",
		o->ntasks ? tasks : (json_decref(tasks), json_string("1..ncpus")), "dir", o->dir,
		"align", (int)o->align, "elapsed_s", b->elapsed_s);
}

json_t *results_bench(const struct bench_record *b)
{
	json_t *doc = results_run_info("bench", b->argc, b->argv), *metrics = json_array();
	json_t *details = json_object(), *runs = json_array();

	json_object_set_new(doc, "bench", settings_json(b));
	for (unsigned r = 0; r < b->nruns; r++)
		json_array_append_new(runs, json_pack("{s:i, s:o, s:O}", "run", (int)r + 1,
			"state", results_state(&b->runs[r].state), "pinned", b->runs[r].pinned));
	json_object_set_new(doc, "runs", runs);
	for (size_t i = 0; i < b->nsel; i++) {
		for (size_t k = 0; k < b->res[i].n; k++)
			json_array_append_new(metrics, metric_json(b->res[i].m[k]));
		json_object_set(details, b->sel[i]->name,
				b->res[i].details ? b->res[i].details : json_null());
	}
	json_object_set_new(doc, "metrics", metrics);
	json_object_set_new(doc, "workloads", details);
	return doc;
}

/* ---- reading, for the page ---- */

/* A setting as the file says it: a string, a number (%.4g) or a list of
 * them (", " between, "?" for anything else); "" when it is absent. */
static void setting_text(const json_t *v, char *buf, size_t n)
{
	size_t i, used = 0;
	const json_t *e;

	buf[0] = '\0';
	if (json_is_string(v))
		snprintf(buf, n, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, n, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, n, "%.4g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, n, "%s", json_is_true(v) ? "yes" : "no");
	else if (json_is_array(v) && json_array_size(v))
		json_array_foreach(v, i, e) {
			char one[48];

			if (json_is_array(e) || json_is_object(e) || json_is_null(e))
				snprintf(one, sizeof one, "?");
			else
				setting_text(e, one, sizeof one);
			used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s",
						 i ? ", " : "", one);
			if (used >= n)
				break;
		}
	else if (v)
		snprintf(buf, n, "-");
}

static void add_name(struct bench_doc *b, const json_t *v)
{
	const char *name = json_string_value(v);

	if (!name || b->nworkloads == sizeof b->workloads / sizeof b->workloads[0])
		return;
	for (size_t i = 0; i < b->nworkloads; i++)
		if (strcmp(b->workloads[i], name) == 0)
			return;
	b->workloads[b->nworkloads++] = name;
}

void results_bench_doc(const struct result_file *f, struct bench_doc *b)
{
	static const char *const keys[BENCH_SETTINGS] = { "duration_s", "tasks", "modes",
							  "align", "elapsed_s" };
	const json_t *set = json_object_get(f->doc, "bench"), *said = json_object_get(set, "runs");
	const json_t *v;
	size_t i;

	memset(b, 0, sizeof *b);
	/* the settings' list (a workload without metrics, fault-write, is only
	 * there), then each metric's workload the list lacks */
	json_array_foreach(json_object_get(set, "workloads"), i, v)
		add_name(b, v);
	json_array_foreach(json_object_get(f->doc, "metrics"), i, v)
		add_name(b, json_object_get(v, "workload"));
	b->runs = f->n ? f->m[0].nruns : 0;
	b->runs_differ = said && !(json_is_integer(said) && (size_t)json_integer_value(said) == b->runs);
	setting_text(said, b->runs_said, sizeof b->runs_said);
	for (size_t k = 0; k < BENCH_SETTINGS; k++) {
		b->setting[k].key = keys[k];
		setting_text(json_object_get(set, keys[k]), b->setting[k].text,
			     sizeof b->setting[k].text);
		b->setting[k].present = json_object_get(set, keys[k]) != NULL;
	}
	b->states = xcalloc(json_array_size(f->states) + 1, sizeof *b->states);
	json_array_foreach(f->states, i, v) {
		struct bench_state *s = &b->states[b->nstates++];
		const json_t *load = json_array_get(json_object_get(v, "load"), 0);

		*s = (struct bench_state){ .seconds = doc_num(v, "seconds"),
			.load = json_is_number(load) ? json_number_value(load) : NAN,
			.steal_pct = doc_num(v, "steal_pct"), .others_pct = doc_num(v, "others_pct"),
			.busy_pct = doc_num(v, "busy_pct"), .cpus = doc_num(v, "cpus"), .mhz = doc_num(v, "mhz"),
			.clocksource = json_string_value(json_object_get(v, "clocksource")),
			.governor = json_string_value(json_object_get(v, "governor")) };
	}
}

void results_bench_doc_free(struct bench_doc *b)
{
	free(b->states);
	memset(b, 0, sizeof *b);
}

static void fault_probe_of(const json_t *o, struct fault_probe_read *p)
{
	*p = (struct fault_probe_read){ doc_str(o, "call"), doc_str(o, "error"),
		doc_int(o, "returned"), doc_int(o, "expected"), json_is_true(json_object_get(o, "pass")),
		json_is_true(json_object_get(o, "content_ok")) };
}

void results_workload_notes(const json_t *details, struct workload_notes *n)
{
	const json_t *runs = json_object_get(details, "runs");
	const json_t *last = json_array_get(runs, json_array_size(runs) - 1);

	fault_probe_of(json_object_get(last, "write"), &n->write);
	fault_probe_of(json_object_get(last, "read"), &n->read);
	n->cold = doc_str(details, "cold");
}
