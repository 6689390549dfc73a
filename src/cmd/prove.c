/* straddle prove -- COMMAND: record the program, find its hottest loops that
 * straddle a window (scan --hot's cost model), move each to its best
 * placement and back with place, and hold what the model predicted against
 * what the program measured. The record and place are run as they are run by
 * hand (this binary's own commands, their output on standard error as
 * progress: self/prove.c), so what prove says can be redone one step at a
 * time. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/prove.h"

#include <limits.h>
#include <string.h>

static int cmd_prove(int argc, char **argv);

#define F(field) offsetof(struct prove_run, field)

static const struct cmd_option prove_options[] = {
	{ .name = "top", .value = "N", .kind = OPT_UNSIGNED, .field = F(top), .min = 1,
	  .max = PROVE_MAX, .help = "hot straddling loops to measure (default 3)" },
	{ .name = "min-share", .value = "P", .kind = OPT_FRACTION, .field = F(min_share),
	  .lo = 1e-4, .hi = 1,
	  .help = "a loop with less of the samples is not measured: its\n"
		  "cost cannot show in the program's time (default 5%)" },
	{ .name = "material", .value = "P", .kind = OPT_FRACTION, .field = F(material),
	  .lo = 1e-4, .hi = 1, .dflt = PROVE_MATERIAL,
	  .help = "a loop slowdown that counts as a cost" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(runs), .min = 2,
	  .max = 100000, .help = "at most N rounds of place for each loop (default 300)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(time_s),
	  .help = "seconds of place for each loop; a loop skipped leaves\n"
		  "its time to the next (default 120)" },
	{ .name = "snapshots", .value = "N", .kind = OPT_UNSIGNED, .field = F(snapshots),
	  .min = 4, .max = 100000, .dflt = "600",
	  .help = "the replay's complete snapshots of each loop, at most\n"
		  "(half of --time stops it first)" },
	{ .name = "copies", .value = "N", .kind = OPT_UNSIGNED, .field = F(copies), .min = 1,
	  .max = PROOF_COPIES_MAX, .dflt = "5",
	  .help = "the replay's copies of each placement, at as many\n"
		  "addresses (place --copies): a placement's cycles are\n"
		  "their mean, judged against their spread; 1: one copy\n"
		  "and an A/A copy of today's, the A/A's reach added" },
	{ .name = "stdin", .value = "FILE|-", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "the program's standard input in every run ('-':\n"
		  "/dev/null; default: straddle's own unless a terminal)" },
	OPT_ALPHA(F, alpha, "significance level of a measured cost"),
	OPT_WALL(F, wall),
	{ .name = "replay", .kind = OPT_SET, .field = F(replay),
	  .help = "judge each loop by itself, replayed from the program's\n"
		  "state at its header (place --replay), the program's\n"
		  "time a check beside it (the default where the loop can\n"
		  "be replayed)" },
	{ .name = "no-replay", .kind = OPT_SET, .field = F(no_replay),
	  .help = "judge each loop by the program's time alone" },
	OPT_UARCH_ONE(F, uarch, "the profile of the prediction"),
	OPT_LLVM_MCA(F, llvm_mca),
	{ .name = "keep", .value = "DIR", .kind = OPT_STRING, .field = F(keep),
	  .help = "keep the record and each loop's place file in DIR\n"
		  "(default: a temporary directory, removed)" },
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out_json),
	  .help = "the result file ('-': standard output)" },
	{ 0 },
};

const struct command prove_command = {
	.name = "prove",
	.run = cmd_prove,
	.summary = "measure what the hot loops' placements cost, beside the prediction",
	.args = "[OPTIONS] -- COMMAND [ARGS...]",
	.in_order = true,
	.about = "Record COMMAND (straddle record), scan the files holding its samples with\n"
		 "the cost model (scan --hot), and for each of the hottest loops that\n"
		 "straddle a window, move it to the model's best placement, to its own, and\n"
		 "to two layout controls (offsets where the loop touches as many windows as\n"
		 "today: moving a function can change its program by itself) with straddle\n"
		 "place, and measure the whole program. Each loop's row holds the model's\n"
		 "predicted slowdown (today's placement against the best) beside the\n"
		 "measured one: the best's change over the controls', turned into the loop's\n"
		 "through its share of the samples, its 95% CI widened by the controls'\n"
		 "spread. Each says 'costs' (at least --material), 'nothing', 'slower at\n"
		 "best', or 'inconclusive' (the CI holds two), and whether model and\n"
		 "measurement agree. The steps' own output goes to standard error as\n"
		 "progress; the table to standard output.\n",
	.options = prove_options,
	.notes = "A loop's share bounds what its program can show: at 5% of the samples a\n"
		 "3% loop slowdown moves the program 0.15%, under the 2-3% a run that a\n"
		 "shared machine's noise can be. So each loop is placed for a few rounds\n"
		 "first, and from their noise, its share and the change predicted prove\n"
		 "counts the rounds a verdict needs: a loop the time cannot resolve is\n"
		 "skipped, said so ('needs ~N rounds; --time T to try'), and its time goes\n"
		 "to the next. A replayed loop's check, the program's time, runs only where\n"
		 "its shortest pilot fits what the replay left of the loop's --time; the row\n"
		 "says 'not measured' and a note the --time that measures it otherwise.\n"
		 "Loops whose span is uncertain (an unresolved indirect jump)\n"
		 "are listed, not measured.\n"
		 "The program reads the same standard input in every run (--stdin, or what\n"
		 "straddle's was redirected from) and its output is read (a program writing\n"
		 "to /dev/null may stop early: GNU grep -c does).\n"
		 "\n"
		 "Exit status: 0 done (agreeing or not); 1 the record cannot tell (too few\n"
		 "samples, most in no file, or the program failed under it); 2 bad usage, a\n"
		 "program that could not be run or recorded, or a result that could not be\n"
		 "written; 128+N after signal N.\n",
};

static int parse_options(struct prove_run *c, int argc, char **argv)
{
	char path[PATH_MAX];

	c->top = 3, c->runs = 300, c->time_s = 120, c->min_share = 0.05;
	c->argc = argc, c->self_argv = argv;
	if (parse_command_line(&prove_command, c, argc, argv))
		return -1;
	if (optind >= argc) {
		complain("prove", "name the command to run after --");
		return -1;
	}
	c->argv = argv + optind;
	if (!spawn_find(c->argv[0], path, sizeof path)) {
		complain(c->argv[0], "no such command in PATH");
		return -1;
	}
	if (c->replay && c->no_replay) {
		complain("--replay", "and --no-replay: one or the other");
		return -1;
	}
	if (c->replay && c->wall) {
		complain("--replay", "times the loop in cycles: not with --wall");
		return -1;
	}
	c->replay = !c->no_replay && !c->wall;
	return 0;
}

static int write_json(const struct prove_run *c)
{
	return write_result(results_prove(c->trial, c->ntrial, c->uarch.v[0]->name, c->argc,
					  c->self_argv), c->out_json);
}

static int cmd_prove(int argc, char **argv)
{
	struct prove_run c = { 0 };
	struct proof_candidates all = { 0 };
	int rc = EXIT_USAGE;

	if (parse_options(&c, argc, argv) || prove_prepare(&c))
		goto out;
	if ((rc = prove_loops(&c, &all)) != EXIT_OK)
		goto out;
	if (!c.out_json || strcmp(c.out_json, "-") != 0)
		report_prove_text(c.trial, c.ntrial, all.at_best, c.min_share, c.uarch.v[0]->name, stdout);
	rc = c.out_json && write_json(&c) ? EXIT_USAGE : EXIT_OK;
out:
	prove_end(&c, &all);
	return rc;
}
