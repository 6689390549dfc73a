/* results/metrics.h: a result file of metrics (bench, sweep, place) read
 * back with every raw sample, run by run; a directory as one side of
 * several files (read.c). */
#ifndef STRADDLE_RESULTS_METRICS_H
#define STRADDLE_RESULTS_METRICS_H

#include <jansson.h>

#include "../base/base.h"

/* A result file read back (read.c): its metrics with their raw samples,
 * run by run (a sweep is one run). */
struct metric_run {
	double *v;
	size_t n;
	size_t file;                    /* the invocation: which of a side's files, from 0 */
};

struct metric {
	char *name, *unit;
	bool lower_is_better;
	char *kernel;                   /* sweep: the kernel placed; else NULL */
	struct metric_run *runs;
	size_t nruns;
};

struct result_file {
	char *path;
	json_t *doc;                    /* the (first) file's document */
	json_t *more;                   /* a directory's other documents */
	const char *command;            /* "bench" or "sweep" (in doc) */
	json_t *machine;                /* borrowed from doc, may be NULL */
	json_t *states;                 /* one machine state per run, null where none */
	struct metric *m;
	size_t n;
	size_t nfiles;                  /* 1, or a directory's result files */
};

/* A file, or a directory whose *.json files are one side (their runs
 * pooled in name order). 0, or -1 with one line, naming the file, saying
 * what is wrong with it. */
int results_read(const char *path, struct result_file *r, struct err *e);
/* The same of one file's document that results_open opened as a bench,
 * sweep or place result (doc: the caller's, r holds a reference of its
 * own); results_file_free(r) also on error. */
int results_file_of(const char *path, json_t *doc, struct result_file *r, struct err *e);
void results_file_free(struct result_file *r);
const struct metric *results_metric(const struct result_file *r, const char *name);
/* m of base in r: the metric of that name, or for a kernel that base and r
 * each placed at one offset only, r's placement of it. */
const struct metric *results_counterpart(const struct result_file *base, const struct metric *m,
					 const struct result_file *r);

#endif
