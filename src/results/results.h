/* results: JSON documents (jansson) for machines, and writing them
 * atomically: a temporary name beside the target, then rename, so a reader
 * never sees half a file (DESIGN, Result files). */
#ifndef STRADDLE_RESULTS_H
#define STRADDLE_RESULTS_H

#include <jansson.h>
#include <stdio.h>

#include "../base/base.h"
#include "../model/model.h"

/* {"schema":1,"command":name,"tool_version":...}: the head of every document. */
json_t *results_new(const char *command);

/* One scanned file of `straddle scan --json`: path, arch, type, functions
 * with their loops, windows, hazards and fixes, irreducible cycles. */
json_t *results_scan_file(struct elf_image *img, const struct scan_result *r,
			  bool source_lines);

/* A hazard as JSON: profile, rule, window, certainty, placements, fix. */
json_t *results_hazard(const struct hazard *h);

/* Write `doc` to stdout ("-") or atomically to path. */
int results_write(json_t *doc, const char *path, struct err *e);

#endif
