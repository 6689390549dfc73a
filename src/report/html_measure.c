/* The sections of placement measurements on the page of `straddle report`:
 * sweep and calibrate. Each shows time against offset with CI whiskers, the
 * window boundaries the loop's start crosses, the measured slow marks and the
 * model's predicted-slow bands, each plot followed by the table behind it;
 * calibrate adds its rules with their measured ratios and the profile it
 * made. bench and compare are html_bench.c's. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- window boundaries ---- */

/* The x values in [first, last] where the loop's first byte (x + shift)
 * starts a model window (model_windows: 16, 32, 64 B), each labelled with
 * the largest window it starts. */
struct guides {
	double x[CALIB_SPAN * 2];
	char text[CALIB_SPAN * 2][16];
	const char *label[CALIB_SPAN * 2];
	size_t n;
};

static void window_guides(double first, double last, long shift, struct guides *g)
{
	g->n = 0;
	for (long x = (long)ceil(first); x <= (long)floor(last) && g->n < CALIB_SPAN * 2; x++) {
		long at = x + shift;
		unsigned widest = 0;

		for (size_t w = 0; w < MODEL_NWINDOWS; w++)
			if (at % model_windows[w] == 0)
				widest = model_windows[w];
		if (!widest)
			continue;
		snprintf(g->text[g->n], sizeof g->text[g->n], "%u B", widest);
		g->label[g->n] = g->text[g->n];
		g->x[g->n++] = (double)x;
	}
}

/* ---- one series of points: offsets, medians, CIs, marks, bands ---- */

struct points {
	double *x, *y, *lo, *hi, *shade;
	bool *mark;
	size_t n, nshade;
};

static void points_alloc(struct points *p, size_t n)
{
	size_t k = n ? n : 1;

	*p = (struct points){ xcalloc(k, sizeof(double)), xcalloc(k, sizeof(double)),
			      xcalloc(k, sizeof(double)), xcalloc(k, sizeof(double)),
			      xcalloc(k, sizeof(double)), xcalloc(k, sizeof(bool)), 0, 0 };
}

static void points_free(struct points *p)
{
	free(p->x), free(p->y), free(p->lo), free(p->hi), free(p->shade), free(p->mark);
}

/* A placement's point: what it was judged by (results_measured_point:
 * its floor and the floor's CI, or an older file's median), marked when
 * measured slow, shaded when predicted. */
static void points_add(struct points *p, double x, const struct measured_point *m, bool predicted)
{
	p->x[p->n] = x;
	p->y[p->n] = m->y;
	p->lo[p->n] = m->lo;
	p->hi[p->n] = m->hi;
	p->mark[p->n] = m->slow;
	if (predicted)
		p->shade[p->nshade++] = x;
	p->n++;
}

/* The cells every measured placement has: samples, what it was judged by
 * with its CI, the median (when that was the floor), the ratio to the
 * best and the test against it ("-" for the best itself). */
struct point_text {
	char n[24], stat[32], ci[64], median[32], ratio[32], p[32];
};

static void point_text(const struct measured_point *m, bool fine, struct point_text *t)
{
	snprintf(t->n, sizeof t->n, "%zu", m->n);
	cell_text(t->stat, sizeof t->stat, fine ? "%.2f" : "%.1f", m->y);
	snprintf(t->ci, sizeof t->ci, fine ? "[%.2f, %.2f]" : "[%.1f, %.1f]", m->lo, m->hi);
	cell_text(t->median, sizeof t->median, fine ? "%.2f" : "%.1f", m->median);
	cell_text(t->ratio, sizeof t->ratio, "%.3f", m->ratio);
	cell_text(t->p, sizeof t->p, m->ratio == 1 ? "-" : "%.3g", m->p);
}

/* A table's columns: `head` with "STAT" the judged statistic's, and the
 * column "MEDIAN" only when that was the floor. */
static size_t judged_columns(const char *const *head, size_t n, bool floor, const char **out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(head[i], ">MEDIAN") == 0 && !floor)
			continue;
		out[k++] = strcmp(head[i], ">STAT") == 0 ? (floor ? ">floor ns" : ">median ns") :
			   strcmp(head[i], ">MEDIAN") == 0 ? ">median ns" : head[i];
	}
	return k;
}

