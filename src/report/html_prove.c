/* The prove section of the page of `straddle report`: prove's own table
 * (report/prove.c's report_prove_text), row for row and cell for cell,
 * of the trials its document records (results_read_prove), then whether
 * the model and the measurement agree. test_readers checks the cells
 * against the text's. */
#include "internal.h"

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

static void trial_row(struct table *t, const struct loop_trial *x)
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

static void prove_summary(FILE *out, const struct prove_doc *p)
{
	size_t agree = 0, conclusive = 0, inconclusive = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct loop_proof *x = &p->trial[i].proof;

		if (p->trial[i].why_not[0])
			continue;
		inconclusive += x->seen == PROOF_INCONCLUSIVE;
		conclusive += x->seen != PROOF_INCONCLUSIVE;
		agree += x->seen != PROOF_INCONCLUSIVE && x->seen == x->said;
	}
	fputs("<p class=\"summary\">Profile ", out);
	html_text(out, text_or(p->profile, "-"));
	if (conclusive + inconclusive)
		fprintf(out, "; the model and the measurement agree on %zu of %zu loops measured "
			"conclusively%s", agree, conclusive, inconclusive ? "" : ".");
	if (inconclusive)
		fprintf(out, "; %zu inconclusive (more rounds, or a loop with more of the samples).",
			inconclusive);
	fputs(conclusive + inconclusive ? "</p>\n" : ": no loop measured.</p>\n", out);
}

void html_section_prove(FILE *out, const struct report_input *in)
{
	static const char *const cols[] = { ">samples %", "loop", "function", "predicted",
		"moved", "program at best", "loop slowdown measured", "measured", "model" };
	const struct prove_doc *p = &in->prove;
	size_t shown = p->n < HTML_ROWS ? p->n : HTML_ROWS;
	struct table t;

	html_section_begin(out, in, "prove");
	prove_summary(out, p);
	fputs("<p>predicted: the loop's slowdown today against the model's best placement, and "
	      "what bounds it; measured: the program moved there (95% CI), as the loop's "
	      "slowdown through its share.</p>\n", out);
	table_init(&t, sizeof cols / sizeof *cols, cols);
	t.wrap[1] = t.wrap[2] = t.wrap[7] = true;
	for (size_t i = 0; i < shown; i++)
		trial_row(&t, &p->trial[i]);
	if (t.nrows)
		table_html(&t, out, "prove");
	else
		fputs("<p class=\"none\">No hot loop straddles a window it need not.</p>\n", out);
	table_free(&t);
	html_more(out, shown, p->n, "loops");
	html_section_end(out);
}
