/* sweep's placements, one row each (sweep_row, sweep_columns) for its text
 * and the page's sweep section alike; sweep's text, CSV and plot. The text
 * renders the sweep measured, each placement read as its document reads
 * back (sweep_point); the page, the document read. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const sweep_columns[SWEEP_COLUMNS] = {
	[SWEEP_OFFSET] = ">offset", [SWEEP_LOOP] = ">loop@64", [SWEEP_SAMPLES] = ">samples",
	[SWEEP_STAT] = ">floor ns", [SWEEP_CI] = ">95% CI", [SWEEP_MEDIAN] = ">median ns",
	[SWEEP_GBPS] = ">GB/s", [SWEEP_RATIO] = ">ratio", [SWEEP_P] = ">p", [SWEEP_SLOW] = "slow",
	[SWEEP_MODEL] = ">model", [SWEEP_PREDICTED] = "predicted", [SWEEP_AA] = ">A/A",
};

void sweep_point(const struct sweep *s, const struct variant *v, struct measured_point *m)
{
	*m = (struct measured_point){ .kernel = v->k->name, .offset = v->offset,
		.loop_offset = (v->offset + v->k->loop_start) % 64, .n = v->n, .by_floor = true,
		.y = v->sum.floor, .lo = v->sum.floor_lo, .hi = v->sum.floor_hi,
		.median = v->sum.median, .ci_lo = v->sum.ci_lo, .ci_hi = v->sum.ci_hi,
		.gbps = (double)s->size / v->sum.floor, .ratio = v->ratio, .p = v->p_vs_best,
		.slow = v->slow, .model = v->predicted_ratio, .tested = v->ratio != 1 };
	for (size_t i = 0; i < v->npredicted && i < sizeof m->predicted / sizeof m->predicted[0]; i++)
		m->predicted[m->npredicted++] = (struct measured_hazard){
			rule_name(v->predicted[i].rule), v->predicted[i].window };
	m->npredicted_all = v->npredicted;
}

void format_predicted(const struct measured_hazard *h, size_t nh, const char *sep, char *buf,
		      size_t n)
{
	size_t used = 0;

	snprintf(buf, n, "-");
	for (size_t i = 0; i < nh; i++) {
		int k = snprintf(buf + used, n - used, "%s%s@%lld", i ? sep : "",
				 text_or(h[i].rule, ""), h[i].window);

		if (k < 0 || (size_t)k >= n - used)
			break;
		used += (size_t)k;
	}
}

/* A placement's predicted hazards, "n/a" for a kernel that is not placed. */
static void predicted_cell(const struct measured_point *m, bool placeable, const char *sep,
			   char *buf, size_t n)
{
	if (placeable)
		format_predicted(m->predicted, m->npredicted, sep, buf, n);
	else
		snprintf(buf, n, "n/a");
}

void sweep_row(const struct measured_point *m, const struct measured_point *control,
	       bool placeable, const char *sep, struct sweep_cells *c)
{
	size_t n = sizeof c->text[0];

	for (int i = 0; i < SWEEP_COLUMNS; i++)
		c->cell[i] = c->text[i];
	snprintf(c->text[SWEEP_OFFSET], n, "-");
	snprintf(c->text[SWEEP_LOOP], n, "-");
	if (placeable) {
		cell_text(c->text[SWEEP_OFFSET], n, "%.0f", m->offset);
		cell_text(c->text[SWEEP_LOOP], n, "%.0f", m->loop_offset);
	}
	snprintf(c->text[SWEEP_SAMPLES], n, "%zu", m->n);
	cell_text(c->text[SWEEP_STAT], n, "%.1f", m->y);
	snprintf(c->text[SWEEP_CI], n, "[%.1f, %.1f]", m->lo, m->hi);
	cell_text(c->text[SWEEP_MEDIAN], n, "%.1f", m->median);
	cell_text(c->text[SWEEP_GBPS], n, "%.2f", m->gbps);
	cell_text(c->text[SWEEP_RATIO], n, "%.3f", m->ratio);
	cell_text(c->text[SWEEP_P], n, m->tested ? "%.3g" : "-", m->p);
	snprintf(c->text[SWEEP_SLOW], n, "%s", m->slow ? "slow" : "");
	cell_text(c->text[SWEEP_MODEL], n, m->model ? "%.2fx" : "-", m->model);
	cell_text(c->text[SWEEP_AA], n, control ? "%.3f" : "-", control ? control->y / m->y : 0);
	predicted_cell(m, placeable, sep, c->predicted, sizeof c->predicted);
	c->cell[SWEEP_PREDICTED] = c->predicted;
}

