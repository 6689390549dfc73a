/* straddle prove's table: each hot loop's predicted slowdown beside the
 * measured one, and whether the two say the same. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A loop slowdown and its CI; infinite: more than the loop's own time. */
static void format_loop(const struct loop_proof *p, char *buf, size_t n)
{
	char hi[16] = "inf";

	if (isinf(p->loop)) {
		snprintf(buf, n, "more than its share");
		return;
	}
	if (!isinf(p->loop_hi))
		snprintf(hi, sizeof hi, "%.3f", p->loop_hi);
	snprintf(buf, n, "%.3fx [%.3f, %s]", p->loop, p->loop_lo, hi);
}

static const char *agreement(const struct loop_proof *p)
{
	if (!proof_conclusive(p))
		return "-";
	if (proof_is_bound(p))
		return proof_agrees(p) ? "under its bound" : "DISAGREE";
	return proof_agrees(p) ? "agree" : "DISAGREE";
}

/* A replayed control the model missed: the loop ran at least the material
 * mark faster or slower there than today, where the model prices it as
 * today (measure/proof.h). */
static void missed_controls_note(const struct loop_trial *t, FILE *out)
{
	const struct loop_proof *r = &t->replay;

	for (size_t i = 0; t->replayed && i < r->nlayout && i < t->nlayout; i++) {
		const struct paired *c = &r->layout[i];

		if (r->control[i].missed)
			fprintf(out, "note: %s's loop replayed at %u of its line took %.3fx today's "
				"cycles [%.3f, %.3f] where the model prices it as today (its windows and "
				"branches today's): a layout effect the model does not see\n", t->func,
				t->layout[i], c->ratio, c->lo, c->hi);
	}
}

/* The largest change a layout control made, the noise the verdict allows for. */
static double layout_moved(const struct loop_proof *p)
{
	double most = 0;

	for (size_t i = 0; i < p->nlayout; i++)
		most = fmax(most, fabs(p->layout[i].ratio - 1));
	return most;
}

static void format_layout(const struct loop_proof *p, char *buf, size_t n)
{
	if (!p->nlayout)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "+-%.1f%% (%zu)", 100 * layout_moved(p), p->nlayout);
}

const char *const prove_columns[PROVE_COLUMNS] = { ">samples %", "loop", "function",
	"predicted", "moved", "loop replayed", "program at best", "layout moves",
	"loop from the program", "measured", "model" };

void prove_row(struct table *t, const struct loop_trial *x)
{
	char pct[16], loop[200], pred[48], prog[64], ls[64], place[32], layout[32], rp[64] = "-";

	snprintf(pct, sizeof pct, "%.1f", 100.0 * (double)x->samples / (double)x->run_samples);
	snprintf(loop, sizeof loop, "%s:%#" PRIx64, base_name(x->file), x->start);
	snprintf(pred, sizeof pred, "%s%.3fx %s", x->cost.at_most ? "<=" : "", x->cost.slowdown,
		 cost_bound_name(x->cost.bound));
	if (x->why_not[0]) {
		table_row(t, pct, loop, x->func, pred, "-", "-", "-", "-", "-", x->why_not, "-");
		return;
	}
	if (x->replayed)
		format_loop(&x->replay, rp, sizeof rp);
	else if (x->replay_why[0])
		snprintf(rp, sizeof rp, "not replayed");
	format_layout(&x->proof, layout, sizeof layout);
	snprintf(place, sizeof place, "%u -> %u", x->current, x->best);
	snprintf(prog, sizeof prog, "%+.1f%% [%+.1f, %+.1f]", 100 * (x->proof.program.ratio - 1),
		 100 * (x->proof.program.lo - 1), 100 * (x->proof.program.hi - 1));
	format_loop(&x->proof, ls, sizeof ls);
	if (x->check_why[0])
		snprintf(prog, sizeof prog, "not measured"), snprintf(ls, sizeof ls, "-");
	table_row(t, pct, loop, x->func, pred, place, rp, prog, layout, ls,
		  proof_verdict_name(proof_of_trial(x)->seen), agreement(proof_of_trial(x)));
}

/* The replayed loop against the program's time, the check: said when
 * both are conclusive and differ, or their intervals do not meet. */
