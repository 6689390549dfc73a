/* straddle prove -- COMMAND: record the program, find its hottest loops
 * that straddle a window (scan --hot's cost model), move each to its best
 * placement and back with place, and hold what the model predicted against
 * what the program measured (issue 26, part 4). The record and place are
 * run as they are run by hand (this binary's own commands, their output on
 * standard error as progress), so what prove says can be redone one step
 * at a time. */
#include "cmd.h"
#include "../measure/measure.h"
#include "../report/report.h"
#include "../results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROVE_MAX 16

struct prove_cmd {
	const char *uarch, *llvm_mca, *out_json, *keep;
	unsigned top, runs;
	double time_s, min_share, material, alpha;
	bool wall;
	char **argv;                    /* the command */
	int argc;                       /* of straddle prove, for the file */
	char **self_argv;
	char dir[PATH_MAX];             /* the record and place files */
	bool made_dir;
	const struct profile *profile;
	char host_why[HOST_WHY_MAX];
	struct loop_trial trial[PROVE_MAX];
	size_t ntrial;
};

static int cmd_prove(int argc, char **argv);

#define F(field) offsetof(struct prove_cmd, field)

static const struct cmd_option prove_options[] = {
	{ .name = "top", .value = "N", .kind = OPT_UNSIGNED, .field = F(top), .min = 1,
	  .max = PROVE_MAX, .help = "hot straddling loops to measure (default 3)" },
	{ .name = "min-share", .value = "P", .kind = OPT_FRACTION, .field = F(min_share),
	  .lo = 1e-4, .hi = 1,
	  .help = "a loop with less of the samples is not measured: its\n"
		  "cost cannot show in the program's time (default 5%)" },
	{ .name = "material", .value = "P", .kind = OPT_FRACTION, .field = F(material),
	  .lo = 1e-4, .hi = 1,
	  .help = "a loop slowdown that counts as a cost (default 3%)" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(runs), .min = 2,
	  .max = 100000, .help = "rounds of place for each loop (default 30)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(time_s),
	  .help = "or stop each loop's place after S seconds (default 120)" },
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(alpha), .lo = 1e-9,
	  .hi = 0.5, .help = "significance level of a measured cost (default 0.05)" },
	{ .name = "wall", .kind = OPT_SET, .field = F(wall),
	  .help = "measure wall time, not the CPU time it used" },
	{ .name = "uarch", .value = "P", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profile of the prediction: a name, host or FILE.json" },
	{ .name = "llvm-mca", .value = "PROGRAM|none", .kind = OPT_STRING, .field = F(llvm_mca),
	  .help = "the cost model's back end, as for scan" },
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
		 "3% loop slowdown moves the program 0.15%, under this guest's 2-3% noise a\n"
		 "run. Loops whose span is uncertain (an unresolved indirect jump) are\n"
		 "listed, not measured: the model cannot judge them.\n"
		 "\n"
		 "Exit status: 0 done (agreeing or not), 2 bad usage, a program that could\n"
		 "not be run or recorded, or a result that could not be written.\n",
};

static int parse_options(struct prove_cmd *c, int argc, char **argv)
{
	const struct profile *p[1];
	char path[PATH_MAX];
	size_t np;

	c->top = 3, c->runs = 30, c->time_s = 120, c->min_share = 0.05;
	c->material = 0.03, c->alpha = 0.05, c->uarch = "host";
	c->llvm_mca = getenv("STRADDLE_LLVM_MCA");
	c->argc = argc, c->self_argv = argv;
	if (parse_command_line(&prove_command, c, argc, argv))
		return -1;
	if (optind >= argc) {
		complain("prove", "name the command to run after --");
		return -1;
	}
	c->argv = argv + optind;
	if (!command_find(c->argv[0], path, sizeof path)) {
		complain(c->argv[0], "no such command in PATH");
		return -1;
	}
	if (select_profiles(c->uarch, p, 1, &np, c->host_why, sizeof c->host_why))
		return -1;
	c->profile = p[0];
	return 0;
}

/* ---- the steps, each a command of this binary ---- */

