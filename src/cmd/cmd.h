/* cmd: one file per command. Each takes its options (options/), prepares,
 * calls the layers once and renders (report/). */
#ifndef STRADDLE_CMD_H
#define STRADDLE_CMD_H

#include "../base/base.h"
#include "../model/profile.h"
#include "../model/scan.h"
#include "../model/hot.h"
#include "../inputs/inputs.h"
#include "../stats/stats.h"
#include "../options/options.h"
#include "../self/self.h"

#include <stddef.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <unistd.h>      /* optind, after parse_command_line */

extern const struct command scan_command, diff_command, kernels_command, sweep_command,
	bench_command, compare_command, uarch_command, record_command, calibrate_command,
	report_command, place_command, prove_command, merge_command, ab_command;

/* libstraddle-place.so (place.c, also ab's): $STRADDLE_PRELOAD, else
 * beside straddle or in ../libexec/straddle; NULL when it is nowhere. */
const char *find_preload(void);



/* diff --measure (diff_measure.c): each routine routine_diff_pairs
 * chooses, each build's own bytes run at each build's placement, new
 * against old (and old against itself), beside the cost model's
 * prediction. */
struct routine_diff_input;
int diff_measure(const struct routine_diff_input *in);

/* straddle place --file vdso (place_vdso.c): a function of straddle's own
 * vDSO moved, bench's gettime measured against each placement. */
bool place_vdso_asked(int argc, char **argv);
int place_vdso(int argc, char **argv);

/* straddle place --replay (place_replay.c): why the loop was not
 * replayed, said on standard error and kept for the file (true: nothing
 * to show). */
struct place_experiment;
bool place_replay_refused(struct place_experiment *x);
/* After the fit: no round of snapshots to judge by, said and kept (true). */
bool place_replay_unmeasured(struct place_experiment *x);

#endif
