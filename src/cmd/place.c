/* straddle place -- COMMAND: move a loop of the running, unmodified
 * program to chosen offsets of its line and measure what each placement
 * costs that program (issue 20). Each round runs every arm once in a new
 * random order: the program unmoved, the control (a copy at the loop's
 * own offset: it differs from the unmoved program only by the copy and
 * the entry jump), and each asked offset. Seed 002's maintainer asked for
 * "a measured difference in actual ... bandwidth", not a proxy. */
#include "cmd.h"
#include "../measure/measure.h"
#include "../place/place.h"
#include "../relocate/relocate.h"
#include "../report/report.h"
#include "../results/results.h"
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
	const char *func, *loop_text, *offsets, *uarch, *out_json, *plot, *metric, *direction;
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
	char host_why[HOST_WHY_MAX];
	regex_t metric_re;
	struct place_experiment x;
	unsigned snapshots, repeats, warm;
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
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(x.budget_s),
	  .help = "or stop after S seconds (default 300)" },
	{ .name = "precision", .value = "P", .kind = OPT_FRACTION, .field = F(x.precision),
	  .lo = 1e-6, .hi = 0.5,
	  .help = "or stop when every arm's 95% CI half-width is within\n"
		  "P of its median (after 5 rounds; default: off)" },
	{ .name = "wall", .kind = OPT_SET, .field = F(x.wall),
	  .help = "measure wall time, not the CPU time it used" },
	{ .name = "metric", .value = "REGEX", .kind = OPT_STRING, .field = F(metric),
	  .help = "measure the number the program prints: the first\n"
		  "match of REGEX in its output (its first group, if any)" },
	{ .name = "direction", .value = "lower|higher", .kind = OPT_STRING, .field = F(direction),
	  .help = "which --metric is better (default lower)" },
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(x.alpha), .lo = 1e-9,
	  .hi = 0.5, .help = "significance level of the slow mark (default 0.05)" },
	{ .name = "material", .value = "P", .kind = OPT_FRACTION, .field = F(x.material), .lo = 0,
	  .hi = 10, .help = "how much slower counts (default 2%)" },
	{ .name = "uarch", .value = "P", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profile of the prediction: a name, host or FILE.json" },
	{ .name = "llvm-mca", .value = "in-process|PROGRAM|none", .kind = OPT_STRING,
	  .field = F(x.llvm_mca), .help = LLVM_MCA_HELP },
	{ .name = "seed", .value = "N", .kind = OPT_U64, .field = F(x.seed), .max = ULONG_MAX,
	  .help = "seed of the random order and offsets (default 1)" },
	{ .name = "stdin", .value = "FILE|-", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "every run's standard input, from its start ('-':\n"
		  "/dev/null; default: straddle's own unless a terminal)" },
	{ .name = "replay", .kind = OPT_SET, .field = F(replay),
	  .help = "measure the loop itself, not the program: snapshots of\n"
		  "the program's registers at its header, each run again\n"
		  "to the loop's exit in a child at every offset, timed\n"
		  "(cycles an iteration; x86-64)" },
	{ .name = "no-replay", .kind = OPT_SET, .field = F(no_replay),
	  .help = "measure the program's time (the default)" },
	{ .name = "snapshots", .value = "N", .kind = OPT_UNSIGNED, .field = F(snapshots), .min = 4,
	  .max = 100000, .help = "--replay: stop after N complete snapshots (default 200)" },
	{ .name = "repeats", .value = "N", .kind = OPT_UNSIGNED, .field = F(repeats), .min = 1,
	  .max = 9, .help = "--replay: time each snapshot N times at each offset,\n"
		  "keep the median (default 1)" },
	{ .name = "warm", .value = "N", .kind = OPT_UNSIGNED, .field = F(warm), .max = 1000000,
	  .help = "--replay: replay each snapshot untimed first until N\n"
		  "iterations have run, its writes undone each time: the\n"
		  "predictors warm, as the program's are (default 4096)" },
	{ .name = "replay-bound", .value = "S", .kind = OPT_SECONDS, .field = F(replay_bound),
	  .help = "--replay: a replay that has not left the loop after S\n"
		  "seconds is killed and counted (default 2)" },
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
	const struct profile *p[1];
	size_t np = 0;

	c->x.rf = c->rf;
	c->offsets = "current,best,worst";
	c->x.align = 64, c->x.runs = 0, c->x.budget_s = 300, c->x.alpha = 0.05, c->x.material = 0.02;
	c->x.seed = 1, c->uarch = "host", c->direction = "lower";
	c->snapshots = 200, c->repeats = 1, c->warm = 4096, c->replay_bound = 2;
	c->x.llvm_mca = getenv("STRADDLE_LLVM_MCA");
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
	if (strcmp(c->direction, "lower") && strcmp(c->direction, "higher")) {
		complain("--direction", "'%s' is not lower or higher", c->direction);
		return -1;
	}
	/* a replay's runs are few: it stops when its snapshots are in */
	if (!c->x.runs)
		c->x.runs = c->replay ? 100 : 10;
	c->x.higher = c->metric && strcmp(c->direction, "higher") == 0;
	if (c->metric && regcomp(&c->metric_re, c->metric, REG_EXTENDED)) {
		complain("--metric", "'%s' is not an extended regular expression", c->metric);
		return -1;
	}
	if (c->metric)
		c->x.metric = &c->metric_re, c->x.metric_text = c->metric;
	if (select_profiles(c->uarch, p, 1, &np, c->host_why, sizeof c->host_why))
		return -1;
	c->x.profile = p[0];
	c->x.rng = c->x.seed ? c->x.seed : 1;
	return 0;
}

