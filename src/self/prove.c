/* straddle prove's steps: the program recorded (at a faster rate when it
 * was too short), its hottest straddling loops chosen, and each placed by
 * this binary's place, a pilot first, then the rounds its noise says a
 * verdict needs, the files judged into the loop's proof. The record and
 * place are run as they are run by hand (their output on standard error
 * as progress), into a directory removed at the end or on a signal. */
#include "self.h"
#include "../measure/clock.h"
#include "../measure/command.h"
#include "../measure/proof.h"
#include "../measure/sample.h"
#include "../model/hot.h"
#include "../model/scan.h"
#include "../options/options.h"
#include "../results/place.h"
#include "../results/metrics.h"
#include "../results/record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Rounds of place that show a loop's noise before its rounds are counted. */
#define PILOT_ROUNDS 6
/* A record for finding the hot loops may cost the program this much (its
 * samples' own time is the kernel's, not a loop's: the loops' shares
 * among themselves barely move) when the default rate gives too few. */
#define RECORD_COST_MAX 0.10
/* Samples a loop of --min-share would hold at least, for a share to be told. */
#define SAMPLES_AT_MIN_SHARE 20

/* ---- the steps, each a command of this binary ---- */

/* for a signal: files (the input, records, two place files a loop), then the directory */
static char cleanup_paths[2 * PROVE_MAX + 4][PATH_MAX + 32];
static volatile sig_atomic_t ncleanup;

/* This binary's command s, then "--" and the program: its standard input
 * /dev/null (the program's comes by --stdin), its standard output on our
 * standard error (progress; ours is the table), or (drained) read to its
 * end, the program's own output under record as a terminal or a file
 * would take it. It ends with prove, and a signal to prove reaches it: a
 * prove sent SIGINT alone (not its terminal's process group) left its
 * place running 2 minutes into a directory it had removed. Its exit
 * status, 128+N for signal N, or -1 when it could not be started. */
