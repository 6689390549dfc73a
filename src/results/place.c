/* The result file of `straddle place`: what was moved and refused, how the
 * runs went, and one metric per arm with every raw sample, in a sweep's shape
 * (a function, as "kernel", at an offset), so compare and report read it as
 * they read a sweep. */
#include "json.h"
#include "head.h"
#include "scan.h"
#include "place.h"
#include "../measure/replay.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *arm_json(const struct place_experiment *x, const char *subject,
			const struct place_arm *a)
{
	json_t *samples = json_array(), *pred = json_array();
	char name[160];

	for (size_t i = 0; i < a->n; i++)
		json_array_append_new(samples, json_real(a->v[i]));
	for (size_t i = 0; i < a->npredicted; i++)
		json_array_append_new(pred, results_hazard(&a->predicted[i]));
	snprintf(name, sizeof name, "%s@%s", subject, a->name);
	const char *u = x->replay ? (x->replay->clock_gettime ? "ns" : "cycles") : x->metric ? "" : "s";
	/* ratio, its interval and p: against the best of the even rounds, on
	 * the odd ones (tested_rounds), p adjusted for the arms tested */
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:f, s:[f,f], s:f, s:f, s:f, s:o, s:i,"
			 " s:b, s:b, s:b, s:f, s:f, s:o, s:o}", "name", name, "kernel", subject,
		"arm", a->name, "offset", (int)a->offset, "unit", u, "direction",
		x->higher ? "higher" : "lower", "median", a->sum.median, "ci", a->sum.ci_lo,
		a->sum.ci_hi, "stddev", a->sum.stddev, "cv", a->sum.cv, "ratio", a->ratio,
		"ratio_ci", a->mark.n >= 2 ? json_pack("[f,f]", a->mark.lo, a->mark.hi) : json_null(),
		"tested_rounds", (int)a->mark.n, "reference", a->mark.reference, "slow", a->slow,
		"surely_not_slow", a->mark.fast, "p_vs_best", a->p, "predicted_slowdown",
		doc_three_places(a->predicted_slowdown), "predicted",
		pred, "samples", samples);
}

static json_t *place_json(const struct place_experiment *x, const char *loop)
{
	return json_pack("{s:s, s:s?, s:s?, s:i, s:i, s:s, s:i, s:f, s:s, s:s, s:{s:f, s:f},"
			 " s:{s:f, s:s}}",
		"file", x->rf[0].img.path, "function", x->subject ? x->subject->name : NULL,
		"loop", x->subject ? loop : NULL, "current", (int)x->current, "align",
		(int)x->align, "measure", x->replay ? "replay" : x->metric ? x->metric_text :
		x->wall ? "wall" : "cpu",
		"rounds", (int)x->rounds, "elapsed_s", x->elapsed_s, "stopped_by", x->stopped_by,
		"profile", x->profile->name, "apply_us", "median", experiment_apply_median_us(x), "max",
		experiment_apply_max_us(x), "back_end", "cycles", x->back_end.cycles, "source",
		cost_source_name(x->back_end.source));
}

/* --offsets random: the program's layout noise (Stabilizer's question;
 * Mytkowicz et al., ASPLOS 2009): how far a new layout of the moved code
 * moves it, as the central 95% of the random arm's runs around the
 * control's median (band_pct: its half-width), beside both CVs. */
static json_t *layout_noise(const struct place_experiment *x)
{
	const struct place_arm *r = NULL, *ctl = NULL;
	double *v, lo, hi;

	for (size_t i = 0; i < x->narms; i++) {
		if (x->arm[i].kind == PLACE_RANDOM)
			r = &x->arm[i];
		if (x->arm[i].kind == PLACE_CONTROL)
			ctl = &x->arm[i];
	}
	if (!r || !ctl || r->n < 2 || !ctl->sum.median)
		return json_null();
	v = xcalloc(r->n, sizeof *v);
	memcpy(v, r->v, r->n * sizeof *v);
	stats_sort(v, r->n);
	lo = stats_quantile_sorted(v, r->n, 0.025), hi = stats_quantile_sorted(v, r->n, 0.975);
	free(v);
	return json_pack("{s:f, s:f, s:f, s:f, s:i}", "band_pct",
		100 * fmax(fabs(hi - ctl->sum.median), fabs(ctl->sum.median - lo)) / ctl->sum.median,
		"low_pct", 100 * (lo - ctl->sum.median) / ctl->sum.median, "high_pct",
		100 * (hi - ctl->sum.median) / ctl->sum.median, "cv", r->sum.cv, "runs", (int)r->n);
}

/* --replay: how the snapshots went, what failed, each copy's fixed cost,
 * and every snapshot's raw ticks (-1 past the bound, -2 diverged, -3 a
 * signal, -4 the filter). */
