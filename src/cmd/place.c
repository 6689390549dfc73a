/* straddle place -- COMMAND: move a loop of the running, unmodified program
 * to chosen offsets of its line and measure what each placement costs that
 * program. Each round runs every arm once in a new random order: the program
 * unmoved, the control (a copy at the loop's own offset: it differs from the
 * unmoved program only by the copy and the entry jump), and each asked
 * offset. Seed 002's maintainer asked for "a measured difference in actual
 * ... bandwidth", not a proxy. */
#include "cmd.h"
#include "../measure/command.h"
#include "../measure/experiment.h"
#include "../measure/replay.h"
#include "../arena/arena.h"
#include "../relocate/relocate.h"
#include "../report/report.h"
#include "../results/place.h"
#include "../stats/stats.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct place_cmd {
	const char *func, *loop_text, *offsets, *out_json, *plot, *metric, *direction;
	struct profiles_arg uarch;      /* one: the prediction's */
	const char *stdin_path;
	struct command_input input;
	const char *files[PLACE_MAX_FILES];
	char *exe;                      /* files[0] when it is the command's own */
	size_t nfiles;
	bool verbose, replay, no_replay;
	int argc;
	char **argv;
	struct reloc_file rf[PLACE_MAX_FILES];
	size_t refused[RELOC_NREFUSALS];
	regex_t metric_re;
	struct place_experiment x;
	unsigned snapshots, repeats, warm, copies;
	double replay_bound;
};

static int add_file(void *cmd, const char *opt, const char *value)
{
	struct place_cmd *c = cmd;

	if (c->nfiles == PLACE_MAX_FILES) {
		complain(opt, "at most %d files", PLACE_MAX_FILES);
		return -1;
	}
	if (!*value) {  /* an unset variable in a script: "--file $LIB" */
		complain(opt, "an empty path");
		return -1;
	}
	c->files[c->nfiles++] = value;
	return 0;
}

static int cmd_place(int argc, char **argv);

#define F(field) offsetof(struct place_cmd, field)

static const struct cmd_option place_options[] = {
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(func),
	  .help = "move the functions so named (several: each is moved)" },
	{ .name = "loop", .value = "ADDR", .kind = OPT_STRING, .field = F(loop_text),
	  .help = "move the function holding the loop that starts at\n"
		  "ADDR (as scan prints it), placing that loop" },
	{ .name = "file", .value = "PATH", .kind = OPT_CALL, .call = add_file,
	  .help = "the executable or library the code is in (default:\n"
		  "the command's executable; repeat for several)" },
	{ .name = "offsets", .value = "SPEC", .kind = OPT_STRING, .field = F(offsets),
	  .help = "A..B[:STEP], current,best,worst (the model's), or\n"
		  "random: each function at its own random offset in\n"
		  "every run (default current,best,worst)" },
	{ .name = "align", .value = "N", .kind = OPT_UNSIGNED, .field = F(x.align), .min = 16,
	  .max = 4096, .help = "offsets are modulo N: 64 a line (default), 4096 a page" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(x.runs), .min = 2,
	  .max = 100000, .help = "runs of each arm (default 10; --replay: runs of the\n"
		  "program, default 100)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(x.budget_s), .dflt = "300",
	  .help = "or stop after S seconds" },
	{ .name = "precision", .value = "P", .kind = OPT_FRACTION, .field = F(x.precision),
	  .lo = 1e-6, .hi = 0.5,
	  .help = "or stop when every arm's 95% CI half-width is within\n"
		  "P of its median (after 5 rounds; default: off)" },
	OPT_WALL(F, x.wall),
	OPT_METRIC(F, metric),
	OPT_DIRECTION(F, direction),
	OPT_ALPHA(F, x.alpha, "significance level of the slow mark"),
	OPT_MATERIAL(F, x.material, PLACE_MATERIAL, "how much slower counts"),
	OPT_UARCH_ONE(F, uarch, "the profile of the prediction"),
	OPT_LLVM_MCA(F, x.llvm_mca),
	OPT_SEED(F, x.seed, "the random order and offsets"),
	{ .name = "stdin", .value = "FILE|-", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "every run's standard input, from its start ('-':\n"
		  "/dev/null; default: straddle's own unless a terminal)" },
	{ .name = "replay", .kind = OPT_SET, .field = F(replay),
	  .help = "measure the loop itself, not the program: snapshots of\n"
		  "the program's registers at its header, each run again\n"
		  "to the loop's exit in a child at every offset, timed\n"
		  "(cycles an iteration; x86-64); arm aa, a second copy\n"
		  "at today's offset, is the A/A (with --copies 1)" },
	{ .name = "no-replay", .kind = OPT_SET, .field = F(no_replay),
	  .help = "measure the program's time (the default)" },
	{ .name = "snapshots", .value = "N", .kind = OPT_UNSIGNED, .field = F(snapshots), .min = 4,
	  .max = 100000, .dflt = "200", .help = "--replay: stop after N complete snapshots" },
	{ .name = "copies", .value = "N", .kind = OPT_UNSIGNED, .field = F(copies), .min = 1,
	  .max = 8, .dflt = "5", .help = "--replay: time each offset at N copies of the code,\n"
		  "at N addresses: an offset's cycles are its copies'\n"
		  "mean, its interval counts how far they spread (two\n"
		  "copies of one placement can differ by several %)" },
	{ .name = "repeats", .value = "N", .kind = OPT_UNSIGNED, .field = F(repeats), .min = 1,
	  .max = 9, .dflt = "5", .help = "--replay: time each snapshot N times at each\n"
		  "offset, after the warm-ups in the same child, keep\n"
		  "the median" },
	{ .name = "warm", .value = "N", .kind = OPT_UNSIGNED, .field = F(warm), .max = 1000000,
	  .dflt = "4096", .help = "--replay: replay each snapshot untimed first until N\n"
		  "iterations have run, its writes undone each time: the\n"
		  "predictors warm, as the program's are" },
	{ .name = "replay-bound", .value = "S", .kind = OPT_SECONDS, .field = F(replay_bound),
	  .dflt = "2", .help = "--replay: a replay that has not left the loop after S\n"
		  "seconds is killed and counted" },
	{ .name = "no-output-check", .kind = OPT_SET, .field = F(x.no_output_check),
	  .help = "do not compare each run's output with the unmoved\n"
		  "program's (output that differs from run to run); how\n"
		  "it ends (exit status, signal) is still compared" },
	{ .name = "verbose", .kind = OPT_SET, .field = F(verbose),
	  .help = "name every refused function and its reason" },
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out_json),
	  .help = "the result file, every raw sample in it ('-': stdout)" },
	{ .name = "plot", .value = "FILE.svg", .kind = OPT_OUTPUT, .field = F(plot),
	  .help = "the measure against the offset, CI whiskers" },
	{ 0 }
};

