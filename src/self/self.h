/* self: straddle running its own commands as children, this binary with a
 * command line built word by word (self.c); bench --invocations, bench
 * run N times as a user would run it, into a directory of result files
 * with the band they drifted by (invocations.c); and prove's steps, the
 * program recorded and each hot loop placed (prove.c). */
#ifndef STRADDLE_SELF_H
#define STRADDLE_SELF_H

#include "../base/base.h"
#include "../measure/proof.h"
#include "../options/options.h"
#include "../workloads/workloads.h"

#include <limits.h>

#include <stdbool.h>
#include <stddef.h>

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

/* bench --invocations N [--versus OPTS] -o DIR: the workloads and
 * settings bench parsed, each child given them as options. */
struct bench_invocations {
	const struct workload *const *sel;
	size_t nsel;
	const struct wl_options *o;
	unsigned runs;
	unsigned invocations;           /* 0, or 2 and more children */
	const char *versus;             /* side B's added options, or NULL */
	const char *out;                /* -o: the directory made */
	bool progress;                  /* a line on standard error */
};
/* --invocations needs -o DIR, new; --versus needs --invocations and
 * leaves -o and the invocations to bench: -1 after one line. */
int bench_invocations_check(const struct bench_invocations *b);
/* The children one after the other, DIR whole or not at all: the exit
 * status (EXIT_GATE when an invocation's fault-write failed); a
 * terminating signal kills the child and ends straddle by it. */
int bench_invocations_run(const struct bench_invocations *b);

/* straddle prove -- COMMAND (prove.c): the command's options, and what
 * its steps found and measured. */
#define PROVE_MAX 16
struct prove_run {
	const char *llvm_mca, *out_json, *keep, *stdin_path;
	struct profiles_arg uarch;      /* one: the prediction's */
	unsigned top, runs, snapshots;  /* snapshots: a replay's, at most */
	unsigned copies;                /* a replay's copies of each placement */
	double time_s, min_share, material, alpha;
	double budget_left;             /* seconds: --time a loop, a skipped loop's passed on */
	bool wall, no_replay, replay;
	char input[PATH_MAX + 32];      /* --stdin for the steps */
	char **argv;                    /* the command */
	int argc;                       /* of straddle prove, for the file */
	char **self_argv;
	char dir[PATH_MAX];             /* the record and place files */
	bool made_dir;
	struct loop_trial trial[PROVE_MAX];
	size_t ntrial;
};
/* The steps' directory made (--keep's, or a temporary one, which a
 * terminating signal removes with the files in it), the program's
 * standard input kept for every step: -1 after one line. */
int prove_prepare(struct prove_run *p);
/* The program recorded, its loops chosen into p->trial (all: every
 * candidate), each measured: EXIT_OK, EXIT_GATE when the record cannot
 * tell which loops are hot, EXIT_USAGE after one line. */
int prove_loops(struct prove_run *p, struct proof_candidates *all);
/* The steps' files and directory removed (--keep's kept), the trials freed. */
void prove_end(struct prove_run *p, struct proof_candidates *all);

#endif
