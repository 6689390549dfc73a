/* straddle ab -- CMD_A ... -- CMD_B ...: is B's change over A the code's,
 * or its layout's? The two builds run interleaved, in a new random order
 * every round, each also with its functions at random offsets (the spread
 * layout alone makes) and, asked, all aligned (the run-time
 * -falign-functions): seed 004's "-5.8%" answered without a rebuild. The
 * experiment is measure/ab.c's; this parses, calls and prints. */
#include "cmd.h"
#include "../measure/ab.h"
#include "../measure/command.h"
#include "../report/report.h"
#include "../results/ab.h"

#include <limits.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct ab_cmd {
	const char *out_json, *metric, *direction, *stdin_path;
	bool no_layout;
	unsigned align_all;
	int argc;
	char **argv, **a_argv;
	regex_t metric_re;
	struct command_input input;
	struct ab_experiment t;
};

static int add_file(struct ab_build *b, const char *opt, const char *value)
{
	if (b->nfiles == PLACE_MAX_FILES) {
		complain(opt, "at most %d files", PLACE_MAX_FILES);
		return -1;
	}
	if (!*value) {  /* an unset variable in a script: "--file-a $LIB" */
		complain(opt, "an empty path");
		return -1;
	}
	b->files[b->nfiles++] = value;
	b->named = true;
	return 0;
}

static int add_file_a(void *cmd, const char *opt, const char *value)
{
	return add_file(&((struct ab_cmd *)cmd)->t.build[0], opt, value);
}

static int add_file_b(void *cmd, const char *opt, const char *value)
{
	return add_file(&((struct ab_cmd *)cmd)->t.build[1], opt, value);
}

static int cmd_ab(int argc, char **argv);

#define F(field) offsetof(struct ab_cmd, field)

static const struct cmd_option ab_options[] = {
	{ .name = "file-a", .value = "PATH", .kind = OPT_CALL, .call = add_file_a,
	  .help = "a file of A whose functions move (default: A's\n"
		  "executable; repeat for several: its hot libraries)" },
	{ .name = "file-b", .value = "PATH", .kind = OPT_CALL, .call = add_file_b,
	  .help = "the same of B" },
	{ .name = "layout", .kind = OPT_CLEAR, .field = F(no_layout),
	  .help = "also run each build with its functions at new random\n"
		  "offsets every run, and copied at their own: the spread\n"
		  "layout alone makes (the default, when the code can move)" },
	{ .name = "no-layout", .kind = OPT_SET, .field = F(no_layout),
	  .help = "run no random layouts" },
	{ .name = "align-all", .value = "N", .kind = OPT_UNSIGNED, .field = F(align_all),
	  .min = 16, .max = 4096,
	  .help = "also run both builds with every movable function at\n"
		  "offset 0 of an N-byte block (the run-time\n"
		  "-falign-functions=N): does the change survive?" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(t.runs), .min = 2,
	  .max = 100000, .dflt = "20", .help = "rounds: every arm of both builds once each" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(t.budget_s), .dflt = "300",
	  .help = "or stop after S seconds" },
	{ .name = "precision", .value = "P", .kind = OPT_FRACTION, .field = F(t.precision),
	  .lo = 1e-6, .hi = 0.5,
	  .help = "or stop when the change's 95% CI (and the aligned\n"
		  "one's) is within +-P (after 5 rounds; default: off)" },
	OPT_WALL(F, t.wall),
	OPT_METRIC(F, metric),
	OPT_DIRECTION(F, direction),
	{ .name = "stdin", .value = "FILE", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "every run's standard input (default /dev/null)" },
	OPT_ALPHA(F, t.alpha, "significance level"),
	OPT_MATERIAL(F, t.material, PLACE_MATERIAL, "the smallest change that counts"),
	OPT_SEED(F, t.seed, "the random order and offsets"),
	{ .name = "no-output-check", .kind = OPT_SET, .field = F(t.no_output_check),
	  .help = "do not check that every run's output is A's first\n"
		  "(builds whose output differs, or differs run to run)" },
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out_json),
	  .help = "the result file, every raw sample in it ('-': stdout)" },
	{ 0 }
};

