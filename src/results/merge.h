/* results/merge.h: the documents of a run's shards joined into the
 * run's (merge.c). */
#ifndef STRADDLE_RESULTS_MERGE_H
#define STRADDLE_RESULTS_MERGE_H

#include <stdio.h>

#include "../base/base.h"

/* The documents of one run's shards (scan --json, diff --json of two
 * directories or packages, or either's SARIF), read and checked: one
 * kind, one straddle version, one set of profiles, one command line but
 * for --shard, every shard of the run once, none cut short. NULL with
 * one line in e (naming the file) when they are not. */
struct merge;
struct merge *results_merge_open(char *const *paths, size_t n, struct err *e);
/* The run's document to f, as the run unsharded writes it (its time and
 * machine the first shard's); 0, or -1 when a write failed. For
 * write_atomic. */
int results_merge_write(FILE *f, void *merge);
void results_merge_free(struct merge *m);

#endif
