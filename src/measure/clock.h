/* measure/clock.h: the clock samples are timed with, the monotonic clock of
 * budgets (clock.c), and pinning to one CPU (pin.c). */
#ifndef STRADDLE_MEASURE_CLOCK_H
#define STRADDLE_MEASURE_CLOCK_H

#include "../base/base.h"

struct clock {
	const char *source;     /* "tsc", "cntvct" or "clock_gettime" */
	double ns_per_tick;
	double resolution_ns;   /* smallest step seen between two reads */
};

int clock_init(struct clock *c, struct err *e);
/* CLOCK_MONOTONIC in seconds: for budgets and wall times of whole runs,
 * not for samples (those use the clock clock_init chose). */
double monotonic_s(void);
/* Ticks of the clock chosen by clock_init: TSC read with rdtscp after an
 * lfence (no earlier instruction still running), CNTVCT after an isb. */
uint64_t clock_ticks(void);


/* Pin this thread to the CPU it is running on; *cpu says which. */
int pin_to_current_cpu(int *cpu, struct err *e);

#endif
