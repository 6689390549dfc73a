/* measure: clocks, pinning, optional hardware counters, and the measuring
 * of placed kernels: batches sized far above the timer's resolution,
 * variants interleaved in a new random order every round, a stopping rule
 * (DESIGN: Measuring). Every raw sample is kept. */
#ifndef STRADDLE_MEASURE_H
#define STRADDLE_MEASURE_H

#include "../base/base.h"

#include <regex.h>
#include <sys/types.h>
#include "../place/place.h"
#include "../kernels/kernels.h"
#include "../stats/stats.h"
#include "../model/model.h"
#include "../relocate/relocate.h"

/* ---- clocks (clock.c) ---- */

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

/* ---- pinning (pin.c) ---- */

/* Pin this thread to the CPU it is running on; *cpu says which. */
int pin_to_current_cpu(int *cpu, struct err *e);

/* ---- the machine's state over a run (state.c) ---- */

struct state_snapshot {
	unsigned long long busy, idle, steal;   /* /proc/stat, USER_HZ ticks, all CPUs */
	double own_s;                   /* CPU seconds of this process and its children */
	double at_s;                    /* CLOCK_MONOTONIC */
};

struct machine_state {
	double seconds;
	double load[3];                 /* /proc/loadavg at the end */
	double steal_pct;               /* of all CPUs' time: taken by the hypervisor */
	double busy_pct;                /* of all CPUs' time: busy */
	double others_pct;              /* of all CPUs' time: busy, not this process */
	unsigned ncpus;
	char clocksource[32];           /* the kernel's current clocksource */
	char governor[32];              /* "" where cpufreq is not there */
	double mhz;                     /* CPU 0: cpufreq's, else /proc/cpuinfo's */
};

void state_begin(struct state_snapshot *s);
void state_end(const struct state_snapshot *s, struct machine_state *m);
/* The shares between two snapshots, USER_HZ = hz (state_end's arithmetic). */
void state_delta(const struct state_snapshot *s, const struct state_snapshot *now, double hz,
		 struct machine_state *m);

/* ---- hardware counters (counters.c) ---- */

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

/* ---- sampling instruction pointers (sample.c) ---- */

/* A file some sampled code was mapped from: "[vdso]" or a path. */
struct sampled_file {
	char *path;
	uint32_t maj, min;
	uint64_t ino;                   /* of the file that was mapped */
	struct sample_hist offsets;     /* file offsets of the samples */
	uint64_t samples;
};

struct sample_event;
struct pending_map;
struct space;

struct sampling {
	/* asked */
	unsigned hz;
	bool want_kernel;
	/* chosen: hardware cycles when the PMU allows them, else cpu-clock */
	const char *event;
	bool cycles, kernel;
	char event_note[160];           /* why not cycles */
	char kernel_note[160];          /* why no kernel samples */
	/* what was seen, after sampling_finish */
	struct sampled_file *file;
	size_t nfile;
	struct sample_hist kernel_ips;  /* runtime kernel addresses */
	uint64_t samples, kernel_samples, unmapped, lost;
	/* inside */
	int *fd;
	void **ring;
	size_t nfd, fd_cap, file_cap;
	struct sample_event *ev;
	size_t nev, ev_cap;
	struct pending_map *pmap;
	size_t npmap, pmap_cap;
	struct space *space;
	size_t nspace, space_cap;
};

/* Open the sampling events (one per CPU, inherited by children) for each
 * of tids, disabled; with enable_on_exec they start when the task execs.
 * hz and want_kernel are set by the caller first. */
int sampling_open(struct sampling *s, const pid_t *tids, size_t ntids, bool enable_on_exec,
		  struct err *e);
void sampling_enable(struct sampling *s);
void sampling_disable(struct sampling *s);
/* The executable mappings a running process already has. */
int sampling_add_proc_maps(struct sampling *s, pid_t pid, struct err *e);
/* Wait up to timeout_ms for data, then read every ring buffer. */
void sampling_drain(struct sampling *s, int timeout_ms);
/* Replay the records in time order: every sample to its file and offset
 * (or to the kernel, or unmapped). */
