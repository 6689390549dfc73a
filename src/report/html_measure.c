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

/* What a placement was judged by. Sweep and calibrate compare floors (the
 * 10th percentile: stats/floor.c says why not the median), so a file
 * with floors is drawn by them, with the floor's CI (a sweep file has it;
 * a calibrate file has the samples it comes from); an older file by its
 * median and the median's CI. */
struct judged {
	double y, lo, hi;
};

static bool by_floor(const json_t *o)
{
	return json_is_number(json_object_get(o, "floor"));
}

static struct judged judged_of(const json_t *o)
{
	const json_t *a = json_object_get(o, "samples"), *v;
	struct summary sum;
	double *x;
	size_t i;

	if (!by_floor(o))
		return (struct judged){ doc_num(o, "median"), doc_num_at(o, "ci", 0),
					doc_num_at(o, "ci", 1) };
	if (json_is_array(json_object_get(o, "floor_ci")))
		return (struct judged){ doc_num(o, "floor"), doc_num_at(o, "floor_ci", 0),
					doc_num_at(o, "floor_ci", 1) };
	x = xcalloc(json_array_size(a) + 1, sizeof *x);
	json_array_foreach(a, i, v)
		x[i] = json_number_value(v);
	stats_summarize(x, json_array_size(a), 1, true, &sum);
	free(x);
	return (struct judged){ doc_num(o, "floor"), sum.floor_lo, sum.floor_hi };
}

