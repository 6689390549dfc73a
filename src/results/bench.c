/* The result file of `straddle bench` (DESIGN: Result files; issue 12):
 * the settings, one entry per run with the machine's state over it, and
 * per metric its batch size and every raw sample, run by run. */
#include "results.h"
#include "../stats/stats.h"

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