void sampling_finish(struct sampling *s);
void sampling_close(struct sampling *s);
/* What one sample costs the sampled program here, in ns of its CPU time
 * (sample_cost.c): a spin loop on the calling thread, plain and under the
 * events sampling_open opens at up to max_hz, alternated, ~0.2 s of CPU;
 * -1 with one line in e when the events cannot be opened. */
int sample_cost_ns(double *cost, unsigned long max_hz, struct err *e);
/* The kernel's perf_event_max_sample_rate (100000 when unreadable). */
unsigned long sample_max_rate(void);
/* How much sampling at hz slows a program when one sample costs
 * per_sample_ns: s / (1 - s) for s = hz x per_sample_ns (the samples' own
 * time is sampled too); a fraction, INFINITY from s = 1. */
double sampling_slowdown(unsigned long hz, double per_sample_ns);
/* The highest rate of the ladder 4000, 2000, 1000, 500, 250, 100, 50, 25,
 * 10 Hz, at most max_hz, whose sampling_slowdown is at most budget; the
 * lowest when none is. */
unsigned default_rate(double per_sample_ns, double budget, unsigned long max_hz);
/* The running Linux kernel (running_kernel.c; kernels/ are the copy and
 * clear routines): release, build-id, _text, and its text
 * symbols from /proc/kallsyms, sorted (none when addresses are hidden). */
void running_kernel_describe(struct hot_run *h);

/* The thread ids of a process (/proc/PID/task); *out malloc'd. */
size_t process_threads(pid_t pid, pid_t **out);

/* ---- measuring placed kernels (sweep.c) ---- */

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
 * of every placement. Issue 22: `sweep clear_movq_imm --offsets 0..3`
 * stopped by precision after 50-180 rounds (0.0-0.1 s of the whole sweep)
 * and marked well-placed offsets 1.13x slow in 2 of 5 runs: a CI that
 * narrow over 25 ms of one placement is the machine's state of those 25
 * ms, not the layout's. */
#define SWEEP_MIN_ROUNDS 50
#define SWEEP_MIN_PLACE_S 0.25
/* Rounds until every floor's CI is within precision or the time is up;
 * precision is checked only past min_rounds and min_place_s. */
int sweep_run(struct sweep *s, struct err *e);
/* Summaries, ratios, slow marks, and the static prediction under `host`. */
void sweep_analyse(struct sweep *s, const struct profile *host);
void sweep_free(struct sweep *s);

/* ---- a sweep beside the model (sweep_verdict.c) ---- */

/* Does profile p predict a hazard for v's placement? (false for a kernel
 * that is not placed, or of another architecture) */
bool sweep_predicts(const struct profile *p, const struct variant *v);
/* Placements of kernel k where p's prediction matches the slow mark, of
 * *total (the held-out check of bench-calibrate). */
size_t sweep_profile_agreement(const struct sweep *s, const struct profile *p, const struct kernel *k,
		       size_t *total);
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

/* ---- two builds' routines against each other (pair.c) ---- */

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

/* ---- a function of this process's vDSO, moved (vdso_move.c) ---- */

struct vdso_move {
	struct reloc_file rf;
	const struct reloc_func *f;     /* the function, analysed */
	uintptr_t base;                 /* the vDSO's mapping (AT_SYSINFO_EHDR) */
	uint8_t *entry;                 /* the function's first byte in it */
	uint8_t saved[5];               /* what the entry jump overwrites */
	uint8_t *arena, *copy;          /* the copy's mapping ([anon:straddle-vdso]), the copy */
	size_t arena_size;
	int mem;                        /* /proc/self/mem */
};

/* The vDSO's function `func`, analysed for moving; -1 with why (none so
 * named, refused by relocate/). */
