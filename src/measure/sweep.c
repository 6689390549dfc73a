/* Measuring placed kernels. One sample is one batch of calls, timed as a
 * whole and divided; every round runs each variant once, in a new random
 * order, so that drift (frequency, a neighbour's load) hits all of them
 * alike; rounds go on until the 95% CI of every floor (the 10th percentile,
 * stats/floor.c) is within the requested width or the time budget is spent.
 * An offset is slow when its floor is significantly and materially above the
 * best offset's. */
#include "clock.h"
#include "counters.h"
#include "sweep.h"
#include "../model/geometry.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* A sample should last this long: thousands of timer steps, short enough
 * that a round of 64 variants stays near 10 ms. */
#define SAMPLE_NS 150000.0
#define WARMUP_ROUNDS 2
/* Every placement is copied to a fresh mapping this often, and the round
 * after it is not kept: on the Zen 5 guests a placement could stay in its
 * slow state for a whole run (stats/floor.c), and a state that belongs to
 * one mapping must not decide an offset's verdict. */
#define REPLACE_EVERY 32
#define CHECK_EVERY 10

/* An operation of calls, or a kernel image's routine (its registers set
 * through kernels/): kernel_run, whose dispatch is the same for every
 * offset. */
static double time_operations(const struct sweep *s, const struct variant *v)
{
	const uint32_t one = (uint32_t)s->size, *calls = s->ncalls ? s->calls : &one;
	size_t n = s->ncalls ? s->ncalls : 1;
	uint64_t t0, t1;

	t0 = clock_ticks();
	for (uint64_t i = 0; i < v->iters; i++)
		for (size_t c = 0, at = 0; c < n; at += calls[c++])
			kernel_run(v->k, &v->pl, s->dst + at, s->src + at, calls[c]);
	t1 = clock_ticks();
	return (double)(t1 - t0) * s->clock.ns_per_tick / (double)v->iters;
}

/* The batch: the only code between the two clock reads. */
static double time_batch(const struct sweep *s, const struct variant *v)
{
	uint64_t t0, t1;

	if (v->k->call || s->ncalls)
		return time_operations(s, v);
	if (v->k->kind == KERNEL_CLEAR) {
		kernel_clear_fn f = v->k->placeable ? (kernel_clear_fn)(void *)v->pl.code :
						      v->k->ref_clear;

		t0 = clock_ticks();
		for (uint64_t i = 0; i < v->iters; i++)
			f(s->dst, s->size);
		t1 = clock_ticks();
	} else {
		kernel_copy_fn f = v->k->placeable ? (kernel_copy_fn)(void *)v->pl.code :
						     v->k->ref_copy;

		t0 = clock_ticks();
		for (uint64_t i = 0; i < v->iters; i++)
			f(s->dst, s->src, s->size);
		t1 = clock_ticks();
	}
	return (double)(t1 - t0) * s->clock.ns_per_tick / (double)v->iters;
}

