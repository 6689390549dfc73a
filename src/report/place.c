/* place's text: what was moved, how the runs went, each arm's row
 * (place_row, place_columns: the page's place section makes its rows
 * with them too), what each move did to the program against the control,
 * and the plot. */
#include "internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* What the ratio, p and slow columns are. */
static void print_marks_note(FILE *out, const struct place_view *v)
{
	const struct place_arm *ref = NULL;

	for (size_t i = 0; i < v->x->narms; i++)
		if (v->x->arm[i].mark.reference)
			ref = &v->x->arm[i];
	if (v->x->rounds < STATS_PLACEMENT_MIN_ROUNDS) {
		fprintf(out, "ratio: of medians to the best (%s); no slow mark under %d rounds\n",
			ref ? ref->name : "-", STATS_PLACEMENT_MIN_ROUNDS);
		return;
	}
	fprintf(out, "ratio, p: each arm against the best of the %u even rounds (%s) on the %u odd ones, "
		"p adjusted for the %zu arms tested (Holm); slow: p < %g and ratio > %g\n",
		(v->x->rounds + 1) / 2, ref ? ref->name : "-", v->x->rounds / 2, v->x->narms - 1,
		v->x->alpha, 1 + v->x->material);
}

/* An arm of the experiment as its document reads back. */
void place_point(const struct place_arm *a, struct measured_point *m)
{
	*m = (struct measured_point){ .arm = a->name, .offset = a->offset, .n = a->n,
		.median = a->sum.median, .ci_lo = a->sum.ci_lo, .ci_hi = a->sum.ci_hi,
		.ratio = a->ratio, .p = a->p, .tested = a->mark.n > 0, .slow = a->slow,
		.model = a->predicted_slowdown };
	for (size_t i = 0; i < a->npredicted && i < sizeof m->predicted / sizeof m->predicted[0]; i++)
		m->predicted[m->npredicted++] = (struct measured_hazard){
			rule_name(a->predicted[i].rule), a->predicted[i].window };
	m->npredicted_all = a->npredicted;
}

void place_row(const struct measured_point *m, bool placed, bool offset, const char *unit,
	       const char *sep, struct place_cells *c)
{
	size_t n = sizeof c->text[0];

	for (int i = 0; i < PLACE_COL_COLUMNS; i++)
		c->cell[i] = c->text[i];
	c->cell[PLACE_COL_ARM] = text_or(m->arm, "");
	cell_text(c->text[PLACE_COL_OFFSET], n, offset ? "%.0f" : "-", m->offset);
	snprintf(c->text[PLACE_COL_RUNS], n, "%zu", m->n);
	/* whole-program seconds: four places, where a kernel's ns need one */
	cell_text(c->text[PLACE_COL_MEDIAN], n, "%.4f", m->median);
	if (isfinite(m->median))
		snprintf(c->text[PLACE_COL_MEDIAN] + strlen(c->text[PLACE_COL_MEDIAN]),
			 n - strlen(c->text[PLACE_COL_MEDIAN]), "%s", unit);
	snprintf(c->text[PLACE_COL_CI], n, "[%.4f, %.4f]", m->ci_lo, m->ci_hi);
	cell_text(c->text[PLACE_COL_RATIO], n, "%.3f", m->ratio);
	cell_text(c->text[PLACE_COL_P], n, m->tested ? "%.3g" : "-", m->p);
	snprintf(c->text[PLACE_COL_SLOW], n, "%s", m->slow ? "slow" : "");
	cell_text(c->text[PLACE_COL_MODEL], n, m->model ? "%.3f" : "-", m->model);
	if (placed)
		format_predicted(m->predicted, m->npredicted, sep, c->predicted, sizeof c->predicted);
	else
		snprintf(c->predicted, sizeof c->predicted, "n/a");
	c->cell[PLACE_COL_PREDICTED] = c->predicted;
}

