/* The workloads by name, and the metrics they fill. */
#include "workloads.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* In the order a full run takes them: the quick libMicro ones first, so
 * an interrupted run has said something useful. */
static const struct workload *const all[] = {
	&wl_pread_zero, &wl_read_zero, &wl_gettime, &wl_fault_write, &wl_read1, &wl_poll2,
};

size_t workload_count(void)
{
	return sizeof all / sizeof all[0];
}

const struct workload *workload_at(size_t i)
{
	return i < workload_count() ? all[i] : NULL;
}

const struct workload *workload_named(const char *name)
{
	for (size_t i = 0; i < workload_count(); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

struct wl_metric *wl_metric(struct wl_result *r, const char *workload, const char *name,
			    const char *unit, bool lower_is_better)
{
	struct wl_metric *m;

	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->m[i]->name, name) == 0)
			return r->m[i];
	GROW(r->m, r->cap, r->n + 1);
	m = xcalloc(1, sizeof *m);
	r->m[r->n++] = m;
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->workload, sizeof m->workload, "%s", workload);
	m->unit = unit;
	m->lower_is_better = lower_is_better;
	return m;
}

void wl_sample(struct wl_metric *m, double v)
{
	GROW(m->samples, m->cap, m->n + 1);
	m->samples[m->n++] = v;
}

void wl_end_run(struct wl_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct wl_metric *m = r->m[i];

		GROW(m->run_end, m->run_cap, m->nruns + 1);
		m->run_end[m->nruns++] = m->n;
	}
}

size_t wl_run_samples(const struct wl_metric *m, size_t i, const double **v)
{
	size_t from = i ? m->run_end[i - 1] : 0;

	*v = m->samples + from;
	return i < m->nruns ? m->run_end[i] - from : 0;
}

void wl_result_free(struct wl_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->m[i]->samples);
		free(r->m[i]->run_end);
		free(r->m[i]);
	}
	free(r->m);
	json_decref(r->details);
	memset(r, 0, sizeof *r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double wl_mode(double *v, size_t n)
{
	double best = n ? v[0] : 0;
	size_t best_run = 0;

	qsort(v, n, sizeof *v, cmp_double);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j] == v[i]; j++)
			;
		if (j - i > best_run) {
			best_run = j - i;
			best = v[i];
		}
	}
	return best;
}

double wl_duration(const struct wl_options *o, const struct workload *w)
{
	return o->duration_s > 0 ? o->duration_s : w->default_duration_s;
}

bool wl_stopped(const struct wl_options *o)
{
	return o->stop && *o->stop;
}

void wl_progress(const struct wl_options *o, const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	if (!o->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	o->progress(buf);
}

/* The seeds' workloads as the calls the kernel makes for one of their
 * operations: read_zero clears a pread's buffer in 4 KiB clear_user calls
 * (drivers/char/mem.c, chunks of PAGE_SIZE; seed 000's pread_z*), read1
 * copies a 4 KiB page to the user (seed 001), poll2 stores a 2-byte
 * revents with __put_user (seed 004). */
#define PAGES25 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, \
	4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096

static const struct workload_shape shapes[] = {
	{ "pread_z1k", { 1024 }, 1 },
	{ "pread_z10k", { 4096, 4096, 2048 }, 3 },
	{ "pread_z100k", { PAGES25 }, 25 },
	{ "read1", { 4096 }, 1 },
	{ "poll2", { 2 }, 1 },
};

const struct workload_shape *workload_shape_named(const char *name)
{
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (strcmp(shapes[i].name, name) == 0)
			return &shapes[i];
	return NULL;
}
