/* prove's result file read back (results_prove writes it, prove.c): the
 * trials as prove made them, so the page's prove section has the rows of
 * prove's own table. */
#include "json.h"
#include "scan.h"
#include "prove.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static enum proof_verdict verdict_named(const char *name)
{
	for (int v = PROOF_NOTHING; v <= PROOF_SLOWER_AT_BEST; v++)
		if (name && !strcmp(proof_verdict_name((enum proof_verdict)v), name))
			return (enum proof_verdict)v;
	return PROOF_INCONCLUSIVE;
}

/* A measured slowdown: null is what results_prove writes for INFINITY
 * ("more than its share"). */
static double slowdown_at(const json_t *o, const char *key, size_t i)
{
	const json_t *v = i == (size_t)-1 ? json_object_get(o, key) :
		json_array_get(json_object_get(o, key), i);

	return json_is_number(v) ? json_number_value(v) : INFINITY;
}

static void paired_of(const json_t *o, struct paired *p)
{
	*p = (struct paired){ doc_num(o, "ratio"), doc_num_at(o, "ci", 0), doc_num_at(o, "ci", 1),
		doc_num(o, "p"), (size_t)doc_int(o, "rounds") };
}

/* The layout controls (measure/proof.c): each at its offset, their
 * spread, and the change they leave to the window. */
static void layout_of(const json_t *o, struct loop_trial *t)
{
	const json_t *arms = json_object_get(o, "controls"), *w = json_object_get(o, "window");
	size_t n = json_array_size(arms);

	/* the program's controls are the first of the replay's (read first) */
	t->proof.nlayout = n < PROOF_LAYOUT_MAX ? n : PROOF_LAYOUT_MAX;
	if (t->nlayout < t->proof.nlayout)
		t->nlayout = t->proof.nlayout;
	for (size_t i = 0; i < t->proof.nlayout; i++) {
		paired_of(json_array_get(arms, i), &t->proof.layout[i]);
		t->layout[i] = (uint32_t)doc_int(json_array_get(arms, i), "offset");
	}
	t->proof.layout_sd = doc_num(o, "sd");
	t->proof.window = doc_num(w, "ratio");
	t->proof.window_lo = doc_num_at(w, "ci", 0);
	t->proof.window_hi = doc_num_at(w, "ci", 1);
}

/* The inner loop replayed in the loop's stead, and why the loop was not
 * (a system call), as results_prove wrote them. */
static void inner_of(const json_t *in, struct loop_trial *t)
{
	const char *why = doc_str(in, "outer_refused");

	if (!json_is_object(in) || !why)
		return;
	t->inner_start = results_addr(in, "start");
	t->inner_end = results_addr(in, "end");
	t->inner_samples = (uint64_t)doc_int(in, "samples");
	snprintf(t->inner_why, sizeof t->inner_why, "%s", why);
}

/* The loop replayed, as results_prove wrote it. */
static void replay_of(const json_t *r, struct loop_trial *t)
{
	const json_t *loop = json_object_get(r, "loop"), *arms = json_object_get(r, "controls");
	const char *why = doc_str(r, "not_replayed");

	if (why)
		snprintf(t->replay_why, sizeof t->replay_why, "%s", why);
	if (!json_is_object(r) || why)
		return;
	t->replayed = true;
	t->snapshots = (unsigned)doc_int(r, "snapshots");
	t->replay = (struct loop_proof){ .share = 1, .predicted = t->proof.predicted,
		.at_most = t->proof.at_most,
		.said = t->proof.said, .each_control = true };
	paired_of(json_object_get(r, "best"), &t->replay.program);
	if (json_object_get(r, "aa"))
		paired_of(json_object_get(r, "aa"), &t->replay.aa);
	t->replay.aa_band = json_is_number(json_object_get(r, "aa_band")) ? doc_num(r, "aa_band") : 0;
	if (json_is_object(json_object_get(r, "copies"))) {
		const json_t *c = json_object_get(r, "copies");
		double sd = doc_num(c, "sd");

		t->replay.copies = (unsigned)doc_int(c, "each");
		t->replay.spread = (struct copies_spread){ sd * sd, doc_num(c, "df") };
	}
	for (size_t i = 0; i < json_array_size(arms) && i < PROOF_LAYOUT_MAX; i++) {
		const json_t *a = json_array_get(arms, i);

		/* older files judged no control alone: inconclusive, none missed */
		t->replay.control[i] = (struct control_verdict){
			verdict_named(doc_str(a, "verdict")), json_is_true(json_object_get(a, "missed")) };
		paired_of(a, &t->replay.layout[t->replay.nlayout++]);
		t->layout[i] = (uint32_t)doc_int(a, "offset");
	}
	t->nlayout = t->replay.nlayout;
	t->replay.loop = slowdown_at(loop, "slowdown", (size_t)-1);
	t->replay.loop_lo = slowdown_at(loop, "ci", 0);
	t->replay.loop_hi = slowdown_at(loop, "ci", 1);
	t->replay.seen = verdict_named(doc_str(r, "verdict"));
	inner_of(json_object_get(r, "inner"), t);
}