const struct command place_command = {
	.name = "place",
	.run = cmd_place,
	.summary = "move a loop of the running, unmodified program to any offset; measure it",
	.args = "[OPTIONS] -- COMMAND [ARGS...]",
	.about = "Run COMMAND again and again with a function of it copied so that its loop\n"
		 "(or its entry) starts at each asked offset of its line, and measure the whole\n"
		 "program: by default the CPU time it used (user + system, from wait4). The\n"
		 "copy is made before main by a preload library from a plan straddle computes\n"
		 "first; the original entry jumps to it, so every caller reaches it. Two arms\n"
		 "keep the experiment honest: the program unmoved, and the control, a copy at\n"
		 "the loop's own offset. Every round runs each arm once in a new random order.\n"
		 "Per arm: the median with its 95% CI, the ratio to the best arm, 'slow' where\n"
		 "significantly (--alpha) and materially (--material) slower, and what the\n"
		 "layout model predicts for that placement. The best is chosen on the even\n"
		 "rounds and every arm tested against it on the odd ones, its p adjusted for\n"
		 "the number of arms (Holm): an unchanged program's placements are marked by\n"
		 "chance in fewer than --alpha of experiments. Each run's standard output and\n"
		 "exit status must equal the unmoved program's. C++ is moved with its unwind\n"
		 "data (exceptions, backtrace() and gdb's bt go through the copies).\n",
	.options = place_options,
	.notes = "Every run reads the same standard input: --stdin FILE, or what straddle's\n"
		 "own was redirected from (a pipe is read once and kept); a terminal, or\n"
		 "--stdin -, gives /dev/null. The program runs in the environment and the\n"
		 "directory straddle runs in, in a process group of its own that ends with\n"
		 "straddle. A program that forks keeps the copy in the child; one that execs\n"
		 "another program loads the preload library again there, which applies the\n"
		 "plan only to an object of the same build-id.\n"
		 "\n"
		 "Exit status: 0 done, 1 a run's output or status differed from the unmoved\n"
		 "program's, 2 bad usage, a function that cannot be moved, or a command that\n"
		 "cannot run; 128+N after signal N (said, the running program ended, its\n"
		 "traces removed, no result written). A failed experiment still writes -o:\n"
		 "what was moved, the failing arm, its status and last lines of stderr.\n",
	.in_order = true,
};

/* ---- options ---- */

