/* The result file of `straddle sweep`: the clock, the settings, and one
 * metric per placed variant with every raw sample and what the layout model
 * predicted there. compare reads each sweep as one run (read.c). */
#include "head.h"
#include "scan.h"
#include "sweep.h"

static json_t *variant_json(const struct sweep *s, const struct variant *v)
{
	json_t *samples = json_array(), *pred = json_array();
	char name[96];

	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(samples, json_real(v->samples[i]));
	for (size_t i = 0; i < v->npredicted; i++)
		json_array_append_new(pred, results_hazard(&v->predicted[i]));
	snprintf(name, sizeof name, "%s@%u", v->k->name, v->offset);
	return json_pack("{s:s, s:s, s:i, s:i, s:s, s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:[f,f],"
			 " s:f, s:[f,f], s:f, s:f, s:[f,f], s:f, s:b, s:f, s:o, s:o}",
		"name", name, "kernel", v->k->name, "offset", (int)v->offset,
		"loop_offset", (int)((v->offset + v->k->loop_start) % 64),
		"unit", "ns", "direction", "lower", "iterations_per_sample", (json_int_t)v->iters,
		"median", v->sum.median, "mean95", v->sum.mean95, "stddev", v->sum.stddev,
		"cv", v->sum.cv, "min", v->sum.min, "ci", v->sum.ci_lo, v->sum.ci_hi,
		"floor", v->sum.floor, "floor_ci", v->sum.floor_lo, v->sum.floor_hi,
		"gbps", (double)s->size / v->sum.floor, "ratio", v->ratio,
		"half_ratios", v->half_ratio[0], v->half_ratio[1], "p_vs_best", v->p_vs_best, "slow", v->slow,
		"predicted_ratio", v->predicted_ratio, "predicted", pred, "samples", samples);
}

/* The offsets of kernel k where profile p predicts a hazard. */
static json_t *predicted_offsets(const struct sweep *s, const struct profile *p,
				 const struct kernel *k)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].k == k && sweep_predicts(p, &s->v[i]))
			json_array_append_new(a, json_integer(s->v[i].offset));
	return a;
}

/* The offsets of kernel k whose predicted mark (slow[i]) is slow. */
static json_t *slow_offsets(const struct sweep *s, const struct kernel *k, const bool *slow)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].k == k && slow[i])
			json_array_append_new(a, json_integer(s->v[i].offset));
	return a;
}

json_t *results_sweep(const struct sweep *s, const char *profile,
		      const struct profile *const *profiles, size_t nprofiles,
		      const struct kernel *const *kernels, size_t nkernels, int argc, char **argv)
{
	json_t *doc = results_run_info("sweep", argc, argv), *metrics = json_array();
	json_t *agreement = json_array();

	json_object_set_new(doc, "clock", json_pack("{s:s, s:f, s:f}", "source",
		s->clock.source, "ns_per_tick", s->clock.ns_per_tick, "resolution_ns",
		s->clock.resolution_ns));
	json_object_set_new(doc, "sweep", json_pack("{s:I, s:i, s:s, s:i, s:f, s:f, s:i, s:f, s:f,"
		" s:f, s:s, s:s}", "size", (json_int_t)s->size, "cpu", s->cpu, "stopped_by",
		s->stopped_by, "rounds", (int)s->rounds, "elapsed_s", s->elapsed_s,
		"precision", s->precision, "min_rounds", (int)s->min_rounds, "min_time_s",
		s->min_place_s, "alpha", s->alpha, "material", s->material,
		"profile", profile, "counters", s->counters.why));
	if (s->ncalls) {
		json_t *calls = json_array();

		for (size_t i = 0; i < s->ncalls; i++)
			json_array_append_new(calls, json_integer(s->calls[i]));
		json_object_set_new(json_object_get(doc, "sweep"), "calls", calls);
	}
	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(metrics, variant_json(s, &s->v[i]));
	json_object_set_new(doc, "metrics", metrics);
	/* each placed kernel against each profile: how many offsets the
	 * prediction agreed with, and where it predicts a hazard */
	bool *slow = xcalloc(s->n + 1, sizeof *slow);

	for (size_t k = 0; k < nkernels; k++)
		for (size_t p = 0; kernels[k]->placeable && p < nprofiles; p++) {
			size_t total, n = sweep_profile_agreement(s, profiles[p], kernels[k], &total, slow);

			json_array_append_new(agreement, json_pack("{s:s, s:s, s:i, s:i, s:o, s:o}",
				"kernel", kernels[k]->name, "profile", profiles[p]->name, "agree", (int)n,
				"offsets", (int)total, "predicted",
				predicted_offsets(s, profiles[p], kernels[k]),
				"predicted_slow", slow_offsets(s, kernels[k], slow)));
		}
	free(slow);
	json_object_set_new(doc, "agreement", agreement);
	return doc;
}
