/* `straddle compare`: rows of metrics, BASE against each NEW, tested run
 * against run, and how they print: mmtests' table, the kernel test robot's,
 * markdown, CSV, JSON; the verdict under the text table; warnings as one line
 * each for the machine and one summary for noise. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A run-to-run CV above this is noise worth a warning. */
#define NOISY_CV 0.05

/* The drift between this machine's A/A invocations of the metric: 100
 * (max - min) / mean of their statistics, from --drift, else the band a
 * BASE written by bench --invocations recorded, else the band this host
 * keeps (bench --invocations measured it here) when BASE and NEW ran on
 * the machine it was measured on; NAN when not measured. Two invocations
 * of one build differ by up to this with no change in the code (2 of 3
 * A/A pairs of `bench --tasks 1` flagged at -10.75% and -7.75%). o:
 * where it came from and of how many invocations. */
static double drift_of(const struct compare *c, const struct metric *m, enum stat_kind k,
		       const struct result_file *new, struct compare_opts *o)
{
	const struct metric *d = c->drift ? results_metric(c->drift, m->name) : NULL;
	double v;

	o->drift_from_host = false, o->drift_invocations = 0;
	if (c->drift) {
		o->drift_invocations = c->drift->nfiles;
		return d ? results_drift_band(c->drift, d, k) : NAN;
	}
	v = results_recorded_drift(&c->files[0], m->name, k, &o->drift_invocations);
	if (!isnan(v))
		return v;
	v = results_host_drift_of(c->host_drift, &c->files[0], new, m->name, k,
				  &o->drift_invocations);
	o->drift_from_host = !isnan(v);
	return v;
}

const char *compare_label(const struct result_file *f)
{
	const char *s = strrchr(f->path, '/');

	return s && s[1] ? s + 1 : f->path;
}

/* ---- noise ---- */

static void noise(struct compare *c, const struct result_file *f, const struct metric *m,
		  const double *runs, size_t n)
{
	double mean = stats_mean(runs, n), cv = n > 1 && mean ? stats_stddev(runs, n) / mean : 0;

	if (cv <= NOISY_CV)
		return;
	c->noisy++;
	compare_notes_add(&c->noise, "%s in %s: its runs' %s varies by %.1f%% (CV over %zu runs)",
			  m->name, compare_label(f), stat_name(c->rows[c->nrows].stat), 100 * cv, n);
	if (cv > c->worst_cv) {
		c->worst_cv = cv;
		snprintf(c->worst, sizeof c->worst, "%s in %s", m->name, compare_label(f));
	}
}

/* ---- the machine ---- */

/* The identity fields that can explain a difference on their own. */
static void compare_machines(struct compare *c, const struct result_file *base,
			     const struct result_file *new)
{
	struct strbuf diff = { 0 };

	results_machine_diff(base, new, &diff);
	if (diff.len)
		compare_notes_add(&c->warnings, "%s and %s ran on different machines or kernels: %s",
				  base->path, new->path, sb_str(&diff));
	sb_free(&diff);
}

/* Invocations a side are compared as units only fairly when they
 * were taken alternately (A B A B): a drift of the machine over the hour then
 * falls on both sides. All of one side before all of the other is said, not
 * refused. */
static void compare_alternation(struct compare *c, const struct result_file *base,
				const struct result_file *new)
{
	const char *b0, *b1, *n0, *n1;

	if (base->nfiles < 2 || new->nfiles < 2 || !results_time_span(base, &b0, &b1) ||
	    !results_time_span(new, &n0, &n1))
		return;
	if (strcmp(b1, n0) < 0 || strcmp(n1, b0) < 0)
		compare_notes_add(&c->warnings, "%s's invocations (%s to %s) and %s's (%s to %s) "
				  "were not alternated: a drift of the machine between them falls "
				  "on one side; take them A B A B (bench --invocations N --versus)",
				  compare_label(base), b0, b1, compare_label(new), n0, n1);
}

