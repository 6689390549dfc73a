/* measure/pair.h: two builds' routines measured against each other
 * (pair.c), for diff --measure. */
#ifndef STRADDLE_MEASURE_PAIR_H
#define STRADDLE_MEASURE_PAIR_H

#include "sweep.h"
#include "../stats/stats.h"

/* diff --measure: the old build's routine at the placement its build gives
 * it, the new one's at its own, and the old again in a mapping of its own
 * (the A/A control), each once a round in a new random order, as a sweep
 * runs (s: its size, calls, budget and stops; its variants are made
 * here). The change is the rounds' paired ratio new/old (stats_paired_
 * ratio), the control's the same of old'/old. */
struct pair_measure {
	struct paired change, aa;
	double old_median, new_median;  /* ns an operation */
	unsigned rounds;
	const char *stopped_by;
};

int measure_pair(struct sweep *s, const struct kernel *old, uint32_t old_offset,
		 const struct kernel *new, uint32_t new_offset, struct pair_measure *out,
		 struct err *e);

#endif
