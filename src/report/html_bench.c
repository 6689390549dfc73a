/* The sections of run-level measurements on the page of `straddle report`:
 * bench results, compared with each other as `straddle compare` would (the
 * first is the base: compare_build, compare_verdict, one way to do each), and
 * compare's own JSON documents. Per metric the distribution of every run's
 * samples (a strip plot, the table behind it), the change with its CI and
 * verdict and why, and each side's machine state. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the machine's state, run by run and side by side ---- */

/* One row per run the samples have (f->states, as compare and
 * side_states count them): a file may record states of runs whose samples
 * it lacks, and those runs are in no plot or table. */
static void bench_states(FILE *out, const struct bench_doc *b)
{
	static const char *const cols[] = { ">run", ">seconds", ">load", ">steal %",
		">others' CPU %", ">busy %", ">CPUs", "clock source", "governor", ">MHz" };
	struct table t;

	table_init(&t, 10, cols);
	for (size_t i = 0; i < b->nstates; i++) {
		const struct bench_state *s = &b->states[i];
		char run[24], sec[32], load[32], steal[32], others[32], busy[32], cpus[16], mhz[32];

		snprintf(run, sizeof run, "%zu", i + 1);
		cell_text(sec, sizeof sec, "%.1f", s->seconds);
		cell_text(load, sizeof load, "%.2f", s->load);
		cell_text(steal, sizeof steal, "%.1f", s->steal_pct);
		cell_text(others, sizeof others, "%.1f", s->others_pct);
		cell_text(busy, sizeof busy, "%.1f", s->busy_pct);
		cell_text(cpus, sizeof cpus, "%.0f", s->cpus);
		cell_text(mhz, sizeof mhz, "%.0f", s->mhz);
		table_row(&t, run, sec, load, steal, others, busy, cpus, text_or(s->clocksource, "-"),
			  text_or(s->governor, "-"), mhz);
	}
	fputs("<h3>The machine's state, run by run</h3>\n", out);
	table_html(&t, out, "states");
	table_free(&t);
}

static void side_states(FILE *out, const struct compare *c)
{
	static const char *const cols[] = { "side", ">runs", ">steal %", ">others' CPU %",
		">load", ">MHz", "clock source", "governor" };
	struct table t;

	table_init(&t, 8, cols);
	t.wrap[0] = true;
	for (size_t f = 0; f < c->nfiles; f++) {
		const struct result_file *r = &c->files[f];
		char side[300], runs[16], steal[32], others[32], load[32], mhz[32];
		const char *cs = results_state_string(r, "clocksource");
		const char *gov = results_state_string(r, "governor");

		snprintf(side, sizeof side, "%s%s", compare_label(r), f ? "" : " (base)");
		snprintf(runs, sizeof runs, "%zu", results_state_count(r));
		cell_text(steal, sizeof steal, "%.1f", results_state_mean(r, "steal_pct", -1));
		cell_text(others, sizeof others, "%.1f", results_state_mean(r, "others_pct", -1));
		cell_text(load, sizeof load, "%.2f", results_state_mean(r, "load", 0));
		cell_text(mhz, sizeof mhz, "%.0f", results_state_mean(r, "mhz", -1));
		table_row(&t, side, runs, steal, others, load, mhz, cs ? cs : "-", gov ? gov : "-");
	}
	fputs("<h3>The machine's state of each side (means over its runs)</h3>\n", out);
	table_html(&t, out, "states");
	table_free(&t);
}

/* ---- the distribution of one metric's samples, run by run ---- */

struct side_metric {
	const struct result_file *file;
	const struct metric *m;         /* NULL where the side lacks it */
};

/* side, run, samples, min, median, max, and the run's statistic (what
 * compare tests) in a column of its own only when it is none of the
 * three: a per-call time's is the median, which was shown twice. */
