/* The prove section of the page of `straddle report`: prove's own table
 * (report/prove.c's columns and prove_row, as its text prints them) of the
 * trials its document records (results_read_prove), then whether the
 * model and the measurement agree. test_readers checks the cells against
 * the text's. */
#include "internal.h"

static void prove_summary(FILE *out, const struct prove_doc *p)
{
	struct proof_tally c = proof_tally(p->trial, p->n);

	fputs("<p class=\"summary\">Profile ", out);
	html_text(out, text_or(p->profile, "-"));
	if (c.conclusive + c.inconclusive)
		fprintf(out, "; the model and the measurement agree on %zu of %zu loops measured "
			"conclusively%s", c.agree, c.conclusive,
			c.inconclusive || c.bounds ? "" : ".");
	if (c.bounds)
		fprintf(out, "; %zu of them priced by a bound (&lt;=), measured under it on %zu%s",
			c.bounds, c.bounds_held, c.inconclusive ? "" : ".");
	if (c.inconclusive)
		fprintf(out, "; %zu inconclusive (more rounds, or a loop with more of the samples).",
			c.inconclusive);
	fputs(c.conclusive + c.inconclusive ? "</p>\n" : ": no loop measured.</p>\n", out);
}

void html_section_prove(FILE *out, const struct report_input *in)
{
	const struct prove_doc *p = &in->prove;
	size_t shown = p->n < HTML_ROWS ? p->n : HTML_ROWS;
	struct table t;

	html_section_begin(out, in, "prove");
	prove_summary(out, p);
	fputs("<p>predicted: the loop's slowdown today against the model's best placement, and "
	      "what bounds it; measured: the program moved there (95% CI), as the loop's "
	      "slowdown through its share, beside the layout controls (the function moved "
	      "where the loop keeps its windows).</p>\n", out);
	table_init(&t, PROVE_COLUMNS, prove_columns);
	t.wrap[1] = t.wrap[2] = t.wrap[8] = true;
	for (size_t i = 0; i < shown; i++)
		prove_row(&t, &p->trial[i]);
	if (t.nrows)
		table_html(&t, out, "prove");
	else
		fputs("<p class=\"none\">No hot loop straddles a window it need not.</p>\n", out);
	table_free(&t);
	html_more(out, shown, p->n, "loops");
	html_section_end(out);
}