/* The preload library: beside the binary (the build tree), or in the
 * libexec directory beside its bin/ (make install). */
static const char *find_preload(void)
{
	static char buf[PATH_MAX + 64];
	static const char *const rel[] = { "/libstraddle-place.so",
		"/../libexec/straddle/libstraddle-place.so", "/../libstraddle-place.so" };
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	const char *env = getenv("STRADDLE_PRELOAD");

	if (env && *env)
		return access(env, R_OK) == 0 ? env : NULL;
	if (n <= 0)
		return NULL;
	self[n] = 0;
	*strrchr(self, '/') = 0;
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		snprintf(buf, sizeof buf, "%s%s", self, rel[i]);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

/* ---- what is moved ---- */

static int open_files(struct place_cmd *c)
{
	char buf[PATH_MAX];
	const char *exe = command_find(c->x.argv[0], buf, sizeof buf);
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
		if (c->rf[i].img.arch != place_host_arch()) {
			complain(c->files[i], "%s code: place runs only the host's (%s)",
				 arch_name(c->rf[i].img.arch), arch_name(place_host_arch()));
			return -1;
		}
	}
	return 0;
}

/* The loop a single moved function is placed by: --loop's, else its only
 * innermost loop; none: its entry. */
static int choose_loop(struct place_cmd *c, struct reloc_file *rf, const struct reloc_func *f,
		       uint64_t want, bool asked)
{
	struct reloc_loop *l;
	size_t n = reloc_loops(rf, f, &l), inner = 0, pick = SIZE_MAX;
	char a[20];

	for (size_t i = 0; i < n; i++) {
		if (asked && (l[i].start == want || l[i].header == want) && pick == SIZE_MAX)
			pick = i;
		if (!asked && l[i].innermost)
			inner++, pick = i;
	}
	if (!asked && inner != 1)
		pick = SIZE_MAX;
	if (asked && pick == SIZE_MAX) {
		complain(c->loop_text, "no loop of %s starts there (it has %zu loop%s%s%s)", f->name,
			 n, n == 1 ? "" : "s", n ? ", the first at " : "",
			 n ? hex_addr(a, l[0].start) : "");
		free(l);
		return -1;
	}
	c->x.loop_start = pick == SIZE_MAX ? f->addr : l[pick].start;
	c->x.loop_end = pick == SIZE_MAX ? f->addr + f->size : l[pick].end;
	free(l);
	return 0;
}

static void count_refused(struct place_cmd *c, const struct reloc_file *rf)
{
	for (size_t i = 0; i < rf->nfn; i++) {
		const struct reloc_func *f = &rf->fn[i];
		char a[20];

		c->refused[f->refused]++;
		if (f->refused && c->verbose)
			fprintf(stderr, "straddle: %s: %s not moved: %s (at %s)\n", rf->img.path,
				f->name, reloc_refusal_name(f->refused), hex_addr(a, f->refused_at));
	}
}