/* "steal 0.2% -> 11%: the change may be the machine's". The limits
 * are what moved times on this project's 2-vCPU guest: a few points of steal,
 * ten points of other tenants' CPU, a load of one. */
static bool compare_states(struct compare *c, const struct result_file *base,
			   const struct result_file *new)
{
	static const struct { const char *key, *what, *fmt; int index; double limit; bool pct; }
	nums[] = {
		{ "steal_pct", "steal", "%.1f%%", -1, 2, true },
		{ "others_pct", "other tenants' CPU", "%.0f%%", -1, 10, true },
		{ "load", "load", "%.2f", 0, 1, false },
		{ "mhz", "MHz", "%.0f", -1, 0, false },
	};
	static const char *const strs[][2] = { { "clocksource", "clock source" },
					       { "governor", "governor" } };
	struct strbuf diff = { 0 };
	char a[32], b[32];
	bool changed;

	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		double x = results_state_mean(base, nums[i].key, nums[i].index);
		double y = results_state_mean(new, nums[i].key, nums[i].index);
		double limit = nums[i].limit ? nums[i].limit : 0.05 * x;

		if (isnan(x) || isnan(y) || fabs(y - x) <= limit)
			continue;
		snprintf(a, sizeof a, nums[i].fmt, x);
		snprintf(b, sizeof b, nums[i].fmt, y);
		sb_addf(&diff, "%s%s %s -> %s", diff.len ? ", " : "", nums[i].what, a, b);
	}
	for (size_t i = 0; i < 2; i++) {
		const char *x = results_state_string(base, strs[i][0]);
		const char *y = results_state_string(new, strs[i][0]);

		if (x && y && strcmp(x, y) != 0)
			sb_addf(&diff, "%s%s %s -> %s", diff.len ? ", " : "", strs[i][1], x, y);
	}
	if (diff.len)
		compare_notes_add(&c->warnings, "%s -> %s: %s: the change may be the machine's; "
				  "no verdict", compare_label(base), compare_label(new), sb_str(&diff));
	changed = diff.len > 0;
	sb_free(&diff);
	return changed;
}

/* ---- rows ---- */

static void compare_row(struct compare *c, const struct metric *m)
{
	struct compare_row *r = &c->rows[c->nrows];
	struct compare_opts o = { .lower_is_better = m->lower_is_better, .alpha = c->alpha,
				  .threshold = c->threshold, .layout_pct = c->layout_pct };
	double *base;

	r->base = m;
	r->new = xcalloc(c->nfiles, sizeof *r->new);
	r->cmp = xcalloc(c->nfiles, sizeof *r->cmp);
	r->stat = c->stat_given ? c->stat : stat_default(m->lower_is_better);
	base = results_run_stats(m, r->stat);
	r->value = stats_mean(base, m->nruns);
	r->sd_pct = r->value && m->nruns > 1 ? 100 * stats_stddev(base, m->nruns) / r->value : 0;
	noise(c, &c->files[0], m, base, m->nruns);
	free(base);
	for (size_t f = 1; f < c->nfiles; f++) {
		const struct metric *n = results_counterpart(&c->files[0], m, &c->files[f]);
		double *new, *units;
		size_t nb, nn;

		r->new[f - 1] = n;
		if (!n)
			continue;
		if (strcmp(n->name, m->name) != 0)
			compare_notes_add(&c->warnings, "%s in %s is compared with %s in %s: the "
					  "same kernel, placed elsewhere", m->name,
					  compare_label(&c->files[0]), n->name,
					  compare_label(&c->files[f]));
		new = results_run_stats(n, r->stat);
		noise(c, &c->files[f], n, new, n->nruns);
		free(new);
		o.by_invocation = c->files[0].nfiles > 1 && c->files[f].nfiles > 1;
		/* a side of one invocation: its runs against the drift between
		 * invocations; several a side: their spread is in the test */
		o.drift_pct = o.by_invocation ? NAN : drift_of(c, m, r->stat, &c->files[f], &o);
		o.one_invocation = !o.by_invocation && isnan(o.drift_pct);
		o.state_changed = c->state_changed[f - 1];
		base = results_unit_stats(&c->files[0], m, r->stat, o.by_invocation, &nb);
		units = results_unit_stats(&c->files[f], n, r->stat, o.by_invocation, &nn);
		stats_compare_runs(base, nb, units, nn, &o, &r->cmp[f - 1]);
		c->regression |= r->cmp[f - 1].regression;
		free(base);
		free(units);
	}
	c->nrows++;
}