static json_t *replay_json(const struct place_experiment *x)
{
	const struct replay_data *r = x->replay;
	const struct replay_counts *n = &r->n;
	json_t *copies = json_array(), *snaps = json_array(), *j;
	struct copies_spread sp;

	for (size_t k = 0; k < r->ncopies; k++) {
		json_t *rounds = json_array();

		for (size_t i = 0; r->copy_v && i < x->rounds; i++)
			json_array_append_new(rounds, json_real(r->copy_v[k * r->copy_stride + i]));
		json_array_append_new(copies, json_pack("{s:s, s:i, s:f, s:o}", "arm",
			x->arm[r->arm[k]].name, "offset", (int)x->arm[r->arm[k]].offset, "fixed",
			r->fixed[k], "rounds", rounds));
	}
	for (size_t i = 0; i < r->ns; i++) {
		json_t *c = json_array();

		for (size_t k = 0; k < r->ncopies; k++)
			json_array_append_new(c, json_integer(r->c[i * r->ncopies + k]));
		json_array_append_new(snaps, json_pack("{s:i, s:I, s:b, s:b, s:o}", "run",
			(int)r->s[i].run, "iterations", (json_int_t)r->s[i].iterations, "complete",
			r->s[i].complete, "disturbed", r->s[i].disturbed, "ticks", c));
	}
	j = json_pack("{s:s?, s:s, s:s?, s:f, s:i, s:i, s:i, s:i, s:[I,I], s:b, s:f, s:f,"
			 " s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i}, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o}",
		"refused", r->refused[0] ? r->refused : NULL, "clock", r->clock_gettime ?
		"clock_gettime" : "tsc", "clock_why", r->clock_why[0] ? r->clock_why : NULL,
		"tsc_ghz", r->ns_per_tick > 0 ? 1 / r->ns_per_tick : 0, "runs", (int)n->runs,
		"complete", (int)r->used, "per_round", (int)r->per_round, "rounds", (int)x->rounds,
		"iterations", (json_int_t)r->iter_min, (json_int_t)r->iter_max, "fixed_known",
		r->fixed_known, "bound_s", r->bound_s, "tick_ms", r->tick_ns / 1e6, "lost",
		"probe_late", (int)n->probe_late, "probe_killed", (int)n->probe_killed,
		"probe_signal", (int)n->probe_signal, "timed_late", (int)n->timed_late,
		"timed_diverged", (int)n->timed_diverged, "timed_signalled", (int)n->timed_signalled,
		"timed_filtered", (int)n->timed_filtered, "trapped", (int)n->trapped, "overflow",
		(int)n->overflow, "forks", (int)n->forks, "armed", (int)n->arms, "fired",
		(int)n->fired, "children", (int)n->children, "reaped", (int)n->reaped, "copies", copies,
		"snapshots", snaps);
	/* the rounds' shortest replay: the longer half's (replay_fit) */
	json_object_set_new(j, "iter_floor", json_integer((json_int_t)r->iter_floor));
	/* what a run of the program costs, the program's time measured
	 * (prove's check of the replay: self/prove.c) */
	json_object_set_new(j, "unmoved_s", json_real(r->unmoved_s));
	replay_spread(x, false, &sp);
	json_object_set_new(j, "copies_each", json_integer(r->copies ? r->copies : 1));
	json_object_set_new(j, "cpu", r->cpu >= 0 ? json_integer(r->cpu) : json_null());
	json_object_set_new(j, "copy_sd", json_real(sqrt(sp.var)));
	json_object_set_new(j, "copy_df", json_real(sp.df));
	return j;
}

/* What stopped a failed experiment: the arm, why, the run's end and the
 * last lines of its standard error. */
static json_t *failure_json(const struct place_failure *f)
{
	char st[48] = "";

	if (f->has_status)
		spawn_status_text(f->status, st, sizeof st);
	return json_pack("{s:s, s:s, s:s?, s:s}", "arm", f->arm, "why", f->why, "status",
			 f->has_status ? st : NULL, "stderr", f->stderr_lines);
}

json_t *results_place(const struct place_experiment *x, const char *subject,
		      const size_t refused[RELOC_NREFUSALS], int argc, char **argv)
{
	json_t *doc = results_run_info("place", argc, argv), *metrics = json_array();
	json_t *why = json_object();
	char loop[48], a[20], b[20];

	snprintf(loop, sizeof loop, "%s..%s", hex_addr(a, x->loop_start), hex_addr(b, x->loop_end));
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (refused[r])
			json_object_set_new(why, reloc_refusal_name(r), json_integer((json_int_t)refused[r]));
	json_object_set_new(doc, "place", place_json(x, loop));
	json_object_set_new(doc, "layout_noise", layout_noise(x));
	/* identical only where the output was compared: an unchecked run is
	 * no identical one (every run of an arm that crashed read "identical"
	 * under --no-output-check) */
	json_object_set_new(doc, "output_check", json_pack("{s:i, s:o, s:i, s:b, s:s, s:i}", "runs",
		(int)(x->checked ? x->checked - 1 : 0), "identical", x->no_output_check ?
		json_null() : json_integer(x->identical), "same_status", (int)x->same_status,
		"checked", !x->no_output_check, "stdin", x->input ? x->input->what : "/dev/null",
		"runs_without_perf_map", (int)x->no_map));
	if (x->base_note[0])
		json_object_set_new(doc, "unmoved_note", json_string(x->base_note));
	json_object_set_new(doc, "moved", json_pack("{s:i, s:o}", "functions",
		(int)refused[RELOC_OK], "refused", why));
	if (x->failure.failed)
		json_object_set_new(doc, "failure", failure_json(&x->failure));
	if (x->replay)
		json_object_set_new(doc, "replay", replay_json(x));
	for (size_t i = 0; i < x->narms && !x->failure.failed && !(x->replay && x->replay->refused[0]);
	     i++)
		if (!x->replay || x->arm[i].kind == PLACE_CONTROL || x->arm[i].kind == PLACE_OFFSET)
			json_array_append_new(metrics, arm_json(x, subject, &x->arm[i]));
	json_object_set_new(doc, "metrics", metrics);
	return doc;
}