int vdso_move_open(struct vdso_move *m, const char *func, struct err *e);
/* Its copy with its entry at `offset` of a line (0..63), near the vDSO,
 * and its entry a jump there; a copy made before goes. */
int vdso_move_to(struct vdso_move *m, uint32_t offset, struct err *e);
/* The entry's own bytes back, the copy gone. */
int vdso_move_back(struct vdso_move *m, struct err *e);
void vdso_move_close(struct vdso_move *m);

/* ---- calibrate: this CPU's layout rules, measured (calibrate_run.c),
 * fitted (calibrate_fit.c), made a profile (calibrate_profile.c) ---- */

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
	/* the machine while it ran (issue 22: a busy sibling moved seed 000's
	 * line cost from 1.15x to 1.6-1.8x); false in older recordings */
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
	/* the back-end bound (model.h, struct profile): 0 none found */
	unsigned issue_width, stores_per_cycle;
	/* the least whole number the evidence allows (issue 22: a bound near
	 * its threshold is a range, "2 to 4 stores a cycle"); the bound taken
	 * is the largest of the range */
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

/* A sample lasts ~150 us: a clock that steps by more than this cannot
 * time one to 0.1%. */
#define CALIB_MAX_RESOLUTION_NS 150.0
/* 0, or -1 when this machine cannot be calibrated: an emulator, a clock
 * too coarse (one line in *e). */
int calib_check_machine(struct err *e);

/* ---- one run of a whole program (command.c), for place ---- */

/* What a run of a command gave: its CPU time (user + system, from wait4),
 * wall time, exit status, its standard output (hashed whole, the first
 * out_max bytes kept for --metric), the start and the end of its standard
 * error, and the lines a status pipe carried (the preload library's). */
struct command_run {
	double cpu_s, wall_s;
	int status;                     /* the wait status */
	uint64_t out_hash;              /* FNV-1a 64 of all of standard output */
	size_t out_len;
	char *out;                      /* the first out_max bytes, NUL-ended */
	char err_head[512];
	char err_tail[2048];            /* its last bytes, NUL-ended */
	char *report;                   /* the status pipe's lines, NUL-ended */
	size_t report_len, report_cap;
};

/* The standard input every run of a command gets, the same each time: a
 * file from its start (--stdin FILE), straddle's own standard input when
 * the user redirected it (a regular file from where it stood, anything
 * else read once into memory), or /dev/null (fd -1: "-", a terminal). */
struct command_input {
	int fd;
	off_t start;
	char what[256];                 /* "/dev/null", the file, "standard input" */
};

/* spec: NULL (straddle's own standard input unless it is a terminal), "-"
 * (/dev/null) or a file. 0, or -1 with e ("FILE: why"). */
int command_input_open(struct command_input *in, const char *spec, struct err *e);
void command_input_close(struct command_input *in);

struct command_spec {
	char **argv;                    /* run with execvp */
	char **env;                     /* NAME=VALUE strings to add, NULL-ended, or NULL */
	const char *report_env;         /* the variable that names the status pipe's fd */
	size_t out_max;
	const struct command_input *input;      /* NULL: /dev/null */
};

/* Run it once, in a process group of its own that ends with straddle
 * (PR_SET_PDEATHSIG). 0, or -1 with e (it could not be started: e names
 * the command and the reason). */
int command_run(const struct command_spec *c, struct command_run *r, struct err *e);
void command_run_free(struct command_run *r);
/* Kill the run in progress and its process group, if any (for a signal
 * handler: async-signal-safe). */
void command_kill_current(void);
/* The last n lines of its standard error, joined by " | " (into buf). */
const char *command_err_lines(const struct command_run *r, unsigned n, char *buf, size_t len);
/* The executable execvp would run for `name` (in buf, or name itself when
 * it holds a '/'), NULL when PATH has none. */
const char *command_find(const char *name, char *buf, size_t n);
/* "exit 3", "killed by SIGSEGV": a wait status in words. */
void command_status_text(int status, char *buf, size_t n);

/* ---- place's experiment (experiment.c) ---- */