static int choose_functions(struct place_cmd *c)
{
	uint64_t loop = 0;
	size_t total = 0;

	if (c->loop_text) {
		char *end;

		loop = strtoull(c->loop_text, &end, 16);
		if (*end || end == c->loop_text) {
			complain("--loop", "'%s' is not a hex address", c->loop_text);
			return -1;
		}
		struct reloc_func *f = reloc_choose_at(&c->rf[0], loop);
		if (!f) {
			complain(c->loop_text, "%s has no function there", c->files[0]);
			return -1;
		}
		total = 1;
	}
	for (size_t i = 0; c->func && i < c->x.nrf; i++)
		total += reloc_choose(&c->rf[i], c->func);
	if (!total) {
		complain(c->func, "no function of %s matches", c->files[0]);
		return -1;
	}
	for (size_t i = 0; i < c->x.nrf; i++)
		count_refused(c, &c->rf[i]);
	if (total == 1) {
		struct reloc_file *rf = c->rf[0].nfn ? &c->rf[0] : NULL;

		for (size_t i = 0; !rf && i < c->x.nrf; i++)
			rf = c->rf[i].nfn ? &c->rf[i] : NULL;
		c->x.subject = &rf->fn[0];
		if (c->x.subject->refused) {
			char a[20];

			complain(c->x.subject->name, "cannot be moved: %s (at %s)",
				 reloc_refusal_name(c->x.subject->refused), hex_addr(a, c->x.subject->refused_at));
			return -1;
		}
		if (choose_loop(c, rf, c->x.subject, loop, c->loop_text != NULL))
			return -1;
	}
	if (!c->refused[RELOC_OK]) {
		complain(c->func, "none of the %zu functions can be moved (--verbose says why)", total);
		return -1;
	}
	return 0;
}

/* ---- the arms ---- */

static int add_arm(struct place_cmd *c, enum place_arm_kind k, uint32_t offset, const char *name)
{
	struct err e;

	if (experiment_add_arm(&c->x, k, offset, name, &e)) {
		complain("--offsets", "%s", e.msg);
		return -1;
	}
	return 0;
}

