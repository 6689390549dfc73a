/* `straddle compare`: rows of metrics, BASE against each NEW, tested run
 * against run (issue 12), and how they print: mmtests' table, the kernel
 * test robot's, markdown, CSV, JSON; the verdict under the text table;
 * warnings as one line each for the machine and one summary for noise. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A run-to-run CV above this is noise worth a warning. */
#define NOISY_CV 0.05

static double *run_stats(const struct metric *m, enum stat_kind k)
{
	double *v = xmalloc((m->nruns ? m->nruns : 1) * sizeof *v);

	for (size_t r = 0; r < m->nruns; r++)
		v[r] = stats_of(m->runs[r].v, m->runs[r].n, k, m->lower_is_better);
	return v;
}

/* Issue 22: runs of one invocation share its machine state, so when a
 * side is several invocations (a directory), the unit is the invocation:
 * the mean of its runs' statistics, one number a file. *n: how many. */
static double *invocation_stats(const struct metric *m, enum stat_kind k, size_t nfiles,
				size_t *n)
{
	double *runs = run_stats(m, k), *v = xcalloc(nfiles ? nfiles : 1, sizeof *v);
	size_t *count = xcalloc(nfiles ? nfiles : 1, sizeof *count);

	for (size_t r = 0; r < m->nruns; r++) {
		v[m->runs[r].file] += runs[r];
		count[m->runs[r].file]++;
	}
	*n = 0;
	for (size_t f = 0; f < nfiles; f++)
		if (count[f])
			v[(*n)++] = v[f] / (double)count[f];
	free(runs);
	free(count);
	return v;
}

/* Units of one side: invocations when both sides have several, else runs. */
static double *unit_stats(const struct result_file *f, const struct metric *m, enum stat_kind k,
			  bool by_invocation, size_t *n)
{
	if (by_invocation)
		return invocation_stats(m, k, f->nfiles, n);
	*n = m->nruns;
	return run_stats(m, k);
}

double compare_drift_band(const struct result_file *aa, const struct metric *m,
			  enum stat_kind k)
{
	double *v, lo, hi, mean, pct;
	size_t n;

	v = invocation_stats(m, k, aa->nfiles, &n);
	if (n < 2) {
		free(v);
		return NAN;
	}
	lo = hi = v[0];
	for (size_t i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	mean = stats_mean(v, n);
	pct = mean ? 100 * (hi - lo) / fabs(mean) : NAN;
	free(v);
	return pct;
}

json_t *compare_drift_record(const struct result_file *aa, const char *side,
			     const char *versus)
{
	json_t *band = json_object();

	for (size_t i = 0; i < aa->n; i++) {
		json_t *per = json_object();

		for (int k = STAT_MEAN95; k <= STAT_MAX; k++) {
			double pct = compare_drift_band(aa, &aa->m[i], (enum stat_kind)k);

			if (!isnan(pct))
				json_object_set_new(per, stat_name((enum stat_kind)k), json_real(pct));
		}
		json_object_set_new(band, aa->m[i].name, per);
	}
	return json_pack("{s:i, s:s, s:o, s:o}", "invocations", (int)aa->nfiles, "side", side,
			 "versus", versus ? json_text(versus) : json_null(), "band_pct", band);
}

/* The band BASE's own file recorded (bench --invocations: the drift
 * between that bench's invocations of its side), NAN when none: a number
 * of 0 or more, from 2 or more invocations. */
static double recorded_drift(const struct result_file *base, const struct metric *m,
			     enum stat_kind k)
{
	json_t *d = json_object_get(base->doc, "drift");
	json_t *v = json_object_get(json_object_get(json_object_get(d, "band_pct"), m->name),
				    stat_name(k));
	json_t *n = json_object_get(d, "invocations");

