/* Timing with the CPU's own counter: on x86-64 the TSC (invariant on every
 * CPU this tool models; cpuid 0x80000007 EDX bit 8 says so), read as
 * lfence; rdtscp so that nothing before it is still executing; on AArch64
 * CNTVCT_EL0 after an isb. Ticks become ns through a frequency calibrated
 * against CLOCK_MONOTONIC_RAW. */
#include "clock.h"

#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

double monotonic_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#if defined(__x86_64__)
static bool tsc_invariant(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return false;
	return d & (1u << 8);
}

uint64_t clock_ticks(void)
{
	unsigned aux;

	_mm_lfence();
	return __rdtscp(&aux);
}
#elif defined(__aarch64__)
uint64_t clock_ticks(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}
#else
uint64_t clock_ticks(void)
{
	return mono_ns();
}
#endif

/* Ticks per ns over about 20 ms against CLOCK_MONOTONIC_RAW. */
static double calibrate(void)
{
	uint64_t n0 = mono_ns(), t0 = clock_ticks(), n1, t1;

	do
		n1 = mono_ns();
	while (n1 - n0 < 20000000ull);
	t1 = clock_ticks();
	return (double)(n1 - n0) / (double)(t1 - t0);
}

static double resolution(double ns_per_tick)
{
	uint64_t best = ~0ull;

	for (int i = 0; i < 1000; i++) {
		uint64_t a = clock_ticks(), b = clock_ticks();

		if (b > a && b - a < best)
			best = b - a;
	}
	return (double)best * ns_per_tick;
}

int clock_init(struct clock *c, struct err *e)
{
	memset(c, 0, sizeof *c);
#if defined(__x86_64__)
	if (!tsc_invariant())
		return err_set(e, "the TSC is not invariant on this CPU: times would drift");
	c->source = "tsc";
#elif defined(__aarch64__)
	c->source = "cntvct";
#else
	c->source = "clock_gettime";
#endif
	c->ns_per_tick = calibrate();
	if (!(c->ns_per_tick > 0))
		return err_set(e, "the %s clock does not advance", c->source);
	c->resolution_ns = resolution(c->ns_per_tick);
	return 0;
}
