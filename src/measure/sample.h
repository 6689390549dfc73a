/* measure/sample.h: sampling instruction pointers with perf_event_open
 * (sample.c), what a sample costs (sample_cost.c), and the running Linux
 * kernel a record names (running_kernel.c). */
#ifndef STRADDLE_MEASURE_SAMPLE_H
#define STRADDLE_MEASURE_SAMPLE_H

#include <sys/types.h>

#include "../base/base.h"
#include "../model/hot.h"

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

/* A sampled file as a record keeps it: opened into img (elf_close it
 * after r, whose names are its, also on error), its samples at the ELF's
 * virtual addresses in hf (those no PT_LOAD maps counted in *outside;
 * hf->addrs malloc'd), scanned with o into r. A file replaced since it
 * was mapped, or changed while read, is not scanned: -1 with why. The
 * vDSO is this kernel's, as the program's was. */
int sampled_file_scan(const struct sampled_file *sf, const struct scan_opts *o,
		      struct elf_image *img, struct hot_file *hf, struct scan_result *r,
		      uint64_t *outside, struct err *e);
/* The sampling's kernel samples as a run's: the running kernel described,
 * its samples attributed to its symbols (h->kernel.addrs is still s's). */
void sampled_kernel(const struct sampling *s, struct hot_run *h);

/* The thread ids of a process (/proc/PID/task); *out malloc'd. */
size_t process_threads(pid_t pid, pid_t **out);

#endif