static char self_exe[PATH_MAX];
static char cleanup_paths[PROVE_MAX + 2][PATH_MAX + 32];     /* for a signal: files, then the directory */
static volatile sig_atomic_t ncleanup;
/* The step running, for a signal to end too: a prove sent SIGINT alone
 * (not its terminal's process group) left its place running 2 minutes
 * into a directory it had removed. */
static volatile sig_atomic_t step_pid;

/* This binary's command args[] with its standard input /dev/null and its
 * standard output on our standard error (progress; ours is the table), or
 * on /dev/null (record's is the program's own). Its exit status, 128+N for signal N, or -1 when it could
 * not be started. */
static int run_self(char *const *args, bool quiet)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		/* the program reads nothing, as under place (command.c) */
		dup2(null, STDIN_FILENO);
		dup2(quiet ? null : STDERR_FILENO, STDOUT_FILENO);
		execv(self_exe, args);
		_exit(127);
	}
	step_pid = pid;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			step_pid = 0;
			return -1;
		}
	step_pid = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A step's arguments, NULL-ended: this binary's command, its options,
 * then "--" and the program. */
struct step {
	const char **v;
	size_t n, cap;
};

static void step_add(struct step *s, const char *arg)
{
	GROW(s->v, s->cap, s->n + 2);
	s->v[s->n++] = arg;
	s->v[s->n] = NULL;
}

static int step_run(const struct prove_cmd *c, struct step *s, bool quiet)
{
	int st;

	step_add(s, "--");
	for (char **a = c->argv; *a; a++)
		step_add(s, *a);
	st = run_self((char *const *)s->v, quiet);
	free(s->v);
	return st;
}

static void path_in_dir(const struct prove_cmd *c, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", c->dir, name);
}

/* Kept only with --keep; a signal's handler removes them too. */
static void remember(const struct prove_cmd *c, const char *path)
{
	if (!c->keep && ncleanup < PROVE_MAX + 1)
		snprintf(cleanup_paths[ncleanup++], sizeof cleanup_paths[0], "%s", path);
}

static void remove_files(void)
{
	for (sig_atomic_t i = 0; i < ncleanup; i++)
		unlink(cleanup_paths[i]);
}

static int make_dir(struct prove_cmd *c)
{
	const char *tmp = getenv("TMPDIR");

	if (c->keep) {
		snprintf(c->dir, sizeof c->dir, "%s", c->keep);
		if (mkdir(c->dir, 0755) && errno != EEXIST) {
			complain(c->keep, "%s", strerror(errno));
			return -1;
		}
		return 0;
	}
	snprintf(c->dir, sizeof c->dir, "%s/straddle-prove.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir)) {
		complain(c->dir, "%s", strerror(errno));
		return -1;
	}
	c->made_dir = true;
	return 0;
}

static int record(struct prove_cmd *c, char *path, size_t n)
{
	struct step s = { 0 };
	int st;

	path_in_dir(c, "record.json", path, n);
	remember(c, path);
	say("recording: straddle record -o %s -- %s ...", path, c->argv[0]);
	for (const char *const *a = (const char *const[]){ "straddle", "record", "-o", path,
		"--uarch", c->uarch, NULL }; *a; a++)
		step_add(&s, *a);
	st = step_run(c, &s, true);
	if (st < 0 || access(path, R_OK) != 0) {
		complain("prove", "straddle record did not write %s (exit %d): see above", path, st);
		return -1;
	}
	return 0;
}

/* ---- the loops worth moving ---- */

struct candidates {
	struct loop_trial *v;
	size_t n, cap;
	size_t at_best;                 /* hot loops that straddle nothing more than they must */
};

/* The loop's first byte: place places a loop by it (its span's start),
 * where the scan names a loop by its header (paste's 0x2921, a header
 * 33 bytes into a span from 0x2900: the offsets asked were the header's,
 * place took them for the span's). */
static uint64_t first_byte(const struct scan_result *r, const struct loop_report *l)
{
	return l->npiece ? r->piece[l->piece].start : l->start;
}

/* The most branches at fault a loop's placement model holds. */
#define PROVE_MAX_BRANCHES 16

/* The loop's placements as its profile prices them (model/rules.c): its
 * pieces' windows of the one deciding its cost (the line when a branch
 * alone does) and the branches at fault today under that profile that
 * it prices (not an outer loop's own: once an outer iteration); b holds
 * them. */