static int parse_offsets(struct place_cmd *c)
{
	char *spec = xstrdup(c->offsets), *save = NULL;
	uint32_t best = 0, worst = 0;
	int rc = 0;

	if (c->x.subject)
		experiment_best_and_worst(&c->x, &best, &worst);
	add_arm(c, PLACE_UNMOVED, 0, "unmoved");
	add_arm(c, PLACE_CONTROL, c->x.current, "control");
	for (char *t = strtok_r(spec, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		unsigned long a, b, step = 1;
		int used = 0;
		char name[32];

		if (strcmp(t, "random") == 0)
			rc = add_arm(c, PLACE_RANDOM, 0, "random");
		else if (strcmp(t, "current") == 0)
			;
		else if ((strcmp(t, "best") == 0 || strcmp(t, "worst") == 0) && !c->x.subject) {
			complain("--offsets", "'%s' needs one loop: name one function or --loop", t);
			rc = -1;
		} else if (strcmp(t, "best") == 0 || strcmp(t, "worst") == 0) {
			snprintf(name, sizeof name, "%s", t);
			rc = add_arm(c, PLACE_OFFSET, *t == 'b' ? best : worst, name);
		} else if ((sscanf(t, "%lu..%lu:%lu%n", &a, &b, &step, &used) == 3 && !t[used]) ||
			   (sscanf(t, "%lu..%lu%n", &a, &b, &used) == 2 && !t[used]) ||
			   (sscanf(t, "%lu%n", &a, &used) == 1 && !t[used] && (b = a, 1))) {
			if (t[0] == '-' || b < a || b >= c->x.align || !step) {
				complain("--offsets", "'%s': need 0 <= A <= B < %u and STEP >= 1", t,
					 c->x.align);
				rc = -1;
			}
			for (unsigned long o = a; !rc && o <= b; o += step) {
				snprintf(name, sizeof name, "%lu", o);
				rc = add_arm(c, PLACE_OFFSET, (uint32_t)o, name);
			}
		} else {
			complain("--offsets", "'%s' is not A..B[:STEP], current, best, worst or random", t);
			rc = -1;
		}
	}
	free(spec);
	return rc;
}

/* ---- output ---- */

void place_predicted_text(const struct place_arm *a, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = 0;
	if (a->kind == PLACE_UNMOVED || a->kind == PLACE_RANDOM) {
		snprintf(buf, n, "n/a");
		return;
	}
	for (size_t i = 0; i < a->npredicted && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s@%u", i ? "," : "",
				       rule_name(a->predicted[i].rule), a->predicted[i].window);
	if (!buf[0])
		snprintf(buf, n, "-");
}

static const char *unit(const struct place_cmd *c)
{
	return c->metric ? "" : "s";
}

/* What the ratio, p and slow columns are. */
static void print_marks_note(const struct place_cmd *c)
{
	const struct place_arm *ref = NULL;

	for (size_t i = 0; i < c->x.narms; i++)
		if (c->x.arm[i].mark.reference)
			ref = &c->x.arm[i];
	if (c->x.rounds < STATS_PLACEMENT_MIN_ROUNDS) {
		printf("ratio: of medians to the best (%s); no slow mark under %d rounds\n",
		       ref ? ref->name : "-", STATS_PLACEMENT_MIN_ROUNDS);
		return;
	}
	printf("ratio, p: each arm against the best of the %u even rounds (%s) on the %u odd ones, "
	       "p adjusted for the %zu arms tested (Holm); slow: p < %g and ratio > %g\n",
	       (c->x.rounds + 1) / 2, ref ? ref->name : "-", c->x.rounds / 2, c->x.narms - 1,
	       c->x.alpha, 1 + c->x.material);
}

static void print_table(const struct place_cmd *c)
{
	static const char *const cols[] = { "arm", ">offset", ">runs", ">median", ">95% CI",
		">ratio", ">p", "slow", ">model", "predicted" };
	struct table t;

	table_init(&t, 10, cols);
	for (size_t i = 0; i < c->x.narms; i++) {
		const struct place_arm *a = &c->x.arm[i];
		char off[16], runs[16], med[32], ci[64], ratio[16], p[16], pred[128], model[16];

		snprintf(off, sizeof off, a->kind == PLACE_UNMOVED || a->kind == PLACE_RANDOM || !c->x.subject ?
			 "-" : "%u", a->offset);
		snprintf(runs, sizeof runs, "%zu", a->n);
		snprintf(med, sizeof med, "%.4f%s", a->sum.median, unit(c));
		snprintf(ci, sizeof ci, "[%.4f, %.4f]", a->sum.ci_lo, a->sum.ci_hi);
		snprintf(ratio, sizeof ratio, "%.3f", a->ratio);
		snprintf(p, sizeof p, a->mark.n ? "%.3g" : "-", a->p);
		place_predicted_text(a, pred, sizeof pred);
		snprintf(model, sizeof model, a->predicted_slowdown ? "%.3f" : "-", a->predicted_slowdown);
		table_row(&t, a->name, off, runs, med, ci, ratio, p, a->slow ? "slow" : "", model, pred);
	}
	table_print(&t, stdout);
	table_free(&t);
	print_marks_note(c);
}

static const struct place_arm *arm_kind(const struct place_cmd *c, enum place_arm_kind k, const char *name)
{
	for (size_t i = 0; i < c->x.narms; i++)
		if (c->x.arm[i].kind == k && (!name || strcmp(c->x.arm[i].name, name) == 0))
			return &c->x.arm[i];
	return NULL;
}

/* The change from one arm to another, round by round (paired: the drift
 * of the machine cancels in each round's ratio): % with its CI and p; on
 * the odd rounds alone for an arm chosen on the even ones. */
static void change_line(const struct place_cmd *c, const struct place_arm *from,
			const struct place_arm *to, bool chosen, char *buf, size_t n)
{
	struct paired pr;

	if (chosen)
		stats_paired_ratio_odd(from->v, to->v, from->n < to->n ? from->n : to->n,
				       c->x.alpha, &pr);
	else
		stats_paired_ratio(from->v, to->v, from->n < to->n ? from->n : to->n, c->x.alpha, &pr);
	/* significant but smaller than --material is no verdict either, as
	 * for the slow mark: two invocations on this guest gave +1.1% (p
	 * 0.008) and -0.3% (p 0.79) for the same move of fill.c's loop */
	snprintf(buf, n, "%+.1f%% [%+.1f, %+.1f] (p %.2g%s)", 100 * (pr.ratio - 1),
		 100 * (pr.lo - 1), 100 * (pr.hi - 1), pr.p, pr.p >= c->x.alpha ? ": inconclusive" :
		 fabs(pr.ratio - 1) <= c->x.material ? ": below --material" : "");
}

/* One line per offset arm against the control; with more than a few,
 * the fastest and slowest only: chosen on the even rounds and measured on
 * the odd ones (chosen and measured on the same rounds, the fastest of 64
 * is fast by luck too). */
static void print_moves(const struct place_cmd *c, const struct place_arm *ctl, const char *what)
{
	const struct place_arm *lo = NULL, *hi = NULL;
	size_t n = 0;
	char line[200];
	bool split = c->x.rounds >= STATS_PLACEMENT_MIN_ROUNDS;

	for (size_t i = 0; i < c->x.narms; i++) {
		const struct place_arm *a = &c->x.arm[i];
		double m = split ? stats_even_median(a->v, a->n) : a->sum.median;

		if (a->kind != PLACE_OFFSET)
			continue;
		n++;
		lo = !lo || m < (split ? stats_even_median(lo->v, lo->n) : lo->sum.median) ? a : lo;
		hi = !hi || m > (split ? stats_even_median(hi->v, hi->n) : hi->sum.median) ? a : hi;
	}
	for (size_t i = 0; i < c->x.narms; i++) {
		const struct place_arm *a = &c->x.arm[i];

		if (a->kind != PLACE_OFFSET || (n > 4 && a != lo && a != hi))
			continue;
		char named[48] = "";

		/* best and worst are the model's; a number is the user's */
		if (!isdigit((unsigned char)a->name[0]))
			snprintf(named, sizeof named, " (the model's %s)", a->name);
		if (n > 4)
			snprintf(named, sizeof named, " (the %s of the even rounds)",
				 a == lo ? "fastest" : "slowest");
		change_line(c, ctl, a, n > 4 && split, line, sizeof line);
		printf("moving %s's %s from %u to %u of its %u-byte %s%s: %s of %s%s\n",
		       c->x.subject->name, c->x.loop_start == c->x.subject->addr ? "entry" : "loop",
		       c->x.current, a->offset, c->x.align, c->x.align == 64 ? "line" : "block", named,
		       line, what, n > 4 && split ? " on the odd rounds" : "");
	}
}

static void print_answer(const struct place_cmd *c)
{
	const struct place_arm *un = arm_kind(c, PLACE_UNMOVED, NULL), *ctl = arm_kind(c, PLACE_CONTROL, NULL);
	const char *what = c->metric ? "its metric" : c->x.wall ? "its wall time" : "its CPU time";
	char line[200], ctl_line[200];
	size_t agree = 0, total = 0, open = 0;

	/* only marks that hold count: slow, or surely not (its interval
	 * within --material); the rest are said to be open */
	for (size_t i = 0; i < c->x.narms; i++) {
		const struct place_arm *a = &c->x.arm[i];

		if (!c->x.subject || (a->kind != PLACE_OFFSET && a->kind != PLACE_CONTROL))
			continue;
		if (!a->mark.slow && !a->mark.fast) {
			open++;
			continue;
		}
		total++, agree += a->mark.slow == (a->predicted_slowdown > 1 + c->x.material);
	}
	change_line(c, un, ctl, false, ctl_line, sizeof ctl_line);
	if (c->x.subject)
		printf("\ncontrol (a copy at offset %u) against the unmoved program: %s\n", c->x.current,
		       ctl_line);
	else
		printf("\ncontrol (each copy at its function's own offset) against the unmoved "
		       "program: %s\n", ctl_line);
	if (c->x.subject) {
		print_moves(c, ctl, what);
		printf("model (%s; back end %.2f cycles an iteration, %s) and measurement agree on "
		       "%zu of %zu placements measured surely (model: costs more than %.0f%%); %zu "
		       "neither slow nor surely not\n", c->x.profile->name, c->x.back_end.cycles,
		       cost_source_name(c->x.back_end.source), agree, total, 100 * c->x.material, open);
	} else if (arm_kind(c, PLACE_RANDOM, NULL)) {
		const struct place_arm *r = arm_kind(c, PLACE_RANDOM, NULL);

		change_line(c, ctl, r, false, line, sizeof line);
		printf("random layouts against the control: %s of %s; layout noise (CV) %.2f%% "
		       "against the control's %.2f%%\n", line, what, 100 * r->sum.cv, 100 * ctl->sum.cv);
	}
}

static void print_text(const struct place_cmd *c)
{
	char a[20], b[20];

	printf("%s: %zu function%s moved", c->files[0], c->refused[RELOC_OK],
	       c->refused[RELOC_OK] == 1 ? "" : "s");
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (c->refused[r])
			printf(", %zu refused (%s)", c->refused[r], reloc_refusal_name(r));
	printf("\n");
	if (c->x.subject)
		printf("%s: loop %s..%s, %" PRIu64 " bytes, at offset %u of its %u-byte block today\n",
		       c->x.subject->name, hex_addr(a, c->x.loop_start), hex_addr(b, c->x.loop_end),
		       c->x.loop_end - c->x.loop_start, c->x.current, c->x.align);
	printf("measured: %s; stopped by %s after %u rounds (%.1f s); ", c->metric ? c->metric :
	       c->x.wall ? "wall time" : "CPU time (user + system)", c->x.stopped_by, c->x.rounds,
	       c->x.elapsed_s);
	if (c->x.no_output_check)
		printf("output not compared (--no-output-check), status the same in %u of %u runs\n",
		       c->x.same_status, c->x.checked ? c->x.checked - 1 : 0);
	else
		printf("output identical in %u of %u runs\n", c->x.identical,
		       c->x.checked ? c->x.checked - 1 : 0);
	if (c->x.base_note[0])
		complain(c->x.argv[0], "%s", c->x.base_note);
	if (c->x.no_map)
		complain("place", "%u run%s found /tmp/perf-PID.map taken by another file and left "
			 "it alone: no perf map for %s", c->x.no_map, c->x.no_map == 1 ? "" : "s",
			 c->x.no_map == 1 ? "it" : "them");
	if (c->x.napply)
		printf("the preload library applied the plan in %.0f us (median of %zu; max %.0f us)\n",
		       experiment_apply_median_us(&c->x), c->x.napply, experiment_apply_max_us(&c->x));
	print_table(c);
	print_answer(c);
}

/* ---- files ---- */

static int write_json(const struct place_cmd *c)
{
	return write_result(results_place(&c->x, c->x.subject ? c->x.subject->name : c->func,
					  c->refused, c->argc, c->argv), c->out_json);
}

static int write_plot_file(FILE *f, void *ctx)
{
	return plot_svg(f, ctx);
}

/* The measure against the offset: the control and each offset arm. */
static int write_plot(const struct place_cmd *c)
{
	double x[PLACE_MAX_ARMS], y[PLACE_MAX_ARMS], lo[PLACE_MAX_ARMS], hi[PLACE_MAX_ARMS];
	double sh[PLACE_MAX_ARMS];
	bool mark[PLACE_MAX_ARMS];
	size_t n = 0, nsh = 0;
	struct err e;

	for (uint32_t o = 0; o < c->x.align; o++)         /* by offset: a line, not a zigzag */
		for (size_t i = 0; i < c->x.narms; i++) {
			const struct place_arm *a = &c->x.arm[i];

			if ((a->kind != PLACE_OFFSET && a->kind != PLACE_CONTROL) || a->offset != o)
				continue;
			x[n] = a->offset, y[n] = a->sum.median, lo[n] = a->sum.ci_lo;
			hi[n] = a->sum.ci_hi, mark[n] = a->slow;
			if (a->npredicted)
				sh[nsh++] = a->offset;
			n++;
		}
	struct plot_series s = { c->x.subject ? c->x.subject->name : c->func, x, y, lo, hi, mark, n };
	struct plot p = { "straddle place: the program's median per placement (95% CI)",
		"offset of the loop in its line", c->metric ? c->metric : "seconds", &s, 1, NULL, 0,
		sh, nsh, "grey bands: the model predicts a hazard there", NULL };
	if (write_atomic(c->plot, write_plot_file, &p, &e)) {
		complain(c->plot, "%s", e.msg);
		return -1;
	}
	return 0;
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

	if (parse_options(c, argc, argv) || open_files(c) || choose_functions(c))
		return -1;
	if (command_input_open(&c->input, c->stdin_path, &e)) {
		complain("--stdin", "%s", e.msg);
		return -1;
	}
	c->x.input = &c->input;
	if (c->replay && prepare_replay(c))
		return -1;
	experiment_collect(&c->x);
	if (parse_offsets(c) || (c->replay && add_arm(c, PLACE_REPLAY, c->x.current, "replay")))
		return -1;
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
	if ((!c.out_json || strcmp(c.out_json, "-") != 0) && c.x.replay)
		place_replay_print(&c.x, c.files[0], c.refused[RELOC_OK]);
	else if (!c.out_json || strcmp(c.out_json, "-") != 0)
		print_text(&c);
	if (c.out_json && write_json(&c))
		rc = EXIT_USAGE;
	if (c.plot && write_plot(&c))
		rc = EXIT_USAGE;
out:
	cleanup(&c);
	return rc;
}
