/* results/scan.h: scan's document: hazards, loops and functions written
 * (writer.c) in a document streamed as it is made (json.c), and read
 * back into the structs the scan made (scan_read.c). */
#ifndef STRADDLE_RESULTS_SCAN_H
#define STRADDLE_RESULTS_SCAN_H

#include "json.h"
#include "../inputs/inputs.h"
#include "../model/scan.h"

/* Hazards, loops and functions as scan and diff write them. h: pointers,
 * else v: an array. */
void results_write_hazard(struct jw *w, const char *key, const struct hazard *h);
void results_write_hazards(struct jw *w, const char *key, const struct hazard *const *h,
			   const struct hazard *v, size_t n);
void results_write_loop(struct jw *w, const char *key, struct elf_image *img,
			const struct scan_result *r, const struct loop_report *l, bool lines);
void results_write_function(struct jw *w, struct elf_image *img, const struct scan_result *r,
			    const struct func_report *fr, bool lines);

/* One scanned file of `straddle scan --json`, as an element of the
 * enclosing array: path, arch, type, counts, then its functions with their
 * loops, windows, hazards and fixes, and irreducible cycles. */
void results_scan_file(struct json_stream *s, struct elf_image *img,
		       const struct scan_result *r, bool source_lines, size_t input);

/* A shard's place in its run (inputs.h): {"index","count","units","units_total"}. */
json_t *results_shard(const struct shard_info *s);

/* `straddle scan --json`'s document, written as it is made: the head,
 * "files" (results_scan_file's, into out) and "errors" (one per file that
 * could not be scanned). */
struct scan_doc {
	struct json_stream out;
	json_t *errors;
};
/* The head: results_run_info, the profiles applied, the host line (NULL
 * or "": none) and, with samples (hot), min_share: what the text folds,
 * so the page folds the same rows. */
struct scan_head {
	int argc;
	char **argv;
	const struct profile *const *profiles;
	size_t nprofiles;
	const char *host;
	bool hot;
	double min_share;
	const struct shard_info *shard; /* --shard: its place, NULL none */
};
/* The head and the opening of "files". */
void results_scan_begin(struct scan_doc *d, FILE *f, const struct scan_head *h);
void results_scan_error(struct scan_doc *d, const char *path, size_t input, const char *error);
/* "errors" and the end of the document; 0, or -1 when a write failed. */
int results_scan_end(struct scan_doc *d);

/* A hazard as JSON: profile, rule, window, certainty, placements, fix. */
json_t *results_hazard(const struct hazard *h);

/* --min-share's default: scan --hot and diff --hot fold rows in code with
 * less of the run's samples than this; the page, when the document does
 * not say. */
#define SCAN_MIN_SHARE 0.005

/* The profiles a document names, each once (name borrowed from it). */
struct profile_names {
	struct profile **v;
	size_t n, cap;
};

const struct profile *results_named_profile(struct profile_names *p, const char *name);
void results_profile_names_free(struct profile_names *p);
/* "0x..." (jw_hex) as a number, 0 when absent. */
uint64_t results_addr(const json_t *o, const char *key);
/* A hazard and a loop as results_write_hazard and _loop wrote them (into
 * r's hazard and piece arrays, which must have room). A hazard of a rule
 * straddle does not know is none: false (the loop leaves it out). */
bool results_read_hazard(const json_t *j, struct profile_names *names, struct hazard *h);
void results_read_loop(const json_t *j, struct profile_names *names, struct scan_result *r,
		       struct loop_report *l);

/* One file of a scan document: its scan_result as the scan made it (its
 * funcs.v the functions reported, sections unknown), the loops' source
 * lines. Strings are borrowed from the document. */
struct scan_read_file {
	const char *path, *arch, *elf_type;
	size_t functions_total;
	struct scan_result r;
	const char **loop_source;       /* [i] of r.loop[i], NULL none */
};

/* A file scan could not scan, and why. */
struct scan_read_error {
	const char *path, *error;
};

struct scan_read {
	struct scan_read_file *file;
	size_t nfile;
	struct scan_read_error *error;
	size_t nerror;
	const char *host;               /* how "host" was resolved, NULL */
	double min_share;               /* the document's, else SCAN_MIN_SHARE */
	struct profile_names names;
};

void results_read_scan(const json_t *doc, struct scan_read *out);
void results_scan_read_free(struct scan_read *s);

#endif
