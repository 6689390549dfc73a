/* straddle ab -- CMD_A ... -- CMD_B ...: is B's change over A the code's,
 * or its layout's? The two builds run interleaved, in a new random order
 * every round, each also with its functions at random offsets (the spread
 * layout alone makes) and, asked, all aligned (the run-time
 * -falign-functions): seed 004's "-5.8%" answered without a rebuild. The
 * experiment is measure/ab.c's; this parses, calls and prints. */
#include "cmd.h"
#include "../measure/measure.h"
#include "../report/report.h"
#include "../results/results.h"
#include "../stats/stats.h"

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
	  .max = 100000, .help = "rounds: every arm of both builds once each (default 20)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(t.budget_s),
	  .help = "or stop after S seconds (default 300)" },
	{ .name = "precision", .value = "P", .kind = OPT_FRACTION, .field = F(t.precision),
	  .lo = 1e-6, .hi = 0.5,
	  .help = "or stop when the change's 95% CI (and the aligned\n"
		  "one's) is within +-P (after 5 rounds; default: off)" },
	{ .name = "wall", .kind = OPT_SET, .field = F(t.wall),
	  .help = "measure wall time, not the CPU time used" },
	{ .name = "metric", .value = "REGEX", .kind = OPT_STRING, .field = F(metric),
	  .help = "measure the number the program prints: the first\n"
		  "match of REGEX in its output (its first group, if any)" },
	{ .name = "direction", .value = "lower|higher", .kind = OPT_STRING, .field = F(direction),
	  .help = "which --metric is better (default lower)" },
	{ .name = "stdin", .value = "FILE", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "every run's standard input (default /dev/null)" },
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(t.alpha), .lo = 1e-9,
	  .hi = 0.5, .help = "significance level (default 0.05)" },
	{ .name = "material", .value = "P", .kind = OPT_FRACTION, .field = F(t.material), .lo = 0,
	  .hi = 10, .help = "the smallest change that counts (default 2%)" },
	{ .name = "seed", .value = "N", .kind = OPT_U64, .field = F(t.seed), .max = ULONG_MAX,
	  .help = "seed of the random order and offsets (default 1)" },
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

	c->t.runs = 20, c->t.budget_s = 300, c->t.alpha = 0.05, c->t.material = 0.02;
	c->t.seed = 1, c->direction = "lower";
	c->t.build[0].name = 'A', c->t.build[1].name = 'B';
	if (parse_command_line(&ab_command, c, argc, argv) || split_commands(c, argc, argv))
		return -1;
	if (c->align_all & (c->align_all - 1)) {
		complain("--align-all", "%u is not a power of two", c->align_all);
		return -1;
	}
	if (strcmp(c->direction, "lower") && strcmp(c->direction, "higher")) {
		complain("--direction", "'%s' is not lower or higher", c->direction);
		return -1;
	}
	if (c->metric && regcomp(&c->metric_re, c->metric, REG_EXTENDED)) {
		complain("--metric", "'%s' is not an extended regular expression", c->metric);
		c->metric = NULL;
		return -1;
	}
	if (command_input_open(&c->input, c->stdin_path ? c->stdin_path : "-", &e)) {
		complain("--stdin", "%s", e.msg);
		return -1;
	}
	c->t.higher = c->metric && strcmp(c->direction, "higher") == 0;
	c->t.metric = c->metric ? &c->metric_re : NULL, c->t.metric_text = c->metric;
	c->t.layout = !c->no_layout, c->t.align_all = c->align_all;
	c->t.input = &c->input;
	c->t.preload = find_preload();
	return 0;
}

/* ---- output ---- */

static const char *unit(const struct ab_cmd *c)
{
	return c->metric ? "" : "s";
}

static void print_build(const struct ab_build *b)
{
	printf("%c:", b->name);
	for (size_t i = 0; b->argv[i]; i++)
		printf(" %s", b->argv[i]);
	printf("\n");
	if (!b->movable) {
		printf("   runs unmoved only: %s\n", b->why_not);
		return;
	}
	printf("   %s%s: %zu function%s moved", b->files[0], b->nfiles > 1 ? " and more" : "",
	       b->refused[RELOC_OK], b->refused[RELOC_OK] == 1 ? "" : "s");
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (b->refused[r])
			printf(", %zu refused (%s)", b->refused[r], reloc_refusal_name(r));
	printf("\n");
}