/* The arms of straddle place: the program unmoved, the control (a copy at
 * the loop's own offset), a placement at an offset, or a new random layout
 * every run. */
enum place_arm_kind { PLACE_UNMOVED, PLACE_CONTROL, PLACE_OFFSET, PLACE_RANDOM, PLACE_REPLAY };

#define PLACE_MAX_ARMS 80
#define PLACE_MAX_FILES 8

struct place_arm {
	enum place_arm_kind kind;
	uint32_t offset;                /* PLACE_CONTROL, PLACE_OFFSET: of the loop in its line */
	char name[32];                  /* "unmoved", "control", "best", "12", ... */
	int plan_fd;                    /* memfd of its plan, -1 for none */
	double *v;                      /* one sample a run */
	size_t n, cap;
	/* experiment_analyse's: the mark (stats_placement_marks) and its
	 * ratio, adjusted p and slow mark again */
	struct summary sum;
	struct placement_mark mark;
	double ratio, p;
	bool slow;
	size_t npredicted;
	struct hazard predicted[8];
	double predicted_slowdown;      /* the cost model's, against the best placement; 0 none */
};

struct place_experiment {
	/* what is moved: the chosen functions of each file, and the one loop
	 * (subject) when there is one */
	struct reloc_file *rf;
	size_t nrf;
	struct reloc_place *place[PLACE_MAX_FILES];
	size_t nplace[PLACE_MAX_FILES];
	const struct reloc_func *subject;
	uint64_t loop_start, loop_end;
	uint32_t current;               /* the loop's offset today */
	uint32_t align;                 /* offsets are modulo it */
	const struct profile *profile;  /* of the predictions */
	const char *llvm_mca;           /* the back end's source (model/cost.c): NULL the newest */
	struct back_end back_end;       /* the subject loop's, found by experiment_analyse */
	/* how it runs */
	char **argv;                    /* the command */
	const char *preload;            /* libstraddle-place.so */
	unsigned runs;
	double budget_s, precision, alpha, material;
	bool wall, no_output_check, higher;
	const regex_t *metric;          /* NULL: time it */
	const char *metric_text;
	uint64_t seed, rng;
	struct place_arm arm[PLACE_MAX_ARMS];
	size_t narms;
	const struct command_input *input;      /* every run's standard input */
	/* what it saw */
	unsigned rounds, checked;
	unsigned identical;             /* output and status as unmoved (output checked) */
	unsigned same_status;           /* status as unmoved, output or not */
	unsigned no_map;                /* runs whose perf map name was another's */
	double elapsed_s;
	const char *stopped_by;         /* "runs", "time", "precision" */
	double *apply_ns;               /* the preload library's time to apply, per report */
	size_t napply, apply_cap;
	uint64_t base_hash;
	int base_status;
	/* when it failed: the arm, why, the run's status and last lines of
	 * its standard error (failed false: it did not) */
	struct place_failure {
		bool failed, has_status;
		char arm[48];
		char why[320];
		int status;
		char stderr_lines[600];
	} failure;
	int interrupted;                /* the signal that stopped it, 0 none */
	char base_note[320];            /* the unmoved program fails: how, or "" */
	/* --replay: the loop timed in the program's own state (replay.c), the
	 * arms' samples its rounds; NULL: the program's time */
	struct replay_data *replay;
};

/* An arm, unless one like it is there. -1 with e when there is no room. */
int experiment_add_arm(struct place_experiment *x, enum place_arm_kind k, uint32_t offset,
		  const char *name, struct err *e);
/* "offset 12", "control", "best (offset 0)": an arm in a message. */
const char *experiment_arm_label(const struct place_arm *a, char *buf, size_t n);
/* The model's hazards for the subject loop started at `offset`, and a
 * score ordering placements (hazards by severity, then lines and fetch
 * windows touched). */
unsigned experiment_predict(const struct place_experiment *x, uint32_t offset, struct hazard *h,
		       size_t *nh);
