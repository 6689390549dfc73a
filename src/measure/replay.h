/* measure/replay.h: a loop replayed from the program's own state
 * (replay.c).
 *
 * place --replay: the program runs with the loop's function copied as the
 * control is, and a timed copy of it at each arm's offset beside
 * (relocate/replay_plan.c); the preload library takes snapshots of the
 * registers at the loop's header and runs each at every offset in a
 * child of its own (relocate/replay.c), timing the loop to its exit.
 * The arms' rounds are groups of snapshots: each arm's cycles an
 * iteration over the group, the replays' fixed cost taken out. */

#ifndef STRADDLE_MEASURE_REPLAY_H
#define STRADDLE_MEASURE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "experiment.h"

struct replay_snapshot {
	uint64_t iterations;
	uint32_t run;
	bool complete;                  /* every copy timed alike (same exit, registers) */
	bool disturbed;                 /* a replay far off its copy's line: outvoted */
};

/* What the runs' lines said of failed replays. */
struct replay_counts {
	unsigned probe_late, probe_killed, probe_signal;        /* snapshots lost */
	unsigned timed_late, timed_diverged, timed_signalled, timed_filtered;
	unsigned trapped;               /* snapshots whose exit was an int3 */
	unsigned overflow;              /* snapshots that touched more pages than were kept */
	unsigned forks;                 /* processes the program forked that met the trap */
	unsigned arms, fired;           /* the header's trap armed, and taken */
	unsigned children, reaped;      /* children forked for replays, and waited for */
	unsigned runs, runs_started;    /* runs, and those the library replayed in */
};

struct replay_data {
	size_t ncopies;                 /* timed copies, one an arm: */
	size_t arm[PLACE_MAX_ARMS];     /*   copy k is arm[k]'s */
	struct replay_snapshot *s;
	int64_t *c;                     /* c[i * ncopies + k]: snapshot i's replay at copy k,
					 * ticks; < 0 failed (replay.c's codes) */
	size_t ns, cap;
	struct replay_counts n;
	char refused[240];              /* why the loop is not replayed ("" it is) */
	/* the clock: the TSC, or clock_gettime where that cannot be used (why) */
	bool clock_gettime;
	char clock_why[sizeof((struct err *)0)->msg];
	double ns_per_tick;
	int cpu;                        /* the CPU the runs were pinned to, -1 none */
	/* asked */
	unsigned snapshots;             /* stop after this many complete ones */
	unsigned copies;                /* timed copies of each arm's placement, a round apart */
	unsigned repeats;               /* timed replays of each copy a snapshot: their median */
	unsigned warm;                  /* iterations a timed child replays before its timed one */
	double tick_ns, bound_s;
	double unmoved_s;               /* the unmoved program's second run, wall seconds */
	double deadline_s;              /* CLOCK_MONOTONIC: the runs take no snapshot after */
	/* fitted (replay_fit) */
	double fixed[PLACE_MAX_ARMS];   /* each copy's fixed cost of a replay, ticks */
	bool fixed_known;               /* the iterations varied enough to tell it */
	size_t per_round, used;         /* most snapshots in a round; those the rounds hold */
	uint64_t iter_min, iter_max;
	uint64_t iter_floor;            /* the fewest iterations of a replay the rounds hold */
	double *copy_v;                 /* copy_v[k * copy_stride + r]: copy k's round r; an
					 * arm's own sample of a round is its copies' geometric mean */
	size_t copy_stride;
};

/* Choose the clock: the TSC unless it is not invariant, lacks rdtscp or
 * traps (a guest whose host intercepts it: its reads measured). */
void replay_clock(struct replay_data *r);
/* A run's report lines (relocate/replay.c's) into r; run numbers the run. */
void replay_take(struct replay_data *r, const char *report, uint32_t run);
/* Runs until --runs, the time, or r->snapshots complete snapshots: 0, or
 * as experiment_run. */
int replay_run(struct place_experiment *x, struct err *e);
/* The arms' samples from the snapshots: per round of snapshots (three at
 * least), each copy's median replay over its snapshot's median copy,
 * times the round's cycles an iteration, the fixed cost out; the complete
 * snapshots whose replays ran at least the median of their iterations
 * (all where the iterations did not vary). x->rounds set. */
void replay_fit(struct place_experiment *x);
/* Arm `arm`'s copies' rounds (rows of copy_v, at most PLACE_MAX_ARMS):
 * how many. */
size_t replay_arm_copies(const struct replay_data *r, size_t arm, const double **rows);
/* The spread of every timed arm's copies (stats_copies_variance): df 0
 * with one copy each. */
void replay_spread(const struct place_experiment *x, bool odd, struct copies_spread *s);
/* Arm b over arm a: the rounds paired (stats_paired_ratio, on the odd
 * ones with odd), or with several copies of each, their means against
 * their spread (stats_copies_ratio). */
void replay_ratio(const struct place_experiment *x, const struct place_arm *a,
		  const struct place_arm *b, bool odd, struct paired *out);
void replay_free(struct replay_data *r);
/* "write", "futex" ...: an x86-64 system call's name, or NULL. */
const char *replay_syscall_name(unsigned nr);

#endif