int results_place_arm(const struct result_file *f, const char *arm, struct place_arm_result *out)
{
	json_t *metrics = json_object_get(f->doc, "metrics");

	for (size_t i = 0; i < f->n && i < json_array_size(metrics); i++) {
		json_t *o = json_array_get(metrics, i);
		const char *name = json_string_value(json_object_get(o, "arm"));

		if (!name || strcmp(name, arm) != 0 || !f->m[i].nruns)
			continue;
		out->offset = (uint32_t)json_integer_value(json_object_get(o, "offset"));
		out->predicted = json_number_value(json_object_get(o, "predicted_slowdown"));
		out->v = f->m[i].runs[0].v;
		out->n = f->m[i].runs[0].n;
		return 0;
	}
	return -1;
}

int results_place_arms(const struct result_file *const *f, size_t nf, const char *name,
			struct proof_arm *out)
{
	*out = (struct proof_arm){ 0 };
	for (size_t i = 0; i < nf; i++) {
		struct place_arm_result a;

		if (results_place_arm(f[i], name, &a)) {
			free(out->v);
			out->v = NULL;
			return -1;
		}
		out->v = xrealloc(out->v, (out->n + a.n + 1) * sizeof *out->v);
		memcpy(out->v + out->n, a.v, a.n * sizeof *a.v);
		out->n += a.n;
		if (i == 0)
			out->predicted = a.predicted, out->offset = a.offset;
	}
	return 0;
}

int results_place_pace(const struct result_file *f, unsigned *rounds, double *elapsed_s)
{
	const json_t *pl = json_object_get(f->doc, "place");

	if (strcmp(f->command, "place") != 0 || !pl)
		return -1;
	*rounds = (unsigned)doc_int(pl, "rounds");
	*elapsed_s = doc_num(pl, "elapsed_s");
	return 0;
}

int results_place_layout_band(const struct result_file *f, double *band_pct)
{
	const json_t *band = json_object_get(json_object_get(f->doc, "layout_noise"), "band_pct");

	if (strcmp(f->command, "place") != 0 || !json_is_number(band))
		return -1;
	*band_pct = json_number_value(band);
	return 0;
}

int results_place_replay_refused(const struct result_file *f, char *why, size_t n)
{
	const char *r = doc_str(json_object_get(f->doc, "replay"), "refused");

	if (!r)
		return 0;
	snprintf(why, n, "%s", r);
	return 1;
}

int results_place_replay_short(const struct result_file *f, char *why, size_t n)
{
	const json_t *r = json_object_get(f->doc, "replay"), *it = json_object_get(r, "iterations");

	if (!r || json_is_true(json_object_get(r, "fixed_known")))
		return 0;
	snprintf(why, n, "its replays ran %lld..%lld iterations of the loop, too alike to tell a "
		 "replay's own cost (its entry, exit and clock) from the iterations'",
		 (long long)json_integer_value(json_array_get(it, 0)),
		 (long long)json_integer_value(json_array_get(it, 1)));
	return 1;
}

void results_place_copies(const struct result_file *f, const char *name, struct proof_arm *out)
{
	const json_t *copies = json_object_get(json_object_get(f->doc, "replay"), "copies"), *c;
	size_t i, k = 0;

	out->copy = NULL, out->ncopies = 0;
	json_array_foreach(copies, i, c) {
		const json_t *rounds = json_object_get(c, "rounds"), *v;
		const char *arm = json_string_value(json_object_get(c, "arm"));
		size_t r;

		if (!arm || strcmp(arm, name) != 0 || json_array_size(rounds) != out->n)
			continue;
		out->copy = xrealloc(out->copy, (k + 1) * out->n * sizeof *out->copy + 1);
		json_array_foreach(rounds, r, v)
			out->copy[k * out->n + r] = json_number_value(v);
		k++;
	}
	out->ncopies = k;
}

unsigned results_place_snapshots(const struct result_file *f)
{
	const json_t *r = json_object_get(f->doc, "replay");

	return r ? (unsigned)doc_int(r, "complete") : 0;
}

double results_place_unmoved_s(const struct result_file *f)
{
	const json_t *r = json_object_get(f->doc, "replay");

	return r ? doc_num(r, "unmoved_s") : 0;
}