/* ---- sweep ---- */

static bool same_kernel(const struct measured_point *m, const char *kernel)
{
	return strcmp(m->kernel ? m->kernel : "", kernel) == 0;
}

/* A kernel swept at more offsets than this (every offset of a page is
 * 4096: a 1.2 MB table) is tabled by the loop's place in its line, the
 * question a sweep answers, one row each (sweep_by_line); every offset is
 * in the result file. */
#define SWEEP_ROWS 128

struct line_row {
	size_t n, slow, predicted;
	double worst;                   /* ratio */
	double *ratio;                  /* n of them, for the median */
};

static void sweep_by_line(FILE *out, const struct sweep_doc *sw, const char *kernel)
{
	static const char *const cols[] = { ">loop@64", ">offsets", ">slow", ">predicted",
		">median ratio", ">worst ratio" };
	struct line_row row[64] = { { 0 } };
	struct table t;

	for (size_t i = 0; i < sw->n; i++) {
		const struct measured_point *m = &sw->pt[i];
		struct line_row *r;

		if (!same_kernel(m, kernel) || !isfinite(m->loop_offset))
			continue;
		r = &row[(size_t)m->loop_offset % 64];
		if (!r->ratio)
			r->ratio = xcalloc(sw->n, sizeof *r->ratio);
		r->ratio[r->n++] = m->ratio;
		r->slow += m->slow;
		r->predicted += m->npredicted_all > 0;
		r->worst = r->n == 1 || m->ratio > r->worst ? m->ratio : r->worst;
	}
	table_init(&t, 6, cols);
	for (size_t k = 0; k < 64; k++) {
		char at[16], n[24], slow[24], pred[24], med[32], worst[32];

		if (!row[k].n)
			continue;
		stats_sort(row[k].ratio, row[k].n);
		snprintf(at, sizeof at, "%zu", k);
		snprintf(n, sizeof n, "%zu", row[k].n);
		snprintf(slow, sizeof slow, "%zu", row[k].slow);
		snprintf(pred, sizeof pred, "%zu", row[k].predicted);
		cell_text(med, sizeof med, "%.3f", stats_median_sorted(row[k].ratio, row[k].n));
		cell_text(worst, sizeof worst, "%.3f", row[k].worst);
		table_row(&t, at, n, slow, pred, med, worst);
		free(row[k].ratio);
	}
	/* the plot's text alternative comes right after it, the note after that */
	table_html(&t, out, "by-line");
	fputs("<p>More offsets than a table can show: by the loop's place in its line "
	      "(every offset is in the result file).</p>\n", out);
	table_free(&t);
}

static void sweep_table(FILE *out, const struct sweep_doc *sw, const char *kernel)
{
	static const enum sweep_column with[] = { SWEEP_OFFSET, SWEEP_LOOP, SWEEP_SAMPLES,
		SWEEP_STAT, SWEEP_CI, SWEEP_MEDIAN, SWEEP_GBPS, SWEEP_RATIO, SWEEP_P, SWEEP_SLOW,
		SWEEP_PREDICTED };
	/* an older file's, judged by the median: no column of it twice */
	static const enum sweep_column without[] = { SWEEP_OFFSET, SWEEP_LOOP, SWEEP_SAMPLES,
		SWEEP_STAT, SWEEP_CI, SWEEP_GBPS, SWEEP_RATIO, SWEEP_P, SWEEP_SLOW, SWEEP_PREDICTED };
	bool floor = sw->n && sw->pt[0].by_floor;
	const enum sweep_column *cols = floor ? with : without;
	size_t ncols = floor ? 11 : 10, total = 0;
	struct table t;

	for (size_t i = 0; i < sw->n; i++)
		total += same_kernel(&sw->pt[i], kernel);
	if (total > SWEEP_ROWS) {
		sweep_by_line(out, sw, kernel);
		return;
	}
	sweep_table_init(&t, cols, ncols, floor);
	for (size_t i = 0; i < sw->n; i++) {
		struct sweep_cells c;

		if (!same_kernel(&sw->pt[i], kernel))
			continue;
		sweep_row(&sw->pt[i], NULL, true, ", ", &c);
		sweep_table_row(&t, cols, ncols, &c);
	}
	table_html(&t, out, "data");
	table_free(&t);
}