static struct loop_moves moves_of(const struct scan_result *r, const struct loop_report *l,
				     struct placed_branch b[PROVE_MAX_BRANCHES])
{
	const struct profile *p = r->profile[l->cost.profile];
	struct loop_moves m = { .piece = r->piece + l->piece, .npiece = l->npiece,
		.start = first_byte(r, l), .align = 64,
		.window = l->cost.window ? l->cost.window : p->line,
		.window_price = p->window_cycles > 0 ? p->window_cycles : 1, .branch = b,
		.branch_window = p->branch_window, .branch_price = profile_branch_price(p, false),
		.split_price = profile_branch_price(p, true) };

	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++) {
		const struct hazard *z = &r->hazard[h];

		if (z->profile == p && z->branch_end && !z->outer_only &&
		    m.nbranch < PROVE_MAX_BRANCHES)
			b[m.nbranch++] = (struct placed_branch){ z->pair, z->branch, z->branch_end };
	}
	return m;
}

/* The offsets of its line prove measures a loop at: the best for its
 * pieces and branches (place's own "best" places the span as one piece,
 * which for lz4's, bzip2's and expand's loops fit today as well as
 * anywhere) and the layout controls. */
static void offsets_of(const struct scan_result *r, const struct loop_report *l,
		       struct loop_trial *t)
{
	struct placed_branch b[PROVE_MAX_BRANCHES];
	struct loop_moves m = moves_of(r, l, b);

	t->current = (uint32_t)(m.start % 64);
	t->best = loop_moves_best(&m);
	t->nlayout = loop_moves_controls(&m, t->best, t->layout, PROOF_LAYOUT_MAX);
}

/* No offset lowers the loop's priced front end (pieces with gaps:
 * windows_best counts their bytes as one run). */
static bool at_its_best(const struct scan_result *r, const struct loop_report *l)
{
	struct placed_branch b[PROVE_MAX_BRANCHES];
	struct loop_moves m = moves_of(r, l, b);

	return loop_moves_best(&m) == m.start % 64;
}

static void add_loops(const struct prove_cmd *c, const char *path, const struct scan_result *r,
		      struct candidates *out)
{
	for (size_t f = 0; f < r->nfunc; f++) {
		const struct func_report *fr = &r->func[f];

		for (uint32_t i = fr->loop; i < fr->loop + fr->nloop; i++) {
			const struct loop_report *l = &r->loop[i];
			struct loop_trial *t;

			if (hot_share(r, l->samples) < c->min_share)
				continue;
			if (at_its_best(r, l)) {
				out->at_best++;
				continue;
			}
			GROW(out->v, out->cap, out->n + 1);
			t = &out->v[out->n++];
			*t = (struct loop_trial){ .file = xstrdup(path),
				.func = xstrdup(r->funcs.v[fr->func].shown), .start = l->start,
				.end = l->end, .samples = l->samples, .run_samples = r->run_samples,
				.cost = l->cost };
			offsets_of(r, l, t);
			t->proof = (struct loop_proof){ .share = hot_share(r, l->samples),
				.predicted = l->cost.slowdown, .material = c->material,
				.alpha = c->alpha };
			stats_share_ci(l->samples, r->run_samples, &t->proof.share_lo,
				       &t->proof.share_hi);
			proof_judge(&t->proof);         /* the model's verdict; nothing seen yet */
			if (l->span_uncertain)
				snprintf(t->why_not, sizeof t->why_not, "span uncertain (%u indirect "
					 "jump%s unresolved in its function)", fr->unresolved,
					 fr->unresolved == 1 ? "" : "s");
		}
	}
}

/* One sampled file, scanned with the cost model and its samples. */
static void scan_file(const struct prove_cmd *c, const struct hot_run *h, const struct hot_file *f,
		      struct candidates *out)
{
	const struct profile *p[1] = { c->profile };
	struct scan_opts o = { .profiles = p, .nprofiles = 1, .jobs = 2, .keep_all = true,
		.cost = true, .cost_exact = true, .llvm_mca = c->llvm_mca };
	struct elf_image img;
	struct scan_result r;
	struct err e = { "" };