const struct command ab_command = {
	.name = "ab",
	.run = cmd_ab,
	.summary = "two builds side by side: is B's change real, or layout?",
	.args = "[OPTIONS] -- CMD_A [ARGS...] -- CMD_B [ARGS...]",
	.about = "Run two builds of a program interleaved, each once a round in a new random\n"
		 "order, paired by round (the machine's drift cancels in each round's ratio),\n"
		 "and measure each run: by default the CPU time it used (user + system, from\n"
		 "wait4). It prints B's change over A with its 95% CI and p, and the noise\n"
		 "seen. Each build also runs with the functions of its files (its executable,\n"
		 "or --file-a/--file-b) copied at new random offsets every run, and at their\n"
		 "own (the control): the spread layout alone makes, which the change is held\n"
		 "against. --align-all N also runs both with every function at offset 0 of an\n"
		 "N-byte block, the run-time -falign-functions=N: a change that vanishes so\n"
		 "was layout. The verdict: real, layout, inconclusive, or none (no change).\n"
		 "Every run's standard output must be A's first (the builds do the same work).\n",
	.options = ab_options,
	.notes = "The first -- ends the options, the second A's command: a command whose own\n"
		 "arguments hold -- goes through sh -c. A build that cannot move (a static\n"
		 "executable, a script) runs unmoved only, and says so.\n"
		 "\n"
		 "Exit status: 0 done (whatever the verdict), 1 an output differed (B's from\n"
		 "A's, or a run's from its build's first), 2 bad usage, a command that fails\n"
		 "or cannot run, a --metric that matches nothing.\n",
	.in_order = true,
};

/* ---- options ---- */

/* A's words up to the next --, B's after it. */
static int split_commands(struct ab_cmd *c, int argc, char **argv)
{
	int at = optind;

	while (at < argc && strcmp(argv[at], "--") != 0)
		at++;
	if (at == optind) {
		complain("ab", "name A's command after --");
		return -1;
	}
	if (at >= argc - 1) {
		complain("ab", "name B's command after a second --");
		return -1;
	}
	/* A's own argv, ended where B's begins (argv itself is the command
	 * line the result file records) */
	c->a_argv = xcalloc((size_t)(at - optind) + 1, sizeof *c->a_argv);
	memcpy(c->a_argv, argv + optind, (size_t)(at - optind) * sizeof *argv);
	c->t.build[0].argv = c->a_argv;
	c->t.build[1].argv = argv + at + 1;
	return 0;
}

static int parse_options(struct ab_cmd *c, int argc, char **argv)
{
	struct err e;

	c->t.build[0].name = 'A', c->t.build[1].name = 'B';
	if (parse_command_line(&ab_command, c, argc, argv) || split_commands(c, argc, argv))
		return -1;
	if (c->align_all & (c->align_all - 1)) {
		complain("--align-all", "%u is not a power of two", c->align_all);
		return -1;
	}
	if (metric_option(c->metric, c->direction, &c->metric_re, &c->t.higher)) {
		c->metric = NULL;       /* nothing compiled to free */
		return -1;
	}
	if (command_input_open(&c->input, c->stdin_path ? c->stdin_path : "-", &e)) {
		complain("--stdin", "%s", e.msg);
		return -1;
	}
	c->t.metric = c->metric ? &c->metric_re : NULL, c->t.metric_text = c->metric;
	c->t.layout = !c->no_layout, c->t.align_all = c->align_all;
	c->t.input = &c->input;
	c->t.preload = find_preload();
	return 0;
}

/* ---- the command ---- */

static volatile sig_atomic_t stopped_by_signal;

/* The run in progress ends (its perf map removed as any run's), then ab:
 * see interrupted(). */
static void on_signal(int sig)
{
	stopped_by_signal = sig;
	experiment_interrupt(sig);
}

/* Said, nothing written, and the signal's own end (a shell sees 128+N). */
static _Noreturn void interrupted(struct ab_cmd *c)
{
	int sig = stopped_by_signal;

	complain("ab", "interrupted by SIG%s after %u round%s: no result written",
		 sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", c->t.rounds,
		 c->t.rounds == 1 ? "" : "s");
	ab_free(&c->t);
	command_input_close(&c->input);
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/* A build that runs unmoved only says why, once, before the runs. */
static void say_unmoved(const struct ab_cmd *c)
{
	for (int b = 0; b < 2; b++)
		if (!c->t.build[b].movable && (c->t.layout || c->t.align_all))
			complain((char[2]){ c->t.build[b].name, 0 }, "%s: no layout arm; the A/B runs",
				 c->t.build[b].why_not);
}

static int cmd_ab(int argc, char **argv)
{
	struct ab_cmd c = { .argc = argc, .argv = argv };
	struct err e = { "" };
	int rc = EXIT_USAGE;

	c.input.fd = -1;
	if (parse_options(&c, argc, argv))
		goto out;
	if (ab_prepare(&c.t, &e)) {
		say("%s", e.msg);
		goto out;
	}
	say_unmoved(&c);
	handle_terminating(on_signal);
	rc = ab_run(&c.t, &e);
	if (stopped_by_signal)
		interrupted(&c);
	if (rc) {
		say("%s", e.msg);
		goto out;
	}
	ab_analyse(&c.t);
	if (!c.out_json || strcmp(c.out_json, "-") != 0)
		report_ab_text(stdout, &c.t);
	if (c.out_json && write_result(results_ab(&c.t, c.argc, c.argv), c.out_json))
		rc = EXIT_USAGE;
out:
	ab_free(&c.t);
	command_input_close(&c.input);
	free(c.a_argv);
	if (c.metric)
		regfree(&c.metric_re);
	return rc;
}