static void sweep_agreement(FILE *out, const struct sweep_doc *sw, const char *kernel)
{
	for (size_t i = 0; i < sw->nagree; i++) {
		const struct sweep_agreement *a = &sw->agree[i];

		if (strcmp(a->kernel ? a->kernel : "", kernel) != 0)
			continue;
		fputs("<p>", out);
		html_textf(out, "The model (%s) and the measurement agree on %zu of %zu offsets.",
			   a->profile ? a->profile : "", a->agree, a->offsets);
		fputs("</p>\n", out);
	}
}

static void sweep_kernel(FILE *out, const struct report_input *in, const struct sweep_doc *sw,
			 const char *kernel, size_t k)
{
	struct points pt;
	struct guides g;
	long shift = 0;
	char id[64], title[200], note[200];

	points_alloc(&pt, sw->n);
	for (size_t i = 0; i < sw->n; i++) {
		const struct measured_point *m = &sw->pt[i];

		if (!same_kernel(m, kernel))
			continue;
		/* the loop's first byte is loop_offset into a line at this offset */
		shift = (((isfinite(m->loop_offset) ? (long)m->loop_offset : 0) -
			  (isfinite(m->offset) ? (long)m->offset : 0)) % 64 + 64) % 64;
		points_add(&pt, m->offset, m, m->npredicted_all > 0);
	}
	fputs("<h3>", out);
	html_text(out, kernel);
	fputs("</h3>\n", out);
	if (pt.n > 1) {
		struct plot_series s = { kernel, pt.x, pt.y, pt.lo, pt.hi, pt.mark, pt.n };

		window_guides(pt.x[0], pt.x[pt.n - 1], shift, &g);
		snprintf(id, sizeof id, "sweep-%zu-k%zu", in->index, k + 1);
		snprintf(title, sizeof title, "%s: %s time per call against code offset (95%% CI)",
			 kernel, sw->pt[0].by_floor ? "floor (10th percentile)" : "median");
		snprintf(note, sizeof note, "dashed: the loop starts a window; grey bands: %s "
			 "predicts a hazard", sw->profile ? sw->profile : "");
		struct plot p = { title, "code offset (the loop starts at offset + its place in the "
				  "kernel)", "ns per call", &s, 1, g.x, g.n, pt.shade, pt.nshade,
				  note, g.label };
		plot_svg_inline(out, &p, id);
	}
	sweep_table(out, sw, kernel);
	sweep_agreement(out, sw, kernel);
	points_free(&pt);
}

static void sweep_settings(FILE *out, const struct sweep_doc *s)
{
	fputs("<p>", out);
	html_textf(out, "%.0f bytes per call, pinned to CPU %.0f; clock %s (resolution %.1f ns); "
		   "stopped by %s after %.0f rounds (%.1f s); slow: p below %g and %g%% slower "
		   "than the best offset; predicted by the profile %s; counters: %s.",
		   s->size, s->cpu, text_or(s->clock_source, ""), s->resolution_ns,
		   text_or(s->stopped_by, ""), s->rounds, s->elapsed_s, s->alpha, 100 * s->material,
		   text_or(s->profile, ""), text_or(s->counters, ""));
	fputs("</p>\n", out);
}

void html_section_sweep(FILE *out, const struct report_input *in)
{
	const struct sweep_doc *sw = &in->sweep;
	const char **seen = xcalloc(sw->n + 1, sizeof *seen);
	size_t nseen = 0;

	html_section_begin(out, in, "sweep");
	sweep_settings(out, sw);
	/* one plot per kernel, in the order the file names them */
	for (size_t i = 0; i < sw->n; i++) {
		const char *k = text_or(sw->pt[i].kernel, "");
		size_t j = 0;

		while (j < nseen && strcmp(seen[j], k) != 0)
			j++;
		if (j < nseen)
			continue;
		seen[nseen++] = k;
		sweep_kernel(out, in, sw, k, j);
	}
	free(seen);
	html_section_end(out);
}

/* ---- calibrate ---- */

static const char *rule_verdict(const struct calib_rule_doc *r)
{
	if (r->claimed)
		return "claimed";
	return r->tested ? "no effect measured" : "not tested";
}