void sweep_table_init(struct table *t, const enum sweep_column *cols, size_t n, bool by_floor)
{
	const char *head[SWEEP_COLUMNS] = { 0 };

	for (size_t i = 0; i < n; i++)
		head[i] = cols[i] == SWEEP_STAT && !by_floor ? ">median ns" : sweep_columns[cols[i]];
	table_init(t, n, head);
	for (size_t i = 0; i < n; i++)
		t->wrap[i] = cols[i] == SWEEP_PREDICTED;
}

void sweep_table_row(struct table *t, const enum sweep_column *cols, size_t n,
		     const struct sweep_cells *c)
{
	const char *row[SWEEP_COLUMNS];

	for (size_t i = 0; i < n; i++)
		row[i] = c->cell[cols[i]];
	table_row_v(t, row);
}

/* ---- sweep's text ---- */

/* The control of v (--aa: a second copy of its placement), or NULL. */
static const struct variant *control_of(const struct sweep_view *w, const struct variant *v)
{
	for (size_t i = 0; w->control && i < w->nprimary; i++) {
		if (w->kernels[i] != v->k || !w->control[i])
			continue;
		for (size_t j = 0; j < w->s->n; j++)
			if (w->s->v[j].k == w->control[i] && w->s->v[j].offset == v->offset)
				return &w->s->v[j];
	}
	return NULL;
}

static void kernel_table(FILE *out, const struct sweep_view *w, const struct kernel *k)
{
	static const enum sweep_column cols[] = { SWEEP_OFFSET, SWEEP_LOOP, SWEEP_STAT, SWEEP_CI,
		SWEEP_MEDIAN, SWEEP_GBPS, SWEEP_RATIO, SWEEP_P, SWEEP_SLOW, SWEEP_MODEL,
		SWEEP_PREDICTED, SWEEP_AA };
	struct table t;
	bool aa = w->control && k->placeable;

	sweep_table_init(&t, cols, aa ? 12 : 11, true);
	for (size_t i = 0; i < w->s->n; i++) {
		const struct variant *v = &w->s->v[i], *ctl = control_of(w, v);
		struct measured_point m, mc;
		struct sweep_cells c;

		if (v->k != k)
			continue;
		sweep_point(w->s, v, &m);
		if (ctl)
			sweep_point(w->s, ctl, &mc);
		sweep_row(&m, ctl ? &mc : NULL, k->placeable, ",", &c);
		sweep_table_row(&t, cols, aa ? 12 : 11, &c);
	}
	table_print(&t, out);
	table_free(&t);
}

/* The controls' floors over the firsts': the spread of two copies of one
 * placement, what a ratio must clear to be the layout's. */
static void control_summary(FILE *out, const struct sweep_view *w, const struct kernel *k)
{
	double lo = 0, hi = 0, *dev = xcalloc(w->s->n + 1, sizeof *dev);
	size_t n = 0;

	for (size_t i = 0; i < w->s->n; i++) {
		const struct variant *v = &w->s->v[i], *ctl = v->k == k ? control_of(w, v) : NULL;
		double r;

		if (!ctl)
			continue;
		r = ctl->sum.floor / v->sum.floor;
		lo = n ? (r < lo ? r : lo) : r;
		hi = n ? (r > hi ? r : hi) : r;
		dev[n++] = fabs(r - 1);
	}
	if (n)
		fprintf(out, "A/A: a second copy of each of %zu placements: floors %.3f..%.3f of the "
			"first's, median |1 - A/A| %.2f%%\n", n, lo, hi,
			100 * stats_median_select(dev, n));
	free(dev);
}