	if (!json_is_number(v) || !json_is_integer(n) || json_integer_value(n) < 2 ||
	    !(json_number_value(v) >= 0))
		return NAN;
	return json_number_value(v);
}

/* The drift between this machine's A/A invocations of the metric: 100
 * (max - min) / mean of their statistics, from --drift, else the band a
 * BASE written by bench --invocations recorded; NAN when not measured.
 * Two invocations of one build differ by up to this with no change in the
 * code (issue 22: 2 of 3 A/A pairs of `bench --tasks 1` flagged at
 * -10.75% and -7.75%). */
static double drift_of(const struct compare *c, const struct metric *m, enum stat_kind k)
{
	const struct metric *d = c->drift ? results_metric(c->drift, m->name) : NULL;

	if (c->drift)
		return d ? compare_drift_band(c->drift, d, k) : NAN;
	return recorded_drift(&c->files[0], m, k);
}

static void note(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(json_t *list, const char *fmt, ...)
{
	char line[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_text(line));
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
	note(c->noise, "%s in %s: its runs' %s varies by %.1f%% (CV over %zu runs)", m->name,
	     compare_label(f), stat_name(c->rows[c->nrows].stat), 100 * cv, n);
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
	static const char *const fields[] = { "vendor", "family", "model", "stepping",
		"model_name", "microcode", "kernel", "arch" };
	struct strbuf diff = { 0 };

	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		json_t *a = json_object_get(base->machine, fields[i]);
		json_t *b = json_object_get(new->machine, fields[i]);
		char *sa, *sb;

		if ((!a && !b) || json_equal(a, b))
			continue;
		sa = a ? json_dumps(a, JSON_ENCODE_ANY) : xstrdup("none");
		sb = b ? json_dumps(b, JSON_ENCODE_ANY) : xstrdup("none");
		sb_addf(&diff, "%s%s %s vs %s", diff.len ? "; " : "", fields[i], sa, sb);
		free(sa);
		free(sb);
	}
	if (diff.len)
		note(c->warnings, "%s and %s ran on different machines or kernels: %s", base->path,
		     new->path, sb_str(&diff));
	sb_free(&diff);
}

/* The earliest and latest "time" (ISO 8601, UTC: ordered as text) of a
 * side's files; false when one lacks it. */
static bool time_span(const struct result_file *f, const char **first, const char **last)
{
	size_t i;
	json_t *d;

	*first = *last = json_string_value(json_object_get(f->doc, "time"));
	if (!*first)
		return false;
	json_array_foreach(f->more, i, d) {
		const char *t = json_string_value(json_object_get(d, "time"));

		if (!t)
			return false;
		*first = strcmp(t, *first) < 0 ? t : *first;
		*last = strcmp(t, *last) > 0 ? t : *last;
	}
	return true;
}

/* Issue 22: invocations a side are compared as units only fairly when
 * they were taken alternately (A B A B): a drift of the machine over the
 * hour then falls on both sides. All of one side before all of the other
 * is said, not refused. */
static void compare_alternation(struct compare *c, const struct result_file *base,
				const struct result_file *new)
{
	const char *b0, *b1, *n0, *n1;

	if (base->nfiles < 2 || new->nfiles < 2 || !time_span(base, &b0, &b1) ||
	    !time_span(new, &n0, &n1))
		return;
	if (strcmp(b1, n0) < 0 || strcmp(n1, b0) < 0)
		note(c->warnings, "%s's invocations (%s to %s) and %s's (%s to %s) were not "
		     "alternated: a drift of the machine between them falls on one side; take "
		     "them A B A B (bench --invocations N --versus)", compare_label(base), b0, b1,
		     compare_label(new), n0, n1);
}

/* The mean over a side's runs of a number in their states; NAN if none. */
double compare_state_mean(const struct result_file *f, const char *key, int index)
{
	double sum = 0;
	size_t n = 0, i;
	json_t *s;

	json_array_foreach(f->states, i, s) {
		json_t *v = json_object_get(s, key);

		if (index >= 0)
			v = json_array_get(v, (size_t)index);
		if (json_is_number(v)) {
			sum += json_number_value(v);
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

/* A string of the states when every run of the side agrees, else "mixed". */
const char *compare_state_string(const struct result_file *f, const char *key)
{
	const char *first = NULL;
	size_t i;
	json_t *s;

	json_array_foreach(f->states, i, s) {
		const char *v = json_string_value(json_object_get(s, key));

		if (!v)
			continue;
		if (first && strcmp(first, v) != 0)
			return "mixed";
		first = first ? first : v;
	}
	return first;
}

/* Issue 12: "steal 0.2% -> 11%: the change may be the machine's". The
 * limits are what moved times on this project's 2-vCPU guest: a few
 * points of steal, ten points of other tenants' CPU, a load of one. */
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
		double x = compare_state_mean(base, nums[i].key, nums[i].index);
		double y = compare_state_mean(new, nums[i].key, nums[i].index);
		double limit = nums[i].limit ? nums[i].limit : 0.05 * x;

		if (isnan(x) || isnan(y) || fabs(y - x) <= limit)
			continue;
		snprintf(a, sizeof a, nums[i].fmt, x);
		snprintf(b, sizeof b, nums[i].fmt, y);
		sb_addf(&diff, "%s%s %s -> %s", diff.len ? ", " : "", nums[i].what, a, b);
	}
	for (size_t i = 0; i < 2; i++) {
		const char *x = compare_state_string(base, strs[i][0]);
		const char *y = compare_state_string(new, strs[i][0]);

		if (x && y && strcmp(x, y) != 0)
			sb_addf(&diff, "%s%s %s -> %s", diff.len ? ", " : "", strs[i][1], x, y);
	}
	if (diff.len)
		note(c->warnings, "%s -> %s: %s: the change may be the machine's; no verdict",
		     compare_label(base), compare_label(new), sb_str(&diff));
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
	double *base, drift;

	r->base = m;
	r->new = xcalloc(c->nfiles, sizeof *r->new);
	r->cmp = xcalloc(c->nfiles, sizeof *r->cmp);
	r->stat = c->stat_given ? c->stat : stat_default(m->lower_is_better);
	base = run_stats(m, r->stat);
	r->value = stats_mean(base, m->nruns);
	r->sd_pct = r->value && m->nruns > 1 ? 100 * stats_stddev(base, m->nruns) / r->value : 0;
	noise(c, &c->files[0], m, base, m->nruns);
	free(base);
	drift = drift_of(c, m, r->stat);
	for (size_t f = 1; f < c->nfiles; f++) {
		const struct metric *n = results_counterpart(&c->files[0], m, &c->files[f]);
		double *new, *units;
		size_t nb, nn;

		r->new[f - 1] = n;
		if (!n)
			continue;
		if (strcmp(n->name, m->name) != 0)
			note(c->warnings, "%s in %s is compared with %s in %s: the same kernel, "
			     "placed elsewhere", m->name, compare_label(&c->files[0]), n->name,
			     compare_label(&c->files[f]));
		new = run_stats(n, r->stat);
		noise(c, &c->files[f], n, new, n->nruns);
		free(new);
		o.by_invocation = c->files[0].nfiles > 1 && c->files[f].nfiles > 1;
		/* a side of one invocation: its runs against the drift between
		 * invocations; several a side: their spread is in the test */
		o.drift_pct = o.by_invocation ? NAN : drift;
		o.one_invocation = !o.by_invocation && isnan(drift);
		o.state_changed = c->state_changed[f - 1];
		base = unit_stats(&c->files[0], m, r->stat, o.by_invocation, &nb);
		units = unit_stats(&c->files[f], n, r->stat, o.by_invocation, &nn);
		stats_compare_runs(base, nb, units, nn, &o, &r->cmp[f - 1]);
		c->regression |= r->cmp[f - 1].regression;
		free(base);
		free(units);
	}
	c->nrows++;
}

void compare_build(struct compare *c)
{
	c->warnings = json_array();
	c->noise = json_array();
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
	json_decref(c->warnings);
	json_decref(c->noise);
}

/* ---- the verdict, in words ---- */

const char *compare_verdict(const struct comparison *cmp)
{
	if (!cmp->enough)
		return "inconclusive";
	if (cmp->state_changed)
		return "inconclusive: machine state changed";
	if (cmp->one_invocation)
		return "inconclusive: one invocation a side";
	if (cmp->significant && cmp->inside_drift)
		return "inconclusive: inside the drift between invocations";
	if (cmp->significant && cmp->inside_layout)
		return "inconclusive: within layout noise";
	return cmp->regression ? "REGRESSION" : cmp->improvement ? "better" :
	       cmp->significant ? "changed, within the threshold" : "no change";
}

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
			 "invocations (--drift DIR, or a BASE of bench --invocations), or 3 "
			 "invocations a side",
			 cmp->significant ? "p below alpha" : "no change either");
	else if (cmp->significant && cmp->inside_drift)
		snprintf(buf, n, "%+.2f%% is inside the %.2f%% this machine's A/A invocations "
			 "differ by", cmp->change_robot, cmp->drift_pct);
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

const char *compare_units(const struct comparison *cmp)
{
	return cmp->by_invocation ? "invocations" : "runs";
}

/* "noise 3.6% (sd of 3:3 runs); 52 runs a side resolve 2%; drift between
 * invocations 4.1% (--drift)" */
void compare_noise(const struct comparison *cmp, double threshold, char *buf, size_t n)
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
	else
		snprintf(buf + k, n - (size_t)k, "; drift between invocations %.2f%%",
			 cmp->drift_pct);
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
/* Where a drift used came from: --drift's directory, or the band BASE
 * recorded (bench --invocations), so that a reader can tell them apart. */
static const char *drift_source(const struct compare *c, const struct comparison *cmp)
{
	if (cmp->by_invocation || isnan(cmp->drift_pct))
		return "";
	return c->drift ? " (--drift)" : " (recorded in BASE by bench --invocations)";
}

static void print_verdicts(FILE *out, const struct compare *c)
{
	fprintf(out, "\nverdict (run against run, or invocation against invocation when both "
		"sides are several: Welch's t on each unit's statistic, alpha %g; a change must "
		"also stand out of both sides' range, be outside the drift between invocations "
		"(measured by --drift, or recorded in BASE by bench --invocations: a side of one "
		"invocation needs it), come from alike "
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
			compare_noise(cmp, c->threshold, noise_text, sizeof noise_text);
			fprintf(out, "    %s%s\n", noise_text, drift_source(c, cmp));
		}
}

static void print_warnings(FILE *out, const struct compare *c, bool verbose)
{
	size_t i, metrics = 0;
	json_t *w;

	json_array_foreach(c->warnings, i, w)
		fprintf(out, "warning: %s\n", json_string_value(w));
	if (!c->noisy)
		return;
	for (size_t f = 0; f < c->nfiles; f++)
		metrics += c->files[f].n;
	fprintf(out, "warning: %zu of %zu metrics vary by more than %.0f%% from run to run "
		"(worst: %s, %.1f%%)%s\n", c->noisy, metrics, 100 * NOISY_CV, c->worst,
		100 * c->worst_cv, verbose ? ":" : "; --verbose for each");
	if (verbose)
		json_array_foreach(c->noise, i, w)
			fprintf(out, "  %s\n", json_string_value(w));
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

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *comparison_json(const struct compare *c, size_t f, const struct comparison *cmp,
			       const struct metric *m)
{
	json_t *j = json_pack("{s:o, s:s, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:b, s:b,"
			      " s:b, s:s}",
		"path", json_text(c->files[f].path), "name", m->name, "base_runs",
		(json_int_t)cmp->base_runs, "runs", (json_int_t)cmp->new_runs, "value", cmp->new,
		"stddev_pct", cmp->new_sd_pct, "change_pct", cmp->change_robot,
		"change_pct_mmtests", cmp->change_mmtests, "base_range", cmp->base_spread,
		"range", cmp->new_spread, "enough_runs", cmp->enough, "stands_out", cmp->stands_out,
		"significant", cmp->significant, "regression", cmp->regression,
		"verdict", compare_verdict(cmp));

	json_object_set_new(j, "units", json_string(compare_units(cmp)));
	json_object_set_new(j, "noise_pct", number_or_null(cmp->noise_pct));
	json_object_set_new(j, "needed", json_integer((json_int_t)cmp->needed));
	json_object_set_new(j, "drift_pct", number_or_null(cmp->drift_pct));
	json_object_set_new(j, "inside_drift", json_boolean(cmp->inside_drift));
	json_object_set_new(j, "state_changed", json_boolean(cmp->state_changed));
	json_object_set_new(j, "one_invocation", json_boolean(cmp->one_invocation));
	json_object_set_new(j, "t", number_or_null(cmp->t));
	json_object_set_new(j, "df", number_or_null(cmp->df));
	json_object_set_new(j, "p", number_or_null(cmp->p));
	json_object_set_new(j, "change_ci", isfinite(cmp->change_lo) ?
			    json_pack("[f,f]", cmp->change_lo, cmp->change_hi) : json_null());
	return j;
}

json_t *report_compare_json(const struct compare *c)
{
	json_t *doc = results_new("compare"), *news = json_array(), *metrics = json_array();

	for (size_t f = 1; f < c->nfiles; f++)
		json_array_append_new(news, json_text(c->files[f].path));
	json_object_set_new(doc, "base", json_text(c->files[0].path));
	json_object_set_new(doc, "new", news);
	json_object_set_new(doc, "alpha", json_real(c->alpha));
	json_object_set_new(doc, "threshold", json_real(c->threshold));
	json_object_set_new(doc, "min_runs", json_integer(STATS_MIN_RUNS));
	json_object_set_new(doc, "drift", c->drift ? json_text(c->drift->path) : json_null());
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];
		json_t *per = json_array();

		for (size_t f = 1; f < c->nfiles; f++)
			json_array_append_new(per, r->new[f - 1] ?
				comparison_json(c, f, &r->cmp[f - 1], r->new[f - 1]) : json_null());
		json_array_append_new(metrics, json_pack("{s:o, s:o, s:s, s:s, s:I, s:f, s:f, s:o}",
			"name", json_text(r->base->name), "unit", json_text(r->base->unit),
			"direction", r->base->lower_is_better ? "lower" : "higher", "stat",
			stat_name(r->stat), "runs", (json_int_t)r->base->nruns, "value", r->value,
			"stddev_pct", r->sd_pct, "new", per));
	}
	json_object_set_new(doc, "metrics", metrics);
	json_object_set_new(doc, "warnings", json_incref(c->warnings));
	json_object_set_new(doc, "noisy", json_incref(c->noise));
	json_object_set_new(doc, "regression", json_boolean(c->regression));
	return doc;
}
