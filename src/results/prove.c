/* The result file of `straddle prove`: each hot loop, the cost model's
 * prediction and what place measured of it. */
#include "json.h"
#include "head.h"
#include "prove.h"

#include <math.h>

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* null where no round was run (a replay's program check not run) */
static json_t *paired_json(const struct paired *p)
{
	if (!p->n)
		return json_null();
	return json_pack("{s:o, s:[o,o], s:o, s:i}", "ratio", number_or_null(p->ratio), "ci",
			 number_or_null(p->lo), number_or_null(p->hi), "p", number_or_null(p->p),
			 "rounds", (int)p->n);
}

/* The layout controls, each at its offset, and what they leave of the
 * best's change: the window's (measure/proof.c). */
static json_t *layout_json(const struct loop_trial *t)
{
	const struct loop_proof *p = &t->proof;
	json_t *arms = json_array();

	for (size_t i = 0; i < p->nlayout && i < t->nlayout; i++) {
		json_t *a = paired_json(&p->layout[i]);

		json_object_set_new(a, "offset", json_integer(t->layout[i]));
		json_array_append_new(arms, a);
	}
	return json_pack("{s:o, s:o, s:{s:o, s:[o,o]}}", "controls", arms, "sd",
			 number_or_null(p->layout_sd), "window", "ratio", number_or_null(p->window),
			 "ci", number_or_null(p->window_lo), number_or_null(p->window_hi));
}

/* The loop replayed: its best over today's cycles an iteration, the
 * layout controls', the loop's slowdown and verdict; or why it was not. */
static json_t *replay_json(const struct loop_trial *t)
{
	const struct loop_proof *p = &t->replay;
	json_t *arms, *r;
	char lo[20], hi[20];

	if (!t->replayed)
		return t->replay_why[0] ? json_pack("{s:s}", "not_replayed", t->replay_why) : json_null();
	arms = json_array();
	/* each control judged against the model (measure/proof.h) */
	for (size_t i = 0; i < p->nlayout && i < t->nlayout; i++) {
		json_t *a = paired_json(&p->layout[i]);

		json_object_set_new(a, "offset", json_integer(t->layout[i]));
		json_object_set_new(a, "verdict", json_string(proof_verdict_name(p->control[i].seen)));
		json_object_set_new(a, "missed", json_boolean(p->control[i].missed));
		json_array_append_new(arms, a);
	}
	r = json_pack("{s:i, s:o, s:o, s:{s:o, s:[o,o]}, s:s, s:i, s:b}", "snapshots",
		      (int)t->snapshots, "best", paired_json(&p->program), "controls", arms, "loop",
		      "slowdown", number_or_null(p->loop), "ci", number_or_null(p->loop_lo),
		      number_or_null(p->loop_hi), "verdict", proof_verdict_name(p->seen),
		      "controls_missed", (int)proof_controls_missed(p), "agree", proof_agrees(p));
	if (p->aa.n) {
		json_object_set_new(r, "aa", paired_json(&p->aa));
		json_object_set_new(r, "aa_band", number_or_null(p->aa_band));
	}
	if (p->copies > 1)
		json_object_set_new(r, "copies", json_pack("{s:i, s:f, s:f}", "each", (int)p->copies,
				    "sd", sqrt(p->spread.var), "df", p->spread.df));
	/* the loop made a system call: its inner loop replayed in its stead */
	if (t->inner_why[0])
		json_object_set_new(r, "inner", json_pack("{s:s, s:s, s:I, s:s}", "start",
				    hex_addr(lo, t->inner_start), "end", hex_addr(hi, t->inner_end),
				    "samples", (json_int_t)t->inner_samples, "outer_refused", t->inner_why));
	return r;
}

static json_t *measured_json(const struct loop_trial *t)
{
	const struct loop_proof *p = &t->proof, *v = proof_of_trial(t);
	json_t *m;

	if (t->why_not[0])
		return json_pack("{s:s, s:i, s:o}", "not_measured", t->why_not, "rounds_needed",
				 (int)t->rounds_needed, "replay", replay_json(t));
	/* verdict and agree: the replay's where there is one (by), the
	 * program's own as program_verdict */
	m = json_pack("{s:i, s:i, s:i, s:i, s:f, s:o, s:o, s:o, s:{s:o, s:[o,o]}, s:s, s:b}",
			 "rounds", (int)t->rounds, "rounds_needed", (int)t->rounds_needed, "current",
			 (int)t->current, "best", (int)t->best, "place_predicted",
			 doc_three_places(t->place_predicted), "program", paired_json(&p->program), "control",
			 paired_json(&t->control), "layout", layout_json(t), "loop", "slowdown",
			 number_or_null(p->loop), "ci", number_or_null(p->loop_lo),
			 number_or_null(p->loop_hi), "verdict", proof_verdict_name(v->seen), "agree",
			 proof_agrees(v));
	json_object_set_new(m, "by", json_string(t->replayed ? "replay" : "program"));
	json_object_set_new(m, "program_verdict", t->check_why[0] ? json_null() :
			    json_string(proof_verdict_name(p->seen)));
	if (t->check_why[0])
		json_object_set_new(m, "program_not_measured", json_string(t->check_why));
	json_object_set_new(m, "replay", replay_json(t));
	return m;
}

static json_t *trial_json(const struct loop_trial *t)
{
	char a[20], b[20];

	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:f, s:[f,f], s:{s:f, s:s, s:f, s:f, s:b},"
			 " s:s, s:o}",
			 "file", t->file, "function", t->func, "start", hex_addr(a, t->start), "end",
			 hex_addr(b, t->end), "samples", (json_int_t)t->samples, "run_samples",
			 (json_int_t)t->run_samples, "share", t->proof.share, "share_ci", t->proof.share_lo,
			 t->proof.share_hi, "cost", "slowdown",
			 doc_three_places(t->cost.slowdown), "bound", cost_bound_name(t->cost.bound),
			 "back_end", doc_three_places(t->cost.back_end), "branch",
			 doc_three_places(t->cost.branch), "at_most", t->cost.at_most, "predicted",
			 proof_verdict_name(t->proof.said), "measured", measured_json(t));
}

json_t *results_prove(const struct loop_trial *t, size_t n, const char *profile, int argc,
		      char **argv)
{
	json_t *doc = results_run_info("prove", argc, argv), *loops = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(loops, trial_json(&t[i]));
	json_object_set_new(doc, "profile", json_string(profile));
	json_object_set_new(doc, "loops", loops);
	return doc;
}