static void metric_runs_table(FILE *out, const struct side_metric *s, size_t nsides,
			      enum stat_kind stat)
{
	const char *cols[] = { "side", ">run", ">samples", ">min", ">median", ">max", NULL };
	static const enum stat_kind shown[3] = { STAT_MIN, STAT_MEDIAN, STAT_MAX };
	size_t ncols = 7, at = 6;
	char head[48];
	struct table t;

	snprintf(head, sizeof head, ">the run's %s", stat_name(stat));
	for (size_t i = 0; i < 3; i++)
		if (shown[i] == stat)
			at = 3 + i, ncols = 6;
	cols[at] = head;
	table_init(&t, ncols, cols);
	for (size_t k = 0; k < nsides; k++)
		for (size_t r = 0; s[k].m && r < s[k].m->nruns; r++) {
			const struct metric_run *run = &s[k].m->runs[r];
			struct summary sum;
			char no[24], n[24], mn[32], med[32], mx[32], st[32];

			stats_summarize(run->v, run->n, 1, s[k].m->lower_is_better, &sum);
			snprintf(no, sizeof no, "%zu", r + 1);
			snprintf(n, sizeof n, "%zu", run->n);
			snprintf(mn, sizeof mn, "%.6g", sum.min);
			snprintf(med, sizeof med, "%.6g", sum.median);
			snprintf(mx, sizeof mx, "%.6g", sum.max);
			snprintf(st, sizeof st, "%.6g", stat_of(&sum, stat));
			const char *cells[7] = { compare_label(s[k].file), no, n, mn, med, mx, st };

			cells[at] = st;
			table_row_v(&t, cells);
		}
	table_html(&t, out, "data");
	table_free(&t);
}

/* A strip plot of every run of every side that has the metric, then its
 * table. id: the plot's. */
static void metric_strip(FILE *out, const struct side_metric *s, size_t nsides,
			 enum stat_kind stat, const char *id)
{
	const struct metric *m = s[0].m;
	const char **sides = xcalloc(nsides, sizeof *sides);
	struct strip_row *rows;
	char (*labels)[160];
	size_t nrows = 0, at = 0;
	char title[300], xlabel[160], note[160];

	for (size_t k = 0; k < nsides; k++)
		nrows += s[k].m ? s[k].m->nruns : 0;
	rows = xcalloc(nrows + 1, sizeof *rows);
	labels = xcalloc(nrows + 1, sizeof *labels);
	for (size_t k = 0; k < nsides; k++) {
		sides[k] = compare_label(s[k].file);
		for (size_t r = 0; s[k].m && r < s[k].m->nruns; r++, at++) {
			if (nsides > 1)
				snprintf(labels[at], sizeof labels[at], "%.120s, run %zu", sides[k], r + 1);
			else
				snprintf(labels[at], sizeof labels[at], "run %zu", r + 1);
			rows[at] = (struct strip_row){ labels[at], s[k].m->runs[r].v,
						       s[k].m->runs[r].n, (unsigned)k };
		}
	}
	snprintf(title, sizeof title, "%s: every sample of each run (box: quartiles, bar: "
		 "median)", m->name);
	snprintf(xlabel, sizeof xlabel, "%s (%s is better)", *m->unit ? m->unit : "value",
		 m->lower_is_better ? "lower" : "higher");
	snprintf(note, sizeof note, "more than %d samples: each run's density (the height: the "
		 "samples within 3 px); every raw sample is in the result file", STRIP_DOTS);
	struct strip_plot p = { title, xlabel, NULL, rows, nrows, sides, nsides };
	p.note = strip_dense(&p) ? note : NULL;
	strip_svg_inline(out, &p, id);
	metric_runs_table(out, s, nsides, stat);
	free(rows);
	free(labels);
	free(sides);
}

static void metric_heading(FILE *out, const struct metric *m, enum stat_kind stat)
{
	fputs("<h3>", out);
	html_textf(out, "%s (%s, %s is better; each run's %s)", m->name, m->unit,
		   m->lower_is_better ? "lower" : "higher", stat_name(stat));
	fputs("</h3>\n", out);
}