static int step_run(const struct prove_run *c, struct self_cmd *s, bool drained)
{
	struct err e = { "" };
	int st;

	self_arg(s, "--");
	for (char **a = c->argv; *a; a++)
		self_arg(s, "%s", *a);
	st = self_run(s, drained ? SELF_DRAIN : STDERR_FILENO, NULL, 0, &e);
	self_free(s);
	return st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* dir holds PATH_MAX bytes at most, names are short: never cut */
static void path_in_dir(const struct prove_run *c, const char *name, char *buf, size_t n)
{
	if ((size_t)snprintf(buf, n, "%s/%s", c->dir, name) >= n)
		buf[n - 1] = 0;
}

/* Kept only with --keep; a signal's handler removes them too. */
static void remember(const struct prove_run *c, const char *path)
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

static int make_dir(struct prove_run *c)
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
static int record_at(struct prove_run *c, const char *path, unsigned long hz, int *program)
{
	struct self_cmd s;
	char rate[32];

	snprintf(rate, sizeof rate, "%lu", hz);
	say("recording: straddle record -o %s%s%s -- %s ...", path, hz ? " -F " : "", hz ? rate : "",
	    c->argv[0]);
	if (self_begin(&s, "record"))
		return -1;
	for (const char *const *a = (const char *const[]){ "-o", path, "--uarch", c->uarch.spec,
		"--stdin", c->input, NULL }; *a; a++)
		self_arg(&s, "%s", *a);
	if (hz)
		self_arg(&s, "-F"), self_arg(&s, "%s", rate);
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
static unsigned long faster_rate(const struct prove_run *c, const struct record_read *rr,
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
static int record_tells(const struct prove_run *c, const struct record_read *rr, int program)
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

static int record(struct prove_run *c, char *path, size_t n, bool *cannot_tell)
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

/* One sampled file, scanned with the cost model and its samples. */
static void scan_file(const struct prove_run *c, const struct hot_run *h, const struct hot_file *f,
		      struct proof_candidates *out)
{
	const struct profile *p[1] = { c->uarch.v[0] };
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
	proof_add_loops(out, f->path, &r, c->min_share, c->material, c->alpha);
	scan_result_free(&r);
	elf_close(&img);
}

/* The files with at least 1% of the samples, their hot straddling loops,
 * the most sampled first: the first --top measurable ones, and the
 * uncertain ones before them. */
static int choose_loops(struct prove_run *c, const char *record_path, struct proof_candidates *all)
{
	struct hot_run h;
	struct err e = { "" };

	if (results_read_record(record_path, &h, &e)) {
		say("%s", e.msg);
		return -1;
	}
	for (size_t i = 0; i < h.nfile; i++)
		if (h.file[i].path[0] == '/' && (double)h.file[i].samples >= 0.01 * (double)h.total)
			scan_file(c, &h, &h.file[i], all);
	hot_run_free(&h);
	c->ntrial = proof_choose(all, c->trial, PROVE_MAX, c->top);
	return 0;
}

/* ---- each loop moved and measured ---- */

/* straddle place of t's loop at its best, today's and the layout
 * controls' offsets: the program's time for `rounds` rounds, or with
 * rounds 0 the loop itself replayed (place --replay). */
static int place_loop(const struct prove_run *c, const struct loop_trial *t, const char *path,
		      unsigned rounds, double secs_max, const char *what)
{
	char loop[24], runs[16], secs[32], best[16 * (PROOF_LAYOUT_MAX + 1)];
	struct self_cmd s;
	size_t at;

	snprintf(loop, sizeof loop, "%#" PRIx64, t->start);
	at = (size_t)snprintf(best, sizeof best, "%u", t->best);
	for (size_t i = 0; i < (rounds ? proof_program_layouts(t) : t->nlayout); i++)
		at += (size_t)snprintf(best + at, sizeof best - at, ",%u", t->layout[i]);
	snprintf(runs, sizeof runs, "%u", rounds ? rounds : c->snapshots);
	snprintf(secs, sizeof secs, "%.0f", fmax(1, secs_max));
	if (self_begin(&s, "place"))
		return -1;
	if (!rounds)
		self_arg(&s, "--replay"), self_arg(&s, "--copies"), self_arg(&s, "%u", c->copies);
	for (const char *const *a = (const char *const[]){ "--file", t->file, "--loop", loop,
		"--offsets", best, rounds ? "--runs" : "--snapshots", runs, "--time", secs,
		"--uarch", c->uarch.spec, "--stdin", c->input, "-o", path, NULL }; *a; a++)
		self_arg(&s, "%s", *a);
	if (c->wall)
		self_arg(&s, "--wall");
	if (c->llvm_mca)
		self_arg(&s, "--llvm-mca"), self_arg(&s, "%s", c->llvm_mca);
	say("placing %s's loop at %s (%.1f%% of samples), %s: straddle place%s --file %s --loop %s "
	    "--offsets %s %s %s ...", t->func, loop, 100.0 * (double)t->samples /
	    (double)t->run_samples, what, rounds ? "" : " --replay", t->file, loop, best,
	    rounds ? "--runs" : "--snapshots", runs);
	return step_run(c, &s, false);
}

/* Place's arms of t's loop, turned into t's proof. */
static void judge(const struct prove_run *c, struct loop_trial *t,
		  const struct result_file *const *f, size_t nf)
{
	struct proof_arms a;
	char name[16];

	results_place_arms(f, nf, "unmoved", &a.unmoved);
	results_place_arms(f, nf, "control", &a.control);
	snprintf(name, sizeof name, "%u", t->best);
	results_place_arms(f, nf, name, &a.best);
	for (size_t i = 0; i < PROOF_LAYOUT_MAX; i++) {
		snprintf(name, sizeof name, "%u", i < t->nlayout ? t->layout[i] : 0);
		a.layout[i] = (struct proof_arm){ 0 };
		if (i < t->nlayout)
			results_place_arms(f, nf, name, &a.layout[i]);
	}
	proof_of_arms(t, &a, c->alpha);
	free(a.unmoved.v), free(a.control.v), free(a.best.v);
	for (size_t i = 0; i < PROOF_LAYOUT_MAX; i++)
		free(a.layout[i].v);
}

/* A replay's arm `name`: its rounds, and its copies' where it has several. */
static void replay_arm(const struct result_file *f, const char *name, struct proof_arm *a)
{
	const struct result_file *one[1] = { f };

	if (!results_place_arms(one, 1, name, a))
		results_place_copies(f, name, a);
}

/* Place --replay's arms of t's loop, turned into the loop's own proof. */
static void judge_replay(const struct prove_run *c, struct loop_trial *t,
			 const struct result_file *f)
{
	struct proof_arms a = { 0 };
	char name[16];

	replay_arm(f, "control", &a.control);
	replay_arm(f, "aa", &a.aa);
	snprintf(name, sizeof name, "%u", t->best);
	replay_arm(f, name, &a.best);
	for (size_t i = 0; i < t->nlayout; i++) {
		snprintf(name, sizeof name, "%u", t->layout[i]);
		replay_arm(f, name, &a.layout[i]);
	}
	proof_of_replay(t, &a, c->material, c->alpha);
	t->snapshots = results_place_snapshots(f);
	free(a.control.v), free(a.best.v), free(a.aa.v);
	free(a.control.copy), free(a.best.copy), free(a.aa.copy);
	for (size_t i = 0; i < PROOF_LAYOUT_MAX; i++)
		free(a.layout[i].v), free(a.layout[i].copy);
}

/* The pilot's noise: the standard deviation of its rounds' log ratios,
 * best over today. */
static double pilot_sd(const struct result_file *f, const struct loop_trial *t)
{
	const struct result_file *one[1] = { f };
	struct proof_arm control, best;
	char name[16];
	double sd;

	snprintf(name, sizeof name, "%u", t->best);
	results_place_arms(one, 1, "control", &control);
	results_place_arms(one, 1, name, &best);
	sd = proof_pilot_sd(&control, &best);
	free(control.v), free(best.v);
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
static unsigned rounds_to_run(struct prove_run *c, struct loop_trial *t,
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
static void replay_one(struct prove_run *c, struct loop_trial *t, size_t k, const char *which)
{
	char path[PATH_MAX + 32], name[48];
	struct result_file f = { 0 };
	int st;

	snprintf(name, sizeof name, "place-%zu-replay%s.json", k + 1, which);
	path_in_dir(c, name, path, sizeof path);
	remember(c, path);
	st = place_loop(c, t, path, 0, c->budget_left / 2, "replayed");
	if (read_place(path, &f, t->replay_why, sizeof t->replay_why)) {
		if (!t->replay_why[0])
			snprintf(t->replay_why, sizeof t->replay_why, "straddle place --replay did not "
				 "replay it (exit %d: see above)", st);
		return;
	}
	t->unmoved_s = results_place_unmoved_s(&f);
	if (!results_place_replay_refused(&f, t->replay_why, sizeof t->replay_why) &&
	    !results_place_replay_short(&f, t->replay_why, sizeof t->replay_why) && st != 0)
		snprintf(t->replay_why, sizeof t->replay_why, "straddle place --replay did not replay "
			 "it (exit %d: see above)", st);
	else if (!t->replay_why[0])
		judge_replay(c, t, &f);
	results_file_free(&f);
}

/* ... or, where it makes a system call, its hottest inner loop's */
static void replay_loop(struct prove_run *c, struct loop_trial *t, size_t k)
{
	struct loop_trial in;

	replay_one(c, t, k, "");
	if (proof_inner_trial(t, &in)) {
		replay_one(c, &in, k, "-inner");
		proof_take_inner(t, &in);
	}
}

/* place_loop for `rounds` rounds, and the file it wrote read into f; -1
 * with t->why_not said where place failed or its file cannot be read */
static int place_and_read(struct prove_run *c, struct loop_trial *t, const char *path,
			  unsigned rounds, double secs_max, const char *what, struct result_file *f)
{
	int st = place_loop(c, t, path, rounds, secs_max, what);

	if (st == 0 && !read_place(path, f, t->why_not, sizeof t->why_not))
		return 0;
	if (!t->why_not[0])
		snprintf(t->why_not, sizeof t->why_not, "straddle place did not measure it "
			 "(exit %d: see above)", st);
	return -1;
}

/* A replayed loop's verdict is the replay's; the program's time beside it
 * is a check, run only where place's shortest pilot fits the loop's time
 * left: the unmoved program twice, then two rounds of every arm (bc's:
 * 12 runs of 5 s, 60 s after its 25 s replay, where --time 50 gave the
 * loop 50). false with check_why where it does not. */
static bool check_fits(const struct prove_run *c, struct loop_trial *t, double left)
{
	double runs = 2 + 2 * (3 + (double)proof_program_layouts(t)), need = runs * t->unmoved_s;

	if (!t->replayed || !(t->unmoved_s > 0) || need <= left)
		return true;
	snprintf(t->check_why, sizeof t->check_why, "the program's time was not measured beside "
		 "the replay: its shortest check, %.0f runs of ~%.1f s, needs ~%.0f s, and %.0f s of "
		 "the loop's --time %.0f were left (--time %.0f measures it)", runs, t->unmoved_s,
		 need, fmax(0, left), c->time_s, ceil(2 * need * 1.1));
	return false;
}

/* A pilot of PILOT_ROUNDS rounds (at most --runs), the rounds the
 * verdict needs from its noise, then the rest of them; the two files
 * judged as one. */
static void measure_loop(struct prove_run *c, struct loop_trial *t, size_t k)
{
	char path[2][PATH_MAX + 32], name[40];
	struct result_file f[2] = { { 0 } };
	const struct result_file *fp[2] = { &f[0], &f[1] };
	unsigned pilot = c->runs < PILOT_ROUNDS ? c->runs : PILOT_ROUNDS, rounds = 0;
	double t0 = monotonic_s(), left;
	size_t nf = 0;

	if (c->replay)
		replay_loop(c, t, k);
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "place-%zu%s.json", k + 1, i ? "-more" : "");
		path_in_dir(c, name, path[i], sizeof path[i]);
		remember(c, path[i]);
	}
	/* the replay's time is the loop's too: the pilot has what it left
	 * (lz4 -dc's pilot took its own 60 s after a 27 s replay, 181 s for
	 * two loops of --time 50) */
	left = c->budget_left - (monotonic_s() - t0);
	if (!check_fits(c, t, left) || place_and_read(c, t, path[0], pilot, left, "a pilot", &f[nf]))
		goto out;
	nf++;
	judge(c, t, fp, nf);            /* the pilot's proof: its controls' spread */
	/* replayed: the pilot is the program's check, no more rounds */
	if (t->why_not[0] || t->replayed || !(rounds = rounds_to_run(c, t, &f[0], pilot)))
		goto out;
	if (rounds > pilot) {
		char what[64];

		snprintf(what, sizeof what, "%u rounds more", rounds - pilot);
		if (place_and_read(c, t, path[1], rounds - pilot,
				   c->budget_left - (monotonic_s() - t0), what, &f[nf]))
			goto out;
		nf++;
	}
	judge(c, t, fp, nf);
out:
	/* what a skipped loop did not spend goes to the next */
	c->budget_left = fmax(0, c->budget_left - (monotonic_s() - t0)) + c->time_s;
	for (size_t i = 0; i < nf; i++)
		results_file_free(&f[i]);
}

/* ---- the directory, the input, a signal ---- */

static char made_dir[PATH_MAX];

static void remove_dir(void)
{
	remove_files();
	if (made_dir[0])
		rmdir(made_dir);
}

static void on_signal(int sig)
{
	/* the step removes its own temporary files: it is waited for */
	if (spawn_signal(sig))
		while (wait(NULL) < 0 && errno == EINTR)
			;
	remove_dir();
	complain("prove", "interrupted by SIG%s: nothing written", sigabbrev_np(sig) ?
		 sigabbrev_np(sig) : "?");
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The program's standard input, the same for every step: --stdin as
 * given; what straddle's own was redirected from, copied into the
 * directory (a pipe is read once); a terminal's, /dev/null. */
static int keep_input(struct prove_run *c)
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

/* On a terminal: how far prove is, and the time it may still take (each
 * loop's budget left, an upper bound). */
static void progress(const struct prove_run *c, size_t i)
{
	size_t left = 0;

	for (size_t k = i; k < c->ntrial; k++)
		left += !c->trial[k].why_not[0];
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "prove: loop %zu of %zu; at most ~%.0f s left\n", i + 1, c->ntrial,
			c->budget_left + (double)(left ? left - 1 : 0) * c->time_s);
}


/* ---- the run ---- */

int prove_prepare(struct prove_run *c)
{
	struct self_cmd self;

	if (self_begin(&self, "prove"))          /* found now, not after a record */
		return -1;
	self_free(&self);
	if (make_dir(c))
		return -1;
	if (c->made_dir)
		snprintf(made_dir, sizeof made_dir, "%s", c->dir);
	handle_terminating(on_signal);
	c->budget_left = c->time_s;
	return keep_input(c);
}

int prove_loops(struct prove_run *c, struct proof_candidates *all)
{
	char rec[PATH_MAX + 32];
	bool cannot_tell = false;

	if (record(c, rec, sizeof rec, &cannot_tell))
		return EXIT_USAGE;
	if (cannot_tell)
		return EXIT_GATE;
	if (choose_loops(c, rec, all))
		return EXIT_USAGE;
	for (size_t i = 0; i < c->ntrial; i++)
		if (!c->trial[i].why_not[0]) {
			progress(c, i);
			measure_loop(c, &c->trial[i], i);
		}
	return EXIT_OK;
}

void prove_end(struct prove_run *c, struct proof_candidates *all)
{
	remove_dir();
	proof_candidates_free(all);
	for (size_t i = 0; i < c->ntrial; i++)
		free(c->trial[i].file), free(c->trial[i].func);
}
