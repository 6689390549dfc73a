/* workloads: the kernel benchmarks the seeds argue from, run on the running
 * kernel with the semantics of the suites they come from: libMicro's pread_z*
 * and read_z* (seed 000), will-it-scale's read1 (seed
 * 001) and poll2 (seed 004), the timens selftests' gettime_perf hot and
 * cold (seed 003), and seed 001's write() across an unmapped page.
 *
 * A workload fills metrics (raw samples, unit, direction) and a JSON object
 * of its settings and verdicts; `straddle bench` adds the statistics and
 * writes the result file. The details are jansson values because they are
 * free-form per workload and go nowhere but into that file. */
#ifndef STRADDLE_WORKLOADS_H
#define STRADDLE_WORKLOADS_H

#include <jansson.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "../base/base.h"
#include "../measure/clock.h"

/* Batch sizes are calibrated this many times; the median is kept. */
#define WL_CALIBRATIONS 5

/* One measured quantity and every raw sample of it, run by run. */
struct wl_metric {
	char name[96];                  /* "pread_z1k", "read1.threads.ops_per_sec.tasks=2" */
	char workload[16];
	const char *unit;               /* "ns", "ops/s", "ticks" */
	bool lower_is_better;
	bool want_mode;                 /* integer samples whose mode is reported (cold ticks) */
	double *samples;
	size_t n, cap;
	size_t *run_end;                /* run r is samples[run_end[r-1] .. run_end[r]) */
	size_t nruns, run_cap;
	/* batch-timed metrics: calls per sample, the median of the first
	 * run's calibrations, then the same in every run */
	uint64_t iters;
	uint64_t calibrations[WL_CALIBRATIONS];
};

struct wl_result {
	struct wl_metric **m;           /* each allocated alone: pointers stay valid */
	size_t n, cap;
	json_t *details;                /* per workload: settings, counts, verdicts */
	bool failed;                    /* a correctness check failed (fault-write) */
};

struct wl_options {
	double duration_s;              /* measured seconds per metric; 0: the workload's default */
	unsigned warmup;                /* will-it-scale intervals discarded before measuring */
	unsigned modes;                 /* will-it-scale: WIS_PROCESSES | WIS_THREADS; 0: both */
	const unsigned *tasks;          /* will-it-scale task counts, ascending */
	size_t ntasks;
	const char *dir;                /* where temporary files are made (unlinked at once) */
	unsigned align;                 /* user buffers start this many bytes into a page */
	volatile sig_atomic_t *stop;    /* set by a signal: end now, clean up, return -1 */
	void (*progress)(const char *what);     /* or NULL */
};

struct workload {
	const char *name;               /* "pread-zero" */
	const char *summary;            /* one line for --help */
	double default_duration_s;
	int (*run)(const struct wl_options *o, struct wl_result *r, struct err *e);
};

size_t workload_count(void);
const struct workload *workload_at(size_t i);
const struct workload *workload_named(const char *name);

/* The metric called name (made, empty, if new): --runs appends to it. */
struct wl_metric *wl_metric(struct wl_result *r, const char *workload, const char *name,
			    const char *unit, bool lower_is_better);
void wl_sample(struct wl_metric *m, double v);
/* The end of a run: every metric's samples so far belong to it. */
void wl_end_run(struct wl_result *r);
/* Run i's samples of m; returns how many. */
size_t wl_run_samples(const struct wl_metric *m, size_t i, const double **v);
void wl_result_free(struct wl_result *r);
/* The most frequent value (the smallest of equals); v is sorted in place. */
double wl_mode(double *v, size_t n);