	if (elf_open_file(&img, f->path, &e) || scan_image(&img, &o, &r, &e)) {
		complain(f->path, "%s: its loops are not measured", e.msg);
		elf_close(&img);
		return;
	}
	hot_attribute(&r, f, h->total);
	add_loops(c, f->path, &r, out);
	scan_result_free(&r);
	elf_close(&img);
}

static int by_samples(const void *a, const void *b)
{
	const struct loop_trial *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static bool chosen(const struct prove_cmd *c, const struct loop_trial *t)
{
	for (size_t i = 0; i < c->ntrial; i++)
		if (c->trial[i].start == t->start && strcmp(c->trial[i].file, t->file) == 0)
			return true;
	return false;
}

/* The files with at least 1% of the samples (issue 26, item 5's
 * default), their hot straddling loops, the most sampled first: the
 * first --top measurable ones, and the uncertain ones before them. */
static int choose_loops(struct prove_cmd *c, const char *record_path, struct candidates *all)
{
	struct hot_run h;
	struct err e = { "" };
	size_t measurable = 0;

	if (results_read_record(record_path, &h, &e)) {
		complain(record_path, "%s", e.msg);
		return -1;
	}
	for (size_t i = 0; i < h.nfile; i++)
		if (h.file[i].path[0] == '/' && (double)h.file[i].samples >= 0.01 * (double)h.total)
			scan_file(c, &h, &h.file[i], all);
	hot_run_free(&h);
	if (all->n)
		qsort(all->v, all->n, sizeof *all->v, by_samples);
	for (size_t i = 0; i < all->n && c->ntrial < PROVE_MAX && measurable < c->top; i++) {
		if (chosen(c, &all->v[i]))
			continue;       /* nested loops of one header: place moves them as one */
		c->trial[c->ntrial++] = all->v[i];
		all->v[i].file = all->v[i].func = NULL;         /* moved */
		measurable += !c->trial[c->ntrial - 1].why_not[0];
	}
	return 0;
}

static void candidates_free(struct candidates *all)
{
	for (size_t i = 0; i < all->n; i++)
		free(all->v[i].file), free(all->v[i].func);
	free(all->v);
}

/* ---- each loop moved and measured ---- */

static int place_loop(const struct prove_cmd *c, const struct loop_trial *t, const char *path)
{
	char loop[24], runs[16], secs[32], best[16 * (PROOF_LAYOUT_MAX + 1)];
	struct step s = { 0 };
	size_t at;

	snprintf(loop, sizeof loop, "%#" PRIx64, t->start);
	at = (size_t)snprintf(best, sizeof best, "%u", t->best);
	for (size_t i = 0; i < t->nlayout; i++)
		at += (size_t)snprintf(best + at, sizeof best - at, ",%u", t->layout[i]);
	snprintf(runs, sizeof runs, "%u", c->runs);
	snprintf(secs, sizeof secs, "%g", c->time_s);
	for (const char *const *a = (const char *const[]){ "straddle", "place", "--file", t->file,
		"--loop", loop, "--offsets", best, "--runs", runs, "--time", secs, "--uarch",
		c->uarch, "-o", path, NULL }; *a; a++)
		step_add(&s, *a);
	if (c->wall)
		step_add(&s, "--wall");
	if (c->llvm_mca)
		step_add(&s, "--llvm-mca"), step_add(&s, c->llvm_mca);
	say("placing %s's loop at %s (%.1f%% of samples): straddle place --file %s --loop %s "
	    "--offsets %s ...", t->func, loop, 100.0 * (double)t->samples / (double)t->run_samples,
	    t->file, loop, best);
	return step_run(c, &s, false);
}

/* Place's arms of t's loop, turned into t's proof. */
static void judge(const struct prove_cmd *c, struct loop_trial *t, const struct result_file *f)
{
	struct place_arm_result unmoved, control, best;
	char name[16];

	if (results_place_arm(f, "unmoved", &unmoved) || results_place_arm(f, "control", &control)) {
		snprintf(t->why_not, sizeof t->why_not, "place's result has no control arm");
		return;
	}
	snprintf(name, sizeof name, "%u", t->best);
	if (control.offset != t->current) {
		/* paste's irreducible loop at 0x2921: place's span from 0x2900 */
		snprintf(t->why_not, sizeof t->why_not, "place's loop there has another span (its "
			 "first byte at %u of its line, the scan's at %u)", control.offset, t->current);
		return;
	}
	if (results_place_arm(f, name, &best)) {
		snprintf(t->why_not, sizeof t->why_not, "place's result has no arm at offset %u",
			 t->best);
		return;
	}
	t->place_predicted = (float)control.predicted;
	t->rounds = (unsigned)(control.n < best.n ? control.n : best.n);
	stats_paired_ratio(unmoved.v, control.v, unmoved.n < control.n ? unmoved.n : control.n,
			   c->alpha, &t->control);
	stats_paired_ratio(control.v, best.v, t->rounds, c->alpha, &t->proof.program);
	t->proof.nlayout = 0;
	for (size_t i = 0; i < t->nlayout; i++) {
		struct place_arm_result same;

		snprintf(name, sizeof name, "%u", t->layout[i]);
		if (results_place_arm(f, name, &same))
			continue;
		stats_paired_ratio(control.v, same.v, control.n < same.n ? control.n : same.n,
				   c->alpha, &t->proof.layout[t->proof.nlayout++]);
	}
	proof_judge(&t->proof);
}

static void measure_loop(struct prove_cmd *c, struct loop_trial *t, size_t k)
{
	char path[PATH_MAX + 32], name[32];
	struct result_file f;
	struct err e = { "" };
	int st;

	snprintf(name, sizeof name, "place-%zu.json", k + 1);
	path_in_dir(c, name, path, sizeof path);
	remember(c, path);
	st = place_loop(c, t, path);
	if (st != 0 || access(path, R_OK) != 0) {
		snprintf(t->why_not, sizeof t->why_not, "straddle place did not measure it (exit %d: "
			 "see above)", st);
		return;
	}
	if (results_read(path, &f, &e)) {
		snprintf(t->why_not, sizeof t->why_not, "%s", e.msg);
		return;
	}
	judge(c, t, &f);
	results_file_free(&f);
}

/* ---- the command ---- */

static char made_dir[PATH_MAX];

static void remove_dir(void)
{
	remove_files();
	if (made_dir[0])
		rmdir(made_dir);
}

static void on_signal(int sig)
{
	pid_t pid = (pid_t)step_pid;

	if (pid > 0) {          /* the step removes its own temporary files */
		kill(pid, sig);
		waitpid(pid, NULL, 0);
	}
	remove_dir();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int write_json(const struct prove_cmd *c)
{
	return write_result(results_prove(c->trial, c->ntrial, c->profile->name, c->argc,
					  c->self_argv), c->out_json);
}

static int prepare(struct prove_cmd *c, int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);

	if (parse_options(c, argc, argv))
		return -1;
	if (n <= 0) {
		complain("/proc/self/exe", "cannot find this straddle to run its commands");
		return -1;
	}
	self_exe[n] = 0;
	if (make_dir(c))
		return -1;
	if (c->made_dir)
		snprintf(made_dir, sizeof made_dir, "%s", c->dir);
	handle_terminating(on_signal);
	return 0;
}

static int cmd_prove(int argc, char **argv)
{
	struct prove_cmd c = { 0 };
	struct candidates all = { 0 };
	char rec[PATH_MAX + 32];
	int rc = EXIT_USAGE;

	if (prepare(&c, argc, argv))
		return EXIT_USAGE;
	if (record(&c, rec, sizeof rec) || choose_loops(&c, rec, &all))
		goto out;
	for (size_t i = 0; i < c.ntrial; i++)
		if (!c.trial[i].why_not[0])
			measure_loop(&c, &c.trial[i], i);
	if (!c.out_json || strcmp(c.out_json, "-") != 0)
		report_prove_text(c.trial, c.ntrial, all.at_best, c.min_share, c.profile->name, stdout);
	rc = c.out_json && write_json(&c) ? EXIT_USAGE : EXIT_OK;
out:
	remove_dir();
	candidates_free(&all);
	for (size_t i = 0; i < c.ntrial; i++)
		free(c.trial[i].file), free(c.trial[i].func);
	return rc;
}
