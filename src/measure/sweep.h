/* measure/sweep.h: kernels placed at code offsets and measured, variants
 * interleaved in a new random order every round, batches sized far above
 * the clock's resolution, every raw sample kept (sweep.c); and what the
 * measurement says beside the model (sweep_verdict.c). */
#ifndef STRADDLE_MEASURE_SWEEP_H
#define STRADDLE_MEASURE_SWEEP_H

#include "clock.h"
#include "counters.h"
#include "../arena/arena.h"
#include "../kernels/kernels.h"
#include "../model/cost.h"
#include "../model/rules.h"
#include "../stats/stats.h"

struct variant {
	const struct kernel *k;
	uint32_t offset;                /* of the kernel's first byte in its mapping */
	struct placement pl;            /* stays put: variants are never reallocated */
	uint64_t iters;                 /* calls per sample */
	double *samples;                /* ns per call, one per round */
	size_t n, cap;
	struct summary sum;
	double ratio;                   /* floor / the best floor of its kernel */
	double half_ratio[2];           /* the same of each half of the rounds */
	double p_vs_best;               /* Mann-Whitney against the best */
	bool slow;                      /* significantly and materially slower */
	struct hazard predicted[8];     /* the host profile's static verdict here */
	size_t npredicted;
	/* the cost model's time here against the loop's best placement
	 * (sweep_predicted_ratio); 0 not predicted */
	double predicted_ratio;
};

struct sweep {
	struct variant *v;
	size_t n;
	size_t size;                    /* bytes per call, or per operation */
	/* an operation of several calls (read_zero's 4 KiB clear_user calls
	 * of a 100 KiB pread), each on the bytes after the last: their
	 * sizes, adding up to size; NULL: one call of size */
	const uint32_t *calls;
	size_t ncalls;
	double precision;               /* CI half-width / floor to stop at */
	double budget_s;
	unsigned min_rounds;
	double min_place_s;             /* measured seconds each placement needs first */
	uint64_t seed;
	double alpha, material;         /* the "slow" mark: p < alpha, ratio >= 1 + material */
	/* set by sweep_prepare / sweep_run */
	struct clock clock;
	int cpu;
	struct counters counters;
	uint8_t *dst, *src;
	size_t buf_len;
	unsigned rounds;
	double elapsed_s;
	const char *stopped_by;         /* "precision" or "time" */
	double worst_halfwidth;         /* relative, at the end */
};

/* Place every variant, map the buffers, pin, start the clock, size the
 * batches so one sample lasts far above the clock's resolution. */
int sweep_prepare(struct sweep *s, struct err *e);
/* Before a precision stop: this many rounds, and this much measured time
 * of every placement. `sweep clear_movq_imm --offsets 0..3` stopped by
 * precision after 50-180 rounds (0.0-0.1 s of the whole sweep) marked
 * well-placed offsets 1.13x slow in 2 of 5 runs: a CI that narrow over 25
 * ms of one placement is the machine's state of those 25 ms, not the
 * layout's. And the quantile test compares the lowest tenth of each side:
 * with 20 samples that is 2, and a floor 15% higher was not significant
 * (p 0.136 at 10 rounds); 50 rounds give it 5. */
#define SWEEP_MIN_ROUNDS 50
#define SWEEP_MIN_PLACE_S 0.25
/* Rounds until every floor's CI is within precision or the time is up;
 * precision is checked only past min_rounds and min_place_s. */
int sweep_run(struct sweep *s, struct err *e);
/* Summaries, ratios, slow marks, and the static prediction under `host`. */
void sweep_analyse(struct sweep *s, const struct profile *host);
void sweep_free(struct sweep *s);


/* Does profile p predict a hazard for v's placement? (false for a kernel
 * that is not placed, or of another architecture) */
bool sweep_predicts(const struct profile *p, const struct variant *v);
/* Placements of kernel k where p's price (at least 1 + the sweep's
 * material: slow; its back end in process) matches the slow mark, of
 * *total (the held-out check of bench-calibrate). predicted_slow, when
 * not NULL (s->n of them): each of k's variants' predicted mark. */
size_t sweep_profile_agreement(const struct sweep *s, const struct profile *p, const struct kernel *k,
		       size_t *total, bool *predicted_slow);
/* The smallest alignment of the loop's start under which every measured
 * placement of k is fast (2..64), 0 when none: a fix read off the
 * measurement, not the model. */
unsigned sweep_measured_fix(const struct sweep *s, const struct kernel *k);

/* The cost model's predicted time of k's hot loop with k's first byte at
 * `offset`, against the loop's best placement: the ratio `straddle place`
 * holds its arms against (cost.c's cost_ratio_at, cost_branch_ratio_at),
 * 1 where the rules see no straddle (h[0..n): their verdict there), 0
 * when k has no loop or is not placed. be: the loop's back end
 * (sweep_back_end, once a kernel; llvm_mca as loop_back_end takes it). */
void sweep_back_end(const char *llvm_mca, const struct profile *p, const struct kernel *k,
		    struct back_end *be);
double sweep_predicted_ratio(const struct profile *p, const struct kernel *k,
			     const struct back_end *be, uint32_t offset, const struct hazard *h,
			     size_t n);

/* Kernels at their best offsets: each but the first tested against the
 * first kernel's best (the floors' quantile test). */
struct sweep_at_best {
	const struct variant *best;
	double vs_first_ratio;          /* floors; 0 for the first */
	struct quantile_test vs_first;
};

/* One entry per kernel that has a best, in the order given; the count. */
size_t sweep_at_best(const struct sweep *s, const struct kernel *const *kernels, size_t nk,
		     struct sweep_at_best *out);

#endif
