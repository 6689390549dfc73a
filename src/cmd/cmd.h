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

#include <stddef.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <unistd.h>      /* optind, after parse_command_line */

extern const struct command scan_command, diff_command, kernels_command, sweep_command,
	bench_command, compare_command, uarch_command, record_command, calibrate_command,
	report_command, place_command, prove_command, merge_command, ab_command;

/* --hot RECORD or --perf-script FILE (hot.c): *h empty when neither is
 * given; -1 after one line when the file is bad or both are given. */
int hot_load(const char *record, const char *perf_script, struct hot_run *h);
/* The samples of h in the loops and functions of img's scan r. */
void hot_attribute_image(const struct hot_run *h, struct elf_image *img, struct scan_result *r);

/* libstraddle-place.so (place.c, also ab's): $STRADDLE_PRELOAD, else
 * beside straddle or in ../libexec/straddle; NULL when it is nowhere. */
const char *find_preload(void);

/* A result document to path ("-": standard output), whole or not at all
 * (results_write), and freed; 0, or -1 after one line naming the file
 * (or "stdout"). Every command's -o and --json write through it. */
struct json_t;                  /* jansson's json_t */
int write_result(struct json_t *doc, const char *path);

/* straddle running its own commands (self.c): v[0] this binary
 * (/proc/self/exe), v[1] the command, then words added one by one,
 * NULL-ended. */
struct self_cmd {
	char **v;
	size_t n, cap;
};
/* -1 after one line when this binary cannot be found. */
int self_begin(struct self_cmd *c, const char *command);
void self_arg(struct self_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void self_free(struct self_cmd *c);
/* Run it, standard input /dev/null, standard output to `out` (a
 * descriptor, SPAWN_NULL, SPAWN_OURS, or SELF_DRAIN: a pipe read to its
 * end), the child spawn_signal forwards to; its standard error ours, or
 * with err_line kept and its first line returned there. Its wait status,
 * or -1 with e when it could not be run. */
#define SELF_DRAIN (-3)
int self_run(const struct self_cmd *c, int out, char *err_line, size_t n, struct err *e);

/* --file VMLINUX --func NAME [--call SPEC] [--loop ADDR] [--alternative
 * FEATURE]... (routine.c): a kernel image's routine, for sweep and
 * kernels. ROUTINE_OPTIONS(F, set_alternative) lays the options down in a
 * command's table (F: its offsetof of a field; set_alternative: its
 * OPT_CALL passing its struct routine_args to routine_args_alternative). */
#define ROUTINE_MAX_ALTERNATIVES 8

struct routine_args {
	const char *file, *func, *call, *loop;
	const char *alternative[ROUTINE_MAX_ALTERNATIVES];
	size_t nalternatives;
};

#define ROUTINE_OPTIONS(F, set_alternative) \
	{ .name = "file", .value = "VMLINUX", .kind = OPT_STRING, .field = F(ra.file), \
	  .help = "a kernel image (the -dbg package's vmlinux): run its\n" \
		  "own routine --func instead of a built-in kernel" }, \
	{ .name = "func", .value = "NAME", .kind = OPT_STRING, .field = F(ra.func), \
	  .help = "the routine of --file (clear_user_original,\n" \
		  "rep_movs_alternative, __put_user_2, ...)" }, \
	{ .name = "call", .value = "SPEC", .kind = OPT_STRING, .field = F(ra.call), \
	  .help = "its registers when it has no built-in call:\n" \
		  "KIND,dst=REG,src=REG,len=REG,ret=REG,REG=N,...\n" \
		  "(KIND: clear, copy, put1|2|4|8, get1|2|4|8, csum)" }, \
	{ .name = "loop", .value = "ADDR", .kind = OPT_STRING, .field = F(ra.loop), \
	  .help = "its hot loop: an address in it (0x... of the file,\n" \
		  "+OFF from the entry); default the innermost loop\n" \
		  "of the most bytes" }, \
	{ .name = "alternative", .value = "FEATURE", .kind = OPT_CALL, .call = set_alternative, \
	  .help = "apply the .altinstructions entries of FEATURE\n" \
		  "(ERMS, FSRM, REP_GOOD, !FEATURE for ALT_NOT ones,\n" \
		  "WORD*32+BIT); default the file's bytes" }


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

struct routine;
int routine_args_alternative(struct routine_args *a, const char *opt, const char *value);
/* The routine the arguments name: 1 with *out, 0 when no --file was
 * given (and no --func either), -1 after one line (no symbols, no such
 * routine, refused, no call known). label: its name in tables, or NULL. */
int routine_args_open(const struct routine_args *a, const char *label, struct routine **out);

#endif
