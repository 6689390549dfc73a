/* What `straddle bench` prints: one row per metric (its pooled summary and
 * how much its statistic moved from run to run), fault-write's verdict,
 * and what could not be measured. */
#include "report.h"
#include "../results/bench.h"
#include "../stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void format_value(double v, char *buf, size_t n)
{
	snprintf(buf, n, fabs(v) >= 10000 ? "%.0f" : fabs(v) >= 100 ? "%.1f" : "%.2f", v);
}

static double metric_mode(const struct wl_metric *m)
{
	double *copy = xmalloc((m->n ? m->n : 1) * sizeof *copy), mode;

	memcpy(copy, m->samples, m->n * sizeof *copy);
	mode = wl_mode(copy, m->n);
	free(copy);
	return mode;
}

/* 100 sigma / mean of the runs' statistics: what compare tests against. */
static double run_cv(const struct wl_metric *m)
{
	enum stat_kind k = stat_default(m->lower_is_better);
	double *per = xmalloc((m->nruns ? m->nruns : 1) * sizeof *per), mean, cv;

	for (size_t r = 0; r < m->nruns; r++) {
		const double *v;
		size_t n = wl_run_samples(m, r, &v);

		per[r] = stats_of(v, n, k, m->lower_is_better);
	}
	mean = stats_mean(per, m->nruns);
	cv = m->nruns > 1 && mean ? stats_stddev(per, m->nruns) / mean : 0;
	free(per);
	return cv;
}

static void metric_row(struct table *t, const struct wl_metric *m)
{
	struct summary s;
	char runs[16], n[24], med[32], m95[32], min[32], cv[24], rcv[24], mode[32] = "";

	stats_summarize(m->samples, m->n, 1, m->lower_is_better, &s);
	snprintf(runs, sizeof runs, "%zu", m->nruns);
	snprintf(n, sizeof n, "%zu", m->n);
	format_value(s.median, med, sizeof med);
	format_value(s.mean95, m95, sizeof m95);
	format_value(s.min, min, sizeof min);
	snprintf(cv, sizeof cv, "%.2f%%", 100 * s.cv);
	snprintf(rcv, sizeof rcv, "%.2f%% %s", 100 * run_cv(m),
		 stat_name(stat_default(m->lower_is_better)));
	if (m->want_mode)
		format_value(metric_mode(m), mode, sizeof mode);
	table_row(t, m->name, m->unit, m->lower_is_better ? "lower" : "higher", runs, n, med, m95,
		  min, cv, rcv, mode);
}

static void print_probe(FILE *out, const struct fault_probe_read *p)
{
	fprintf(out, "  %s = %lld (%s %lld)%s%s%s\n", p->call ? p->call : "?", p->returned,
		p->pass ? "want" : "WANT", p->expected, p->content_ok ? "" : ", wrong bytes moved",
		p->error ? ": " : "", p->error ? p->error : "");
}

/* fault-write's verdict, with the counts of its last run. */
static void print_fault(FILE *out, const struct wl_result *r, const struct workload_notes *n)
{
	fprintf(out, "fault-write: %s (seed 001: 130 bytes from 66 before an unmapped page)\n",
		r->failed ? "FAIL" : "PASS");
	print_probe(out, &n->write);
	print_probe(out, &n->read);
}

void report_bench(FILE *out, const struct bench_record *b)
{
	static const char *const cols[] = { "metric", "unit", "better", ">runs", ">n", ">median",
		">mean95", ">min", ">cv", ">run-to-run cv", ">mode" };
	struct table t;
	size_t nmetrics = 0;

	table_init(&t, 11, cols);
	for (size_t i = 0; i < b->nsel; i++)
		for (size_t k = 0; k < b->res[i].n; k++, nmetrics++)
			metric_row(&t, b->res[i].m[k]);
	if (nmetrics)
		table_print(&t, out);
	table_free(&t);
	for (size_t i = 0; i < b->nsel; i++) {
		struct workload_notes n;

		results_workload_notes(b->res[i].details, &n);
		if (b->sel[i] == &wl_fault_write)
			print_fault(out, &b->res[i], &n);
		if (b->sel[i] == &wl_gettime && n.cold && strncmp(n.cold, "not", 3) == 0)
			fprintf(out, "gettime cold: %s\n", n.cold);
	}
	fprintf(out, "%zu metrics from %zu workloads, %u runs, in %.1f s\n", nmetrics, b->nsel,
		b->nruns, b->elapsed_s);
}