static void kernel_summary(FILE *out, const struct sweep_view *w, const struct kernel *k)
{
	const struct variant *best = NULL, *worst = NULL;
	size_t nslow = 0;
	unsigned fix = sweep_measured_fix(w->s, k);

	fprintf(out, "slow offsets:");
	for (size_t i = 0; i < w->s->n; i++) {
		const struct variant *v = &w->s->v[i];

		if (v->k != k)
			continue;
		if (!best || v->sum.floor < best->sum.floor)
			best = v;
		if (!worst || v->sum.floor > worst->sum.floor)
			worst = v;
		if (v->slow) {
			fprintf(out, " %u", v->offset);
			nslow++;
		}
	}
	fprintf(out, "%s\n", nslow ? "" : " none");
	fprintf(out, "sensitivity: %.2fx (worst offset %u: floor %.1f ns, best offset %u: %.1f ns)\n",
		worst->sum.floor / best->sum.floor, worst->offset, worst->sum.floor,
		best->offset, best->sum.floor);
	for (size_t p = 0; p < w->nprofiles; p++) {
		size_t total, agree = sweep_profile_agreement(w->s, w->profiles[p], k, &total, NULL);

		fprintf(out, "model (%s) and measurement agree on %zu of %zu offsets\n",
			w->profiles[p]->name, agree, total);
	}
	if (nslow && fix)
		fprintf(out, "fix: .p2align %d before the loop: no placement so aligned was slow "
			"here\n", __builtin_ctz(fix));
}

/* With several kernels: each at its best offset against the first. */
static void compare_kernels(FILE *out, const struct sweep_view *w)
{
	struct sweep_at_best *at = xcalloc(w->nprimary, sizeof *at);
	size_t n = sweep_at_best(w->s, w->kernels, w->nprimary, at);

	fprintf(out, "\nat their best offsets:\n");
	for (size_t i = 0; i < n; i++) {
		const struct variant *best = at[i].best;

		fprintf(out, "  %-16s %10.1f ns  %.2f GB/s", best->k->name, best->sum.floor,
			(double)w->s->size / best->sum.floor);
		if (i)
			fprintf(out, "  %.3fx %s (p %.3g)", at[i].vs_first_ratio, at[0].best->k->name,
				at[i].vs_first.p);
		fprintf(out, "\n");
	}
	free(at);
}

static void kernel_head(FILE *out, const struct sweep_view *w, const struct kernel *k)
{
	const struct sweep *s = w->s;

	fprintf(out, "\n%s (seed %s), ", k->name, k->seed);
	if (s->ncalls > 1)
		fprintf(out, "%zu bytes per operation of %zu calls (%s)", s->size, s->ncalls,
			w->workload);
	else
		fprintf(out, "%zu bytes per call", s->size);
	if (k->placeable && k->loop_end > k->loop_start)
		fprintf(out, ", hot loop at +%u..+%u of the kernel", k->loop_start, k->loop_end);
	else if (k->placeable)
		fprintf(out, ", no loop");
	fprintf(out, "\n");
	if (k->call)
		fprintf(out, "%s\n", k->summary);
}

void report_sweep_text(FILE *out, const struct sweep_view *w)
{
	const struct sweep *s = w->s;

	fprintf(out, "clock %s (%.3f ns/tick, resolution %.1f ns), pinned to CPU %d; counters: %s\n",
		s->clock.source, s->clock.ns_per_tick, s->clock.resolution_ns, s->cpu,
		s->counters.why);
	fprintf(out, "stopped by %s after %u rounds (%.1f s): widest 95%% CI half-width %.2f%% of "
		"its floor (asked: %.2f%%)\n", s->stopped_by, s->rounds, s->elapsed_s,
		100 * s->worst_halfwidth, 100 * s->precision);
	for (size_t i = 0; i < w->nprimary; i++) {
		kernel_head(out, w, w->kernels[i]);
		kernel_table(out, w, w->kernels[i]);
		if (w->kernels[i]->placeable)
			kernel_summary(out, w, w->kernels[i]);
		control_summary(out, w, w->kernels[i]);
	}
	if (w->nprimary > 1)
		compare_kernels(out, w);
}

