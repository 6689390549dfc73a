/* model/cost.h: what a straddle costs (cost.c), a loop's back end (back_end.c:
 * LLVM's scheduling model in process, sched/), llvm-mca the program as its
 * reference (mca.c), and the pricing of a whole scan (pricing.c). */
#ifndef STRADDLE_MODEL_COST_H
#define STRADDLE_MODEL_COST_H

#include "profile.h"
#include "../decode/decode.h"
#include "../sched/sched.h"

/* What decides a loop's iteration time. A straddle costs only under
 * COST_FRONT_END; the others say why a loop across a window has no hazard. */
enum cost_bound {
	COST_AT_BEST,           /* at its best placement: nothing to price */
	COST_FRONT_END,         /* fetching the windows it touches */
	COST_LATENCY,           /* a dependency chain (llvm-mca: cycles well above throughput) */
	COST_DIVIDE,            /* a divide or square root */
	COST_STORE,             /* its stores */
	COST_ISSUE,             /* its instructions at the issue width, or the ports */
	COST_LOOP_BUFFER,       /* runs from the loop buffer: not fetched */
	COST_MEMORY,            /* a dependency chain through memory (a store, then its load) */
	NCOST_BOUND
};

/* Where the back end's cycles came from. */
enum cost_source {
	COST_SOURCE_NONE,
	COST_SOURCE_PROFILE,            /* the profile's measured bound */
	COST_SOURCE_MCA,                /* llvm-mca's simulation of the loop */
	COST_SOURCE_MCA_WIDTH,          /* its model's dispatch width alone: a bound */
	COST_SOURCE_MODEL,              /* LLVM's model, in process (back_end.c) */
};

struct loop_cost {
	float slowdown;                 /* today's placement against the best, >= 1; 0 not priced */
	float front_end;                /* cycles to fetch an iteration today (windows touched) */
	float front_end_best;           /* ... at the best placement */
	float back_end;                 /* cycles to execute it, 0 unknown */
	float branch;                   /* cycles its branch hazards add to the front end, 0 none */
	uint16_t window;                /* the window that decides the slowdown, 0 none */
	uint8_t bound;                  /* enum cost_bound */
	uint8_t source;                 /* enum cost_source */
	uint8_t profile;                /* index into scan_result.profile */
	/* the slowdown is a bound from above, not a price: the back end was
	 * not modelled (a loop that calls, one the model cannot read) */
	bool at_most;
};

/* "at-best", "front-end", "latency", "divide", "store", "issue", "loop-buffer",
 * "memory" */
const char *cost_bound_name(enum cost_bound b);
const char *cost_source_name(enum cost_source s);

/* The back end of one loop under one profile: the largest of llvm-mca's
 * cycles an iteration and the profile's measured bound (instructions at
 * its issue width, stores at its store rate). */
struct back_end {
	double cycles;                  /* the largest of those below, 0 none known */
	double mca_cycles, mca_throughput;      /* 0: not modelled */
	double issue, store;            /* the profile's bound, 0 not measured */
	/* a profile with no measured width: the model's, for the instructions
	 * less the conditional branches (each may fuse), 0 none */
	double dispatch;
	bool divides;                   /* holds a divide or square root */
	bool latency;                   /* the model's cycles are a dependency chain's */
	bool memory;                    /* ... through memory */
	int32_t nstore;
	uint8_t source;                 /* enum cost_source */
};

/* The front end fetches a window a cycle (rules.c, back_end_hides): a
 * loop's iteration takes the larger of the windows it touches and its back
 * end's cycles. Its predicted time at a placement `start` against its best
 * placement: the largest, over p's straddle windows, of
 * max(touched, be) / max(best, be). What `straddle place` holds a measured
 * ratio against (be from loop_back_end). *window: the window deciding it,
 * 0 when it straddles none. */
double cost_ratio_at(const struct profile *p, uint64_t start, uint64_t bytes,
		     const struct back_end *be, unsigned *window);
/* The cycles a branch hazard (branch-crosses-window, branch-ends-window)
 * adds to its loop's front end an iteration under its profile. */
