/* results/kinds.h: the kinds of result file, one table (kinds.c), and
 * a result file opened: read, parsed and its head checked once. */
#ifndef STRADDLE_RESULTS_KINDS_H
#define STRADDLE_RESULTS_KINDS_H

#include <jansson.h>

#include "../base/base.h"

/* The kinds of result file (kinds.c): one table for report and compare,
 * in the order their lists name them. */
enum result_kind {
	RESULT_SCAN, RESULT_DIFF, RESULT_RECORD, RESULT_BENCH, RESULT_SWEEP, RESULT_PLACE,
	RESULT_AB, RESULT_PROVE, RESULT_CALIBRATE, RESULT_COMPARE, RESULT_KINDS
};

struct result_kind_info {
	const char *command;            /* the document's "command" */
	const char *needs;              /* a field a document of the kind has, or NULL */
	bool metrics;                   /* metrics with runs of samples: results_read, compare */
	const char *noun;               /* what a reader of this kind alone calls its file */
};

/* What a reader takes: a mask of 1 << enum result_kind. */
#define RESULT_ANY ((1u << RESULT_KINDS) - 1)
#define RESULT_METRICS                                                                    \
	((1u << RESULT_BENCH) | (1u << RESULT_SWEEP) | (1u << RESULT_PLACE) | (1u << RESULT_AB))

const struct result_kind_info *result_kind(enum result_kind k);
/* The kind of a document's "command", -1 for none of them. */
int result_kind_of(const char *command);
/* The kinds of `want` in their order: "bench, sweep, place and ab" (last:
 * the word before the last, "and" or "or"). */
void result_kind_list(unsigned want, const char *last, char *buf, size_t n);
/* A result file opened, the one way every reader opens one: read whole
 * (at most INPUT_LIMIT bytes), parsed with duplicate keys refused, its
 * head checked: "schema" 1, a "command" of the kinds of `want`, and the
 * field its kind cannot lack. The document, with *kind its kind (kind may
 * be NULL), or NULL with one line naming the file in e. */
json_t *results_open(const char *path, unsigned want, int *kind, struct err *e);

#endif
