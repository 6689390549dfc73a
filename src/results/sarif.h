/* results/sarif.h: scan's and diff's rows as SARIF 2.1.0 code-scanning
 * alerts (sarif.c). */
#ifndef STRADDLE_RESULTS_SARIF_H
#define STRADDLE_RESULTS_SARIF_H

#include <jansson.h>
#include <stdio.h>

#include "../inputs/inputs.h"
#include "../model/profile.h"
#include "../model/rows.h"

/* One row of a table: a subject's hazards of one rule. */
struct sarif_result {
	enum rule rule;
	enum severity severity;         /* of the worst hazard of the row */
	const char *message;
	/* the source file (relative to the source root when `relative`), else
	 * the ELF file; line 0 when there is no DWARF line, and then the
	 * region is the subject's bytes in the ELF file when `in_file` */
	const char *uri;
	bool relative;
	int line;
	bool in_file;
	uint64_t byte_offset, byte_length;
	/* the ELF file and the operand it came from (inputs.h): a merge's
	 * order of shards' results */
	const char *file;
	size_t input;
	const char *function, *section;
	uint64_t address, bytes;
	const char *profiles;           /* "skylake,zen5" */
	const unsigned *windows;
	size_t nwindows;
	const char *placement, *fix;
	const char *compiler_fix;       /* NULL or "" when none is known */
	const char *cause;              /* diff: why it is new; NULL for scan */
	/* the cost model's slowdown of the row's costliest hazard, 0 when not
	 * priced; at_most: an upper bound (loop not simulated) */
	double slowdown;
	bool slowdown_at_most;
	/* partialFingerprints: the rule, the function and the loop's shape,
	 * not its address, so an alert is the same alert after a relink */
	uint64_t fingerprint;
};

/* A log of one run, made in memory: source_root the SRCROOT base of
 * relative URIs (or NULL); the command line as the invocation's
 * arguments, the profiles and a shard's place (or NULL) in the run's
 * properties, for a merge to check. */
struct sarif_head {
	const char *source_root;
	int argc;
	char **argv;
	const struct profile *const *profiles;
	size_t nprofiles;
	const struct shard_info *shard;
};
struct sarif_log;
struct sarif_log *sarif_new(const struct sarif_head *h);
void sarif_add(struct sarif_log *log, const struct sarif_result *r);
/* The results added so far; the first n kept, the rest dropped (scan: a
 * file that changed while it was read has no rows). */
size_t sarif_count(const struct sarif_log *log);
void sarif_truncate(struct sarif_log *log, size_t n);
/* A file that could not be scanned (of operand `input`; diff: of the pair
 * of `member`, else NULL): a tool execution notification. */
void sarif_notify(struct sarif_log *log, const char *path, size_t input, const char *member,
		  const char *text);
/* Writes the log whole and frees it; 0, or -1 when f could not take it. */
int sarif_write(struct sarif_log *log, FILE *f, bool success);
/* A log's bytes, as sarif_write and a merge (merge.c) write them. */
int sarif_dump(const json_t *doc, FILE *f);

/* ---- a row of scan or diff as a result (sarif_row.c) ---- */

/* Which of the file's functions of one name (by_name, over funcs.v) and
 * of reported fde@ functions of one shape (by_shape, over func[]) each
 * is, in address order: the fingerprint tells them apart. */
struct sarif_ordinals {
	uint32_t *by_name, *by_shape;
};

void sarif_ordinals(const struct scan_result *r, struct sarif_ordinals *o);
void sarif_ordinals_free(struct sarif_ordinals *o);

/* A row of scan or diff: a subject's hazards h[0..n) of one rule. */
struct sarif_row {
	struct elf_image *img;
	const struct scan_result *r;
	const struct func_report *func;
	const struct loop_report *loop;         /* NULL: the function's entry */
	const struct hazard *const *h;
	size_t n;
	const char *cause;                      /* diff: "changed", "moved", "new"; scan NULL */
	const char *source_root;                /* --source-root, or NULL */
	bool lines;                             /* look the source line up (not --no-source) */
	const struct sarif_ordinals *ord;       /* of r */
	size_t input;                           /* the operand img came from (inputs.h) */
};

void sarif_add_row(struct sarif_log *log, const struct sarif_row *s);

/* Every row of a scan (no limit: an alert list is whole), and the gained
 * hazards' rows of a diff (of its new side, img and r), into the log. */
struct sarif_rows {
	double min_share;                       /* --hot's folding */
	const char *source_root;
	bool lines;
	size_t input;
};
void sarif_add_scan(struct sarif_log *log, struct elf_image *img, const struct scan_result *r,
		    const struct sarif_rows *o);
void sarif_add_diff(struct sarif_log *log, struct elf_image *img, const struct scan_result *r,
		    const struct layout_diff *d, const struct sarif_rows *o);


#endif
