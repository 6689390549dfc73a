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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROVE_MAX 16
/* Rounds of place that show a loop's noise before its rounds are counted. */
#define PILOT_ROUNDS 6
/* A record for finding the hot loops may cost the program this much (its
 * samples' own time is the kernel's, not a loop's: the loops' shares
 * among themselves barely move) when the default rate gives too few. */
#define RECORD_COST_MAX 0.10
/* Samples a loop of --min-share would hold at least, for a share to be told. */
#define SAMPLES_AT_MIN_SHARE 20

struct prove_cmd {
	const char *uarch, *llvm_mca, *out_json, *keep, *stdin_path;
	unsigned top, runs;
	double time_s, min_share, material, alpha;
	double budget_left;             /* seconds: --time a loop, a skipped loop's passed on */
	bool wall, no_replay, replay;
	char input[PATH_MAX + 32];      /* --stdin for the steps */
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
	  .max = 100000, .help = "at most N rounds of place for each loop (default 300)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(time_s),
	  .help = "seconds of place for each loop; a loop skipped leaves\n"
		  "its time to the next (default 120)" },
	{ .name = "stdin", .value = "FILE|-", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "the program's standard input in every run ('-':\n"
		  "/dev/null; default: straddle's own unless a terminal)" },
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(alpha), .lo = 1e-9,
	  .hi = 0.5, .help = "significance level of a measured cost (default 0.05)" },
	{ .name = "wall", .kind = OPT_SET, .field = F(wall),
	  .help = "measure wall time, not the CPU time it used" },
	{ .name = "replay", .kind = OPT_SET, .field = F(replay),
	  .help = "judge each loop by itself, replayed from the program's\n"
		  "state at its header (place --replay), the program's\n"
		  "time a check beside it (the default where the loop can\n"
		  "be replayed)" },
	{ .name = "no-replay", .kind = OPT_SET, .field = F(no_replay),
	  .help = "judge each loop by the program's time alone" },
	{ .name = "uarch", .value = "P", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profile of the prediction: a name, host or FILE.json" },
	{ .name = "llvm-mca", .value = "in-process|PROGRAM|none", .kind = OPT_STRING,
	  .field = F(llvm_mca), .help = LLVM_MCA_HELP },
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
		 "run. So each loop is placed for a few rounds first, and from their noise,\n"
		 "its share and the change predicted prove counts the rounds a verdict\n"
		 "needs: a loop the time cannot resolve is skipped, said so ('needs ~N\n"
		 "rounds; --time T to try'), and its time goes to the next. Loops whose span\n"
		 "is uncertain (an unresolved indirect jump) are listed, not measured.\n"
		 "The program reads the same standard input in every run (--stdin, or what\n"
		 "straddle's was redirected from) and its output is read (a program writing\n"
		 "to /dev/null may stop early: GNU grep -c does).\n"
		 "\n"
		 "Exit status: 0 done (agreeing or not); 1 the record cannot tell (too few\n"
		 "samples, most in no file, or the program failed under it); 2 bad usage, a\n"
		 "program that could not be run or recorded, or a result that could not be\n"
		 "written; 128+N after signal N.\n",
};