static int map_buffers(struct sweep *s, struct err *e)
{
	s->buf_len = s->size + 4096;
	s->dst = mmap(NULL, s->buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	s->src = mmap(NULL, s->buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (s->dst == MAP_FAILED || s->src == MAP_FAILED) {
		s->dst = s->dst == MAP_FAILED ? NULL : s->dst;
		s->src = s->src == MAP_FAILED ? NULL : s->src;
		return err_set(e, "cannot map two buffers of %zu bytes: %s", s->buf_len,
			       strerror(errno));
	}
	memset(s->dst, 1, s->buf_len);  /* fault every page in before timing */
	memset(s->src, 2, s->buf_len);
	return 0;
}

/* Calls per sample, from a probe of each kernel at its first offset. */
static void size_batches(struct sweep *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct variant *v = &s->v[i];
		double per_call;

		v->iters = 1;
		time_batch(s, v);               /* first touch of the code */
		v->iters = 16;
		per_call = time_batch(s, v);
		if (!(per_call > 0))
			per_call = 1;
		v->iters = (uint64_t)ceil(SAMPLE_NS / per_call);
		if (v->iters < 1)
			v->iters = 1;
	}
}

/* A kernel image's routine runs once, guarded, before it is timed: a
 * call spec that does not fit it oopses or leaves bytes here, with a
 * line, and not in the middle of the rounds. */
static int trial(const struct sweep *s, const struct variant *v, struct err *e)
{
	struct kernel_oops oops;
	size_t left;

	if (kernel_run_guarded(v->k, &v->pl, s->dst, s->src, s->ncalls ? s->calls[0] : s->size,
			       &left, &oops))
		return err_set(e, "%s at offset %u: a fault at %#lx in +%#x of its copy, which its "
			       "exception table does not list (the kernel would oops)", v->k->name,
			       v->offset, (unsigned long)oops.addr, oops.offset);
	if (left && v->k->call->returns != KRET_SUM)
		return err_set(e, "%s at offset %u returned %zu without a fault: is its call right?",
			       v->k->name, v->offset, left);
	return 0;
}

int sweep_prepare(struct sweep *s, struct err *e)
{
	if (clock_init(&s->clock, e) || pin_to_current_cpu(&s->cpu, e) || map_buffers(s, e))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		struct variant *v = &s->v[i];

		if (v->k->placeable && kernel_place(v->k, v->offset, &v->pl, e))
			return -1;
		if (v->k->call && trial(s, v, e))
			return -1;
	}
	counters_open(&s->counters);
	size_batches(s);
	return 0;
}

static void add_sample(struct variant *v, double x)
{
	GROW(v->samples, v->cap, v->n + 1);
	v->samples[v->n++] = x;
}

static void shuffle(size_t *order, size_t n, uint64_t *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(rng, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

/* The widest relative 95% CI half-width of any floor (the statistic the
 * slow marks compare: stats/floor.c). Order statistics of a sorted copy:
 * no resampling, so the check every few rounds stays cheap. */
static double worst_halfwidth(const struct sweep *s)
{
	double worst = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct variant *v = &s->v[i];
		double lo, hi, fl, *copy = xmalloc(v->n * sizeof *copy);

		memcpy(copy, v->samples, v->n * sizeof *copy);
		stats_sort(copy, v->n);
		fl = stats_quantile_sorted(copy, v->n, STATS_FLOOR_Q);
		stats_quantile_ci_sorted(copy, v->n, STATS_FLOOR_Q, &lo, &hi);
		free(copy);
		if (fl > 0 && (hi - lo) / 2 / fl > worst)
			worst = (hi - lo) / 2 / fl;
	}
	return worst;
}

/* Has every placement been measured for min_place_s (its samples' calls,
 * not the round's overhead)? */
static bool measured_enough(const struct sweep *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct variant *v = &s->v[i];
		double ns = 0;

		for (size_t k = 0; k < v->n; k++)
			ns += v->samples[k];
		if (ns * (double)v->iters < s->min_place_s * 1e9)
			return false;
	}
	return true;
}

/* Each placed variant to a new mapping: the new one is made before the
 * old one goes, so the two never share an address. */
static int replace_all(struct sweep *s, struct err *e)
{
	for (size_t i = 0; i < s->n; i++) {
		struct variant *v = &s->v[i];
		struct placement fresh;

		if (!v->k->placeable)
			continue;
		if (arena_place(v->k->code, v->k->size, v->offset, v->k->arch, v->k, &fresh, e))
			return -1;
		arena_free(&v->pl);     /* unregisters the old one */
		v->pl = fresh;
		if (arena_register(&v->pl, e))
			return -1;
	}
	return 0;
}