/* ---- one bench file ---- */

/* What the file measured and says of its settings, each setting only when
 * it says it. The runs are those its samples have (results_read made every
 * metric have as many); a "runs" setting that disagrees is shown beside. */
static void bench_settings(FILE *out, const struct bench_doc *b)
{
	static const char *const label[BENCH_SETTINGS] = { "measured seconds per metric",
		"tasks", "modes", "buffer offset in a page", "seconds in all" };

	fputs("<p>Workloads: ", out);
	for (size_t i = 0; i < b->nworkloads; i++)
		html_textf(out, "%s%s", i ? ", " : "", b->workloads[i]);
	if (!b->nworkloads)
		fputs("-", out);
	html_textf(out, "; runs %zu", b->runs);
	if (b->runs_differ) {
		fputs(" (its settings say ", out);
		html_text(out, b->runs_said);
		fputs(")", out);
	}
	for (size_t k = 0; k < BENCH_SETTINGS; k++)
		if (b->setting[k].present) {
			html_textf(out, "; %s ", label[k]);
			html_text(out, b->setting[k].text);
		}
	fputs(".</p>\n", out);
}

static void bench_section(FILE *out, const struct report_input *in,
			  const struct result_file *f)
{
	html_section_begin(out, in, "bench");
	bench_settings(out, &in->bench);
	bench_states(out, &in->bench);
	for (size_t i = 0; i < f->n; i++) {
		struct side_metric s = { f, &f->m[i] };
		enum stat_kind stat = stat_default(f->m[i].lower_is_better);
		char id[64];

		snprintf(id, sizeof id, "bench-%zu-m%zu", in->index, i + 1);
		metric_heading(out, &f->m[i], stat);
		metric_strip(out, &s, 1, stat, id);
	}
	html_section_end(out);
}

/* ---- bench files compared ---- */

static void verdict_banner(FILE *out, bool regression, const char *what)
{
	fprintf(out, "<p class=\"verdict %s\">", regression ? "fail" : "pass");
	html_text(out, regression ? "REGRESSION: a metric is significantly worse beyond the "
		  "threshold" : what);
	fputs("</p>\n", out);
}