double wl_duration(const struct wl_options *o, const struct workload *w);
bool wl_stopped(const struct wl_options *o);
void wl_progress(const struct wl_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- temporary files (tmpfile.c) ---- */

/* An unlinked regular file in dir, open read-write: O_TMPFILE where the
 * filesystem has it, else mkstemp and unlink with the terminating signals
 * blocked in between, so that no interrupt ever leaves a name behind.
 * *how (may be NULL) says which. */
int wl_tmpfile(const char *dir, const char **how, struct err *e);

/* ---- timed batches (batch.c): libMicro's way ---- */

/* One variant of a batch-timed workload: `batch` makes n calls and is
 * timed; `before` (or NULL) runs untimed ahead of each batch. */
struct wl_timed {
	void (*batch)(void *ctx, uint64_t n);
	void (*before)(void *ctx);
	void *ctx;
	struct wl_metric *m;
	uint64_t iters;                 /* calls per sample, set by the calibration */
};

/* libMicro's /dev/zero readers (zero.c): pread_z* and read_z* differ only
 * in how a batch calls and what comes before it. The fourth variant is
 * libMicro's -w: 100k, a byte stored to each page of the buffer after
 * every call (pread_zw100k, read_zw100k). */
#define ZERO_NSIZES 4

struct zero_var {
	int fd;
	char *mem;                      /* the allocation, page-aligned */
	char *buf;                      /* mem + --align */
	size_t size;
	bool touch_pages;               /* libMicro's -w */
	uint64_t errors;                /* calls that came back short */
};

/* libMicro's -w after a call: store a byte at every page-size step of the
 * buffer from its start (pread.c and read.c: j += getpagesize()). */
void zero_touch(struct zero_var *z);

struct zero_kind {
	const struct workload *workload;
	const char *names[ZERO_NSIZES];         /* the metrics, 1k, 10k, 100k, w100k */
	const char *suite, *call, *progress;
	void (*batch)(void *ctx, uint64_t n);   /* ctx: a struct zero_var */
	void (*before)(void *ctx);              /* before each batch, untimed */
	bool shared_fd;                         /* one fd for every size */
};

int zero_run(const struct zero_kind *k, const struct wl_options *o, struct wl_result *r,
	     struct err *e);

/* Pins to one CPU, sizes each variant's batch so one sample takes about
 * 1 ms (the median of WL_CALIBRATIONS calibrations, at the first run only:
 * later runs keep the metric's iters), then measures the variants in a new random order every round until
 * seconds_each * n has passed; samples are ns per call. */
int wl_measure_batches(struct wl_timed *v, size_t n, double seconds_each,
		       const struct wl_options *o, struct clock *clock, int *cpu,
		       struct err *e);

/* The calling thread's CPU affinity, kept and given back: pinning for a
 * measurement must not shrink the set later workloads spread tasks over. */
int wl_pin(cpu_set_t *saved, int *cpu, struct err *e);
void wl_unpin(const cpu_set_t *saved);

/* ---- will-it-scale's harness (scale.c) ---- */

enum { WIS_PROCESSES = 1, WIS_THREADS = 2 };

/* A test as will-it-scale defines one: per-task set-up, and a loop that
 * counts iterations until told to stop. */
struct wis_test {
	const char *name;               /* "read1" */
	size_t task_size;               /* bytes of per-task state */
	unsigned fds_per_task;          /* for RLIMIT_NOFILE */
	int (*open)(const char *dir, void *task, struct err *e);
	void (*loop)(void *task, _Atomic uint64_t *count, atomic_int *stop);
	void (*close)(void *task);
};

/* First checks that o->dir takes a temporary file (details: "tmpfile", how).
 * Processes, then threads (o->modes), at every task count of o->tasks (default 1 to
 * the number of CPUs this process may run on); task i pinned to the i-th
 * allowed CPU modulo their number; a count per task read every second
 * (or every `seconds` when shorter), the first o->warmup intervals
 * discarded. Adds NAME.MODE.ops_per_sec.tasks=T and NAME.per_process_ops,
 * NAME.per_thread_ops (the mean over task counts of ops/s per task; not
 * when the only task count is 1: that is tasks=1's metric again). */
int wis_run(const struct wis_test *t, const struct wl_options *o, double seconds,
	    struct wl_result *r, struct err *e);

/* The allowed CPUs, ascending; returns how many (at most max). */
size_t wl_cpus(int *cpus, size_t max);

/* ---- the workloads' own steps, for the tests ---- */

enum { READ1_BUFLEN = 4096, READ1_FILESIZE = 1024 * 1024 };

struct read1_task {
	int fd;
	char *buf;                      /* READ1_FILESIZE bytes, zero */
};

int read1_open(const char *dir, void *task, struct err *e);
/* One iteration of will-it-scale's read1: read(fd, buf, 4096), and at end
 * of file (a read of 0) lseek to 0. Returns what read returned. */
ssize_t read1_step(struct read1_task *t);
void read1_close(void *task);

enum { POLL2_NR_FILES = 128 };

struct poll2_task {
	int fds[POLL2_NR_FILES];
	struct pollfd pfd[POLL2_NR_FILES];      /* as the last poll left it */
};

int poll2_open(const char *dir, void *task, struct err *e);
/* One iteration of will-it-scale's poll2: the 128 pollfds made afresh
 * with POLLOUT, then poll(pfd, 128, 0). Returns what poll returned. */
int poll2_step(struct poll2_task *t);
void poll2_close(void *task);

/* Seed 001's probe: `len` bytes from `mapped` bytes before an unmapped page. */
struct fault_probe {
	const char *call;               /* "write" or "read" */
	unsigned mapped, len;
	long returned;                  /* -1 with err set */
	int err;
	bool content_ok;                /* the bytes moved are the right ones */
	bool pass;                      /* returned == mapped and content_ok */
};

/* write(fd, &buf[4096 - 66], 130) to a file and the read() counterpart,
 * where the page after buf is unmapped: both must move exactly 66 bytes
 * and leave 64. probes[0] is write, probes[1] read. */
int fault_probe_run(const char *dir, struct fault_probe probes[2], struct err *e);

extern const struct workload wl_pread_zero, wl_read_zero, wl_read1, wl_poll2, wl_gettime,
	wl_fault_write;

/* The seeds' workloads as the calls one operation of theirs makes
 * (pread_z1k, pread_z10k, pread_z100k, read1, poll2); NULL: no such. */
struct workload_shape {
	const char *name;
	uint32_t calls[25];
	size_t ncalls;
};
const struct workload_shape *workload_shape_named(const char *name);

/* diff --measure (routine_diff.c): the routines with a built-in call in
 * the old image whose loops the change moved or resized, each with its
 * counterpart in the new one (the same name, else the routine doing its
 * job), when both run; at most ROUTINE_PAIRS_MAX. */
#define ROUTINE_PAIRS_MAX 16
#define ROUTINE_DIFF_HAZARDS 8

struct elf_image;
struct profile;
struct hazard;
struct routine;

struct routine_pair {
	const char *old, *new;
};

struct routine_diff_input {
	const char *old_path, *new_path;
	const struct elf_image *old_img, *new_img;
	const struct profile *host;
	const char *host_why, *llvm_mca;
	double seconds;                 /* each pair's budget a workload */
};

size_t routine_diff_pairs(const struct routine_diff_input *in, struct routine_pair *p);
/* The calls an operation of the routine `name` makes: read_zero's for a
 * clear_user, read1's for a copy_user, a put's or get's size, else one
 * 4 KiB call; out holds 3. Their number. */
size_t routine_diff_shapes(const struct routine *rt, const char *name,
			   const struct workload_shape **out);
/* The cost model's time of the routine's loop at `offset` of a page,
 * against its best placement; its hazards in h (ROUTINE_DIFF_HAZARDS at
 * most), *nh of them. */
double routine_diff_predicted(const struct profile *p, const char *llvm_mca,
			      const struct routine *rt, uint32_t offset, struct hazard *h,
			      size_t *nh);

/* place --file vdso (vdso_place.c): an arm is the vDSO unmoved (offset
 * -1), or its function moved so that its entry is `offset` into a line;
 * each round runs bench's gettime once on every arm, in a new random
 * order (seed), for `seconds` a clock, and checks that the vDSO's clock
 * lies between two system calls'. */
#define VDSO_MAX_ARMS 66

struct vdso_arm {
	char name[16];
	int offset;                     /* -1: the vDSO unmoved */
	double hot[64], cold[64];       /* a run's median each round: ns, TSC ticks */
	size_t n;
	bool intact;
};

struct vdso_move;
/* The rounds, the vDSO's own bytes back after them: 0, or -1 with e. */
int vdso_place_rounds(struct vdso_move *m, struct vdso_arm *a, size_t n, unsigned runs,
		      double seconds, uint64_t seed, struct err *e);

#endif