static void check_note(const struct loop_trial *t, FILE *out)
{
	const struct loop_proof *r = &t->replay, *p = &t->proof;

	if (!t->replayed)
		return;
	if (r->seen != PROOF_INCONCLUSIVE && p->seen != PROOF_INCONCLUSIVE && r->seen != p->seen)
		fprintf(out, "note: %s's loop replayed says %s, the program's time %s: they disagree\n",
			t->func, proof_verdict_name(r->seen), proof_verdict_name(p->seen));
	else if (isfinite(p->loop) && (r->loop_hi < p->loop_lo || p->loop_hi < r->loop_lo))
		fprintf(out, "note: %s's loop replayed, %.3fx [%.3f, %.3f], and from the program's "
			"time, %.3fx [%.3f, %.3f], do not overlap\n", t->func, r->loop, r->loop_lo,
			r->loop_hi, p->loop, p->loop_lo, p->loop_hi);
}

/* What the rows say together, and what a row's numbers do not show. */
static void summary(const struct loop_trial *x, size_t n, FILE *out)
{
	struct proof_tally c = proof_tally(x, n);

	for (size_t i = 0; i < n; i++) {
		const struct loop_trial *t = &x[i];

		if (t->replay_why[0])
			fprintf(out, "note: %s's loop was not replayed: %s; judged by the program's time\n",
				t->func, t->replay_why);
		else if (t->inner_why[0])
			fprintf(out, "note: %s's loop %#" PRIx64 " was not replayed: %s; its inner loop "
				"%#" PRIx64 " (%.1f%% of the samples) was, at the same placements of "
				"its function\n", t->func, t->start, t->inner_why, t->inner_start,
				100.0 * (double)t->inner_samples / (double)t->run_samples);
		if (t->why_not[0])
			continue;
		if (t->check_why[0]) {
			fprintf(out, "note: %s's loop: %s\n", t->func, t->check_why);
			continue;
		}
		check_note(t, out);
		missed_controls_note(t, out);
		if (t->control.p < 0.05 && fabs(t->control.ratio - 1) > 0.01)
			fprintf(out, "note: %s's copy alone (the control against the unmoved program) "
				"changed the program by %+.1f%% (p %.2g)\n", t->func,
				100 * (t->control.ratio - 1), t->control.p);
		if (layout_moved(&t->proof) > 0.01)
			fprintf(out, "note: moving %s without changing its loop's windows changed the "
				"program by up to %.1f%%: the loop's measured slowdown allows for it\n",
				t->func, 100 * layout_moved(&t->proof));
		if (fabs(t->place_predicted - t->cost.slowdown) > 0.005)
			fprintf(out, "note: place's model of %s's loop alone (its span as one piece) "
				"predicts %.3fx, the scan %.3fx\n", t->func, t->place_predicted,
				t->cost.slowdown);
	}
	if (!c.conclusive && !c.inconclusive)
		return;
	fprintf(out, "the model and the measurement agree on %zu of %zu loops measured "
		"conclusively", c.agree, c.conclusive);
	if (c.replayed)
		fprintf(out, " (%zu by replaying the loop)", c.replayed);
	if (c.bounds)
		fprintf(out, "; %zu of them priced by a bound (<=), measured under it on %zu",
			c.bounds, c.bounds_held);
	if (c.inconclusive)
		fprintf(out, "; %zu inconclusive (more rounds, or a loop with more of the samples)",
			c.inconclusive);
	fputc('\n', out);
}

void report_prove_text(const struct loop_trial *x, size_t n, size_t at_best, double min_share,
		       const char *profile, FILE *out)
{
	struct table t;

	fprintf(out, "profile %s; predicted: the loop's slowdown today against the model's best "
		"placement, and what bounds it; measured: the loop replayed from the program's state "
		"at its best and today's (its cycles an iteration, 95%% CI), and the program moved "
		"there, as the loop's slowdown through its share, beside the layout controls (the "
		"function moved where the loop keeps its windows); the verdict is the replay's where "
		"there is one\n", profile);
	table_init(&t, PROVE_COLUMNS, prove_columns);
	for (size_t i = 0; i < n; i++)
		prove_row(&t, &x[i]);
	if (t.nrows)
		table_print(&t, out);
	else
		fprintf(out, "no loop with at least %g%% of the samples straddles a window it need not\n",
			100 * min_share);
	table_free(&t);
	if (at_best)
		fprintf(out, "%zu hot loop%s with at least %g%% of the samples %s at %s best "
			"placement: nothing to move\n", at_best, at_best == 1 ? "" : "s",
			100 * min_share, at_best == 1 ? "is" : "are", at_best == 1 ? "its" : "their");
	summary(x, n, out);
}