void compare_build(struct compare *c)
{
	c->host_drift = results_host_drift_load();
	c->rows = xcalloc(c->files[0].n, sizeof *c->rows);
	c->state_changed = xcalloc(c->nfiles, sizeof *c->state_changed);
	for (size_t f = 1; f < c->nfiles; f++) {
		compare_machines(c, &c->files[0], &c->files[f]);
		compare_alternation(c, &c->files[0], &c->files[f]);
		c->state_changed[f - 1] = compare_states(c, &c->files[0], &c->files[f]);
	}
	for (size_t i = 0; i < c->files[0].n; i++)
		compare_row(c, &c->files[0].m[i]);
}

void compare_free(struct compare *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].new);
		free(c->rows[i].cmp);
	}
	free(c->rows);
	free(c->state_changed);
	json_decref(c->host_drift);
	compare_notes_free(&c->warnings);
	compare_notes_free(&c->noise);
}

/* ---- the verdict, in words ---- */

void compare_reason(const struct comparison *cmp, double alpha, double threshold, char *buf,
		    size_t n)
{
	double gap = fabs(cmp->new - cmp->base);

	if (!cmp->enough)
		snprintf(buf, n, "%zu:%zu %s: a verdict needs %d on each side", cmp->base_runs,
			 cmp->new_runs, compare_units(cmp), STATS_MIN_RUNS);
	else if (cmp->state_changed)
		snprintf(buf, n, "the machine's state differs between the sides (see the warning)");
	else if (cmp->one_invocation)
		snprintf(buf, n, "%s: a side of one invocation needs the drift between "
			 "invocations (--drift DIR, a BASE of bench --invocations, or the band "
			 "bench --invocations keeps for this host), or 3 invocations a side",
			 cmp->significant ? "p below alpha" : "no change either");
	else if (cmp->significant && cmp->inside_drift)
		snprintf(buf, n, "%+.2f%% is inside the %.2f%% this machine's A/A invocations "
			 "differ by; %zu invocations a side resolve %g%%", cmp->change_robot,
			 cmp->drift_pct, cmp->invocations_needed, 100 * threshold);
	else if (cmp->significant && cmp->drift_from_host && !cmp->disjoint)
		snprintf(buf, n, "the runs of the two invocations overlap: against a band kept "
			 "from before, every run of one must be beyond the other's; %zu "
			 "invocations a side resolve %g%%", cmp->invocations_needed, 100 * threshold);
	else if (cmp->significant && cmp->inside_layout)
		snprintf(buf, n, "%+.2f%% is inside the +-%.2f%% a new layout of the code moves "
			 "the program (--layout-noise)", cmp->change_robot, cmp->layout_pct);
	else if (!cmp->stands_out)
		snprintf(buf, n, "the gap %.3g is inside the runs' range (%.3g base, %.3g new)%s",
			 gap, cmp->base_spread, cmp->new_spread, cmp->p < alpha ? "" : ", p >= alpha");
	else if (!cmp->significant)
		snprintf(buf, n, "p %.3g >= alpha %g", cmp->p, alpha);
	else if (!cmp->regression && !cmp->improvement)
		snprintf(buf, n, "p %.3g, but within the %g%% threshold", cmp->p, 100 * threshold);
	else
		snprintf(buf, n, "p %.3g, the gap above both ranges, beyond the %g%% threshold",
			 cmp->p, 100 * threshold);
}