/* The offsets the model scores best and worst (the current one on ties). */
void experiment_best_and_worst(const struct place_experiment *x, uint32_t *best, uint32_t *worst);
/* The movable functions of each file, to be placed (after the choice of
 * functions and of the subject loop). */
void experiment_collect(struct place_experiment *x);
/* Each arm's plan, written to a memfd (a random arm's is made anew every
 * run). -1 with e. */
int experiment_make_plans(struct place_experiment *x, struct err *e);
/* Every round each arm once in a new random order, until --runs, the time
 * budget or the precision goal (x->stopped_by says which). 0; 1 when a
 * run's output or status differed from the unmoved program's; 2 when a
 * run could not be made or measured (x->failure and e say why); 3 when
 * experiment_interrupt stopped it (x->interrupted: the signal). */
int experiment_run(struct place_experiment *x, struct err *e);
/* For a signal handler: end the run in progress and the experiment after
 * it (async-signal-safe). */
void experiment_interrupt(int sig);
/* Statistics, ratios to the best arm, slow marks, predictions. */
void experiment_analyse(struct place_experiment *x);
double experiment_apply_median_us(const struct place_experiment *x);
double experiment_apply_max_us(const struct place_experiment *x);
void experiment_free(struct place_experiment *x);

/* An arm's one run: its plan applied (STRADDLE_PLAN, LD_PRELOAD; a
 * replay's STRADDLE_REPLAY), the run checked against the unmoved
 * program's, its measure added to the arm (a replay arm's: none). 0, or
 * as experiment_run. */
int experiment_run_arm(struct place_experiment *x, struct place_arm *a, struct command_run *r,
		       struct err *e);
/* On a terminal: the round, and the time left at this pace. */
void experiment_progress(const struct place_experiment *x, double t0);

/* ---- the loop replayed from the program's own state (replay.c) ----
 *
 * place --replay: the program runs with the loop's function copied as the
 * control is, and a timed copy of it at each arm's offset beside
 * (relocate/replay_plan.c); the preload library takes snapshots of the
 * registers at the loop's header and runs each at every offset in a
 * child of its own (relocate/replay.c), timing the loop to its exit.
 * The arms' rounds are groups of snapshots: each arm's cycles an
 * iteration over the group, the replays' fixed cost taken out. */
struct replay_snapshot {
	uint64_t iterations;
	uint32_t run;
	bool complete;                  /* every copy timed alike (same exit, registers) */
	bool disturbed;                 /* one replay far off its line: left out */
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
	/* asked */
	unsigned snapshots;             /* stop after this many complete ones */
	unsigned repeats;               /* timed replays of each copy a snapshot: their median */
	unsigned warm;                  /* iterations a timed child replays before its timed one */
	double tick_ns, bound_s;
	/* fitted (replay_fit) */
	double fixed[PLACE_MAX_ARMS];   /* each copy's fixed cost of a replay, ticks */
	bool fixed_known;               /* the iterations varied enough to tell it */
	size_t per_round, used;         /* most snapshots in a round; complete and undisturbed ones */
	uint64_t iter_min, iter_max;
};

/* Choose the clock: the TSC unless it is not invariant, lacks rdtscp or
 * traps (a guest whose host intercepts it: its reads measured). */
void replay_clock(struct replay_data *r);
/* A run's report lines (relocate/replay.c's) into r; run numbers the run. */
void replay_take(struct replay_data *r, const char *report, uint32_t run);
/* Runs until --runs, the time, or r->snapshots complete snapshots: 0, or
 * as experiment_run. */
int replay_run(struct place_experiment *x, struct err *e);
/* The arms' samples from the snapshots: per round of snapshots, each
 * copy's ticks less its fixed cost over the iterations. x->rounds set. */
void replay_fit(struct place_experiment *x);
void replay_free(struct replay_data *r);
/* "write", "futex" ...: an x86-64 system call's name, or NULL. */
const char *replay_syscall_name(unsigned nr);