static int parse_options(struct place_cmd *c, int argc, char **argv)
{
	c->x.rf = c->rf;
	c->offsets = "current,best,worst";
	c->x.align = 64;
	if (parse_command_line(&place_command, c, argc, argv))
		return -1;
	if (optind >= argc) {
		complain("place", "name the command to run after --");
		return -1;
	}
	c->x.argv = argv + optind;
	if (c->x.align & (c->x.align - 1)) {
		complain("--align", "%u is not a power of two", c->x.align);
		return -1;
	}
	if (!c->func && !c->loop_text) {
		complain("place", "name what to move: --func GLOB or --loop ADDR");
		return -1;
	}
	if (c->replay && c->no_replay) {
		complain("--replay", "and --no-replay: one or the other");
		return -1;
	}
	if (c->replay && (c->metric || c->x.wall)) {
		complain("--replay", "times the loop in cycles: not with %s", c->metric ? "--metric" : "--wall");
		return -1;
	}
	/* a replay's runs are few: it stops when its snapshots are in */
	if (!c->x.runs)
		c->x.runs = c->replay ? 100 : 10;
	if (metric_option(c->metric, c->direction, &c->metric_re, &c->x.higher))
		return -1;
	if (c->metric)
		c->x.metric = &c->metric_re, c->x.metric_text = c->metric;
	c->x.profile = c->uarch.v[0];
	c->x.rng = c->x.seed ? c->x.seed : 1;
	return 0;
}

/* The preload library: $STRADDLE_PRELOAD, else where straddle's own
 * files are installed (beside_self). */
const char *find_preload(void)
{
	static char buf[PATH_MAX + 64];
	const char *env = getenv("STRADDLE_PRELOAD");

	if (env && *env)
		return access(env, R_OK) == 0 ? env : NULL;
	return beside_self("libstraddle-place.so", buf, sizeof buf);
}

/* ---- what is moved ---- */

static int open_files(struct place_cmd *c)
{
	char buf[PATH_MAX];
	const char *exe = spawn_find(c->x.argv[0], buf, sizeof buf);
	struct stat st;
	struct err e;

	if (!exe) {
		complain(c->x.argv[0], "no such command in PATH");
		return -1;
	}
	/* the loader ignores LD_PRELOAD in a secure-execution program (ld.so(8)) */
	if (stat(exe, &st) == 0 && (st.st_mode & (S_ISUID | S_ISGID))) {
		complain(exe, "a set-user-ID or set-group-ID program: the loader drops "
			 "LD_PRELOAD for it, so no plan could be applied");
		return -1;
	}
	if (!c->nfiles) {
		c->files[c->nfiles++] = c->exe = xstrdup(exe);
	}
	for (size_t i = 0; i < c->nfiles; i++) {
		if (reloc_open(&c->rf[i], c->files[i], &e)) {
			complain(c->files[i], "%s", strchr(e.msg, ':') && strncmp(e.msg, c->files[i],
				 strlen(c->files[i])) == 0 ? e.msg + strlen(c->files[i]) + 2 : e.msg);
			return -1;
		}
		c->x.nrf++;
		/* the relocator plans AArch64 too, but place runs what it
		 * moves (tests/tools/place_plan writes a plan for qemu-user) */
		if (c->rf[i].img.arch != arena_host_arch()) {
			complain(c->files[i], "%s code: place runs only the host's (%s)",
				 arch_name(c->rf[i].img.arch), arch_name(arena_host_arch()));
			return -1;
		}
	}
	return 0;
}

/* ---- files ---- */

/* The text, and between its head and its rows what the runs showed that
 * is a warning: the unmoved program failing, perf maps left alone. */
static void render(const struct place_cmd *c)
{
	struct strbuf files = { 0 };
	struct place_view v = { &c->x, c->files[0], c->refused, c->metric, c->func };

	/* the counts are of every --file's functions: the line names them all */
	for (size_t i = 0; i < c->nfiles; i++)
		sb_addf(&files, "%s%s", i ? ", " : "", c->files[i]);
	v.file = sb_str(&files);
	report_place_head(stdout, &v);
	v.file = c->files[0];
	sb_free(&files);
	if (c->x.base_note[0])
		complain(c->x.argv[0], "%s", c->x.base_note);
	if (c->x.no_map)
		complain("place", "%u run%s found /tmp/perf-PID.map taken by another file and left "
			 "it alone: no perf map for %s", c->x.no_map, c->x.no_map == 1 ? "" : "s",
			 c->x.no_map == 1 ? "it" : "them");
	report_place_text(stdout, &v);
}

static int write_json(const struct place_cmd *c)
{
	return write_result(results_place(&c->x, c->x.subject ? c->x.subject->name : c->func,
					  c->refused, c->argc, c->argv), c->out_json);
}

/* ---- the command ---- */

static void on_signal(int sig)
{
	experiment_interrupt(sig);
}