/* "noise 3.6% (sd of 3:3 runs); 52 runs a side resolve 2%; drift between
 * invocations 4.1% (--drift): 9 invocations a side resolve 2%" */
void compare_noise(const struct comparison *cmp, double threshold, const char *source,
		   char *buf, size_t n)
{
	int k = snprintf(buf, n, "noise %.2f%% (sd of %zu:%zu %s); ", cmp->noise_pct,
			 cmp->base_runs, cmp->new_runs, compare_units(cmp));

	if (k < 0 || (size_t)k >= n)
		return;
	if (cmp->needed)
		k += snprintf(buf + k, n - (size_t)k, "%zu %s a side resolve %g%%", cmp->needed,
			      compare_units(cmp), 100 * threshold);
	else
		k += snprintf(buf + k, n - (size_t)k, "no number of %s resolves a 0%% threshold",
			      compare_units(cmp));
	if (k < 0 || (size_t)k >= n || cmp->by_invocation)
		return;
	if (isnan(cmp->drift_pct))
		snprintf(buf + k, n - (size_t)k, "; drift between invocations not measured "
			 "(--drift DIR, or bench --invocations)");
	else if (cmp->invocations_needed)
		snprintf(buf + k, n - (size_t)k, "; drift between invocations %.2f%%%s: %zu "
			 "invocations a side resolve %g%%", cmp->drift_pct, source,
			 cmp->invocations_needed, 100 * threshold);
	else
		snprintf(buf + k, n - (size_t)k, "; drift between invocations %.2f%%%s",
			 cmp->drift_pct, source);
}

static size_t fewest_runs(const struct comparison *cmp)
{
	return cmp->base_runs < cmp->new_runs ? cmp->base_runs : cmp->new_runs;
}

/* ---- text ---- */

static void number(char *buf, size_t n, double v)
{
	double a = fabs(v);

	snprintf(buf, n, a < 10 ? "%.4f" : a < 100 ? "%.3f" : a < 10000 ? "%.2f" : "%.0f", v);
}

/* mmtests calls ns "Time", per-second rates "Ops" (compare-kernels.sh). */
static const char *kind(const struct metric *m)
{
	if (!strcmp(m->unit, "ns") || !strcmp(m->unit, "ticks") || !strcmp(m->unit, "us"))
		return "Time";
	if (strstr(m->unit, "/s"))
		return "Ops";
	return *m->unit ? m->unit : "Value";
}

static void mmtests_cell(char *buf, size_t n, const struct comparison *cmp)
{
	char v[32];

	number(v, sizeof v, cmp->new);
	if (cmp->significant)
		snprintf(buf, n, "%s *%6.2f%%*", v, cmp->change_mmtests);
	else
		snprintf(buf, n, "%s (%6.2f%%)", v, cmp->change_mmtests);
}

static void print_mmtests(FILE *out, const struct compare *c)
{
	const char **cols = xcalloc(c->nfiles + 1, sizeof *cols), **cells;
	char head[160], (*cell)[64] = xcalloc(c->nfiles, sizeof *cell);
	struct table t;

	cells = xcalloc(c->nfiles + 1, sizeof *cells);
	cols[0] = "";
	for (size_t f = 0; f < c->nfiles; f++)
		cols[f + 1] = compare_label(&c->files[f]);
	table_init(&t, c->nfiles + 1, cols);
	for (size_t f = 1; f <= c->nfiles; f++)
		t.right[f] = true;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];

		snprintf(head, sizeof head, "%s %s-%s", kind(r->base), stat_name(r->stat),
			 r->base->name);
		cells[0] = head;
		number(cell[0], sizeof cell[0], r->value);
		strcat(cell[0], " (  0.00%)");
		cells[1] = cell[0];
		for (size_t f = 1; f < c->nfiles; f++) {
			if (!r->new[f - 1])
				snprintf(cell[f], sizeof cell[f], "-");
			else
				mmtests_cell(cell[f], sizeof cell[f], &r->cmp[f - 1]);
			cells[f + 1] = cell[f];
		}
		table_row_v(&t, cells);
	}
	table_print(&t, out);
	table_free(&t);
	free(cols);
	free(cells);
	free(cell);
}

