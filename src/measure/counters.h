/* measure/counters.h: hardware counters of this thread (counters.c). */
#ifndef STRADDLE_MEASURE_COUNTERS_H
#define STRADDLE_MEASURE_COUNTERS_H

#include "../base/base.h"

enum { COUNTER_CYCLES, COUNTER_INSTRUCTIONS, COUNTER_ICACHE_MISSES, NCOUNTERS };

struct counters {
	int fd[NCOUNTERS];
	bool supported;
	char why[128];          /* "not supported: ..." when they are not */
	uint64_t value[NCOUNTERS];
};

/* Opens cycles, instructions and L1-icache misses for this thread. When
 * the kernel refuses (perf_event_paranoid, a VM without a PMU) supported
 * is false and why says so plainly; measuring goes on without them. */
void counters_open(struct counters *c);
void counters_start(struct counters *c);
void counters_stop(struct counters *c);     /* adds to value[] */
void counters_close(struct counters *c);

#endif