struct hazard;
double hazard_branch_price(const struct hazard *z);
/* ... its profile's price for one: split, the window between the fused
 * pair's two instructions, each whole; else one of them across it. */
double profile_branch_price(const struct profile *p, bool split);
/* A loop of `bytes` at `start` with the hazards h[0..n) there (place's
 * arm): its branch hazards' bubble as a ratio to its best placement, 1
 * when it has none (cost.c, branch_ratio). */
struct back_end;
double cost_branch_ratio_at(const struct profile *p, uint64_t start, uint64_t bytes,
			    const struct back_end *b, const struct hazard *h, size_t n);
/* The formula's parts that pricing.c applies to a scanned loop (cost.c):
 * an iteration's cycles with `touched` windows where the best placement
 * needs `best`; the part of them a chain keeps; a scanned loop's ratio
 * (its pieces' windows; *window the deciding one); its branch hazards'
 * cycles under p, and its ratio with them. */
struct scan_result;
struct loop_report;
double cost_iteration_cycles(const struct profile *p, double best, double touched,
			     const struct back_end *b);
double cost_chain_cycles(const struct profile *p, double best, double touched,
			 const struct back_end *b);
double cost_loop_ratio(const struct scan_result *r, const struct loop_report *l,
		       const struct profile *p, const struct back_end *be, unsigned *window);
double cost_branch_penalty(const struct scan_result *r, const struct loop_report *l,
			   const struct profile *p);
double cost_branch_ratio(const struct profile *p, const struct scan_result *r,
			 const struct loop_report *l, const struct back_end *b, unsigned w,
			 double penalty);
/* What bounds the loop's iteration given its cycles at this placement. */
enum cost_bound cost_bound_of(const struct back_end *b, double front_end);

/* The back end of the loop whose bytes are code[0..n) at addr, under p:
 * LLVM's model in process (llvm_mca NULL or MODEL_IN_PROCESS), llvm-mca
 * the program (its path or name), or the profile alone ("none"). -1 with
 * the reason when the bytes do not decode. */
#define MODEL_IN_PROCESS "in-process"
int loop_back_end(const char *llvm_mca, const struct profile *p, struct decoder *d,
		  const uint8_t *code, size_t n, uint64_t addr, struct back_end *out, struct err *e);

/* ---- back_end.c: LLVM's model in process ---- */

/* What a model of the CPU says of one loop. */
struct modelled_loop {
	double cycles;                  /* an iteration, in the steady state */
	double throughput;              /* without dependencies: ports, dispatch, retire */
	double chain;                   /* its longest loop-carried chain, 0 unknown */
	bool memory;                    /* that chain runs through memory and decides */
	bool divides;
	bool ok;
	uint8_t source;                 /* COST_SOURCE_MODEL or COST_SOURCE_MCA */
	int32_t nstore;                 /* its stores, as the model reads them */
};

/* The LLVM -mcpu names of p's CPUs, best first (at most 3, NULL-ended
 * when fewer); NULL when none. */
const char *const *profile_models(const struct profile *p);
/* The models are shared by the process and one thread's at a time: hold
 * the lock from model_cpu to the last model_loop. */
void model_lock(void);
void model_unlock(void);
/* p's CPU as LLVM models it, its -mcpu in *mcpu; NULL when LLVM is not
 * there (model_unavailable says why) or knows none of p's CPUs. */
struct sched_cpu *model_cpu(const struct profile *p, const char **mcpu);
const char *model_unavailable(void);
const char *model_version(void);
unsigned model_dispatch_width(struct sched_cpu *cpu);
/* The cycles an iteration of ninsn instructions takes to dispatch at
 * `width` a cycle, the ncond conditional branches fused into the compare
 * before them taking no slot of their own; 0 when the width is not known. */
double model_dispatch_cycles(uint32_t ninsn, uint32_t ncond, unsigned width);
/* The loop whose pieces are pc[0..np) under p: its bounds, or with exact
 * llvm-mca's simulation in process. -1 with the reason when the model
 * cannot price it. */
