/* The sections of placement measurements on the page of `straddle
 * report` (issue 14): sweep and calibrate. Each shows time against offset
 * with CI whiskers, the window boundaries the loop's start crosses, the
 * measured slow marks and the model's predicted-slow bands, each plot
 * followed by the table behind it; calibrate adds its rules with their
 * measured ratios and the profile it made. bench and compare are
 * html_bench.c's. */
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

/* "loop-straddles-window@64,..." of a placement's predicted hazards. */
static void predicted_text(const struct measured_point *m, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = 0;
	if (m->npredicted == 0) {
		snprintf(buf, n, "-");
		return;
	}
	for (size_t i = 0; i < m->npredicted; i++) {
		int k = snprintf(buf + used, n - used, "%s%s@%lld", i ? ", " : "",
				 m->predicted[i].rule ? m->predicted[i].rule : "", m->predicted[i].window);

		if (k < 0 || (size_t)k >= n - used)
			break;
		used += (size_t)k;
	}
}

static bool same_kernel(const struct measured_point *m, const char *kernel)
{
	return strcmp(m->kernel ? m->kernel : "", kernel) == 0;
}

static void sweep_table(FILE *out, const struct sweep_doc *sw, const char *kernel)
{
	static const char *const head[] = { ">offset", ">loop@64", ">samples", ">STAT",
		">95% CI", ">MEDIAN", ">GB/s", ">ratio", ">p", "slow", "predicted" };
	bool floor = sw->n && sw->pt[0].by_floor;
	const char *cols[11];
	size_t ncols = judged_columns(head, 11, floor, cols);
	struct table t;

	table_init(&t, ncols, cols);
	t.wrap[ncols - 1] = true;
	for (size_t i = 0; i < sw->n; i++) {
		const struct measured_point *m = &sw->pt[i];
		char off[16], loop[16], gbs[32], pred[400];
		struct point_text pt;

		if (!same_kernel(m, kernel))
			continue;
		cell_text(off, sizeof off, "%.0f", m->offset);
		cell_text(loop, sizeof loop, "%.0f", m->loop_offset);
		cell_text(gbs, sizeof gbs, "%.2f", m->gbps);
		point_text(m, false, &pt);
		predicted_text(m, pred, sizeof pred);
		const char *with[] = { off, loop, pt.n, pt.stat, pt.ci, pt.median, gbs, pt.ratio,
				       pt.p, m->slow ? "slow" : "", pred };
		const char *without[] = { off, loop, pt.n, pt.stat, pt.ci, gbs, pt.ratio, pt.p,
					  with[9], pred };
		table_row_v(&t, floor ? with : without);
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

static const char *text_or(const char *s, const char *absent)
{
	return s ? s : absent;
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

static const char *rule_verdict(const json_t *r)
{
	if (json_is_true(json_object_get(r, "claimed")))
		return "claimed";
	return json_is_true(json_object_get(r, "tested")) ? "no effect measured" : "not tested";
}

static void calibrate_rules(FILE *out, const json_t *doc)
{
	static const char *const cols[] = { "rule", ">window", ">ratio", ">95% CI", ">halves",
		">p", ">placements with:without", "experiment", "verdict" };
	const json_t *r;
	struct table t;
	size_t i;

	table_init(&t, 9, cols);
	json_array_foreach(json_object_get(doc, "rules"), i, r) {
		char win[16], ratio[32], ci[64], halves[64], p[32], n[32];
		const json_t *pl = json_object_get(r, "placements");

		cell_text(win, sizeof win, "%.0f", doc_num(r, "window"));
		cell_text(ratio, sizeof ratio, "%.3fx", doc_num(r, "ratio"));
		if (json_is_array(json_object_get(r, "ci")))
			snprintf(ci, sizeof ci, "[%.3f, %.3f]", doc_num_at(r, "ci", 0), doc_num_at(r, "ci", 1));
		else
			snprintf(ci, sizeof ci, "-");
		if (json_is_array(json_object_get(r, "halves")))
			snprintf(halves, sizeof halves, "%.3fx %.3fx", doc_num_at(r, "halves", 0),
				 doc_num_at(r, "halves", 1));
		else
			snprintf(halves, sizeof halves, "-");
		cell_text(p, sizeof p, "%.3g", doc_num(r, "p"));
		snprintf(n, sizeof n, "%.0f:%.0f", doc_num(pl, "with"), doc_num(pl, "without"));
		table_row(&t, doc_str(r, "rule", ""), win, ratio, ci, halves, p, n, doc_str(r, "experiment", ""),
			  rule_verdict(r));
	}
	fputs("<h3>Rules, as measured</h3>\n", out);
	table_html(&t, out, "rules");
	table_free(&t);
	fputs("<p>", out);
	if (json_object_get(doc, "back_end"))
		html_textf(out, "Back end hides a straddle: %s. ",
			   doc_str(json_object_get(doc, "back_end"), "why", ""));
	html_textf(out, "Loop buffer: %s.",
		   doc_str(json_object_get(doc, "loop_buffer"), "why", ""));
	fputs("</p>\n", out);
}

static void calibrate_profile(FILE *out, const json_t *p)
{
	static const char *const cols[] = { "field", "value" };
	struct table t;
	char buf[64];
	struct strbuf w = { 0 };
	size_t i;
	const json_t *v;

	table_init(&t, 2, cols);
	t.wrap[1] = true;
	table_row(&t, "name", doc_str(p, "name", ""));
	table_row(&t, "covers", doc_str(p, "cpus", ""));
	static const char *const nums[] = { "fetch", "uop_window", "line", "branch_window",
					    "loop_buffer" };
	static const char *const later[] = { "issue_width", "stores_per_cycle" };
	for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
		cell_text(buf, sizeof buf, "%.0f", doc_num(p, nums[k]));
		table_row(&t, nums[k], buf);
	}
	for (size_t k = 0; k < sizeof later / sizeof later[0]; k++) {
		if (!json_object_get(p, later[k]))
			continue;       /* a file from before the back-end bound */
		cell_text(buf, sizeof buf, "%.0f", doc_num(p, later[k]));
		table_row(&t, later[k], buf);
	}
	json_array_foreach(json_object_get(p, "straddle_windows"), i, v)
		sb_addf(&w, "%s%lld B", i ? ", " : "", (long long)json_integer_value(v));
	table_row(&t, "straddles that cost", w.len ? sb_str(&w) : "none");
	table_row(&t, "branch rule", doc_str(p, "branch_rule", ""));
	table_row(&t, "evidence", doc_str(p, "evidence", ""));
	fputs("<h3>The profile it made</h3>\n", out);
	table_html(&t, out, "profile");
	table_free(&t);
	sb_free(&w);
}

static void experiment_table(FILE *out, const json_t *ej, const struct points *pt)
{
	static const char *const head[] = { ">position", ">samples", ">STAT", ">95% CI",
		">MEDIAN", ">ratio", ">p", "slow", "predicted" };
	const json_t *pts = json_object_get(ej, "points"), *o;
	struct measured_point first, m;
	const char *cols[9];
	size_t ncols, i, s = 0;
	struct table t;

	results_measured_point(json_array_get(pts, 0), "p", &first);
	ncols = judged_columns(head, 9, first.by_floor, cols);
	table_init(&t, ncols, cols);
	json_array_foreach(pts, i, o) {
		char pos[16];
		struct point_text tx;
		bool pred = s < pt->nshade && pt->shade[s] == doc_num(o, "pos");

		results_measured_point(o, "p", &m);
		s += pred;
		cell_text(pos, sizeof pos, "%.0f", doc_num(o, "pos"));
		point_text(&m, true, &tx);
		const char *with[] = { pos, tx.n, tx.stat, tx.ci, tx.median, tx.ratio, tx.p,
				       m.slow ? "slow" : "", pred ? "hazard" : "-" };
		const char *without[] = { pos, tx.n, tx.stat, tx.ci, tx.ratio, tx.p, with[7],
					  with[8] };
		table_row_v(&t, first.by_floor ? with : without);
	}
	/* 64 rows each: folded, the plot says it at a glance (printed open) */
	fprintf(out, "<details><summary>the %zu positions</summary>\n", t.nrows);
	table_html(&t, out, "data");
	fputs("</details>\n", out);
	table_free(&t);
}

static void calibrate_experiment(FILE *out, const struct report_input *in, const json_t *ej,
				 const struct calib_experiment *x, const struct profile *prof,
				 size_t k)
{
	struct points pt;
	struct guides g;
	size_t i;
	const json_t *o;
	struct measured_point first, m;
	char id[64], title[240], note[160];

	results_measured_point(json_array_get(json_object_get(ej, "points"), 0), "p", &first);
	points_alloc(&pt, json_array_size(json_object_get(ej, "points")));
	json_array_foreach(json_object_get(ej, "points"), i, o) {
		results_measured_point(o, "p", &m);
		points_add(&pt, doc_num(o, "pos"), &m,
			   prof && x && calib_predicted(prof, x, (uint32_t)doc_num(o, "pos")));
	}
	fputs("<h3>", out);
	html_textf(out, "%s: %s", doc_str(ej, "name", ""), doc_str(ej, "what", ""));
	fputs("</h3>\n<p>", out);
	html_textf(out, "%.0f rounds in %.1f s, stopped by %s.", doc_num(ej, "rounds"),
		   doc_num(ej, "elapsed_s"), doc_str(ej, "stopped_by", ""));
	fputs("</p>\n", out);
	if (pt.n > 1) {
		struct plot_series s = { doc_str(ej, "name", ""), pt.x, pt.y, pt.lo, pt.hi, pt.mark, pt.n };

		window_guides(pt.x[0], pt.x[pt.n - 1], 0, &g);
		snprintf(id, sizeof id, "calibrate-%zu-x%zu", in->index, k + 1);
		snprintf(title, sizeof title, "calibrate %s: %s time per call against position (95%% "
			 "CI)", doc_str(ej, "name", ""),
			 first.by_floor ? "floor (10th percentile)" : "median");
		snprintf(note, sizeof note, "dashed: a window starts; grey bands: the profile %s "
			 "predicts a hazard", prof ? prof->name : "?");
		struct plot p = { title, json_is_true(json_object_get(ej, "entry")) ?
				  "the callee's entry, offset in a 64 B line" :
				  "the loop's first byte, offset in a 64 B line",
				  "ns per call", &s, 1, g.x, g.n, pt.shade, pt.nshade, note, g.label };
		plot_svg_inline(out, &p, id);
	}
	experiment_table(out, ej, &pt);
	points_free(&pt);
}

/* Was a rule claimed from experiment ej (the rule table's "experiment")? */
static bool claimed_from(const json_t *doc, const json_t *ej)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(doc, "rules"), i, r)
		if (json_is_true(json_object_get(r, "claimed")) &&
		    strcmp(doc_str(r, "experiment", ""), doc_str(ej, "name", "")) == 0)
			return true;
	return false;
}