/* "12.34 ±  3%": the robot shows the spread only above 2%. */
static void lkp_value(char *buf, size_t n, double v, double sd_pct)
{
	char num[32];

	number(num, sizeof num, v);
	if (sd_pct > 2)
		snprintf(buf, n, "%10s ± %2.0f%%", num, sd_pct);
	else
		snprintf(buf, n, "%10s      ", num);
}

static void print_lkp(FILE *out, const struct compare *c)
{
	fprintf(out, "%16s", compare_label(&c->files[0]));
	for (size_t f = 1; f < c->nfiles; f++)
		fprintf(out, " %27s", compare_label(&c->files[f]));
	fprintf(out, "\n----------------");
	for (size_t f = 1; f < c->nfiles; f++)
		fprintf(out, " ---------------------------");
	fprintf(out, "\n        %%stddev ");
	for (size_t f = 1; f < c->nfiles; f++)
		fprintf(out, "    %%change         %%stddev");
	fprintf(out, "\n            \\   ");
	for (size_t f = 1; f < c->nfiles; f++)
		fprintf(out, "       |                \\  ");
	fprintf(out, "\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];
		char v[64];

		lkp_value(v, sizeof v, r->value, r->sd_pct);
		fprintf(out, "%s", v);
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &r->cmp[f - 1];

			if (!r->new[f - 1]) {
				fprintf(out, " %27s", "-");
				continue;
			}
			lkp_value(v, sizeof v, cmp->new, cmp->new_sd_pct);
			fprintf(out, " %+9.1f%%%c %s", cmp->change_robot, cmp->significant ? '*' : ' ',
				v);
		}
		fprintf(out, "  %s.%s\n", r->base->name, stat_name(r->stat));
	}
}

/* Under the table, every pair's test and verdict. */
/* Where a drift used came from: --drift's directory, the band BASE
 * recorded (bench --invocations), or the one this host keeps, so that a
 * reader can tell them apart. */
static const char *drift_source(const struct compare *c, const struct comparison *cmp)
{
	if (cmp->by_invocation || isnan(cmp->drift_pct))
		return "";
	if (cmp->drift_from_host)
		return " (this host's, kept by bench --invocations)";
	return c->drift ? " (--drift)" : " (recorded in BASE by bench --invocations)";
}

static void print_verdicts(FILE *out, const struct compare *c)
{
	fprintf(out, "\nverdict (run against run, or invocation against invocation when both "
		"sides are several: Welch's t on each unit's statistic, alpha %g; a change must "
		"also stand out of both sides' range, be outside the drift between invocations "
		"(measured by --drift, recorded in BASE by bench --invocations, or kept for this "
		"host by it, and then the runs may not overlap: a side of one invocation needs "
		"it), come from alike "
		"machine states, and be worse by more than %g%% to fail):\n", c->alpha, 100 * c->threshold);
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &c->rows[i].cmp[f - 1];
			size_t few = fewest_runs(cmp);
			char noise_text[200];

			if (!c->rows[i].new[f - 1])
				continue;
			fprintf(out, "  %-40s %-20s %zu:%zu %s  ", c->rows[i].base->name,
				compare_label(&c->files[f]), cmp->base_runs, cmp->new_runs,
				compare_units(cmp));
			if (!cmp->enough)
				fprintf(out, "%+.2f%%  inconclusive: %zu %.*s\n", cmp->change_mmtests,
					few, (int)strlen(compare_units(cmp)) - (few == 1),
					compare_units(cmp));
			else
				fprintf(out, "t %-7.3g p %-9.3g gap %.3g, ranges %.3g and %.3g%s  %s\n",
					cmp->t, cmp->p, fabs(cmp->new - cmp->base), cmp->base_spread,
					cmp->new_spread, cmp->stands_out ? "" : " (inside)",
					compare_verdict(cmp));
			compare_noise(cmp, c->threshold, drift_source(c, cmp), noise_text,
				      sizeof noise_text);
			fprintf(out, "    %s\n", noise_text);
		}
}