static void print_table(const struct ab_cmd *c)
{
	static const char *const cols[] = { "arm", ">runs", ">median", ">95% CI", ">cv" };
	struct table t;

	table_init(&t, 5, cols);
	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < c->t.build[b].x.narms; i++) {
			const struct place_arm *a = &c->t.build[b].x.arm[i];
			char name[48], runs[16], med[32], ci[64], cv[16];

			if (a->kind == PLACE_UNMOVED)
				snprintf(name, sizeof name, "%c", c->t.build[b].name);
			else if (a->align)
				snprintf(name, sizeof name, "%c %s%u", c->t.build[b].name, a->name, a->align);
			else
				snprintf(name, sizeof name, "%c %s", c->t.build[b].name, a->name);
			snprintf(runs, sizeof runs, "%zu", a->n);
			snprintf(med, sizeof med, "%.4f%s", a->sum.median, unit(c));
			snprintf(ci, sizeof ci, "[%.4f, %.4f]", a->sum.ci_lo, a->sum.ci_hi);
			snprintf(cv, sizeof cv, "%.2f%%", 100 * a->sum.cv);
			table_row(&t, name, runs, med, ci, cv);
		}
	table_print(&t, stdout);
	table_free(&t);
}

static void change_text(const struct paired *p, char *buf, size_t n)
{
	snprintf(buf, n, "%+.1f%% [%+.1f, %+.1f]", 100 * (p->ratio - 1), 100 * (p->lo - 1),
		 100 * (p->hi - 1));
}

/* slower/faster of a time, worse/better of a metric: B's side of 1. */
static const char *direction_word(const struct ab_cmd *c, double ratio)
{
	bool up = ratio > 1, worse = c->t.higher ? !up : up;

	if (ratio == 1)
		return "the same";
	if (!c->metric)
		return up ? "slower" : "faster";
	return worse ? "worse" : "better";
}

static void print_band(const struct ab_cmd *c)
{
	const struct ab_judgement *j = &c->t.j;
	char sides[160] = "";
	size_t at = 0;

	if (!j->has_band) {
		bool ran = ab_arm_of(&c->t, 0, AB_RANDOM) || ab_arm_of(&c->t, 1, AB_RANDOM);

		if (ran)
			printf("layout noise: %u rounds are too few for a band (%d or more)\n",
			       c->t.rounds, AB_BAND_MIN_ROUNDS);
		return;
	}
	for (int b = 0; b < 2; b++)
		if (j->band[b].n >= AB_BAND_MIN_ROUNDS)
			at += (size_t)snprintf(sides + at, sizeof sides - at, "%s%c's %+.1f..%+.1f",
					       at ? ", " : "; ", c->t.build[b].name,
					       100 * (j->band[b].lo - 1), 100 * (j->band[b].hi - 1));
	printf("moving the builds' functions alone moves B over A by %+.1f%% to %+.1f%% (95%%%s): "
	       "%s\n", 100 * (j->lo - 1), 100 * (j->hi - 1), sides,
	       j->change.lo > j->hi || j->change.hi < j->lo ? "beyond layout noise" :
	       "within layout noise");
}

static void print_answer(const struct ab_cmd *c)
{
	const struct ab_judgement *j = &c->t.j;
	char line[96];

	change_text(&j->change, line, sizeof line);
	printf("\nB is %s against A (p %.2g): %s; the noise: B over A varies by %.2f%% from round "
	       "to round\n", line, j->change.p, direction_word(c, j->change.ratio),
	       100 * c->t.round_sd);
	print_band(c);
	if (j->aligned.n) {
		change_text(&j->aligned, line, sizeof line);
		printf("aligned (every function at offset 0 of a %u-byte block), B is %s (p %.2g); "
		       "the change unaligned over aligned %+.1f%% (p %.2g)\n", c->t.align_all, line,
		       j->aligned.p, 100 * (j->shrink.ratio - 1), j->shrink.p);
	}
	printf("verdict: %s (%s)\n", ab_verdict_name(j->verdict), ab_reason_text(j->reason));
}

static void print_text(const struct ab_cmd *c)
{
	unsigned runs = 0, identical = 0;

	print_build(&c->t.build[0]);
	print_build(&c->t.build[1]);
	for (int b = 0; b < 2; b++)
		runs += c->t.build[b].x.checked - 1, identical += c->t.build[b].x.identical;
	printf("measured: %s; stopped by %s after %u rounds (%.1f s); ", c->metric ? c->metric :
	       c->t.wall ? "wall time" : "CPU time (user + system)", c->t.stopped_by, c->t.rounds,
	       c->t.elapsed_s);
	if (c->t.no_output_check)
		printf("output not checked\n");
	else
		printf("output identical in %u of %u runs, A's and B's the same\n", identical, runs);
	print_table(c);
	print_answer(c);
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
		print_text(&c);
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