int sweep_run(struct sweep *s, struct err *e)
{
	size_t *order = xmalloc(s->n * sizeof *order);
	uint64_t rng = s->seed;
	double start = monotonic_s();
	unsigned skip = WARMUP_ROUNDS;  /* rounds left whose samples are not kept */

	s->rounds = 0;
	for (size_t i = 0; i < s->n; i++)
		order[i] = i;
	counters_start(&s->counters);
	for (unsigned round = 0;; round++) {
		if (round > WARMUP_ROUNDS && (round - WARMUP_ROUNDS) % REPLACE_EVERY == 0) {
			if (replace_all(s, e)) {
				counters_stop(&s->counters);
				free(order);
				return -1;
			}
			skip = 1;
		}
		shuffle(order, s->n, &rng);
		for (size_t i = 0; i < s->n; i++) {
			double x = time_batch(s, &s->v[order[i]]);

			if (!skip)
				add_sample(&s->v[order[i]], x);
		}
		s->elapsed_s = monotonic_s() - start;
		if (skip) {
			skip--;
			continue;
		}
		s->rounds++;
		if (s->elapsed_s >= s->budget_s) {
			s->stopped_by = "time";
			break;
		}
		if (s->rounds >= s->min_rounds && s->rounds % CHECK_EVERY == 0 &&
		    measured_enough(s) && worst_halfwidth(s) <= s->precision) {
			s->stopped_by = "precision";
			break;
		}
	}
	counters_stop(&s->counters);
	free(order);
	return 0;
}

/* The best (lowest floor) variant of the same kernel. */
static const struct variant *best_of(const struct sweep *s, const struct kernel *k)
{
	const struct variant *best = NULL;

	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].k == k && (!best || s->v[i].sum.floor < best->sum.floor))
			best = &s->v[i];
	return best;
}

static void predict(struct variant *v, const struct profile *host, const struct back_end *be)
{
	v->npredicted = 0;
	v->predicted_ratio = 0;
	if (!host || !v->k->placeable || host->arch != v->k->arch)
		return;
	v->npredicted = code_loop_hazards(host, v->k->code, v->k->size, v->offset,
					  v->offset + v->k->loop_start, v->predicted, 8);
	v->predicted_ratio = sweep_predicted_ratio(host, v->k, be, v->offset, v->predicted,
						   v->npredicted);
}

/* Each kernel's loop's back end, once (llvm-mca is a process a loop). */
static void back_ends(const struct sweep *s, const struct profile *host, struct back_end *be)
{
	for (size_t i = 0; i < s->n; i++) {
		size_t j = 0;

		while (s->v[j].k != s->v[i].k)
			j++;
		if (j < i)
			be[i] = be[j];
		else if (host && host->arch == s->v[i].k->arch)
			sweep_back_end(getenv("STRADDLE_LLVM_MCA"), host, s->v[i].k, &be[i]);
	}
}

void sweep_analyse(struct sweep *s, const struct profile *host)
{
	struct back_end *be = xcalloc(s->n + 1, sizeof *be);

	back_ends(s, host, be);
	for (size_t i = 0; i < s->n; i++)
		stats_summarize(s->v[i].samples, s->v[i].n, s->seed + i, true, &s->v[i].sum);
	for (size_t i = 0; i < s->n; i++) {
		struct variant *v = &s->v[i];
		const struct variant *best = best_of(s, v->k);
		struct floor_mark m;

		stats_floor_mark(v->samples, v->n, v->sum.floor, best->samples, best->n,
				 best->sum.floor, s->alpha, s->material, &m);
		v->ratio = m.ratio;
		v->half_ratio[0] = m.half_ratio[0];
		v->half_ratio[1] = m.half_ratio[1];
		v->p_vs_best = m.p;
		v->slow = m.slow;
		predict(v, host, &be[i]);
	}
	free(be);
	s->worst_halfwidth = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct summary *m = &s->v[i].sum;
		double hw = (m->floor_hi - m->floor_lo) / 2 / m->floor;

		if (hw > s->worst_halfwidth)
			s->worst_halfwidth = hw;
	}
}

void sweep_free(struct sweep *s)
{
	for (size_t i = 0; i < s->n; i++) {
		arena_free(&s->v[i].pl);
		free(s->v[i].samples);
	}
	if (s->dst)
		munmap(s->dst, s->buf_len);
	if (s->src)
		munmap(s->src, s->buf_len);
	counters_close(&s->counters);
}
