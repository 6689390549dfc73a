/* Batches timed the way libMicro times them (libmicro.c: a batch of -B calls
 * between two clock reads, the result per call), with straddle's measuring
 * rules on top: pinned, the TSC or CNTVCT, each batch sized so a sample lasts
 * about 1 ms (far above the clock's resolution), and the variants in a new
 * random order every round so drift hits them alike. */
#include "workloads.h"
#include "../stats/stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE_NS 1e6                   /* about 1 ms a sample */
#define MAX_ITERS (1ull << 32)

int wl_pin(cpu_set_t *saved, int *cpu, struct err *e)
{
	if (sched_getaffinity(0, sizeof *saved, saved) != 0)
		return err_set(e, "cannot read the CPU affinity: %s", strerror(errno));
	return pin_to_current_cpu(cpu, e);
}

void wl_unpin(const cpu_set_t *saved)
{
	sched_setaffinity(0, sizeof *saved, saved);
}

static double batch_ns(struct wl_timed *v, uint64_t n, const struct clock *c)
{
	uint64_t t0, t1;

	if (v->before)
		v->before(v->ctx);
	t0 = clock_ticks();
	v->batch(v->ctx, n);
	t1 = clock_ticks();
	return (double)(t1 - t0) * c->ns_per_tick;
}

/* Double the batch until one lasts 1 ms, then scale it to 1 ms; the
 * doubling runs are the warm-up (caches, page tables, frequency). The
 * scale comes from the fastest of three timings: on a shared machine one
 * preempted timing cut the batch sevenfold (110 calls instead of 800 for
 * pread_z1k), and a batch of another length is another measurement. */
static uint64_t calibrate_once(struct wl_timed *v, const struct clock *c)
{
	uint64_t n = 1;
	double ns;

	while ((ns = batch_ns(v, n, c)) < SAMPLE_NS && n < MAX_ITERS)
		n *= 2;
	for (int i = 0; i < 3; i++) {
		double t = batch_ns(v, n, c);

		ns = i == 0 || t < ns ? t : ns;
	}
	if (ns > 0)
		n = (uint64_t)((double)n * SAMPLE_NS / ns);
	return n ? n : 1;
}

static int by_count(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* One calibration under contention gave 2,194 to 4,400 calls a sample between
 * runs: the median of several, once per metric, and every later run keeps it,
 * so runs differ in the machine, not the batch. */
static void calibrate(struct wl_timed *v, const struct clock *c)
{
	uint64_t sorted[WL_CALIBRATIONS];

	if (v->m->iters == 0) {
		for (size_t i = 0; i < WL_CALIBRATIONS; i++)
			v->m->calibrations[i] = sorted[i] = calibrate_once(v, c);
		qsort(sorted, WL_CALIBRATIONS, sizeof sorted[0], by_count);
		v->m->iters = sorted[WL_CALIBRATIONS / 2];
	} else {
		batch_ns(v, v->m->iters, c);    /* the warm-up */
	}
	v->iters = v->m->iters;
}

static void shuffle(size_t *order, size_t n, uint64_t *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(rng, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static void rounds(struct wl_timed *v, size_t n, double seconds, const struct wl_options *o,
		   const struct clock *c)
{
	size_t *order = xcalloc(n, sizeof *order);
	uint64_t rng = 1, start = clock_ticks();

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	do {
		shuffle(order, n, &rng);
		for (size_t i = 0; i < n; i++) {
			struct wl_timed *x = &v[order[i]];

			wl_sample(x->m, batch_ns(x, x->iters, c) / (double)x->iters);
		}
	} while ((double)(clock_ticks() - start) * c->ns_per_tick < seconds * 1e9 &&
		 !wl_stopped(o));
	free(order);
}

int wl_measure_batches(struct wl_timed *v, size_t n, double seconds_each,
		       const struct wl_options *o, struct clock *clock, int *cpu,
		       struct err *e)
{
	cpu_set_t saved;

	if (clock_init(clock, e) || wl_pin(&saved, cpu, e))
		return -1;
	for (size_t i = 0; i < n && !wl_stopped(o); i++)
		calibrate(&v[i], clock);
	if (!wl_stopped(o))
		rounds(v, n, seconds_each * (double)n, o, clock);
	wl_unpin(&saved);
	if (wl_stopped(o))
		return err_set(e, "interrupted");
	return 0;
}
