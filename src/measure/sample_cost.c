/* What one sample costs the sampled program on this machine, and the sampling
 * rate that keeps that cost within a budget. On bare metal a cpu-clock or
 * cycles sample costs 1-2 us, so perf's 4000 Hz costs under 1%; in a KVM/PVM
 * guest each sample is a timer interrupt that goes through the host, ~44 us
 * of the program's time on the Zen 5 guest this was written on, so 4000 Hz
 * cost +21.6% (and perf record itself +22.4%). The rate must fit the machine,
 * so it is measured: a spin loop's thread CPU time without and with the very
 * events record opens (sampling_open on the calling thread), alternated, the
 * median of the per-sample differences. CPU time, not wall time: another
 * process running in between does not count, the interrupt's time does (the
 * kernel charges it to the interrupted task, as it does the program's). */
#include "sample.h"
#include "../stats/stats.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

/* 16 pairs of 4 ms runs at 10 kHz: ~0.2 s of CPU, and the estimate stayed
 * within 44-48 us over repeated runs on the loaded guest where 5 pairs of
 * 20 ms at 4 kHz spread from 29 to 70 us: short runs alternated often
 * cancel a neighbour's load on the sibling vCPU, which comes and goes over
 * seconds, and more samples a run shrink its noise. */
#define COST_HZ 10000           /* at most perf_event_max_sample_rate */
#define COST_PAIRS 16
#define COST_RUN_NS 4e6         /* CPU time of one plain run */
#define COST_WALL_NS 1e9        /* on a loaded machine, stop after 3 pairs past this */

/* The rates record chooses from, highest first: perf's default 4000 Hz
 * down to 10 Hz (a 1-second program still gets ~10 samples). */
static const unsigned rate_ladder[] = { 4000, 2000, 1000, 500, 250, 100, 50, 25, 10 };
#define NRUNG (sizeof rate_ladder / sizeof rate_ladder[0])

/* A sample's own time is CPU time too, which the clock samples in turn:
 * of each second of work, rate x cost is spent on samples, and that time
 * draws rate x cost of its own, so the program is slowed by the sum of
 * the series, s / (1 - s). At 4000 Hz and 48 us: 23.8%, where bench-record
 * measured +24.1% (and s alone says 19.2%). */
double sampling_slowdown(unsigned long hz, double per_sample_ns)
{
	double s = (double)hz * per_sample_ns * 1e-9;

	return s < 1 ? s / (1 - s) : INFINITY;
}

unsigned default_rate(double per_sample_ns, double budget, unsigned long max_hz)
{
	for (size_t i = 0; i < NRUNG; i++)
		if (rate_ladder[i] <= max_hz &&
		    sampling_slowdown(rate_ladder[i], per_sample_ns) <= budget * (1 + 1e-12))
			return rate_ladder[i];
	/* none fits: the lowest rung the kernel allows */
	return rate_ladder[NRUNG - 1] <= max_hz ? rate_ladder[NRUNG - 1] : (unsigned)max_hz;
}

static double clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

/* A multiply-add chain: no memory, no system call, nothing a sample's
 * interruption could change but the time. */
static __attribute__((noinline)) uint64_t spin(uint64_t rounds)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < rounds; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* The thread CPU time of `rounds` rounds of spin. */
static double spin_ns(uint64_t rounds)
{
	double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	volatile uint64_t sink = spin(rounds);

	(void)sink;
	return clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
}

/* Rounds that take about COST_RUN_NS of CPU here. */
static uint64_t rounds_for_run(void)
{
	uint64_t n = 1u << 16;
	double t;

	while ((t = spin_ns(n)) < 1e6 && n < (1ull << 40))
		n *= 2;
	return (uint64_t)((double)n * COST_RUN_NS / (t > 0 ? t : 1));
}

/* One sampled run: its CPU time, *samples the samples it took. */
static double sampled_ns(struct sampling *s, uint64_t rounds, uint64_t *samples)
{
	uint64_t before = s->samples;
	double t;

	sampling_enable(s);
	t = spin_ns(rounds);
	sampling_disable(s);
	sampling_drain(s, 0);
	*samples = s->samples - before;
	return t;
}

int sample_cost_ns(double *cost, unsigned long max_hz, struct err *e)
{
	struct sampling s = { .hz = COST_HZ < max_hz ? COST_HZ : (unsigned)max_hz };
	pid_t self = gettid();
	double est[COST_PAIRS], wall0 = clock_ns(CLOCK_MONOTONIC);
	uint64_t rounds = rounds_for_run();
	size_t n = 0;

	if (sampling_open(&s, &self, 1, false, e)) {
		sampling_close(&s);
		return -1;
	}
	for (size_t i = 0; i < COST_PAIRS; i++) {
		uint64_t k;
		double plain, sampled;

		/* ABAB... then BABA: a drift of the clock speed cancels out */
		if (i % 2 == 0) {
			plain = spin_ns(rounds);
			sampled = sampled_ns(&s, rounds, &k);
		} else {
			sampled = sampled_ns(&s, rounds, &k);
			plain = spin_ns(rounds);
		}
		if (k)
			est[n++] = (sampled - plain) / (double)k;
		if (i >= 2 && clock_ns(CLOCK_MONOTONIC) - wall0 > COST_WALL_NS)
			break;
	}
	sampling_close(&s);
	if (n == 0)
		return err_set(e, "no samples in %.0f ms of spinning", COST_RUN_NS / 1e6);
	*cost = stats_median_select(est, n);
	if (*cost < 0)
		*cost = 0;      /* noise: cheaper than measurable */
	return 0;
}

unsigned long sample_max_rate(void)
{
	unsigned long v = 0;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");

	if (!f || fscanf(f, "%lu", &v) != 1 || v == 0)
		v = 100000;
	if (f)
		fclose(f);
	return v;
}