static void points_add(struct points *p, double x, const json_t *o, bool predicted)
{
	struct judged j = judged_of(o);

	p->x[p->n] = x;
	p->y[p->n] = j.y;
	p->lo[p->n] = j.lo;
	p->hi[p->n] = j.hi;
	p->mark[p->n] = json_is_true(json_object_get(o, "slow"));
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

static void point_text(const json_t *o, const char *pkey, bool fine, struct point_text *t)
{
	struct judged j = judged_of(o);

	snprintf(t->n, sizeof t->n, "%zu", json_array_size(json_object_get(o, "samples")));
	cell_text(t->stat, sizeof t->stat, fine ? "%.2f" : "%.1f", j.y);
	snprintf(t->ci, sizeof t->ci, fine ? "[%.2f, %.2f]" : "[%.1f, %.1f]", j.lo, j.hi);
	cell_text(t->median, sizeof t->median, fine ? "%.2f" : "%.1f", doc_num(o, "median"));
	cell_text(t->ratio, sizeof t->ratio, "%.3f", doc_num(o, "ratio"));
	cell_text(t->p, sizeof t->p, doc_num(o, "ratio") == 1 ? "-" : "%.3g", doc_num(o, pkey));
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
static void predicted_text(const json_t *pred, char *buf, size_t n)
{
	size_t i, used = 0;
	const json_t *h;

	buf[0] = 0;
	if (!json_is_array(pred) || json_array_size(pred) == 0) {
		snprintf(buf, n, "-");
		return;
	}
	json_array_foreach(pred, i, h) {
		int k = snprintf(buf + used, n - used, "%s%s@%lld", i ? ", " : "", doc_str(h, "rule", ""),
				 (long long)json_integer_value(json_object_get(h, "window")));

		if (k < 0 || (size_t)k >= n - used)
			break;
		used += (size_t)k;
	}
}

static void sweep_table(FILE *out, const json_t *metrics, const char *kernel)
{
	static const char *const head[] = { ">offset", ">loop@64", ">samples", ">STAT",
		">95% CI", ">MEDIAN", ">GB/s", ">ratio", ">p", "slow", "predicted" };
	bool floor = by_floor(json_array_get(metrics, 0));
	const char *cols[11];
	size_t ncols = judged_columns(head, 11, floor, cols), i;
	struct table t;
	const json_t *m;

	table_init(&t, ncols, cols);
	t.wrap[ncols - 1] = true;
	json_array_foreach(metrics, i, m) {
		char off[16], loop[16], gbs[32], pred[400];
		struct point_text pt;

		if (strcmp(doc_str(m, "kernel", ""), kernel) != 0)
			continue;
		cell_text(off, sizeof off, "%.0f", doc_num(m, "offset"));
		cell_text(loop, sizeof loop, "%.0f", doc_num(m, "loop_offset"));
		cell_text(gbs, sizeof gbs, "%.2f", doc_num(m, "gbps"));
		point_text(m, "p_vs_best", false, &pt);
		predicted_text(json_object_get(m, "predicted"), pred, sizeof pred);
		const char *with[] = { off, loop, pt.n, pt.stat, pt.ci, pt.median, gbs, pt.ratio,
				       pt.p, json_is_true(json_object_get(m, "slow")) ? "slow" : "",
				       pred };
		const char *without[] = { off, loop, pt.n, pt.stat, pt.ci, gbs, pt.ratio, pt.p,
					  with[9], pred };
		table_row_v(&t, floor ? with : without);
	}
	table_html(&t, out, "data");
	table_free(&t);
}

static void sweep_agreement(FILE *out, const json_t *doc, const char *kernel)
{
	size_t i;
	const json_t *a;

	json_array_foreach(json_object_get(doc, "agreement"), i, a) {
		if (strcmp(doc_str(a, "kernel", ""), kernel) != 0)
			continue;
		fputs("<p>", out);
		html_textf(out, "The model (%s) and the measurement agree on %.0f of %.0f offsets.",
			   doc_str(a, "profile", ""), doc_num(a, "agree"), doc_num(a, "offsets"));
		fputs("</p>\n", out);
	}
}

static void sweep_kernel(FILE *out, const struct report_input *in, const char *kernel,
			 size_t k)
{
	const json_t *metrics = json_object_get(in->doc, "metrics"), *m;
	struct points pt;
	struct guides g;
	long shift = 0;
	size_t i;
	char id[64], title[200], note[200];

	points_alloc(&pt, json_array_size(metrics));
	json_array_foreach(metrics, i, m) {
		if (strcmp(doc_str(m, "kernel", ""), kernel) != 0)
			continue;
		/* the loop's first byte is loop_offset into a line at this offset */
		shift = (((long)json_integer_value(json_object_get(m, "loop_offset")) -
			  (long)json_integer_value(json_object_get(m, "offset"))) % 64 + 64) % 64;
		points_add(&pt, doc_num(m, "offset"), m,
			   json_array_size(json_object_get(m, "predicted")) > 0);
	}
	fputs("<h3>", out);
	html_text(out, kernel);
	fputs("</h3>\n", out);
	if (pt.n > 1) {
		struct plot_series s = { kernel, pt.x, pt.y, pt.lo, pt.hi, pt.mark, pt.n };

		window_guides(pt.x[0], pt.x[pt.n - 1], shift, &g);
		snprintf(id, sizeof id, "sweep-%zu-k%zu", in->index, k + 1);
		snprintf(title, sizeof title, "%s: %s time per call against code offset (95%% CI)",
			 kernel, by_floor(json_array_get(metrics, 0)) ? "floor (10th percentile)" :
			 "median");
		snprintf(note, sizeof note, "dashed: the loop starts a window; grey bands: %s "
			 "predicts a hazard", doc_str(json_object_get(in->doc, "sweep"), "profile", ""));
		struct plot p = { title, "code offset (the loop starts at offset + its place in the "
				  "kernel)", "ns per call", &s, 1, g.x, g.n, pt.shade, pt.nshade,
				  note, g.label };
		plot_svg_inline(out, &p, id);
	}
	sweep_table(out, metrics, kernel);
	sweep_agreement(out, in->doc, kernel);
	points_free(&pt);
}

static void sweep_settings(FILE *out, const json_t *doc)
{
	const json_t *s = json_object_get(doc, "sweep"), *c = json_object_get(doc, "clock");

	fputs("<p>", out);
	html_textf(out, "%.0f bytes per call, pinned to CPU %.0f; clock %s (resolution %.1f ns); "
		   "stopped by %s after %.0f rounds (%.1f s); slow: p below %g and %g%% slower "
		   "than the best offset; predicted by the profile %s; counters: %s.",
		   doc_num(s, "size"), doc_num(s, "cpu"), doc_str(c, "source", ""), doc_num(c, "resolution_ns"),
		   doc_str(s, "stopped_by", ""), doc_num(s, "rounds"), doc_num(s, "elapsed_s"), doc_num(s, "alpha"),
		   100 * doc_num(s, "material"), doc_str(s, "profile", ""), doc_str(s, "counters", ""));
	fputs("</p>\n", out);
}

void html_section_sweep(FILE *out, const struct report_input *in)
{
	const json_t *metrics = json_object_get(in->doc, "metrics"), *m;
	const char **seen = xcalloc(json_array_size(metrics) + 1, sizeof *seen);
	size_t nseen = 0, i;

	html_section_begin(out, in, "sweep");
	sweep_settings(out, in->doc);
	/* one plot per kernel, in the order the file names them */
	json_array_foreach(metrics, i, m) {
		const char *k = doc_str(m, "kernel", "");
		size_t j = 0;

		while (j < nseen && strcmp(seen[j], k) != 0)
			j++;
		if (j < nseen)
			continue;
		seen[nseen++] = k;
		sweep_kernel(out, in, k, j);
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
	bool floor = by_floor(json_array_get(pts, 0));
	const char *cols[9];
	size_t ncols = judged_columns(head, 9, floor, cols), i, s = 0;
	struct table t;

	table_init(&t, ncols, cols);
	json_array_foreach(pts, i, o) {
		char pos[16];
		struct point_text tx;
		bool pred = s < pt->nshade && pt->shade[s] == doc_num(o, "pos");

		s += pred;
		cell_text(pos, sizeof pos, "%.0f", doc_num(o, "pos"));
		point_text(o, "p", true, &tx);
		const char *with[] = { pos, tx.n, tx.stat, tx.ci, tx.median, tx.ratio, tx.p,
				       json_is_true(json_object_get(o, "slow")) ? "slow" : "",
				       pred ? "hazard" : "-" };
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

static void calibrate_experiment(FILE *out, const struct report_input *in, const json_t *ej,
				 const struct calib_experiment *x, const struct profile *prof,
				 size_t k)
{
	struct points pt;
	struct guides g;
	size_t i;
	const json_t *o;
	char id[64], title[240], note[160];

	points_alloc(&pt, json_array_size(json_object_get(ej, "points")));
	json_array_foreach(json_object_get(ej, "points"), i, o)
		points_add(&pt, doc_num(o, "pos"), o,
			   prof && x && calib_predicted(prof, x, (uint32_t)doc_num(o, "pos")));
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
			 by_floor(json_array_get(json_object_get(ej, "points"), 0)) ?
			 "floor (10th percentile)" : "median");
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

static void place_settings(FILE *out, const json_t *doc)
{
	const json_t *p = json_object_get(doc, "place"), *c = json_object_get(doc, "output_check");

	fputs("<p>", out);
	html_textf(out, "%s of %s, loop %s, at offset %.0f of its line today; measured: %s; "
		   "stopped by %s after %.0f rounds (%.1f s); output identical in %.0f of %.0f runs; "
		   "%.0f functions moved; predicted by the profile %s.",
		   doc_str(p, "function", "functions"), doc_str(p, "file", ""),
		   doc_str(p, "loop", "-"), doc_num(p, "current"), doc_str(p, "measure", ""),
		   doc_str(p, "stopped_by", ""), doc_num(p, "rounds"), doc_num(p, "elapsed_s"),
		   doc_num(c, "identical"), doc_num(c, "runs"),
		   doc_num(json_object_get(doc, "moved"), "functions"), doc_str(p, "profile", ""));
	fputs("</p>\n", out);
}

static void place_table(FILE *out, const json_t *metrics)
{
	static const char *const head[] = { "arm", ">offset", ">runs", ">median", ">95% CI",
		">ratio", ">p", "slow", "predicted" };
	struct table t;
	const json_t *m;
	size_t i;

	table_init(&t, 9, head);
	t.wrap[8] = true;
	json_array_foreach(metrics, i, m) {
		char off[16], pred[400], med[32], ci[64];
		struct point_text pt;
		const char *arm = doc_str(m, "arm", "");

		cell_text(off, sizeof off, strcmp(arm, "unmoved") && strcmp(arm, "random") ? "%.0f" : "-",
			  doc_num(m, "offset"));
		point_text(m, "p_vs_best", true, &pt);
		/* whole-program seconds: four places, where a kernel's ns need one */
		cell_text(med, sizeof med, "%.4f", doc_num(m, "median"));
		snprintf(ci, sizeof ci, "[%.4f, %.4f]", doc_num_at(m, "ci", 0), doc_num_at(m, "ci", 1));
		predicted_text(json_object_get(m, "predicted"), pred, sizeof pred);
		const char *row[] = { arm, off, pt.n, med, ci, pt.ratio, pt.p,
				      json_is_true(json_object_get(m, "slow")) ? "slow" : "", pred };
		table_row_v(&t, row);
	}
	table_html(&t, out, "data");
	table_free(&t);
}

void html_section_place(FILE *out, const struct report_input *in)
{
	const json_t *metrics = json_object_get(in->doc, "metrics"), *m;
	struct points pt;
	char id[48];
	size_t i;

	html_section_begin(out, in, "place");
	place_settings(out, in->doc);
	points_alloc(&pt, json_array_size(metrics));
	for (double o = 0; o < 4096; o++)       /* by offset, the moved arms */
		json_array_foreach(metrics, i, m)
			if (doc_num(m, "offset") == o && strcmp(doc_str(m, "arm", ""), "unmoved") &&
			    strcmp(doc_str(m, "arm", ""), "random"))
				points_add(&pt, o, m, json_array_size(json_object_get(m, "predicted")) > 0);
	if (pt.n > 1) {
		struct plot_series s = { doc_str(json_object_get(in->doc, "place"), "function", ""),
					 pt.x, pt.y, pt.lo, pt.hi, pt.mark, pt.n };
		struct plot p = { "the whole program's median per placement of the loop (95% CI)",
				  "offset of the loop in its line", "seconds (or the metric)", &s, 1,
				  NULL, 0, pt.shade, pt.nshade,
				  "grey bands: the profile predicts a hazard there", NULL };

		snprintf(id, sizeof id, "place-%zu", in->index);
		plot_svg_inline(out, &p, id);
	}
	points_free(&pt);
	place_table(out, metrics);
	html_section_end(out);
}