static int parse_options(struct prove_cmd *c, int argc, char **argv)
{
	const struct profile *p[1];
	char path[PATH_MAX];
	size_t np;

	c->top = 3, c->runs = 300, c->time_s = 120, c->min_share = 0.05;
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

/* ---- the steps, each a command of this binary ---- */

static char self_exe[PATH_MAX];
/* for a signal: files (the input, records, two place files a loop), then the directory */
static char cleanup_paths[2 * PROVE_MAX + 4][PATH_MAX + 32];
static volatile sig_atomic_t ncleanup;
/* The step running, for a signal to end too: a prove sent SIGINT alone
 * (not its terminal's process group) left its place running 2 minutes
 * into a directory it had removed. */
static volatile sig_atomic_t step_pid;

/* Read a step's standard output to its end: the program's own output
 * under record, read as a terminal or a file would take it (on /dev/null
 * GNU grep -c stops at the first match: a record of nothing). */
static void drain(int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		;
}

/* This binary's command args[]: its standard input /dev/null (the
 * program's comes by --stdin), its standard output on our standard error
 * (progress; ours is the table), or (drained) a pipe read to its end. It
 * ends with prove. Its exit status, 128+N for signal N, or -1 when it
 * could not be started. */
static int run_self(char *const *args, bool drained)
{
	pid_t parent = getpid(), pid;
	int st, out[2];

	if (pipe2(out, O_CLOEXEC) || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(null, STDIN_FILENO);
		dup2(drained ? out[1] : STDERR_FILENO, STDOUT_FILENO);
		execv(self_exe, args);
		_exit(127);
	}
	step_pid = pid;
	close(out[1]);
	drain(out[0]);
	close(out[0]);
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

/* dir holds PATH_MAX bytes at most, names are short: never cut */
static void path_in_dir(const struct prove_cmd *c, const char *name, char *buf, size_t n)
{
	if ((size_t)snprintf(buf, n, "%s/%s", c->dir, name) >= n)
		buf[n - 1] = 0;
}

/* Kept only with --keep; a signal's handler removes them too. */
static void remember(const struct prove_cmd *c, const char *path)
{
	if (c->keep || ncleanup >= (sig_atomic_t)(sizeof cleanup_paths / sizeof *cleanup_paths))
		return;
	if ((size_t)snprintf(cleanup_paths[ncleanup], sizeof cleanup_paths[0], "%s", path) <
	    sizeof cleanup_paths[0])
		ncleanup++;
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

/* The record, at the rate record chooses (hz 0) or at hz. Its exit
 * status is the program's once the file is written. */
static int record_at(struct prove_cmd *c, const char *path, unsigned long hz, int *program)
{
	struct step s = { 0 };
	char rate[32];

	snprintf(rate, sizeof rate, "%lu", hz);
	say("recording: straddle record -o %s%s%s -- %s ...", path, hz ? " -F " : "", hz ? rate : "",
	    c->argv[0]);
	for (const char *const *a = (const char *const[]){ "straddle", "record", "-o", path,
		"--uarch", c->uarch, "--stdin", c->input, NULL }; *a; a++)
		step_add(&s, *a);
	if (hz)
		step_add(&s, "-F"), step_add(&s, rate);
	unlink(path);
	*program = step_run(c, &s, true);
	if (*program < 0 || access(path, R_OK) != 0) {
		complain("prove", "straddle record did not write %s (exit %d): see above", path,
			 *program);
		return -1;
	}
	return 0;
}

/* What the record says of itself: samples, those in no file, the rate and
 * what a sample cost. */
static int record_read(const char *path, struct record_read *rr, json_t **doc)
{
	struct err e = { "" };

	if (results_record_load(path, rr, doc, &e)) {
		complain("prove", "%s", e.msg);
		return -1;
	}
	return 0;
}

/* A faster rate when the program was too short for the samples a loop of
 * --min-share needs: twice those over its CPU time (samples / rate), if
 * that costs the program at most RECORD_COST_MAX at what a sample cost
 * here; 0 when none does. */
static unsigned long faster_rate(const struct prove_cmd *c, const struct record_read *rr,
				 double want)
{
	double cpu_s = rr->frequency > 0 ? (double)rr->total / (double)rr->frequency : 0;
	double rate = cpu_s > 0 ? ceil(2 * want / cpu_s) : 0;

	(void)c;
	if (!rr->has_sample_cost || rr->sample_cost_ns <= 0 || rate <= (double)rr->frequency ||
	    rate > (double)sample_max_rate() ||
	    sampling_slowdown((unsigned long)rate, rr->sample_cost_ns) > RECORD_COST_MAX)
		return 0;
	return (unsigned long)rate;
}

/* Can the record tell which loops are hot? Not when the program failed
 * under it (a profile of another run than the one meant), when most
 * samples fell in no file (code made at run time: a JIT's, which no scan
 * reads), or when a loop of --min-share would hold too few samples: each
 * said on standard error, and prove ends with 1, never an all-clear. */
static int record_tells(const struct prove_cmd *c, const struct record_read *rr, int program)
{
	double want = ceil(SAMPLES_AT_MIN_SHARE / c->min_share);
	double user = (double)(rr->total - rr->kernel);

	if (program != 0) {
		complain("prove", "%s ended with %s %d under record (its standard error is above): "
			 "its profile is of a run that failed, not of the one meant", c->argv[0],
			 program > 128 ? "signal" : "exit", program > 128 ? program - 128 : program);
		return -1;
	}
	if (user > 0 && (double)rr->unmapped > user / 2) {
		complain("prove", "%.0f%% of the samples are in no file (code made at run time, a "
			 "JIT's): prove judges only code read from files", 100 * (double)rr->unmapped / user);
		return -1;
	}
	if ((double)rr->total < want) {
		complain("prove", "only %lld samples (%lld Hz): a loop with %g%% of the time would "
			 "hold ~%.0f of them, too few to tell it; run the program longer", rr->total,
			 rr->frequency, 100 * c->min_share, (double)rr->total * c->min_share);
		return -1;
	}
	return 0;
}

static int record(struct prove_cmd *c, char *path, size_t n, bool *cannot_tell)
{
	struct record_read rr;
	json_t *doc = NULL;
	unsigned long hz;
	int program, rc;

	path_in_dir(c, "record.json", path, n);
	remember(c, path);
	if (record_at(c, path, 0, &program) || record_read(path, &rr, &doc))
		return -1;
	hz = (double)rr.total < ceil(SAMPLES_AT_MIN_SHARE / c->min_share) && !program ?
	     faster_rate(c, &rr, ceil(SAMPLES_AT_MIN_SHARE / c->min_share)) : 0;
	if (hz) {               /* once, faster: a short program */
		results_record_read_free(&rr);
		json_decref(doc);
		if (record_at(c, path, hz, &program) || record_read(path, &rr, &doc))
			return -1;
	}
	rc = record_tells(c, &rr, program);
	*cannot_tell = rc != 0;
	results_record_read_free(&rr);
	json_decref(doc);
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
		.cost = true, .llvm_mca = c->llvm_mca,
		/* llvm-mca the program bounds a whole file's loops unless told
		 * to simulate them; the model in process prices each anyway */
		.cost_exact = c->llvm_mca && strcmp(c->llvm_mca, "none") &&
			      strcmp(c->llvm_mca, MODEL_IN_PROCESS) };
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

static int place_loop(const struct prove_cmd *c, const struct loop_trial *t, const char *path,
		      unsigned rounds, double secs_max, const char *what)
{
	char loop[24], runs[16], secs[32], best[16 * (PROOF_LAYOUT_MAX + 1)];
	struct step s = { 0 };
	size_t at;

	snprintf(loop, sizeof loop, "%#" PRIx64, t->start);
	at = (size_t)snprintf(best, sizeof best, "%u", t->best);
	for (size_t i = 0; i < t->nlayout; i++)
		at += (size_t)snprintf(best + at, sizeof best - at, ",%u", t->layout[i]);
	snprintf(runs, sizeof runs, "%u", rounds);
	snprintf(secs, sizeof secs, "%.0f", fmax(1, secs_max));
	for (const char *const *a = (const char *const[]){ "straddle", "place", "--file", t->file,
		"--loop", loop, "--offsets", best, "--runs", runs, "--time", secs, "--uarch",
		c->uarch, "--stdin", c->input, "-o", path, NULL }; *a; a++)
		step_add(&s, *a);
	if (c->wall)
		step_add(&s, "--wall");
	if (c->llvm_mca)
		step_add(&s, "--llvm-mca"), step_add(&s, c->llvm_mca);
	say("placing %s's loop at %s (%.1f%% of samples), %s: straddle place --file %s --loop %s "
	    "--offsets %s --runs %s ...", t->func, loop, 100.0 * (double)t->samples /
	    (double)t->run_samples, what, t->file, loop, best, runs);
	return step_run(c, &s, false);
}

/* Snapshots a replay of one loop takes for prove's verdict: as many as
 * place's held-out mark wants rounds of (ROUNDS_WANTED, measure/replay.c)
 * a few times over. */
#define REPLAY_SNAPSHOTS 120

/* place --replay of t's loop at the same offsets as the program's arms. */
static int replay_step(const struct prove_cmd *c, const struct loop_trial *t, const char *path,
		       double secs_max)
{
	char loop[24], secs[32], snaps[16], best[16 * (PROOF_LAYOUT_MAX + 1)];
	struct step s = { 0 };
	size_t at;

	snprintf(loop, sizeof loop, "%#" PRIx64, t->start);
	at = (size_t)snprintf(best, sizeof best, "%u", t->best);
	for (size_t i = 0; i < t->nlayout; i++)
		at += (size_t)snprintf(best + at, sizeof best - at, ",%u", t->layout[i]);
	snprintf(secs, sizeof secs, "%.0f", fmax(1, secs_max));
	snprintf(snaps, sizeof snaps, "%u", REPLAY_SNAPSHOTS);
	for (const char *const *a = (const char *const[]){ "straddle", "place", "--replay",
		"--file", t->file, "--loop", loop, "--offsets", best, "--snapshots", snaps, "--time",
		secs, "--uarch", c->uarch, "--stdin", c->input, "-o", path, NULL }; *a; a++)
		step_add(&s, *a);
	if (c->llvm_mca)
		step_add(&s, "--llvm-mca"), step_add(&s, c->llvm_mca);
	say("replaying %s's loop at %s (%.1f%% of samples): straddle place --replay --file %s "
	    "--loop %s --offsets %s ...", t->func, loop, 100.0 * (double)t->samples /
	    (double)t->run_samples, t->file, loop, best);
	return step_run(c, &s, false);
}

/* An arm of one or two place files (a pilot and the rounds after it),
 * its samples one after the other: each round pairs the arms alike. */
struct arm_runs {
	double *v;
	size_t n;
	double predicted;
	uint32_t offset;
};

static int arm_of(const struct result_file *const *f, size_t nf, const char *name,
		  struct arm_runs *out)
{
	*out = (struct arm_runs){ 0 };
	for (size_t i = 0; i < nf; i++) {
		struct place_arm_result a;

		if (results_place_arm(f[i], name, &a)) {
			free(out->v);
			return -1;
		}
		out->v = xrealloc(out->v, (out->n + a.n + 1) * sizeof *out->v);
		memcpy(out->v + out->n, a.v, a.n * sizeof *a.v);
		out->n += a.n;
		if (i == 0)
			out->predicted = a.predicted, out->offset = a.offset;
	}
	return 0;
}

static void paired(const struct arm_runs *a, const struct arm_runs *b, double alpha,
		   struct paired *out)
{
	stats_paired_ratio(a->v, b->v, a->n < b->n ? a->n : b->n, alpha, out);
}

/* Place's arms of t's loop, turned into t's proof. */
static void judge(const struct prove_cmd *c, struct loop_trial *t,
		  const struct result_file *const *f, size_t nf)
{
	struct arm_runs unmoved, control, best, same;
	char name[16];

	snprintf(name, sizeof name, "%u", t->best);
	if (arm_of(f, nf, "unmoved", &unmoved) || arm_of(f, nf, "control", &control)) {
		snprintf(t->why_not, sizeof t->why_not, "place's result has no control arm");
		return;
	}
	if (control.offset != t->current) {
		/* paste's irreducible loop at 0x2921: place's span from 0x2900 */
		snprintf(t->why_not, sizeof t->why_not, "place's loop there has another span (its "
			 "first byte at %u of its line, the scan's at %u)", control.offset, t->current);
	} else if (arm_of(f, nf, name, &best)) {
		snprintf(t->why_not, sizeof t->why_not, "place's result has no arm at offset %u",
			 t->best);
	} else {
		t->place_predicted = (float)control.predicted;
		t->rounds = (unsigned)(control.n < best.n ? control.n : best.n);
		paired(&unmoved, &control, c->alpha, &t->control);
		paired(&control, &best, c->alpha, &t->proof.program);
		t->proof.nlayout = 0;
		for (size_t i = 0; i < t->nlayout; i++) {
			snprintf(name, sizeof name, "%u", t->layout[i]);
			if (arm_of(f, nf, name, &same))
				continue;
			paired(&control, &same, c->alpha, &t->proof.layout[t->proof.nlayout++]);
			free(same.v);
		}
		proof_judge(&t->proof);
		free(best.v);
	}
	free(unmoved.v), free(control.v);
}

/* Place --replay's arms of t's loop, its rounds paired, turned into the
 * loop's own proof: its share is the whole of what was timed. */
static void judge_replay(const struct prove_cmd *c, struct loop_trial *t,
			 const struct result_file *f)
{
	const struct result_file *one[1] = { f };
	struct arm_runs control, best, same;
	char name[16];

	t->replay = (struct loop_proof){ .share = 1, .predicted = t->proof.predicted,
		.material = c->material, .alpha = c->alpha };
	snprintf(name, sizeof name, "%u", t->best);
	if (arm_of(one, 1, "control", &control)) {
		snprintf(t->replay_why, sizeof t->replay_why, "place --replay's result has no control arm");
		return;
	}
	if (control.offset != t->current || arm_of(one, 1, name, &best)) {
		snprintf(t->replay_why, sizeof t->replay_why, "place --replay's loop there has "
			 "another span (its first byte at %u of its line, the scan's at %u)",
			 control.offset, t->current);
		free(control.v);
		return;
	}
	paired(&control, &best, c->alpha, &t->replay.program);
	for (size_t i = 0; i < t->nlayout; i++) {
		snprintf(name, sizeof name, "%u", t->layout[i]);
		if (arm_of(one, 1, name, &same))
			continue;
		paired(&control, &same, c->alpha, &t->replay.layout[t->replay.nlayout++]);
		free(same.v);
	}
	proof_judge(&t->replay);
	t->replayed = true;
	t->snapshots = results_place_snapshots(f);
	free(best.v), free(control.v);
}

/* The pilot's noise: the standard deviation of its rounds' log ratios,
 * best over today. */
static double pilot_sd(const struct result_file *f, const struct loop_trial *t)
{
	const struct result_file *one[1] = { f };
	struct arm_runs control, best;
	char name[16];
	double sum = 0, ss = 0, sd = -1;
	size_t n;

	snprintf(name, sizeof name, "%u", t->best);
	if (arm_of(one, 1, "control", &control))
		return -1;
	if (!arm_of(one, 1, name, &best)) {
		n = control.n < best.n ? control.n : best.n;
		for (size_t i = 0; i < n; i++)
			sum += log(best.v[i] / control.v[i]);
		for (size_t i = 0; i < n; i++)
			ss += pow(log(best.v[i] / control.v[i]) - sum / (double)n, 2);
		sd = n > 1 ? sqrt(ss / (double)(n - 1)) : -1;
		free(best.v);
	}
	free(control.v);
	return sd;
}

static int read_place(const char *path, struct result_file *f, char *why, size_t n)
{
	struct err e = { "" };

	if (access(path, R_OK) != 0)
		return -1;
	if (results_read(path, f, &e)) {
		/* a replay refused measures nothing: its reason, not the
		 * missing metrics, is why */
		if (!results_place_replay_refused(f, why, n))
			snprintf(why, n, "%s", e.msg);
		results_file_free(f);
		return -1;
	}
	return 0;
}

/* After the pilot: the rounds to run, those a verdict needs (at most
 * --runs), or why_not when the time left cannot give them. */
static unsigned rounds_to_run(struct prove_cmd *c, struct loop_trial *t,
			      const struct result_file *pilot, unsigned piloted)
{
	double sd = pilot_sd(pilot, t), need, per_round, elapsed = 0;
	unsigned rounds = 0, run;

	results_place_pace(pilot, &rounds, &elapsed);
	per_round = elapsed / fmax(1, rounds);
	rounds = sd < 0 ? 0 : proof_rounds_needed(&t->proof, sd, &need);
	t->rounds_needed = rounds;
	run = rounds < c->runs ? rounds : c->runs;
	if (c->runs <= piloted)         /* the pilot is all --runs allows: judged as it is */
		return piloted;
	if (sd >= 0 && !rounds)
		snprintf(t->why_not, sizeof t->why_not, "cannot be resolved: the layout controls "
			 "alone move the program more than the %.2f%% a verdict needs", 100 * need);
	else if (run > piloted && per_round * (run - piloted) > c->budget_left - elapsed)
		snprintf(t->why_not, sizeof t->why_not, "needs ~%u rounds (~%.0f s at %.2f s a "
			 "round); --time %.0f to try", rounds, per_round * rounds, per_round,
			 ceil(per_round * rounds * 1.2));
	return t->why_not[0] ? 0 : run > piloted ? run : piloted;
}

/* The loop replayed (place --replay): its verdict, or why not; the
 * program's measure is then a check of it. */
static void replay_loop(struct prove_cmd *c, struct loop_trial *t, size_t k)
{
	char path[PATH_MAX + 32], name[40];
	struct result_file f = { 0 };
	int st;

	snprintf(name, sizeof name, "place-%zu-replay.json", k + 1);
	path_in_dir(c, name, path, sizeof path);
	remember(c, path);
	st = replay_step(c, t, path, c->budget_left / 2);
	if (read_place(path, &f, t->replay_why, sizeof t->replay_why)) {
		if (!t->replay_why[0])
			snprintf(t->replay_why, sizeof t->replay_why, "straddle place --replay did not "
				 "replay it (exit %d: see above)", st);
		return;
	}
	if (!results_place_replay_refused(&f, t->replay_why, sizeof t->replay_why) &&
	    !results_place_replay_short(&f, t->replay_why, sizeof t->replay_why) && st != 0)
		snprintf(t->replay_why, sizeof t->replay_why, "straddle place --replay did not replay "
			 "it (exit %d: see above)", st);
	else if (!t->replay_why[0])
		judge_replay(c, t, &f);
	results_file_free(&f);
}

/* A pilot of PILOT_ROUNDS rounds (at most --runs), the rounds the
 * verdict needs from its noise, then the rest of them; the two files
 * judged as one. */
static void measure_loop(struct prove_cmd *c, struct loop_trial *t, size_t k)
{
	char path[2][PATH_MAX + 32], name[40];
	struct result_file f[2] = { { 0 } };
	const struct result_file *fp[2] = { &f[0], &f[1] };
	unsigned pilot = c->runs < PILOT_ROUNDS ? c->runs : PILOT_ROUNDS, rounds = 0;
	double t0 = monotonic_s();
	size_t nf = 0;
	int st;

	if (c->replay)
		replay_loop(c, t, k);
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "place-%zu%s.json", k + 1, i ? "-more" : "");
		path_in_dir(c, name, path[i], sizeof path[i]);
		remember(c, path[i]);
	}
	st = place_loop(c, t, path[0], pilot, c->budget_left, "a pilot");
	if (st != 0 || read_place(path[0], &f[nf], t->why_not, sizeof t->why_not)) {
		if (!t->why_not[0])
			snprintf(t->why_not, sizeof t->why_not, "straddle place did not measure it "
				 "(exit %d: see above)", st);
		goto out;
	}
	nf++;
	judge(c, t, fp, nf);            /* the pilot's proof: its controls' spread */
	/* replayed: the pilot is the program's check, no more rounds */
	if (t->why_not[0] || t->replayed || !(rounds = rounds_to_run(c, t, &f[0], pilot)))
		goto out;
	if (rounds > pilot) {
		char what[64];

		snprintf(what, sizeof what, "%u rounds more", rounds - pilot);
		st = place_loop(c, t, path[1], rounds - pilot, c->budget_left -
				(monotonic_s() - t0), what);
		if (st != 0 || read_place(path[1], &f[nf], t->why_not, sizeof t->why_not)) {
			if (!t->why_not[0])
				snprintf(t->why_not, sizeof t->why_not, "straddle place did not "
					 "measure it (exit %d: see above)", st);
			goto out;
		}
		nf++;
	}
	judge(c, t, fp, nf);
out:
	/* what a skipped loop did not spend goes to the next */
	c->budget_left = fmax(0, c->budget_left - (monotonic_s() - t0)) + c->time_s;
	for (size_t i = 0; i < nf; i++)
		results_file_free(&f[i]);
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
	complain("prove", "interrupted by SIG%s: nothing written", sigabbrev_np(sig) ?
		 sigabbrev_np(sig) : "?");
	signal(sig, SIG_DFL);
	raise(sig);
}

static int write_json(const struct prove_cmd *c)
{
	return write_result(results_prove(c->trial, c->ntrial, c->profile->name, c->argc,
					  c->self_argv), c->out_json);
}

/* The program's standard input, the same for every step: --stdin as
 * given; what straddle's own was redirected from, copied into the
 * directory (a pipe is read once); a terminal's, /dev/null. */
static int keep_input(struct prove_cmd *c)
{
	struct command_input in;
	struct err e = { "" };
	char buf[65536];
	ssize_t n;
	int fd;

	if (c->stdin_path) {
		snprintf(c->input, sizeof c->input, "%s", c->stdin_path);
		if (strcmp(c->stdin_path, "-") && access(c->stdin_path, R_OK)) {
			complain(c->stdin_path, "%s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (command_input_open(&in, NULL, &e)) {
		complain("prove", "%s", e.msg);
		return -1;
	}
	if (in.fd < 0) {
		snprintf(c->input, sizeof c->input, "-");
		return 0;
	}
	path_in_dir(c, "stdin", c->input, sizeof c->input);
	remember(c, c->input);
	fd = open(c->input, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	lseek(in.fd, in.start, SEEK_SET);
	while (fd >= 0 && (n = read(in.fd, buf, sizeof buf)) > 0)
		if (write(fd, buf, (size_t)n) != n)
			n = -1;
	command_input_close(&in);
	if (fd < 0 || close(fd)) {
		complain(c->input, "cannot keep standard input: %s", strerror(errno));
		return -1;
	}
	return 0;
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
	c->budget_left = c->time_s;
	return keep_input(c);
}

/* On a terminal: how far prove is, and the time it may still take (each
 * loop's budget left, an upper bound). */
static void progress(const struct prove_cmd *c, size_t i)
{
	size_t left = 0;

	for (size_t k = i; k < c->ntrial; k++)
		left += !c->trial[k].why_not[0];
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "prove: loop %zu of %zu; at most ~%.0f s left\n", i + 1, c->ntrial,
			c->budget_left + (double)(left ? left - 1 : 0) * c->time_s);
}

static int cmd_prove(int argc, char **argv)
{
	struct prove_cmd c = { 0 };
	struct candidates all = { 0 };
	char rec[PATH_MAX + 32];
	bool cannot_tell = false;
	int rc = EXIT_USAGE;

	if (prepare(&c, argc, argv))
		goto out;
	if (record(&c, rec, sizeof rec, &cannot_tell))
		goto out;
	if (cannot_tell) {
		rc = EXIT_GATE;
		goto out;
	}
	if (choose_loops(&c, rec, &all))
		goto out;
	for (size_t i = 0; i < c.ntrial; i++)
		if (!c.trial[i].why_not[0]) {
			progress(&c, i);
			measure_loop(&c, &c.trial[i], i);
		}
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
