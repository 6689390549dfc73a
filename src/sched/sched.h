/* sched/: a loop's back end from LLVM's scheduling models, computed in
 * process. LLVM's own tables (the ones its schedulers and llvm-mca use)
 * say, for each instruction of a loop's bytes, its micro-ops, the cycles
 * it holds each execution resource, the latency of each register it
 * writes and the cycles a read may start early (ReadAdvance). From those
 * the loop's cycles an iteration in the steady state are the largest of
 * a few bounds (throughput.c, after Facile: Abel and Reineke, IISWC 2023):
 * the resources' pressure, in-order dispatch at the model's width,
 * retirement, and the longest loop-carried dependency chain, through
 * registers and through memory (a store and a later load of the same
 * loop-invariant address).
 *
 * The facts come from LLVM through a small C++ library,
 * libstraddle-sched.so (llvm.cpp), loaded when first asked (load.c): a
 * machine without LLVM 19 gets one line and every loop priced by its
 * bound, never a failed start. */
#ifndef STRADDLE_SCHED_H
#define STRADDLE_SCHED_H

#include "../base/base.h"

#include "abi.h"

struct sched_cpu;

/* The model LLVM calls mcpu for arch; NULL with the reason in e when
 * LLVM is not there, knows no such CPU or has no scheduling model for it.
 * Each cpu is for one thread at a time. */
struct sched_cpu *sched_cpu_open(const char *mcpu, enum arch arch, struct err *e);
void sched_cpu_close(struct sched_cpu *c);
const struct sched_cpu_info *sched_cpu_info(const struct sched_cpu *c);
/* "LLVM 19.1.7", NULL when the library could not be loaded. */
const char *sched_llvm_version(void);
/* Why it could not be, NULL when it was. */
const char *sched_unavailable(void);

/* The instructions of code[0..n) at addr into out[0..max): how many. One
 * that LLVM cannot decode ends the run with SCHED_INVALID set on it. */
size_t sched_describe(struct sched_cpu *c, const uint8_t *code, size_t n, uint64_t addr,
		      struct sched_insn *out, size_t max);
/* The cycles a read (r of an instruction) may start before its producer's
 * latency has passed, for a producer that wrote with write_resource. */
unsigned sched_read_advance(struct sched_cpu *c, const struct sched_read *r,
			    unsigned write_resource);

/* llvm-mca's own simulation of the loop's pieces p[0..np), `iterations`
 * times, in process: its Total Cycles; 0 when an instruction has no data
 * or the loop calls. The reference the bounds are held against. */
unsigned long sched_simulate(struct sched_cpu *c, const struct sched_piece *p, size_t np,
			     unsigned iterations);

/* ---- throughput.c: the loop's cycles an iteration ---- */

/* What bounds an iteration; the largest decides. */
struct sched_bounds {
	double ports;                   /* the busiest resource's cycles / its units */
	double dispatch;                /* in-order dispatch at the width */
	double retire;                  /* micro-ops / retire width */
	/* a queue's entries, each held at least its instruction's latency:
	 * loads' and stores' (load and store queues), every micro-op's (the
	 * reorder buffer): a non-temporal store of 518 cycles holds its
	 * store-queue entry that long */
	double queues;
	double chain;                   /* the longest loop-carried dependency chain */
	double memory_chain;            /* ... of those, the longest through memory */
	double cycles;                  /* the largest of the above */
	unsigned uops;
	char port[32];                  /* the busiest resource's name, "" none */
};

/* One iteration of the loop insn[0..n) (its instructions in the order an
 * iteration runs them, the back edge last), under cpu; store_load: the
 * cycles from a store's data to a load of the same address (the profile's;
 * negative: no chains through memory). -1 with the reason when an instruction
 * has no data (SCHED_UNSUPPORTED, SCHED_INVALID). */
int sched_loop_bounds(struct sched_cpu *cpu, const struct sched_insn *insn, size_t n,
		      double store_load, struct sched_bounds *out, struct err *e);

#endif