static void calibrate_rules(FILE *out, const struct calib_doc *c)
{
	static const char *const cols[] = { "rule", ">window", ">ratio", ">95% CI", ">halves",
		">p", ">placements with:without", "experiment", "verdict" };
	struct table t;

	table_init(&t, 9, cols);
	for (size_t i = 0; i < c->nrule; i++) {
		const struct calib_rule_doc *r = &c->rule[i];
		char win[16], ratio[32], ci[64], halves[64], p[32], n[32];

		cell_text(win, sizeof win, "%.0f", r->window);
		cell_text(ratio, sizeof ratio, "%.3fx", r->ratio);
		if (r->has_ci)
			snprintf(ci, sizeof ci, "[%.3f, %.3f]", r->ci_lo, r->ci_hi);
		else
			snprintf(ci, sizeof ci, "-");
		if (r->has_halves)
			snprintf(halves, sizeof halves, "%.3fx %.3fx", r->half[0], r->half[1]);
		else
			snprintf(halves, sizeof halves, "-");
		cell_text(p, sizeof p, "%.3g", r->p);
		snprintf(n, sizeof n, "%.0f:%.0f", r->with, r->without);
		table_row(&t, text_or(r->rule, ""), win, ratio, ci, halves, p, n,
			  text_or(r->experiment, ""), rule_verdict(r));
	}
	fputs("<h3>Rules, as measured</h3>\n", out);
	table_html(&t, out, "rules");
	table_free(&t);
	fputs("<p>", out);
	if (c->has_back_end)
		html_textf(out, "Back end hides a straddle: %s. ", text_or(c->back_end_why, ""));
	html_textf(out, "Loop buffer: %s.", text_or(c->loop_buffer_why, ""));
	if (c->window_why)
		html_textf(out, " A line more: %s.", c->window_why);
	fputs("</p>\n", out);
}

/* The profile the file made, as --uarch FILE reads it. */
static void calibrate_profile(FILE *out, const struct profile *p)
{
	static const char *const cols[] = { "field", "value" };
	const struct { const char *name; unsigned v; bool always; } nums[] = {
		{ "fetch", p->fetch, true }, { "uop_window", p->uop_window, true },
		{ "line", p->line, true }, { "branch_window", p->branch_window, true },
		{ "loop_buffer", p->loop_buffer, true },
		/* 0: a file from before the back-end bound, which has none */
		{ "issue_width", p->issue_width, false },
		{ "stores_per_cycle", p->stores_per_cycle, false } };
	struct table t;
	char buf[64];
	struct strbuf w = { 0 };

	table_init(&t, 2, cols);
	t.wrap[1] = true;
	table_row(&t, "name", p->name);
	table_row(&t, "covers", p->cpus);
	for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
		if (!nums[k].always && !nums[k].v)
			continue;
		snprintf(buf, sizeof buf, "%u", nums[k].v);
		table_row(&t, nums[k].name, buf);
	}
	for (size_t i = 0; i < 3 && p->straddle_windows[i]; i++)
		sb_addf(&w, "%s%u B", i ? ", " : "", p->straddle_windows[i]);
	table_row(&t, "straddles that cost", w.len ? sb_str(&w) : "none");
	table_row(&t, "branch rule", branch_rule_id(p->branch_rule));
	table_row(&t, "evidence", p->evidence);
	fputs("<h3>The profile it made</h3>\n", out);
	table_html(&t, out, "profile");
	table_free(&t);
	sb_free(&w);
}

static void experiment_table(FILE *out, const struct calib_experiment_doc *e,
			     const struct points *pt)
{
	static const char *const head[] = { ">position", ">samples", ">STAT", ">95% CI",
		">MEDIAN", ">ratio", ">p", "slow", "predicted" };
	bool floor = e->npt && e->pt[0].by_floor;
	const char *cols[9];
	size_t ncols = judged_columns(head, 9, floor, cols), s = 0;
	struct table t;

	table_init(&t, ncols, cols);
	for (size_t i = 0; i < e->npt; i++) {
		const struct measured_point *m = &e->pt[i];
		char pos[16];
		struct point_text tx;
		bool pred = s < pt->nshade && pt->shade[s] == e->pos[i];

		s += pred;
		cell_text(pos, sizeof pos, "%.0f", e->pos[i]);
		point_text(m, true, &tx);
		const char *with[] = { pos, tx.n, tx.stat, tx.ci, tx.median, tx.ratio, tx.p,
				       m->slow ? "slow" : "", pred ? "hazard" : "-" };
		const char *without[] = { pos, tx.n, tx.stat, tx.ci, tx.ratio, tx.p, with[7],
					  with[8] };
		table_row_v(&t, floor ? with : without);
	}
	/* 64 rows each: folded, the plot says it at a glance (printed open) */
	fprintf(out, "<details><summary>the %zu positions</summary>\n", t.nrows);
	table_html(&t, out, "data");
	fputs("</details>\n", out);
	table_free(&t);
}

