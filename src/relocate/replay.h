/* The preload library's replay of one loop (replay.c): what preload.c
 * hands over. Part of libstraddle-place.so only. */
#ifndef STRADDLE_RELOCATE_REPLAY_H
#define STRADDLE_RELOCATE_REPLAY_H

#include "plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The plan's replay record and what follows it (plan.h). */
struct replay_plan {
	const struct plan_replay *r;
	const struct plan_replay_copy *copy;
	const struct plan_replay_trap *trap;
};

/* The thread pointer's offset of slot s (enum plan_slot): what a
 * PLAN_IN_TLS fix-up writes, as %fs:disp32 reads it. */
int64_t replay_slot_offset(uint64_t s);

/* Its object's plan is applied (the arena at `arena`, the object at
 * `bias`): when STRADDLE_REPLAY asks (place --replay), take snapshots of
 * the loop in this process from now on, their lines on report_fd. x86-64;
 * elsewhere nothing. false with a reason in why when it cannot. */
bool replay_start(const struct replay_plan *p, uint64_t arena, uint64_t arena_size, uint64_t bias,
		  int report_fd, char *why, size_t n);

#endif