/* The experiments a rule was claimed from, shown; the others (15 plots of
 * a run were half the page, most of them "no effect measured") folded
 * under one summary, still on the page (no script: <details>). Their slow
 * marks are no reason to show them: a point is marked slow against the
 * best position, and on a shared machine most points of most experiments
 * were (zen5-quick.json: 5 to 60 of 64 in every one). */
static void calibrate_experiments(FILE *out, const struct report_input *in,
				  const struct calib_experiment *x, size_t nx, const struct profile *p)
{
	const json_t *exps = json_object_get(in->doc, "experiments"), *ej;
	size_t i, shown = 0, n = json_array_size(exps);

	json_array_foreach(exps, i, ej)
		if (claimed_from(in->doc, ej)) {
			calibrate_experiment(out, in, ej, i < nx ? &x[i] : NULL, p, i);
			shown++;
		}
	if (shown == n)
		return;
	fprintf(out, "<details class=\"experiments\"><summary>%s%zu experiment%s no rule was "
		"claimed from: plots and positions</summary>\n", shown ? "the other " : "",
		n - shown, n - shown == 1 ? "" : "s");
	json_array_foreach(exps, i, ej)
		if (!claimed_from(in->doc, ej))
			calibrate_experiment(out, in, ej, i < nx ? &x[i] : NULL, p, i);
	fputs("</details>\n", out);
}