static void calibrate_experiment(FILE *out, const struct report_input *in,
				 const struct calib_experiment_doc *e,
				 const struct calib_experiment *x, const struct profile *prof,
				 size_t k)
{
	const char *name = text_or(e->name, "");
	struct points pt;
	struct guides g;
	char id[64], title[240], note[160];

	points_alloc(&pt, e->npt);
	for (size_t i = 0; i < e->npt; i++)
		points_add(&pt, e->pos[i], &e->pt[i],
			   prof && x && calib_predicted(prof, x, (uint32_t)e->pos[i]));
	fputs("<h3>", out);
	html_textf(out, "%s: %s", name, text_or(e->what, ""));
	fputs("</h3>\n<p>", out);
	html_textf(out, "%.0f rounds in %.1f s, stopped by %s.", e->rounds, e->elapsed_s,
		   text_or(e->stopped_by, ""));
	fputs("</p>\n", out);
	if (pt.n > 1) {
		struct plot_series s = { name, pt.x, pt.y, pt.lo, pt.hi, pt.mark, pt.n };

		window_guides(pt.x[0], pt.x[pt.n - 1], 0, &g);
		snprintf(id, sizeof id, "calibrate-%zu-x%zu", in->index, k + 1);
		snprintf(title, sizeof title, "calibrate %s: %s time per call against position (95%% "
			 "CI)", name, e->pt[0].by_floor ? "floor (10th percentile)" : "median");
		snprintf(note, sizeof note, "dashed: a window starts; grey bands: the profile %s "
			 "predicts a hazard", prof ? prof->name : "?");
		struct plot p = { title, e->entry ? "the callee's entry, offset in a 64 B line" :
				  "the loop's first byte, offset in a 64 B line",
				  "ns per call", &s, 1, g.x, g.n, pt.shade, pt.nshade, note, g.label };
		plot_svg_inline(out, &p, id);
	}
	experiment_table(out, e, &pt);
	points_free(&pt);
}

/* Was a rule claimed from experiment e (the rule table's "experiment")? */
static bool claimed_from(const struct calib_doc *c, const struct calib_experiment_doc *e)
{
	for (size_t i = 0; i < c->nrule; i++)
		if (c->rule[i].claimed &&
		    strcmp(text_or(c->rule[i].experiment, ""), text_or(e->name, "")) == 0)
			return true;
	return false;
}

/* The experiments a rule was claimed from, shown; the others (15 plots of
 * a run were half the page, most of them "no effect measured") folded
 * under one summary, still on the page (no script: <details>). Their slow
 * marks are no reason to show them: a point is marked slow against the
 * best position, and on a shared machine most points of most experiments
 * were (zen5-quick.json: 5 to 60 of 64 in every one). */
static void calibrate_experiments(FILE *out, const struct report_input *in)
{
	const struct report_calibration *cal = &in->cal;
	const struct calib_doc *c = &cal->doc;
	size_t shown = 0;

	for (size_t i = 0; i < c->nx; i++)
		if (claimed_from(c, &c->x[i])) {
			calibrate_experiment(out, in, &c->x[i], i < cal->nx ? &cal->x[i] : NULL,
					     cal->profile, i);
			shown++;
		}
	if (shown == c->nx)
		return;
	fprintf(out, "<details class=\"experiments\"><summary>%s%zu experiment%s no rule was "
		"claimed from: plots and positions</summary>\n", shown ? "the other " : "",
		c->nx - shown, c->nx - shown == 1 ? "" : "s");
	for (size_t i = 0; i < c->nx; i++)
		if (!claimed_from(c, &c->x[i]))
			calibrate_experiment(out, in, &c->x[i], i < cal->nx ? &cal->x[i] : NULL,
					     cal->profile, i);
	fputs("</details>\n", out);
}