static void cleanup(struct place_cmd *c)
{
	command_input_close(&c->input);
	experiment_free(&c->x);
	for (size_t i = 0; i < c->x.nrf; i++)
		reloc_close(&c->rf[i]);
	if (c->x.metric)
		regfree(&c->metric_re);
	free(c->exe);
}

/* Said, nothing written, and the signal's own end (a shell sees 128+N):
 * the running program is killed and its perf map removed by now. */
static void interrupted(struct place_cmd *c)
{
	int sig = c->x.interrupted;

	complain("place", "interrupted by SIG%s after %u round%s: no result written",
		 sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", c->x.rounds,
		 c->x.rounds == 1 ? "" : "s");
	cleanup(c);
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/* --replay: one loop that can be replayed, and the clock to time it. */
static int prepare_replay(struct place_cmd *c)
{
	struct place_experiment *x = &c->x;
	char why[256];

	if (!x->subject || x->loop_start == x->subject->addr) {
		complain("--replay", "needs one loop: name its function (--func) or the loop (--loop)");
		return -1;
	}
	struct reloc_file *rf = &x->rf[0];

	for (size_t i = 0; i < x->nrf; i++)
		if (x->subject >= x->rf[i].fn && x->subject < x->rf[i].fn + x->rf[i].nfn)
			rf = &x->rf[i];
	if (reloc_replay_check(rf, x->subject, x->loop_start, x->loop_end, why, sizeof why)) {
		complain(x->subject->name, "its loop cannot be replayed: %s", why);
		return -1;
	}
	x->replay = xcalloc(1, sizeof *x->replay);
	x->replay->snapshots = c->snapshots;
	x->replay->repeats = c->repeats;
	x->replay->warm = c->warm;
	x->replay->bound_s = c->replay_bound;
	replay_clock(x->replay);
	return 0;
}

static int prepare(struct place_cmd *c, int argc, char **argv)
{
	struct err e;

	if (parse_options(c, argc, argv) || open_files(c))
		return -1;
	if (experiment_choose(&c->x, c->files[0], c->func, c->loop_text, c->verbose, c->refused,
			      &e)) {
		say("%s", e.msg);
		return -1;
	}
	if (command_input_open(&c->input, c->stdin_path, &e)) {
		complain("--stdin", "%s", e.msg);
		return -1;
	}
	c->x.input = &c->input;
	if (c->replay && prepare_replay(c))
		return -1;
	experiment_collect(&c->x);
	if (experiment_arms(&c->x, c->offsets, &e) ||
	    (c->replay && (experiment_replay_copies(&c->x, c->copies, &e) ||
			   experiment_add_arm(&c->x, PLACE_REPLAY, c->x.current, "replay", &e)))) {
		say("%s", e.msg);
		return -1;
	}
	if (!(c->x.preload = find_preload())) {
		complain("place", "libstraddle-place.so is not beside straddle nor in "
			 "../libexec/straddle (set STRADDLE_PRELOAD)");
		return -1;
	}
	if (experiment_make_plans(&c->x, &e)) {
		complain("place", "%s", e.msg);
		return -1;
	}
	return 0;
}

static int cmd_place(int argc, char **argv)
{
	struct place_cmd c = { .argc = argc, .argv = argv };
	struct err e;
	int rc = EXIT_USAGE;

	if (place_vdso_asked(argc, argv))
		return place_vdso(argc, argv);
	if (prepare(&c, argc, argv))
		goto out;
	handle_terminating(on_signal);
	rc = experiment_run(&c.x, &e);
	if (rc == 3) {
		interrupted(&c);
		goto out;
	}
	if (rc) {
		fprintf(stderr, "straddle: %s\n", e.msg);      /* it names what failed */
		if (c.out_json && write_json(&c))
			rc = EXIT_USAGE;
		goto out;
	}
	if (c.x.replay && place_replay_refused(&c.x)) {
		rc = EXIT_USAGE;
		if (c.out_json && write_json(&c))
			rc = EXIT_USAGE;
		goto out;
	}
	experiment_analyse(&c.x);
	if (c.x.replay && place_replay_unmeasured(&c.x)) {
		rc = EXIT_USAGE;
		if (c.out_json && write_json(&c))
			rc = EXIT_USAGE;
		goto out;
	}
	if (!c.out_json || strcmp(c.out_json, "-") != 0)
		render(&c);
	if (c.out_json && write_json(&c))
		rc = EXIT_USAGE;
	if (c.plot && report_place_plot(c.plot, &(struct place_view){ &c.x, c.files[0], c.refused,
						 c.metric, c.func }, &e)) {
		complain(c.plot, "%s", e.msg);
		rc = EXIT_USAGE;
	}
out:
	cleanup(&c);
	return rc;
}