void report_sweep_csv(FILE *out, const struct sweep *s)
{
	fprintf(out, "kernel,offset,loop_offset,samples,median_ns,ci_lo_ns,ci_hi_ns,floor_ns,"
		"floor_lo_ns,floor_hi_ns,gbps,ratio,p,slow,model,predicted\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct variant *v = &s->v[i];
		struct measured_point m;
		char pred[400];

		sweep_point(s, v, &m);
		predicted_cell(&m, v->k->placeable, " ", pred, sizeof pred); /* no comma in a field */
		fprintf(out, "%s,%u,%u,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4g,%d,%.3f,%s\n",
			v->k->name, v->offset, (v->offset + v->k->loop_start) % 64, v->n,
			v->sum.median, v->sum.ci_lo, v->sum.ci_hi, v->sum.floor, v->sum.floor_lo,
			v->sum.floor_hi, (double)s->size / v->sum.floor, v->ratio, v->p_vs_best,
			v->slow, v->predicted_ratio, pred);
	}
}

/* ---- the plot ---- */

struct sweep_plot {
	struct plot_series *series;
	double *x, *y, *lo, *hi, *guide, *shade;
	bool *mark;
	char note[160];
	struct plot p;
};

static int write_plot(FILE *f, void *ctx)
{
	return plot_svg(f, &((struct sweep_plot *)ctx)->p);
}

/* Time against offset per kernel; guides where the first kernel's loop
 * starts on a 16 B boundary, bands where the first profile predicts a
 * hazard for it. */
static void plot_of(const struct sweep_view *w, struct sweep_plot *sp)
{
	size_t n = w->s->n, at = 0, nguide = 0, nshade = 0;
	const struct kernel *first = w->kernels[0];

	sp->series = xcalloc(w->nkernels, sizeof *sp->series);
	sp->x = xcalloc(n, sizeof(double)), sp->y = xcalloc(n, sizeof(double));
	sp->lo = xcalloc(n, sizeof(double)), sp->hi = xcalloc(n, sizeof(double));
	sp->guide = xcalloc(n + 1, sizeof(double)), sp->shade = xcalloc(n + 1, sizeof(double));
	sp->mark = xcalloc(n, sizeof(bool));
	for (size_t k = 0; k < w->nkernels; k++) {
		sp->series[k] = (struct plot_series){ w->kernels[k]->name, sp->x + at, sp->y + at,
			sp->lo + at, sp->hi + at, sp->mark + at, 0 };
		for (size_t i = 0; i < n; i++) {
			const struct variant *v = &w->s->v[i];

			if (v->k != w->kernels[k])
				continue;
			sp->x[at] = v->offset, sp->y[at] = v->sum.floor, sp->lo[at] = v->sum.floor_lo;
			sp->hi[at] = v->sum.floor_hi, sp->mark[at] = v->slow;
			at++, sp->series[k].n++;
		}
	}
	for (uint32_t off = w->first; off <= w->last; off++)
		if ((off + first->loop_start) % 16 == 0 && nguide < n)
			sp->guide[nguide++] = off;
	for (size_t i = 0; i < n; i++)
		if (w->s->v[i].k == first && w->s->v[i].npredicted)
			sp->shade[nshade++] = w->s->v[i].offset;
	snprintf(sp->note, sizeof sp->note, "grey bands: %s predicts a hazard for %s",
		 w->profiles[0]->name, first->name);
	sp->p = (struct plot){ "straddle sweep: floor (10th percentile) time per call (95% CI)",
		"code offset (dashed: the hot loop starts on a 16 B boundary)", "ns per call",
		sp->series, w->nkernels, sp->guide, nguide, sp->shade, nshade, sp->note, NULL };
}

int report_sweep_plot(const char *path, const struct sweep_view *w, struct err *e)
{
	struct sweep_plot sp;
	int rc;

	plot_of(w, &sp);
	rc = write_atomic(path, write_plot, &sp, e);
	free(sp.series), free(sp.x), free(sp.y), free(sp.lo), free(sp.hi), free(sp.guide);
	free(sp.shade), free(sp.mark);
	return rc;
}