static void print_warnings(FILE *out, const struct compare *c, bool verbose)
{
	size_t metrics = 0;

	for (size_t i = 0; i < c->warnings.n; i++)
		fprintf(out, "warning: %s\n", c->warnings.v[i]);
	if (!c->noisy)
		return;
	for (size_t f = 0; f < c->nfiles; f++)
		metrics += c->files[f].n;
	fprintf(out, "warning: %zu of %zu metrics vary by more than %.0f%% from run to run "
		"(worst: %s, %.1f%%)%s\n", c->noisy, metrics, 100 * NOISY_CV, c->worst,
		100 * c->worst_cv, verbose ? ":" : "; --verbose for each");
	if (verbose)
		for (size_t i = 0; i < c->noise.n; i++)
			fprintf(out, "  %s\n", c->noise.v[i]);
}

void report_compare_text(FILE *out, const struct compare *c, bool lkp, bool verbose)
{
	if (lkp)
		print_lkp(out, c);
	else
		print_mmtests(out, c);
	print_verdicts(out, c);
	print_warnings(out, c, verbose);
}

/* ---- markdown, CSV, JSON ---- */

void report_compare_markdown(FILE *out, const struct compare *c, bool verbose)
{
	fprintf(out, "| metric | unit | stat | %s", compare_label(&c->files[0]));
	for (size_t f = 1; f < c->nfiles; f++)
		fprintf(out, " | %s | change | p | verdict", compare_label(&c->files[f]));
	fprintf(out, " |\n|---|---|---|---:");
	for (size_t f = 1; f < c->nfiles; f++)
		fprintf(out, "|---:|---:|---:|---");
	fprintf(out, "|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];
		char v[32];

		number(v, sizeof v, r->value);
		fprintf(out, "| %s | %s | %s | %s", r->base->name, r->base->unit, stat_name(r->stat),
			v);
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &r->cmp[f - 1];

			if (!r->new[f - 1]) {
				fprintf(out, " | - | - | - | -");
				continue;
			}
			number(v, sizeof v, cmp->new);
			fprintf(out, cmp->significant ? " | %s | **%+.2f%%** | %.3g | %s" :
				" | %s | %+.2f%% | %.3g | %s", v, cmp->change_mmtests, cmp->p,
				compare_verdict(cmp));
		}
		fprintf(out, " |\n");
	}
	print_warnings(out, c, verbose);
}

void report_compare_csv(FILE *out, FILE *warn, const struct compare *c, bool verbose)
{
	fprintf(out, "metric,unit,direction,file,stat,base,value,change_pct,change_pct_mmtests,"
		"base_runs,new_runs,t,df,p,stands_out,significant,regression,verdict,units,"
		"noise_pct,needed,drift_pct\n");
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct compare_row *r = &c->rows[i];
			const struct comparison *cmp = &r->cmp[f - 1];

			if (!r->new[f - 1])
				continue;
			fprintf(out, "%s,%s,%s,%s,%s,%.6g,%.6g,%.4f,%.4f,%zu,%zu,%.6g,%.6g,%.6g,%d,%d,"
				"%d,%s,%s,%.4f,%zu,%.4f\n", r->base->name, r->base->unit,
				r->base->lower_is_better ? "lower" : "higher", c->files[f].path,
				stat_name(r->stat), r->value, cmp->new, cmp->change_robot,
				cmp->change_mmtests, cmp->base_runs, cmp->new_runs, cmp->t, cmp->df,
				cmp->p, cmp->stands_out, cmp->significant, cmp->regression,
				compare_verdict(cmp), compare_units(cmp), cmp->noise_pct, cmp->needed,
				cmp->drift_pct);
		}
	print_warnings(warn, c, verbose);
}