const char *const place_columns[PLACE_COL_COLUMNS] = {
	[PLACE_COL_ARM] = "arm", [PLACE_COL_OFFSET] = ">offset", [PLACE_COL_RUNS] = ">runs",
	[PLACE_COL_MEDIAN] = ">median", [PLACE_COL_CI] = ">95% CI", [PLACE_COL_RATIO] = ">ratio",
	[PLACE_COL_P] = ">p", [PLACE_COL_SLOW] = "slow", [PLACE_COL_MODEL] = ">model",
	[PLACE_COL_PREDICTED] = "predicted",
};

void place_table_init(struct table *t, const enum place_column *cols, size_t n)
{
	const char *head[PLACE_COL_COLUMNS] = { 0 };

	for (size_t i = 0; i < n; i++)
		head[i] = place_columns[cols[i]];
	table_init(t, n, head);
	for (size_t i = 0; i < n; i++)
		t->wrap[i] = cols[i] == PLACE_COL_PREDICTED;
}

void place_table_row(struct table *t, const enum place_column *cols, size_t n,
		     const struct place_cells *c)
{
	const char *row[PLACE_COL_COLUMNS];

	for (size_t i = 0; i < n; i++)
		row[i] = c->cell[cols[i]];
	table_row_v(t, row);
}

static void print_table(FILE *out, const struct place_view *v)
{
	static const enum place_column cols[] = { PLACE_COL_ARM, PLACE_COL_OFFSET, PLACE_COL_RUNS,
		PLACE_COL_MEDIAN, PLACE_COL_CI, PLACE_COL_RATIO, PLACE_COL_P, PLACE_COL_SLOW, PLACE_COL_MODEL,
		PLACE_COL_PREDICTED };
	struct table t;

	place_table_init(&t, cols, 10);
	for (size_t i = 0; i < v->x->narms; i++) {
		const struct place_arm *a = &v->x->arm[i];
		bool placed = a->kind != PLACE_UNMOVED && a->kind != PLACE_RANDOM;
		struct measured_point m;
		struct place_cells c;

		place_point(a, &m);
		place_row(&m, placed, placed && v->x->subject, v->metric ? "" : "s", ",", &c);
		place_table_row(&t, cols, 10, &c);
	}
	table_print(&t, out);
	table_free(&t);
	print_marks_note(out, v);
}

static const struct place_arm *arm_kind(const struct place_view *v, enum place_arm_kind k, const char *name)
{
	for (size_t i = 0; i < v->x->narms; i++)
		if (v->x->arm[i].kind == k && (!name || strcmp(v->x->arm[i].name, name) == 0))
			return &v->x->arm[i];
	return NULL;
}

/* The change from one arm to another, round by round (paired: the drift
 * of the machine cancels in each round's ratio): % with its CI and p; on
 * the odd rounds alone for an arm chosen on the even ones. */
static void change_line(const struct place_view *v, const struct place_arm *from,
			const struct place_arm *to, bool chosen, char *buf, size_t n)
{
	struct paired pr;

	if (chosen)
		stats_paired_ratio_odd(from->v, to->v, from->n < to->n ? from->n : to->n,
				       v->x->alpha, &pr);
	else
		stats_paired_ratio(from->v, to->v, from->n < to->n ? from->n : to->n, v->x->alpha, &pr);
	/* significant but smaller than --material is no verdict either, as
	 * for the slow mark: two invocations on this guest gave +1.1% (p
	 * 0.008) and -0.3% (p 0.79) for the same move of fill.c's loop */
	snprintf(buf, n, "%+.1f%% [%+.1f, %+.1f] (p %.2g%s)", 100 * (pr.ratio - 1),
		 100 * (pr.lo - 1), 100 * (pr.hi - 1), pr.p, pr.p >= v->x->alpha ? ": inconclusive" :
		 fabs(pr.ratio - 1) <= v->x->material ? ": below --material" : "");
}

