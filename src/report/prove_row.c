/* One row of prove's table (issue 26's columns: samples %, loop,
 * function, predicted, moved, program at best, loop slowdown measured,
 * measured, model), for the page's prove section; report/prove.c's text
 * has the same cells (its own trial_row, to be replaced by this one:
 * test_readers checks the two agree). */
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
static void loop_cell(const struct loop_proof *p, char *buf, size_t n)
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
	if (p->seen == PROOF_INCONCLUSIVE)
		return "-";
	return p->seen == p->said ? "agree" : "DISAGREE";
}

void prove_row(struct table *t, const struct loop_trial *x)
{
	char pct[16], loop[200], pred[48], prog[64], ls[64], place[32];

	snprintf(pct, sizeof pct, "%.1f", 100.0 * (double)x->samples / (double)x->run_samples);
	snprintf(loop, sizeof loop, "%s:%#" PRIx64, base_name(x->file), x->start);
	snprintf(pred, sizeof pred, "%.3fx %s", x->cost.slowdown, cost_bound_name(x->cost.bound));
	if (x->why_not[0]) {
		table_row(t, pct, loop, x->func, pred, "-", "-", "-", x->why_not, "-");
		return;
	}
	snprintf(place, sizeof place, "%u -> %u", x->current, x->best);
	snprintf(prog, sizeof prog, "%+.1f%% [%+.1f, %+.1f]", 100 * (x->proof.program.ratio - 1),
		 100 * (x->proof.program.lo - 1), 100 * (x->proof.program.hi - 1));
	loop_cell(&x->proof, ls, sizeof ls);
	table_row(t, pct, loop, x->func, pred, place, prog, ls,
		  proof_verdict_name(x->proof.seen), agreement(&x->proof));
}