int model_loop(const struct profile *p, struct sched_cpu *cpu, const struct sched_piece *pc,
	       size_t np, bool exact, struct modelled_loop *m, struct err *e);
/* Does a chain of dependent instructions decide m's cycles? */
bool modelled_latency_bound(const struct modelled_loop *m);
/* b from the profile's bound and m (NULL: not modelled); b->dispatch,
 * b->nstore and b->divides set before. */
void back_end_combine(const struct profile *p, uint32_t ninsn, const struct modelled_loop *m,
		      struct back_end *b);
/* The stores of code[0..n), through the decoder's own count. */
int32_t count_stores(struct decoder *d, const uint8_t *code, size_t n, uint64_t addr);

/* ---- mca.c: llvm-mca the program ---- */

/* Loops past this many instructions are not simulated by llvm-mca the
 * program: their back end is the model's dispatch width at least (source
 * "llvm-mca-width", so their slowdown is a bound from above), as its time
 * grows with the instructions it simulates (half of libLLVM-14's loops
 * left to simulate are larger: make bench-scan). Nor are loops that call:
 * llvm-mca gives a call 100 cycles of latency ("call instructions are not
 * correctly modeled"), and the callee's time is not in the loop's bytes. */
#define MCA_MAX_INSN 64

/* The loops of one llvm-mca input: each its lines of assembly text. */
struct mca_loop {
	size_t text, text_end;          /* into mca_input.text */
	uint32_t ninsn;
};

struct mca_input {
	enum arch arch;
	unsigned iterations;            /* of each region, 0: the default (mca.c) */
	struct strbuf text;
	struct mca_loop *loop;
	size_t nloop, cap;
};

struct mca_region {
	double cycles;                  /* an iteration, in the steady state */
	double throughput;              /* Block RThroughput: the ports alone */
	/* the cycles of one iteration run alone (its region's first third,
	 * mca.c: prefix_of), as mca_steady's own run would give them; 0 not
	 * in this run */
	double one_iteration;
	bool ok;
};

struct mca_region;
/* A region of llvm-mca the program as a modelled loop. */
void modelled_from_mca(const struct mca_region *r, bool divides, struct modelled_loop *m);
/* The loop of code[0..n) at addr, the program `llvm_mca` its back end. */
int mca_loop_back_end(const char *llvm_mca, const struct profile *p, struct decoder *d,
		      const uint8_t *code, size_t n, uint64_t addr, bool calls, uint32_t ncond,
		      struct back_end *out, struct err *e);
/* The loop's pieces p[0..np) (addresses; the function's bytes `fcode`
 * start at faddr) as one region of in: what an iteration runs. False when
 * an instruction does not decode or is a string instruction (the loop is
 * left to the bound). */
struct mca_input;
struct loop_piece;
bool mca_add_loop(struct mca_input *in, struct decoder *d, const uint8_t *fcode, uint64_t faddr,
		  const struct loop_piece *p, size_t np, bool *divides);
void mca_input_free(struct mca_input *in);

/* The -mcpu of p's CPUs that the llvm-mca `want` (NULL: the newest
 * installed) knows, NULL when none or no llvm-mca. */
const char *mca_cpu(const char *want, const struct profile *p);
const char *mca_version(const char *want);
/* The model's dispatch width, instructions a cycle at most: 0 unknown
 * (the same run over a nop that told mca_cpu the model is known). */
unsigned mca_dispatch_width(const char *want, const char *mcpu, enum arch arch);
/* One llvm-mca process over every loop of in; out[k] for in->loop[k]
 * (ok false for a loop it could not model). -1 with the reason when it
 * could not run at all. */
int mca_run(const char *want, const char *mcpu, enum arch arch, const struct mca_input *in,
	    struct mca_region *out, struct err *e);
/* The loops of in with select[k] simulated again, longer: out[k].cycles
 * (mca_run's) becomes the steady state, without the pipeline's filling. */
void mca_steady(const char *want, const char *mcpu, const struct mca_input *in,
		const bool *select, struct mca_region *out);

#endif
