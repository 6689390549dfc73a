/* calibrate's text: the rules measured, what the back end, the loop
 * buffer and a line more came to, the profile made; a plot of each
 * experiment. */
#include "report.h"

void report_calibrate_text(FILE *out, const struct calib_report *c)
{
	static const char *const cols[] = { "rule", ">window", "verdict" };
	const struct profile *p = c->profile;
	unsigned w[3];
	size_t nw = profile_straddle_windows(p, w);
	struct table t;
	double secs = 0;

	for (size_t i = 0; i < c->nx; i++)
		secs += c->x[i].elapsed_s;
	fprintf(out, "cpu: %s\n", p->cpus);
	fprintf(out, "%zu experiments, %.0f s of measuring%s\n", c->nx, secs,
		c->from ? " (recorded, fitted again)" : "");
	table_init(&t, 3, cols);
	for (size_t i = 0; i < c->fit->nrule; i++) {
		const struct calib_rule *r = &c->fit->rule[i];
		char win[8], verdict[200];

		snprintf(win, sizeof win, "%u", r->window);
		calib_rule_text(r, verdict, sizeof verdict);
		table_row(&t, calib_effect_name(r->effect), win, verdict);
	}
	table_print(&t, out);
	table_free(&t);
	fprintf(out, "back end: %s\n", c->fit->back_end_why);
	fprintf(out, "loop buffer: %s\n", c->fit->loop_buffer_why);
	fprintf(out, "a line more: %s\n", c->fit->window_why);
	fprintf(out, "profile: fetch %u, uop window %u, line %u; straddles:", p->fetch, p->uop_window,
		p->line);
	for (size_t i = 0; i < nw; i++)
		fprintf(out, " %u", w[i]);
	fprintf(out, "%s; branch rule: %s", nw ? "" : " none", branch_rule_name(p->branch_rule));
	if (p->branch_rule != BRANCH_RULE_NONE)
		fprintf(out, " (window %u)", p->branch_window);
	fprintf(out, "; loop buffer: %u; back end: %u a cycle, %u stores\n", p->loop_buffer,
		p->issue_width, p->stores_per_cycle);
}

static int write_plot_file(FILE *f, void *ctx)
{
	return plot_svg(f, ctx);
}

int report_calibrate_plot(const char *dir, const struct profile *profile,
			  const struct calib_experiment *x, struct err *e)
{
	double xs[CALIB_SPAN], ys[CALIB_SPAN], lo[CALIB_SPAN], hi[CALIB_SPAN], sh[CALIB_SPAN];
	bool mark[CALIB_SPAN];
	size_t nsh = 0;
	char path[1024], title[200];

	for (size_t i = 0; i < x->npt; i++) {
		const struct calib_point *pt = &x->pt[i];

		xs[i] = pt->pos, ys[i] = pt->floor, lo[i] = pt->floor_lo, hi[i] = pt->floor_hi;
		mark[i] = pt->slow;
		if (calib_predicted(profile, x, pt->pos))
			sh[nsh++] = pt->pos;
	}
	struct plot_series s = { x->name, xs, ys, lo, hi, mark, x->npt };
	snprintf(title, sizeof title, "straddle calibrate %s: %s", x->name, x->what);
	struct plot p = { title, x->entry ? "the callee's entry, offset in a 64 B line" :
			  "the loop's first byte, offset in a 64 B line",
			  "ns per call (floor: 10th percentile, 95% CI)", &s, 1, NULL, 0, sh, nsh,
			  "the calibrated profile predicts a hazard in the grey bands", NULL };
	snprintf(path, sizeof path, "%s/%s.svg", dir, x->name);
	if (write_atomic(path, write_plot_file, &p, e)) {
		char why[sizeof e->msg];

		snprintf(why, sizeof why, "%s", e->msg);
		return err_set(e, "%s: %s", path, why);
	}
	return 0;
}

