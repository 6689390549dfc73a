/* results/kernels.h: kernels --json (kernels.c). */
#ifndef STRADDLE_RESULTS_KERNELS_H
#define STRADDLE_RESULTS_KERNELS_H

#include <jansson.h>

#include "../kernels/kernels.h"

/* Every built-in kernel with the features it needs (have: this CPU's
 * KFEAT_*, for what it lacks), and --check's counts unless check is NULL. */
json_t *results_kernels(unsigned have, const struct kernels_check_result *check);
/* kernels --file VMLINUX --func NAME --json: the routine as it is run
 * (relocate.h's kroutine: edits, exception table, loops, alternatives;
 * offsets from its copy's first byte), and --check's counts. */
json_t *results_routine(const struct routine *rt, const struct kernels_check_result *check);

#endif
