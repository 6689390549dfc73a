/* measure/calibrate.h: this CPU's layout rules measured (calibrate_run.c),
 * fitted (calibrate_fit.c) and made a profile (calibrate_profile.c). */
#ifndef STRADDLE_MEASURE_CALIBRATE_H
#define STRADDLE_MEASURE_CALIBRATE_H

#include "state.h"
#include "../kernels/kernels.h"
#include "../model/host.h"
#include "../model/profile.h"

#define CALIB_SPAN 64                   /* positions: every offset of a line */

struct calib_point {
	uint32_t pos;                   /* the loop's (or callee's) first byte mod CALIB_SPAN */
	double *samples;                /* ns per call, in round order */
	size_t n;
	/* calib_mark: as sweep marks an offset against the best */
	double median, ci_lo, ci_hi;
	double floor, floor_lo, floor_hi;       /* what the mark compares, its 95% CI */
	double ratio, p;                /* ratio: of floors */
	bool slow;
};

struct calib_experiment {
	char name[48];
	char what[112];                 /* one line */
	bool entry;                     /* the callee's entry moves, not a loop */
	uint32_t bytes, ninsn;          /* the loop's, or (entry) the callee's bytes */
	uint32_t nstore;                /* the loop's stores */
	uint32_t chain;                 /* imuls in series: 3 cycles an iteration each */
	uint32_t pair, branch, end;     /* the back edge, from the loop's start */
	struct calib_point pt[CALIB_SPAN];
	size_t npt;
	unsigned rounds;
	double elapsed_s;
	char stopped_by[16];
	/* the machine while it ran (a busy sibling moved seed 000's line cost
	 * from 1.15x to 1.6-1.8x); false in older recordings */
	struct machine_state state;
	bool has_state;
};

enum calib_effect { EFFECT_STRADDLE, EFFECT_CROSS, EFFECT_ENDS, EFFECT_ENTRY };

/* One rule as measured: placements where it applies against matched ones
 * where nothing does, as a ratio of medians with its bootstrap 95% CI. */
struct calib_rule {
	enum calib_effect effect;
	unsigned window;
	bool tested;                    /* enough placements on both sides */
	bool claimed;                   /* significant and material, whole run and both halves */
	double ratio, lo, hi, p;
	double half_ratio[2], half_p[2];
	unsigned n_with, n_without;     /* placements compared */
	char experiment[48];            /* the experiment where it is largest */
	struct machine_state state;     /* that experiment's, when recorded */
	bool has_state;
};

#define CALIB_MAX_RULES 16

struct calib_fit {
	struct calib_rule rule[CALIB_MAX_RULES];
	size_t nrule;
	unsigned cross_mask, ends_mask, straddle_mask;  /* bit i: model_windows[i] claimed */
	unsigned loop_buffer;           /* instructions; 0: nothing hides a straddle */
	bool loop_buffer_claimed;
	char loop_buffer_why[160];
	/* the back-end bound (model/profile.h, struct profile): 0 none found */
	unsigned issue_width, stores_per_cycle;
	/* the least whole number the evidence allows (a bound near its
	 * threshold is a range, "2 to 4 stores a cycle"); the bound taken is
	 * the largest of the range */
	unsigned issue_width_least, stores_least;
	char back_end_why[400];
	/* what one line more costs an iteration, in cycles: where the front
	 * end decides, and behind the imul chain (0: hidden, or not
	 * measured); the chain's 3 cycles are the ruler (calibrate_fit.c) */
	double window_cycles, latency_window_cycles;
	char window_why[240];
};

struct calib_opts {
	enum arch arch;
	double budget_s;                /* for all experiments */
	double precision, alpha, material;
	size_t size;                    /* bytes per call */
	uint64_t seed;
	void (*progress)(void *ctx, size_t i, size_t n, const char *name);
	void *progress_ctx;
};

/* The experiments' loops for an architecture (the same table shape for each). */
size_t calib_specs(enum arch a, const struct synth_spec **out);
/* Run every experiment (a sweep each, budget_s shared out); *out holds
 * those done, also on error. */
int calib_run(const struct calib_opts *o, struct calib_experiment **out, size_t *n,
	      struct err *e);
void calib_free(struct calib_experiment *x, size_t n);
/* Each point's median, CI, ratio to the best, U test and slow mark. */
void calib_mark(struct calib_experiment *x, const struct calib_opts *o);
/* The rules the recorded samples support (uses alpha, material, seed). */
void calib_fit(const struct calib_experiment *x, size_t n, const struct calib_opts *o,
	       struct calib_fit *f);
const char *calib_effect_name(enum calib_effect e);
/* The smallest of model_windows whose bit is set in mask (a fit's
 * cross_mask, ends_mask), 0 for none. */
unsigned calib_smallest_window(unsigned mask);
/* Does profile p predict a hazard for experiment x placed at pos (the
 * shading of calibrate's plots)? */
bool calib_predicted(const struct profile *p, const struct calib_experiment *x, uint32_t pos);
/* "1.25x [1.20, 1.31], halves ..., p ... (experiment)" or "no effect measured: ..." */
void calib_rule_text(const struct calib_rule *r, char *buf, size_t n);

/* The profile the fit supports: fetch, uop-cache window and line from
 * `base` (the host's built-in, from manuals), which windows cost, the
 * branch rule and the loop buffer from the fit; the evidence names every
 * measurement. Strings in *st, which must outlive *out. */
struct calib_profile_text {
	char name[32], cpus[160], evidence[2048];
};

void calib_profile(const struct calib_fit *f, const struct profile *base, const char *cpu,
		   struct calib_profile_text *st, struct profile *out);
/* All of it for the machine h the experiments x[0..n) ran on: each
 * point marked, the rules fitted into *f, the profile made on h's
 * built-in (a generic one when it has none of o's architecture, whose
 * architecture o takes). */
void calib_conclude(struct calib_experiment *x, size_t n, struct calib_opts *o,
		    const struct host *h, struct calib_fit *f, struct calib_profile_text *st,
		    struct profile *out);

/* A sample lasts ~150 us: a clock that steps by more than this cannot
 * time one to 0.1%. */
#define CALIB_MAX_RESOLUTION_NS 150.0
/* 0, or -1 when this machine cannot be calibrated: an emulator, a clock
 * too coarse (one line in *e). */
int calib_check_machine(struct err *e);

#endif