static void measured_of(const json_t *m, struct loop_trial *t)
{
	const json_t *loop = json_object_get(m, "loop");
	const char *why = doc_str(m, "not_measured");
	const char *prog = doc_str(m, "program_verdict");
	const char *unchecked = doc_str(m, "program_not_measured");

	replay_of(json_object_get(m, "replay"), t);
	if (why || !json_is_object(m)) {
		snprintf(t->why_not, sizeof t->why_not, "%s", why ? why : "not measured");
		return;
	}
	t->current = (uint32_t)doc_int(m, "current");
	t->best = (uint32_t)doc_int(m, "best");
	t->place_predicted = (float)doc_num(m, "place_predicted");
	paired_of(json_object_get(m, "program"), &t->proof.program);
	paired_of(json_object_get(m, "control"), &t->control);
	layout_of(json_object_get(m, "layout"), t);
	t->rounds = (unsigned)t->proof.program.n;
	t->proof.loop = slowdown_at(loop, "slowdown", (size_t)-1);
	t->proof.loop_lo = slowdown_at(loop, "ci", 0);
	t->proof.loop_hi = slowdown_at(loop, "ci", 1);
	/* older files: the verdict is the program's */
	t->proof.seen = verdict_named(prog ? prog : doc_str(m, "verdict"));
	if (unchecked) {
		snprintf(t->check_why, sizeof t->check_why, "%s", unchecked);
		t->proof.seen = PROOF_INCONCLUSIVE;
	}
}

static void trial_of(const json_t *o, struct loop_trial *t)
{
	const json_t *cost = json_object_get(o, "cost");
	const char *file = doc_str(o, "file"), *func = doc_str(o, "function");

	memset(t, 0, sizeof *t);
	t->file = xstrdup(file ? file : "-");
	t->func = xstrdup(func ? func : "-");
	t->start = results_addr(o, "start");
	t->end = results_addr(o, "end");
	t->samples = (uint64_t)doc_int(o, "samples");
	t->run_samples = (uint64_t)doc_int(o, "run_samples");
	t->proof.share = doc_num(o, "share");
	t->proof.share_lo = doc_num_at(o, "share_ci", 0);
	t->proof.share_hi = doc_num_at(o, "share_ci", 1);
	t->cost.slowdown = (float)doc_num(cost, "slowdown");
	t->cost.bound = (uint8_t)results_cost_bound(doc_str(cost, "bound"));
	t->cost.back_end = (float)doc_num(cost, "back_end");
	t->cost.branch = json_is_number(json_object_get(cost, "branch")) ?
			 (float)doc_num(cost, "branch") : 0;      /* older files: none */
	t->cost.at_most = json_is_true(json_object_get(cost, "at_most"));
	t->proof.predicted = t->cost.slowdown, t->proof.at_most = t->cost.at_most;
	t->proof.said = verdict_named(doc_str(o, "predicted"));
	measured_of(json_object_get(o, "measured"), t);
}

void results_read_prove(const json_t *doc, struct prove_doc *p)
{
	const json_t *loops = json_object_get(doc, "loops");

	p->profile = doc_str(doc, "profile");
	p->n = json_array_size(loops);
	p->trial = xcalloc(p->n + 1, sizeof *p->trial);
	for (size_t i = 0; i < p->n; i++)
		trial_of(json_array_get(loops, i), &p->trial[i]);
}

void results_prove_doc_free(struct prove_doc *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->trial[i].file);
		free(p->trial[i].func);
	}
	free(p->trial);
	memset(p, 0, sizeof *p);
}