void html_section_calibrate(FILE *out, const struct report_input *in)
{
	const struct calib_doc *c = &in->cal.doc;
	double secs = 0;

	html_section_begin(out, in, "calibrate");
	/* the experiments' geometry and the profile, as calibrate --from and
	 * --uarch FILE read them (report_input_read did, once): the bands
	 * are calibrate's own */
	for (size_t i = 0; i < c->nx; i++)
		secs += isfinite(c->x[i].elapsed_s) ? c->x[i].elapsed_s : 0;
	fputs("<p>", out);
	html_textf(out, "CPU: %s. %zu experiments, %.0f s of measuring.", in->cal.profile->cpus,
		   c->nx, secs);
	fputs("</p>\n", out);
	calibrate_rules(out, c);
	calibrate_profile(out, in->cal.profile);
	calibrate_experiments(out, in);
	html_section_end(out);
}

/* ---- place: a loop of a real program moved, the whole program measured ---- */

static void place_settings(FILE *out, const struct place_doc *p)
{
	fputs("<p>", out);
	html_textf(out, "%s of %s, loop %s, at offset %.0f of its line today; measured: %s; "
		   "stopped by %s after %.0f rounds (%.1f s); %s %.0f of %.0f runs; "
		   "%.0f functions moved; predicted by the profile %s.",
		   text_or(p->function, "functions"), text_or(p->file, ""), text_or(p->loop, "-"),
		   p->current, text_or(p->measure, ""), text_or(p->stopped_by, ""), p->rounds,
		   p->elapsed_s, p->checked ? "output identical in" :
		   "output not compared, status the same in", p->checked ? p->identical : p->same_status,
		   p->runs, p->moved, text_or(p->profile, ""));
	fputs("</p>\n", out);
}

/* The arms placed at an offset: not the program as it is, nor a random
 * layout. */
static bool moved_arm(const struct measured_point *m)
{
	const char *arm = text_or(m->arm, "");

	return strcmp(arm, "unmoved") && strcmp(arm, "random");
}

static void place_table(FILE *out, const struct place_doc *p)
{
	static const enum place_column cols[] = { PLACE_COL_ARM, PLACE_COL_OFFSET, PLACE_COL_RUNS,
		PLACE_COL_MEDIAN, PLACE_COL_CI, PLACE_COL_RATIO, PLACE_COL_P, PLACE_COL_SLOW, PLACE_COL_PREDICTED };
	struct table t;

	place_table_init(&t, cols, 9);
	for (size_t i = 0; i < p->n; i++) {
		struct place_cells c;

		place_row(&p->pt[i], true, moved_arm(&p->pt[i]), "", ", ", &c);
		place_table_row(&t, cols, 9, &c);
	}
	table_html(&t, out, "data");
	table_free(&t);
}

void html_section_place(FILE *out, const struct report_input *in)
{
	const struct place_doc *pd = &in->place;
	struct points pt;
	char id[48];

	html_section_begin(out, in, "place");
	place_settings(out, pd);
	points_alloc(&pt, pd->n);
	for (double o = 0; o < 4096; o++)       /* by offset, the moved arms */
		for (size_t i = 0; i < pd->n; i++)
			if (pd->pt[i].offset == o && moved_arm(&pd->pt[i]))
				points_add(&pt, o, &pd->pt[i], pd->pt[i].npredicted_all > 0);
	if (pt.n > 1) {
		struct plot_series s = { text_or(pd->function, ""), pt.x, pt.y, pt.lo, pt.hi,
					 pt.mark, pt.n };
		struct plot p = { "the whole program's median per placement of the loop (95% CI)",
				  "offset of the loop in its line", "seconds (or the metric)", &s, 1,
				  NULL, 0, pt.shade, pt.nshade,
				  "grey bands: the profile predicts a hazard there", NULL };

		snprintf(id, sizeof id, "place-%zu", in->index);
		plot_svg_inline(out, &p, id);
	}
	points_free(&pt);
	place_table(out, pd);
	html_section_end(out);
}
