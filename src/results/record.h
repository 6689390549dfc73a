/* results/record.h: record's document, written, read back for scan --hot
 * and for the page (record.c), and perf script's text read the same
 * way (perfscript.c). */
#ifndef STRADDLE_RESULTS_RECORD_H
#define STRADDLE_RESULTS_RECORD_H

#include <jansson.h>

#include "scan.h"
#include "../measure/sample.h"
#include "../model/hot.h"

/* The whole record document: the sampling's event and counts, the run,
 * the files (results_record_add_file's, in its order) and the kernel
 * (results_record_set_kernel's, or none), both taken; the notes the
 * event's, the kernel's and `few` (each when set), and that kernel
 * symbols were hidden. */
struct record_doc {
	int argc;
	char **argv;                    /* straddle's own */
	const struct sampling *s;
	unsigned long hz;
	bool hz_auto;                   /* chosen, not given with -F */
	double sample_cost_ns;          /* < 0: not measured */
	int exit_status;                /* the program's */
	uint64_t outside;               /* samples in a file but outside its segments */
	json_t *files, *kernel;         /* NULL until added, then results_record's */
	bool ksyms_hidden;
	const char *few;                /* a note on too few samples, or "" */
};
/* A record's sampled file, appended to d->files: its samples per
 * function and loop of the scan r (NULL when the file could not be
 * scanned: error says why) and every sampled address. */
void results_record_add_file(struct record_doc *d, const struct hot_file *f,
			     struct scan_result *r, const char *error);
/* The kernel's part: its release, build id, text, functions and addresses. */
void results_record_set_kernel(struct record_doc *d, const struct hot_run *h);
json_t *results_record(const struct record_doc *d);
/* Read a record back for scan --hot: 0, or -1 with one line in e. */
int results_read_record(const char *path, struct hot_run *h, struct err *e);
/* A record document read back whole for the page (strings borrowed from
 * it, NULL where it has none; numbers 0): each file's loops and functions
 * in the file's order (most samples first, as results_record_add_file wrote
 * them), each loop's hazards as the record's scan saw them. */
struct record_hazard_read {
	const char *rule, *profile;
	long long window;
	struct hazard h;                /* for its fix; a rule not known: zero */
};

struct record_loop_read {
	const char *function, *start, *end;
	uint64_t bytes;                 /* end - start */
	long long depth, samples;
	struct record_hazard_read *hazard;
	size_t nhazard;
};

struct record_function_read {
	const char *name, *addr;
	long long samples;
};

struct record_file_read {
	const char *path, *build_id, *error;
	bool has_error;                 /* "error" present (a string or not) */
	long long samples;
	struct record_loop_read *loop;
	size_t nloop;
	struct record_function_read *function;
	size_t nfunction;
};

struct record_read {
	const char *event;
	bool has_frequency, has_exit_status, has_sample_cost;
	long long frequency, exit_status;
	double sample_cost_ns;
	long long total, user, kernel, unmapped, lost;     /* "samples" */
	const char **note;
	size_t nnote;
	struct record_file_read *file;
	size_t nfile;
	struct record_function_read *kernel_function;
	size_t nkernel_function;
	struct profile_names names;
};

void results_record_read(const json_t *doc, struct record_read *r);
/* A record file read so, its document kept in *doc (r points into it;
 * json_decref it after results_record_read_free). 0, or -1 with e. */
int results_record_load(const char *path, struct record_read *r, json_t **doc, struct err *e);
void results_record_read_free(struct record_read *r);
/* The text of `perf script -F ip,dso,sym` or its default output
 * (perfscript.c): samples by file, runtime addresses turned into the
 * files' own through each file's load bias; kernel samples by symbol. */
int results_read_perf_script(const char *path, struct hot_run *h, struct err *e);

#endif