size_t place_offset_extremes(const struct place_experiment *x, bool split,
			     const struct place_arm **lo, const struct place_arm **hi)
{
	size_t n = 0;

	*lo = *hi = NULL;
	for (size_t i = 0; i < x->narms; i++) {
		const struct place_arm *a = &x->arm[i];
		double m = split ? stats_even_median(a->v, a->n) : a->sum.median;

		if (a->kind != PLACE_OFFSET)
			continue;
		n++;
		*lo = !*lo || m < (split ? stats_even_median((*lo)->v, (*lo)->n) : (*lo)->sum.median) ?
		      a : *lo;
		*hi = !*hi || m > (split ? stats_even_median((*hi)->v, (*hi)->n) : (*hi)->sum.median) ?
		      a : *hi;
	}
	return n;
}

bool place_move_named(const struct place_arm *a, size_t n, const struct place_arm *lo,
		      const struct place_arm *hi, char *named, size_t len)
{
	if (a->kind != PLACE_OFFSET || (n > 4 && a != lo && a != hi))
		return false;
	*named = 0;
	/* best and worst are the model's; a number is the user's; aa the
	 * replay's second copy at today's offset */
	if (!strcmp(a->name, "aa"))
		snprintf(named, len, " (a second copy, the A/A)");
	else if (!isdigit((unsigned char)a->name[0]))
		snprintf(named, len, " (the model's %s)", a->name);
	if (n > 4)
		snprintf(named, len, " (the %s of the even rounds)", a == lo ? "fastest" : "slowest");
	return true;
}

/* One line per offset arm against the control; with more than a few,
 * the fastest and slowest only: chosen on the even rounds and measured on
 * the odd ones (chosen and measured on the same rounds, the fastest of 64
 * is fast by luck too). */
static void print_moves(FILE *out, const struct place_view *v, const struct place_arm *ctl,
			const char *what)
{
	const struct place_arm *lo, *hi;
	char line[200];
	bool split = v->x->rounds >= STATS_PLACEMENT_MIN_ROUNDS;
	size_t n = place_offset_extremes(v->x, split, &lo, &hi);

	for (size_t i = 0; i < v->x->narms; i++) {
		const struct place_arm *a = &v->x->arm[i];
		char named[48];

		if (!place_move_named(a, n, lo, hi, named, sizeof named))
			continue;
		change_line(v, ctl, a, n > 4 && split, line, sizeof line);
		fprintf(out, "moving %s's %s from %u to %u of its %u-byte %s%s: %s of %s%s\n",
			v->x->subject->name, v->x->loop_start == v->x->subject->addr ? "entry" : "loop",
			v->x->current, a->offset, v->x->align, v->x->align == 64 ? "line" : "block", named,
			line, what, n > 4 && split ? " on the odd rounds" : "");
	}
}

static void print_answer(FILE *out, const struct place_view *v)
{
	const struct place_arm *un = arm_kind(v, PLACE_UNMOVED, NULL), *ctl = arm_kind(v, PLACE_CONTROL, NULL);
	const char *what = v->metric ? "its metric" : v->x->wall ? "its wall time" : "its CPU time";
	char line[200], ctl_line[200];
	size_t agree = 0, total = 0, open = 0;

	/* only marks that hold count: slow, or surely not (its interval
	 * within --material); the rest are said to be open */
	for (size_t i = 0; i < v->x->narms; i++) {
		const struct place_arm *a = &v->x->arm[i];

		if (!v->x->subject || (a->kind != PLACE_OFFSET && a->kind != PLACE_CONTROL))
			continue;
		if (!a->mark.slow && !a->mark.fast) {
			open++;
			continue;
		}
		total++, agree += a->mark.slow == (a->predicted_slowdown > 1 + v->x->material);
	}
	change_line(v, un, ctl, false, ctl_line, sizeof ctl_line);
	if (v->x->subject)
		fprintf(out, "\ncontrol (a copy at offset %u) against the unmoved program: %s\n", v->x->current,
			ctl_line);
	else
		fprintf(out, "\ncontrol (each copy at its function's own offset) against the unmoved "
			"program: %s\n", ctl_line);
	if (v->x->subject) {
		print_moves(out, v, ctl, what);
		fprintf(out, "model (%s; back end %.2f cycles an iteration, %s) and measurement agree on "
			"%zu of %zu placements measured surely (model: costs more than %.0f%%); %zu "
			"neither slow nor surely not\n", v->x->profile->name, v->x->back_end.cycles,
			cost_source_name(v->x->back_end.source), agree, total, 100 * v->x->material, open);
	} else if (arm_kind(v, PLACE_RANDOM, NULL)) {
		const struct place_arm *r = arm_kind(v, PLACE_RANDOM, NULL);

		change_line(v, ctl, r, false, line, sizeof line);
		fprintf(out, "random layouts against the control: %s of %s; layout noise (CV) %.2f%% "
			"against the control's %.2f%%\n", line, what, 100 * r->sum.cv, 100 * ctl->sum.cv);
	}
}