/* ---- a hot loop's predicted cost held against its measured one (proof.c) ---- */

/* straddle prove (issue 26): a loop holding `share` of a program's samples
 * that the cost model says runs `predicted` times slower at today's
 * placement than at its best, and the program measured at both (place:
 * `program`, the best placement's time over today's, paired by round).
 * A loop slowdown R changes the program by share * (1 - 1/R), so the
 * program's ratio m gives R = 1 / (1 - (1 - m) / share); R's CI is the
 * widest the CI of m and the share's own interval give (a record of 34
 * samples knows a 70% share to +-15%). With layout controls m is the
 * best's change over their geometric mean (today's copy one of them) and
 * its CI is widened by their spread: the best is one more layout drawn.
 * The verdicts: costs (R >= 1 + material), nothing (within material
 * either way), slower at best (R <= 1 - material: the model's best
 * placement ran slower, a layout effect the model has no rule for), or
 * inconclusive (the CI holds two of them; or the program's change is more
 * than the loop's whole share, so it is not the loop's). */
enum proof_verdict { PROOF_NOTHING, PROOF_COSTS, PROOF_INCONCLUSIVE, PROOF_SLOWER_AT_BEST };

/* Layout controls: the function moved to offsets where the loop touches
 * as many windows as today (fold's and expand's best placements ran 4-8%
 * slower, a move of 3 bytes: the program is sensitive to moving its
 * function at all, and only the controls tell that from the window). */
#define PROOF_LAYOUT_MAX 2

struct loop_proof {
	double share, predicted, material, alpha;       /* in */
	double share_lo, share_hi;      /* in: the share's 95% interval (stats_share_ci), 0 0: exact */
	struct paired program;                          /* in: best / today */
	struct paired layout[PROOF_LAYOUT_MAX];         /* in: each control / today */
	size_t nlayout;
	double layout_sd;                               /* out: the controls' spread (log) */
	double window, window_lo, window_hi;            /* out: the program's change the window made */
	double loop, loop_lo, loop_hi;                  /* out: R and its CI; INFINITY beyond */
	enum proof_verdict said, seen;                  /* the model's, the measurement's */
};

void proof_judge(struct loop_proof *p);
/* How many paired rounds of place a verdict on p's loop needs, from the
 * noise of a pilot: sd, the standard deviation of its rounds' log ratios
 * (best over today), and p's layout_sd and nlayout (proof_judge of the
 * pilot): the program's change known within *need (log, its 95% CI's
 * half-width) with the controls' spread, which no round narrows, added in
 * quadrature. 0 when no number of rounds can (that spread is wider). */
unsigned proof_rounds_needed(const struct loop_proof *p, double sd, double *need);

/* One hot loop of straddle prove: what the scan said of it, and what
 * place measured (when it was measured: why not, else). */
struct loop_trial {
	char *file, *func;
	uint64_t start, end;            /* the loop's span */
	uint64_t samples, run_samples;
	uint32_t current, best;         /* its first byte's offset in its line today, the model's best */
	uint32_t layout[PROOF_LAYOUT_MAX];      /* offsets touching today's windows: the controls */
	size_t nlayout;
	struct loop_cost cost;          /* the scan's */
	float place_predicted;          /* place's own prediction for today's offset */
	struct paired control;          /* the control over the unmoved program: the copy's own cost */
	unsigned rounds;
	unsigned rounds_needed;         /* a verdict's, from the pilot's noise; 0 not known */
	char why_not[300];              /* "" measured */
	struct loop_proof proof;        /* the program's time: its change, through the share */
	/* the loop replayed (place --replay): its own cycles an iteration at
	 * the best over today's, share 1; why not ("" when replayed or not
	 * asked) */
	bool replayed;
	struct loop_proof replay;
	unsigned snapshots;             /* complete ones the replay's rounds hold */
	char replay_why[300];
};
/* "costs", "nothing", "inconclusive" */
const char *proof_verdict_name(enum proof_verdict v);

#endif