void html_section_calibrate(FILE *out, const struct report_input *in)
{
	const json_t *exps = json_object_get(in->doc, "experiments"), *ej;
	const json_t *prof = json_object_get(in->doc, "profile");
	size_t i;
	double secs = 0;

	html_section_begin(out, in, "calibrate");
	/* the experiments' geometry and the profile, as calibrate --from and
	 * --uarch FILE read them (report_input_read did, once): the bands
	 * are calibrate's own */
	json_array_foreach(exps, i, ej)
		secs += isfinite(doc_num(ej, "elapsed_s")) ? doc_num(ej, "elapsed_s") : 0;
	fputs("<p>", out);
	html_textf(out, "CPU: %s. %zu experiments, %.0f s of measuring.",
		   doc_str(prof, "cpus", ""), json_array_size(exps), secs);
	fputs("</p>\n", out);
	calibrate_rules(out, in->doc);
	calibrate_profile(out, prof);
	calibrate_experiments(out, in, in->cal.x, in->cal.nx, in->cal.profile);
	html_section_end(out);
}

/* ---- place: a loop of a real program moved, the whole program measured ---- */

static void place_settings(FILE *out, const struct place_doc *p)
{
	fputs("<p>", out);
	html_textf(out, "%s of %s, loop %s, at offset %.0f of its line today; measured: %s; "
		   "stopped by %s after %.0f rounds (%.1f s); output identical in %.0f of %.0f runs; "
		   "%.0f functions moved; predicted by the profile %s.",
		   text_or(p->function, "functions"), text_or(p->file, ""), text_or(p->loop, "-"),
		   p->current, text_or(p->measure, ""), text_or(p->stopped_by, ""), p->rounds,
		   p->elapsed_s, p->identical, p->runs, p->moved, text_or(p->profile, ""));
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
	static const char *const head[] = { "arm", ">offset", ">runs", ">median", ">95% CI",
		">ratio", ">p", "slow", "predicted" };
	struct table t;

	table_init(&t, 9, head);
	t.wrap[8] = true;
	for (size_t i = 0; i < p->n; i++) {
		const struct measured_point *m = &p->pt[i];
		char off[16], pred[400], med[32], ci[64];
		struct point_text pt;

		cell_text(off, sizeof off, moved_arm(m) ? "%.0f" : "-", m->offset);
		point_text(m, true, &pt);
		/* whole-program seconds: four places, where a kernel's ns need one */
		cell_text(med, sizeof med, "%.4f", m->median);
		snprintf(ci, sizeof ci, "[%.4f, %.4f]", m->ci_lo, m->ci_hi);
		predicted_text(m, pred, sizeof pred);
		const char *row[] = { text_or(m->arm, ""), off, pt.n, med, ci, pt.ratio, pt.p,
				      m->slow ? "slow" : "", pred };
		table_row_v(&t, row);
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
