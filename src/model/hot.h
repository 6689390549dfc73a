/* model/hot.h: hot code: where the samples of a run fall (hot.c). */
#ifndef STRADDLE_MODEL_HOT_H
#define STRADDLE_MODEL_HOT_H

#include "scan.h"

/* A histogram: keys (file offsets, addresses) and how often each was hit. */
struct sample_count {
	uint64_t key;
	uint64_t count;
};

struct sample_hist {
	struct sample_count *v;
	size_t n, cap;
};

/* Sort by key and fold equal keys into one entry. */
void sample_hist_merge(struct sample_hist *h);
/* Samples with a key in [start, end) of a merged histogram. */
uint64_t sample_hist_sum(const struct sample_hist *h, uint64_t start, uint64_t end);

/* The samples of a run that fell in one file, by the file's own virtual
 * addresses (or, for the kernel, the running kernel's addresses). */
struct hot_file {
	char *path;                     /* "[vdso]", "[kernel]" or a path */
	char build_id[130];             /* hex, "" unknown */
	struct sample_hist addrs;
	uint64_t samples;
};

/* A kernel function named by /proc/kallsyms (or by perf script). */
struct hot_ksym {
	char *name;
	uint64_t addr;                  /* runtime address */
	uint64_t samples;
};

/* Everything scan --hot and diff --hot need of a record. */
struct hot_run {
	char *source;                   /* the record or perf script file */
	uint64_t total;                 /* every sample, user and kernel */
	struct hot_file *file;
	size_t nfile, file_cap;
	/* kernel samples: runtime addresses, and what maps them */
	struct hot_file kernel;
	uint64_t kernel_text;           /* runtime address of _text, 0 unknown */
	char kernel_build_id[130];
	char kernel_release[128];
	struct hot_ksym *ksym;
	size_t nksym, ksym_cap;
};

struct hot_file *hot_run_file(struct hot_run *h, const char *path);  /* added if missing */
/* The samples of a file: by build-id when both know it, else by path,
 * else by file name when only one file has it (a record or perf script
 * text from another machine, where the paths differ). */
const struct hot_file *hot_run_find(const struct hot_run *h, const char *path,
				    const char *build_id);
void hot_run_free(struct hot_run *h);

/* The samples of f (NULL: none) in every loop of a scan (its whole span,
 * nested loops included) and every reported function, of run_samples. */
void hot_attribute(struct scan_result *r, const struct hot_file *f, uint64_t run_samples);
/* A loop's or function's share of the run's samples, 0 to 1. */
double hot_share(const struct scan_result *r, uint64_t samples);

/* A loop's own samples: those of its span less those of the loops of
 * its function whose spans lie inside it (self[i] for r->loop[i]); and per
 * function (outside[f] for r->func[f]) the samples in no loop of it. Each
 * sample of the file is then counted once (scan --hot's summary). */
void hot_loop_self(const struct scan_result *r, uint64_t *self, uint64_t *outside);
/* The share of the run aligning the loop would save: its share less that
 * share over its predicted slowdown (0 when not priced). */
double hot_saves(const struct scan_result *r, const struct loop_report *l);

/* The kernel's samples of h as addresses of its image, whose _text is at
 * image_text: the running kernel's _text (KASLR) moved to it. out->path is
 * image (borrowed); free out->addrs.v after use. */
void hot_kernel_rebased(const struct hot_run *h, const char *image, uint64_t image_text,
			struct hot_file *out);

/* Kernel samples to the kernel symbols (sorted by address) they fall
 * in: each symbol's samples; those before the first symbol count nowhere. */
void hot_attribute_ksyms(struct hot_run *h);

/* The order of scan --hot and diff --hot: the larger share of samples
 * first, then the higher severity; 0 when both are equal. */
int hot_order(double share_x, unsigned severity_x, double share_y, unsigned severity_y);

/* The files h has samples of, the hottest first, as scan takes them
 * ("vdso" for the vDSO): *n of them, the array malloc'd (scan --hot with
 * no FILE; the kernel comes after them). */
const char **hot_run_files(const struct hot_run *h, int *n);

#endif