static void warnings_list(FILE *out, const char *const *warnings, size_t nwarnings,
			  const char *const *noise, size_t nnoise)
{
	if (nwarnings + nnoise == 0)
		return;
	fputs("<ul class=\"warnings\">\n", out);
	for (size_t i = 0; i < nwarnings; i++) {
		fputs("<li>warning: ", out);
		html_text(out, warnings[i]);
		fputs("</li>\n", out);
	}
	for (size_t i = 0; i < nnoise; i++) {
		fputs("<li>noise: ", out);
		html_text(out, noise[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* compare_build's warnings and noise lines as the list above. */
static void compare_warnings(FILE *out, const struct compare *c)
{
	warnings_list(out, (const char *const *)c->warnings.v, c->warnings.n,
		      (const char *const *)c->noise.v, c->noise.n);
}

/* One row of the change table: what compare's CSV has, with the change's
 * CI and the reason for the verdict. */
struct change_row {
	const char *metric, *file, *stat;
	double base, new, change, lo, hi, p;
	const char *verdict;
	char why[200];
};

/* The changes at a glance: each row's change, its CI and its verdict. */
static void change_plot(FILE *out, const struct change_row *r, size_t n, double alpha,
			double threshold, const char *id)
{
	struct change_plot_row *rows = xcalloc(n + 1, sizeof *rows);
	char (*labels)[48] = xcalloc(n + 1, sizeof *labels);
	char note[160];

	for (size_t i = 0; i < n; i++) {
		const char *file = strrchr(r[i].file, '/') ? strrchr(r[i].file, '/') + 1 : r[i].file;

		snprintf(labels[i], sizeof labels[i], "%.26s, %.18s", r[i].metric, file);
		rows[i] = (struct change_plot_row){ labels[i], r[i].change, r[i].lo, r[i].hi,
						    r[i].verdict };
	}
	snprintf(note, sizeof note, "whiskers: the change's %g%% CI; grey: within the %g%% "
		 "threshold", 100 * (1 - alpha), 100 * threshold);
	struct change_plot p = { "The change of each metric, new against base",
				 "change in % of the base, + is better (as straddle compare's table)", note, rows, n,
				 threshold };
	change_svg_inline(out, &p, id);
	free(rows);
	free(labels);
}

static void change_table(FILE *out, const struct change_row *r, size_t n, double alpha,
			 double threshold, const char *id)
{
	static const char *const cols[] = { "metric", "new", "stat", ">base", ">new value",
		">change % (+ better)", ">CI of the change %", ">p", "verdict", "why" };
	struct table t;

	if (n)
		change_plot(out, r, n, alpha, threshold, id);
	table_init(&t, 10, cols);
	t.wrap[0] = t.wrap[1] = t.wrap[9] = true;
	for (size_t i = 0; i < n; i++) {
		char base[32], new[32], change[32], ci[64], p[32];

		cell_text(base, sizeof base, "%.6g", r[i].base);
		cell_text(new, sizeof new, "%.6g", r[i].new);
		cell_text(change, sizeof change, "%+.2f", r[i].change);
		if (isfinite(r[i].lo))
			snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", r[i].lo, r[i].hi);
		else
			snprintf(ci, sizeof ci, "-");
		cell_text(p, sizeof p, "%.3g", r[i].p);
		table_row(&t, r[i].metric, r[i].file, r[i].stat, base, new, change, ci, p,
			  r[i].verdict, r[i].why);
	}
	table_html(&t, out, "changes");
	table_free(&t);
}

/* The change's CI in compare's sign (mmtests': + is better, what its
 * table prints; the page once drew +3.07 where the table said -3.07%):
 * the CI is computed of (new - base) / base, turned for a lower-is-better
 * metric. */
static void better_is_positive(struct change_row *r, bool lower_is_better)
{
	if (lower_is_better) {
		double lo = r->lo;

		r->lo = -r->hi;
		r->hi = -lo;
	}
}

/* Welch's p only where both sides have 2 runs: with 1 there is no test. */
static double test_p(const struct comparison *cmp)
{
	return cmp->base_runs >= 2 && cmp->new_runs >= 2 ? cmp->p : NAN;
}

static void compare_rows(FILE *out, const struct compare *c)
{
	struct change_row *rows = xcalloc(c->nrows * (c->nfiles - 1) + 1, sizeof *rows);
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &c->rows[i].cmp[f - 1];
			struct change_row *r = &rows[n];

			if (!c->rows[i].new[f - 1])
				continue;
			*r = (struct change_row){ c->rows[i].base->name, compare_label(&c->files[f]),
				stat_name(c->rows[i].stat), cmp->base, cmp->new, cmp->change_mmtests,
				cmp->change_lo, cmp->change_hi, test_p(cmp), compare_verdict(cmp), "" };
			better_is_positive(r, c->rows[i].base->lower_is_better);
			compare_reason(cmp, c->alpha, c->threshold, r->why, sizeof r->why);
			n++;
		}
	change_table(out, rows, n, c->alpha, c->threshold, "bench-compare-1-changes");
	free(rows);
}

static void benches_compared(FILE *out, const struct report_input *in,
			     const struct result_file *f, size_t n)
{
	struct compare c = { .files = f, .nfiles = n, .alpha = COMPARE_ALPHA,
			     .threshold = COMPARE_THRESHOLD };
	struct side_metric *s = xcalloc(c.nfiles, sizeof *s);

	compare_build(&c);
	fputs("<section class=\"result bench-compare\" id=\"bench-compare-1\">\n<h2>", out);
	html_textf(out, "bench compared: %s (base) against", in[0].path);
	for (size_t k = 1; k < c.nfiles; k++)
		html_textf(out, "%s %s", k > 1 ? "," : "", in[k].path);
	fputs("</h2>\n", out);
	fputs("<p>", out);
	html_textf(out, "As straddle compare: each run's statistic is one observation; "
		   "Welch's t test, alpha %g; a change must stand out of both sides' run-to-run "
		   "range, and be worse by more than %g%% to be a regression. The CI is the "
		   "change's %g%% interval by the same t.", c.alpha, 100 * c.threshold,
		   100 * (1 - c.alpha));
	fputs("</p>\n", out);
	verdict_banner(out, c.regression, "no significant regression");
	compare_warnings(out, &c);
	compare_rows(out, &c);
	side_states(out, &c);
	for (size_t i = 0; i < c.nrows; i++) {
		char id[64];

		for (size_t k = 0; k < c.nfiles; k++)
			s[k] = (struct side_metric){ &f[k], k ? c.rows[i].new[k - 1] : c.rows[i].base };
		snprintf(id, sizeof id, "bench-compare-1-m%zu", i + 1);
		metric_heading(out, c.rows[i].base, c.rows[i].stat);
		metric_strip(out, s, c.nfiles, c.rows[i].stat, id);
	}
	fputs("</section>\n", out);
	free(s);
	compare_free(&c);
}

void html_section_benches(FILE *out, const struct report_input *in, size_t n)
{
	struct result_file *f = xcalloc(n, sizeof *f);

	for (size_t i = 0; i < n; i++) {
		f[i] = in[i].file;      /* read once, by report_input_read */
		bench_section(out, &in[i], &f[i]);
	}
	if (n > 1)
		benches_compared(out, in, f, n);
	free(f);
}

/* ---- a compare --json document ---- */

/* The comparison a document's entry records, for compare_reason. */
static void comparison_of(const struct compared *e, struct comparison *c)
{
	*c = (struct comparison){ .base = e->base, .new = e->value, .base_runs = e->base_runs,
		.new_runs = e->runs, .base_spread = e->base_range, .new_spread = e->range,
		.change_robot = e->change_pct, .p = e->p, .enough = e->enough_runs,
		.stands_out = e->stands_out, .significant = e->significant,
		.regression = e->regression };
	c->improvement = c->significant && !c->regression && e->verdict &&
			 strcmp(e->verdict, "better") == 0;
	if (!isfinite(c->p))
		c->p = 1;
}

void html_section_compare(FILE *out, const struct report_input *in)
{
	const struct compare_doc *d = &in->compared;
	struct change_row *rows = xcalloc(d->nrows + 1, sizeof *rows);
	char id[64];

	html_section_begin(out, in, "compare");
	fputs("<p>", out);
	html_textf(out, "Base %s; alpha %g, threshold %g%%, a verdict needs %.0f runs a "
		   "side.", text_or(d->base, ""), d->alpha, 100 * d->threshold, d->min_runs);
	fputs("</p>\n", out);
	verdict_banner(out, d->regression, "no significant regression");
	warnings_list(out, d->warnings, d->nwarnings, d->noisy, d->nnoisy);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct compared *e = &d->row[i];
		struct comparison c;

		comparison_of(e, &c);
		rows[i] = (struct change_row){ text_or(e->metric, ""), text_or(e->path, ""),
			text_or(e->stat, ""), c.base, c.new, e->change_pct_mmtests, e->ci_lo,
			e->ci_hi, test_p(&c), text_or(e->verdict, ""), "" };
		better_is_positive(&rows[i], e->lower_is_better);
		compare_reason(&c, d->alpha, d->threshold, rows[i].why, sizeof rows[i].why);
	}
	snprintf(id, sizeof id, "compare-%zu-changes", in->index);
	change_table(out, rows, d->nrows, d->alpha, d->threshold, id);
	free(rows);
	html_section_end(out);
}