void report_place_head(FILE *out, const struct place_view *v)
{
	char a[20], b[20];

	if (v->x->replay) {
		report_place_replay_head(out, v);
		return;
	}

	fprintf(out, "%s: %zu function%s moved", v->file, v->refused[RELOC_OK],
		v->refused[RELOC_OK] == 1 ? "" : "s");
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (v->refused[r])
			fprintf(out, ", %zu refused (%s)", v->refused[r], reloc_refusal_name(r));
	fprintf(out, "\n");
	if (v->x->subject)
		fprintf(out, "%s: loop %s..%s, %" PRIu64 " bytes, at offset %u of its %u-byte block today\n",
			v->x->subject->name, hex_addr(a, v->x->loop_start), hex_addr(b, v->x->loop_end),
			v->x->loop_end - v->x->loop_start, v->x->current, v->x->align);
	fprintf(out, "measured: %s; stopped by %s after %u rounds (%.1f s); ", v->metric ? v->metric :
		v->x->wall ? "wall time" : "CPU time (user + system)", v->x->stopped_by, v->x->rounds,
		v->x->elapsed_s);
	if (v->x->no_output_check)
		fprintf(out, "output not compared (--no-output-check), status the same in %u of %u runs\n",
			v->x->same_status, v->x->checked ? v->x->checked - 1 : 0);
	else
		fprintf(out, "output identical in %u of %u runs\n", v->x->identical,
			v->x->checked ? v->x->checked - 1 : 0);
}

void report_place_text(FILE *out, const struct place_view *v)
{
	if (v->x->replay) {
		report_place_replay_text(out, v);
		return;
	}
	if (v->x->napply)
		fprintf(out, "the preload library applied the plan in %.0f us (median of %zu; max %.0f us)\n",
			experiment_apply_median_us(v->x), v->x->napply, experiment_apply_max_us(v->x));
	print_table(out, v);
	print_answer(out, v);
}

static int write_plot_file(FILE *f, void *ctx)
{
	return plot_svg(f, ctx);
}

/* The measure against the offset: the control and each offset arm. */
int report_place_plot(const char *path, const struct place_view *v, struct err *e)
{
	double x[PLACE_MAX_ARMS], y[PLACE_MAX_ARMS], lo[PLACE_MAX_ARMS], hi[PLACE_MAX_ARMS];
	double sh[PLACE_MAX_ARMS];
	bool mark[PLACE_MAX_ARMS];
	size_t n = 0, nsh = 0;

	for (uint32_t o = 0; o < v->x->align; o++)         /* by offset: a line, not a zigzag */
		for (size_t i = 0; i < v->x->narms; i++) {
			const struct place_arm *a = &v->x->arm[i];

			if ((a->kind != PLACE_OFFSET && a->kind != PLACE_CONTROL) || a->offset != o)
				continue;
			x[n] = a->offset, y[n] = a->sum.median, lo[n] = a->sum.ci_lo;
			hi[n] = a->sum.ci_hi, mark[n] = a->slow;
			if (a->npredicted)
				sh[nsh++] = a->offset;
			n++;
		}
	struct plot_series s = { v->x->subject ? v->x->subject->name : v->func, x, y, lo, hi, mark, n };
	struct plot p = { "straddle place: the program's median per placement (95% CI)",
		"offset of the loop in its line", v->metric ? v->metric : "seconds", &s, 1, NULL, 0,
		sh, nsh, "grey bands: the model predicts a hazard there", NULL };
	return write_atomic(path, write_plot_file, &p, e);
}

