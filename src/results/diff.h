/* results/diff.h: diff's document, written as it is made (diff.c) and
 * read back into a layout_diff (diff_read.c). */
#ifndef STRADDLE_RESULTS_DIFF_H
#define STRADDLE_RESULTS_DIFF_H

#include "json.h"
#include "scan.h"
#include "../model/diff.h"

/* One side: its image (not const: source lines are read from its DWARF
 * when asked) and its scan. */
struct diff_image {
	struct elf_image *img;
	const struct scan_result *r;
};

/* diff's gate: the rules (1 << enum rule) and causes (1 << enum
 * diff_cause) it fails on, whether it fails, and the exit status saying so. */
struct diff_gate {
	unsigned fail_rules, fail_causes;
	bool fails;
	int exit_status;
};

/* The head of diff's document: results_run_info with the gate. */
json_t *results_diff_head(int argc, char **argv, const struct diff_gate *g);
/* Written to f as it is made, after the fields of `head` (stolen:
 * results_diff_head); 0, or -1 when a write failed.
 * With samples (diff --hot: new->r->hot) each change has its "samples",
 * and those with less than min_share of the run's are left out, counted in
 * the summary's "folded", as the text and markdown fold them. */
int results_diff(FILE *f, json_t *head, const struct diff_image *old,
		 const struct diff_image *new, const struct layout_diff *d, bool source_lines,
		 double min_share);

/* The diff of two directories or packages, a pair per file matched by
 * its path inside them (inputs.h), written as it is made: the head
 * (results_run_info with the profiles, the operands and a shard's
 * place), "pairs" (each a member's, with the fields of results_diff's
 * document after its head), "only_old" and "only_new" (the members on
 * one side only), "errors" (member, path, error), "summary" (the pairs'
 * summed: results_diff_sum) and "gate" (results_diff_gate). */
struct diff_doc {
	struct json_stream out;
	json_t *only_old, *only_new, *errors, *summary;
};
json_t *results_diff_many_head(int argc, char **argv, const char *old, const char *new,
				const struct profile *const *profiles, size_t n,
				const struct shard_info *shard);
void results_diff_begin(struct diff_doc *d, FILE *f, json_t *head);
void results_diff_pair(struct diff_doc *d, const char *member, const struct diff_image *old,
		       const struct diff_image *new, const struct layout_diff *ld, bool source_lines,
		       double min_share);
void results_diff_only(struct diff_doc *d, bool in_new, const char *member);
void results_diff_error(struct diff_doc *d, const char *member, const char *path,
			const char *error);
/* The tail; 0, or -1 when a write failed. */
int results_diff_end(struct diff_doc *d, const struct diff_gate *g);
/* Adds summary `part`'s counts into `total` (objects within, summed the
 * same; what is no count, the first one's): the pairs' summary, written
 * and merged by this one sum. */
void results_diff_sum(json_t *total, const json_t *part);
json_t *results_diff_gate(const struct diff_gate *g);

/* The gate as diff's exit status gave it, and what it was asked to fail on. */
struct diff_read_gate {
	bool known;                     /* the document has it */
	bool fails;
	int exit_status;
	unsigned rules, causes;         /* 1 << enum rule, 1 << enum diff_cause */
};

/* Two functions matched under different names. */
struct diff_read_rename {
	const char *old, *new, *by;
};

/* A diff document: the changes of layout_diff over two scan_results that
 * hold only what the changes name; d's counts are the summary's. */
struct diff_read {
	const char *old_path, *new_path;
	struct scan_result old, new;
	struct layout_diff d;
	struct diff_read_gate gate;
	struct diff_read_rename *renamed;
	size_t nrenamed;
	const char **source;            /* [k]: the source line of d.v[k], NULL none */
	double min_share;
	/* --hot: the rows under min_share the document leaves out */
	size_t folded_new_rows, folded_fixed_rows;
	struct profile_names names;
	/* two directories or packages (results_diff_begin's document): this
	 * holds the run's summary and gate, each pair its own diff (member
	 * its path inside, no gate of its own), and the members on one side */
	bool of_pairs;
	struct diff_read *pair;
	const char **member;
	size_t npair;
	const char **only[2];           /* old's, new's */
	size_t nonly[2];
	struct scan_read_error *errors; /* path, error */
	size_t nerrors;
};

void results_read_diff(const json_t *doc, struct diff_read *out);
void results_diff_read_free(struct diff_read *r);

#endif
