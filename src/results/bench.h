/* results/bench.h: bench's result file, written and read for the page
 * (bench.c). */
#ifndef STRADDLE_RESULTS_BENCH_H
#define STRADDLE_RESULTS_BENCH_H

#include <jansson.h>

#include "../measure/state.h"
#include "../workloads/workloads.h"

struct bench_run {
	struct machine_state state;
	json_t *pinned;                 /* {"pread-zero": CPU, ...}, owned */
};

struct bench_record {
	int argc;
	char **argv;
	const struct workload *const *sel;
	const struct wl_result *res;    /* res[i] of sel[i] */
	size_t nsel;
	const struct wl_options *o;
	const struct bench_run *runs;
	unsigned nruns;
	double elapsed_s;
};

json_t *results_bench(const struct bench_record *b);
/* A run's "pinned": the CPU each batch-timed workload of sel (res[i] of
 * sel[i]) pinned itself to in it. */
json_t *results_bench_pinned(const struct workload *const *sel, const struct wl_result *res,
			     size_t nsel);
void results_bench_run_free(struct bench_run *r);

/* What bench's text says of a workload's details (the JSON its workload
 * recorded): fault-write's probes of its last run (seed 001), and
 * gettime's note on its cold clock; NULL and 0 where the details have none. */
struct fault_probe_read {
	const char *call, *error;
	long long returned, expected;
	bool pass, content_ok;
};

struct workload_notes {
	struct fault_probe_read write, read;
	const char *cold;
};

void results_workload_notes(const json_t *details, struct workload_notes *n);

/* A bench file as the page shows it, of what results_file_of read:
 * the workloads it names, its runs (those its samples have) and what its
 * settings say, each setting as the file says it, and the machine's
 * state of each run (NAN and NULL where a run has none). */
#define BENCH_SETTINGS 5
struct bench_state {
	double seconds, load, steal_pct, others_pct, busy_pct, cpus, mhz;
	const char *clocksource, *governor;
};

struct bench_doc {
	const char *workloads[32];
	size_t nworkloads;
	size_t runs;
	bool runs_differ;               /* the settings' "runs" says otherwise */
	char runs_said[48];
	struct {
		const char *key;        /* duration_s, tasks, modes, align, elapsed_s */
		bool present;
		char text[160];
	} setting[BENCH_SETTINGS];
	struct bench_state *states;
	size_t nstates;
};

struct result_file;
void results_bench_doc(const struct result_file *f, struct bench_doc *b);
void results_bench_doc_free(struct bench_doc *b);

#endif
