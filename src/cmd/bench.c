/* straddle bench [WORKLOAD...]: the seeds' kernel workloads on the running
 * kernel, run the way libMicro, will-it-scale and the timens selftests run
 * them, every raw sample kept in a result file that 'straddle compare'
 * reads. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/bench.h"
#include "../results/metrics.h"
#include "../results/compare.h"
#include "../stats/stats.h"
#include "../workloads/workloads.h"
#include "../measure/state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS 1024
#define MAX_WORKLOADS 8
#define MAX_RUNS 100

struct bench_cmd {
	const struct workload *sel[MAX_WORKLOADS];
	struct wl_result res[MAX_WORKLOADS];
	size_t nsel;
	struct bench_run run[MAX_RUNS];
	struct wl_options o;
	unsigned tasks[MAX_TASKS];
	unsigned runs;
	const char *out_json;
	double elapsed_s;
	unsigned invocations;           /* --invocations: 0, or 2 and more children */
	const char *versus;             /* --versus: side B's added options */
};

/* The terminating signal that arrived, 0 while none has. */
static volatile sig_atomic_t stop_signal;
static bool progress_tty;
static struct timespec started;


static double since_start(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - started.tv_sec) + (double)(t.tv_nsec - started.tv_nsec) / 1e9;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* "1,2,4", "1-4", "1-2,8": ascending, each once, 1 to MAX_TASKS. */
static int set_tasks(void *cmd, const char *opt, const char *s)
{
	struct bench_cmd *c = cmd;
	char *copy = xstrdup(s), *save = NULL;
	size_t n = 0;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		unsigned a, b;
		int used = 0;

		if (!(sscanf(t, "%u-%u%n", &a, &b, &used) == 2 && !t[used]) &&
		    !(sscanf(t, "%u%n", &a, &used) == 1 && !t[used] && (b = a, 1)))
			rc = -1;
		else if (t[0] == '-' || t[0] == '+' || a < 1 || b < a || b > MAX_TASKS)
			rc = -1;
		for (unsigned v = a; rc == 0 && v <= b; v++)
			if (n < MAX_TASKS)
				c->tasks[n++] = v;
	}
	free(copy);
	if (rc || n == 0) {
		complain(opt, "'%s' is not a list of task counts from 1 to %d (like 1,2,4 or"
			 " 1-4)", s, MAX_TASKS);
		return -1;
	}
	qsort(c->tasks, n, sizeof c->tasks[0], cmp_unsigned);
	c->o.ntasks = 0;
	for (size_t i = 0; i < n; i++)
		if (c->o.ntasks == 0 || c->tasks[c->o.ntasks - 1] != c->tasks[i])
			c->tasks[c->o.ntasks++] = c->tasks[i];
	c->o.tasks = c->tasks;
	return 0;
}

static int set_dir(void *cmd, const char *opt, const char *dir)
{
	struct stat st;

	((struct bench_cmd *)cmd)->o.dir = dir;
	if (stat(dir, &st) != 0) {
		complain(opt, "'%s': %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		complain(opt, "'%s' is not a directory", dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		complain(opt, "'%s': cannot make files in it: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int set_mode(void *cmd, const char *opt, const char *s)
{
	struct bench_cmd *c = cmd;

	if (strcmp(s, "processes") == 0)
		c->o.modes = WIS_PROCESSES;
	else if (strcmp(s, "threads") == 0)
		c->o.modes = WIS_THREADS;
	else if (strcmp(s, "both") == 0)
		c->o.modes = WIS_PROCESSES | WIS_THREADS;
	else {
		complain(opt, "'%s' is not processes, threads or both", s);
		return -1;
	}
	return 0;
}

static int cmd_bench(int argc, char **argv);

static void list_workloads(FILE *out)
{
	for (size_t i = 0; i < workload_count(); i++)
		fprintf(out, "  %-12s %s\n", workload_at(i)->name, workload_at(i)->summary);
}

#define F(field) offsetof(struct bench_cmd, field)

static const struct cmd_option bench_options[] = {
	{ .name = "duration", .value = "S", .kind = OPT_SECONDS, .field = F(o.duration_s),
	  .help = "measured seconds per metric; the defaults: pread-zero and\n"
		  "read-zero 2 s per size, gettime 1 s per clock (hot, and cold\n"
		  "up to 10,000 calls), read1 and poll2 10 one-second intervals\n"
		  "per mode and task count after the warm-up" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(runs), .min = 1,
	  .max = MAX_RUNS, .help = "the whole set N times over, the workloads one after the\n"
		  "other in each (default 3): compare tests run against run,\n"
		  "so it needs 3 on each side for a verdict" },
	{ .name = "align", .value = "OFFSET", .kind = OPT_UNSIGNED, .field = F(o.align),
	  .max = 4095, .help = "the libMicro workloads' buffers start OFFSET bytes into a\n"
		  "page (default 0), recorded in the result" },
	{ .name = "tasks", .value = "LIST", .kind = OPT_CALL, .call = set_tasks,
	  .help = "read1 and poll2 task counts, like 1,2,4 or 1-4 (default 1 to\n"
		  "the number of CPUs this process may use); task i is pinned\n"
		  "to the i-th of those CPUs, modulo their number" },
	{ .name = "mode", .value = "M", .kind = OPT_CALL, .call = set_mode,
	  .help = "read1 and poll2 as processes, threads or both (default both)" },
	{ .name = "warmup", .value = "N", .kind = OPT_UNSIGNED, .field = F(o.warmup), .max = 1000,
	  .help = "read1 and poll2 intervals discarded first (default 2;\n"
		  "will-it-scale discards 6)" },
	{ .name = "dir", .value = "DIR", .kind = OPT_CALL, .call = set_dir,
	  .help = "where read1, poll2 and fault-write make their files (default\n"
		  "$TMPDIR, else /tmp); each is unlinked as it is made" },
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out_json),
	  .help = "the result file: machine, settings, every raw sample, written\n"
		  "atomically ('-': standard output, no table); with\n"
		  "--invocations a directory bench makes" },
	{ .name = "invocations", .value = "N", .kind = OPT_UNSIGNED, .field = F(invocations),
	  .min = 2, .max = 100,
	  .help = "run bench N times, each a process of its own as a user\n"
		  "would, into -o DIR: DIR/a/01.json ...; each file records the\n"
		  "band its side's invocations drifted by, which compare takes\n"
		  "for a BASE of one of them" },
	{ .name = "versus", .value = "OPTS", .kind = OPT_STRING, .field = F(versus),
	  .help = "with --invocations: alternate A B A B ..., B with OPTS,\n"
		  "bench options, added (like '--align 64'), into DIR/a and\n"
		  "DIR/b: compare DIR/a DIR/b tests invocation against\n"
		  "invocation" },
	{ 0 }
};

const struct command bench_command = {
	.name = "bench",
	.run = cmd_bench,
	.summary = "the seeds' kernel workloads (libMicro, will-it-scale, vDSO) on this kernel",
	.args = "[WORKLOAD...] [OPTIONS]",
	.about = "Run the seeds' kernel workloads on the running kernel the way their suites\n"
		 "run them, and keep every raw sample (-o) for 'straddle compare'. With no\n"
		 "WORKLOAD, all of them:\n",
	.list = list_workloads,
	.options = bench_options,
	.notes = "A full run with the defaults takes about 2 minutes on 2 CPUs, nearly all of\n"
		 "it read1 and poll2: 2 modes x (2 + 10) s per task count each. A progress\n"
		 "line goes to standard error when it is a terminal. Interrupted (SIGINT,\n"
		 "SIGTERM, SIGHUP, SIGQUIT), bench kills and reaps its tasks, writes nothing,\n"
		 "leaves no temporary file and dies of the signal, also when the signal comes\n"
		 "while the result file is being written.\n"
		 "\n"
		 "Exit status: 0 done, 1 fault-write failed, 2 bad usage or a workload could\n"
		 "not run.\n",
};

/* --versus's options: words apart by blanks (no quoting: bench's options
 * take no value with a blank in it but --dir's). */
static size_t versus_count(const struct bench_cmd *c)
{
	size_t n = 0;

	for (const char *p = c->versus ? c->versus : ""; *p;) {
		p += strspn(p, " \t");
		if (*p)
			n++;
		p += strcspn(p, " \t");
	}
	return n;
}

/* The i-th word of --versus, malloc'd. */
static char *versus_word(const struct bench_cmd *c, size_t i)
{
	const char *p = c->versus;

	for (;;) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (i-- == 0) {
			char *w = xmalloc(len + 1);

			memcpy(w, p, len);
			w[len] = 0;
			return w;
		}
		p += len;
	}
}

/* --invocations needs -o DIR, new; --versus needs --invocations and
 * leaves -o and the invocations to bench. */
static int check_invocations(const struct bench_cmd *c)
{
	struct stat st;

	if (c->versus && !c->invocations) {
		complain("--versus", "alternates invocations: give --invocations N too");
		return -1;
	}
	if (!c->invocations)
		return 0;
	if (!c->out_json || strcmp(c->out_json, "-") == 0) {
		complain("--invocations", "writes a directory of result files: give -o DIR");
		return -1;
	}
	if (lstat(c->out_json, &st) == 0) {
		complain(c->out_json, "exists; --invocations makes the directory itself");
		return -1;
	}
	for (size_t i = 0; i < versus_count(c); i++) {
		char *t = versus_word(c, i);
		bool ours = strncmp(t, "-o", 2) == 0 || strncmp(t, "--in", 4) == 0 ||
			    strncmp(t, "--v", 3) == 0;

		if (ours)
			complain("--versus", "'%s': -o, --invocations and --versus are bench's "
				 "to give", t);
		free(t);
		if (ours)
			return -1;
	}
	return 0;
}

static int parse_options(struct bench_cmd *c, int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");

	c->runs = 3;
	c->o.warmup = 2;
	c->o.modes = WIS_PROCESSES | WIS_THREADS;
	c->o.dir = tmp && *tmp ? tmp : "/tmp";
	if (parse_command_line(&bench_command, c, argc, argv))
		return -1;
	return check_invocations(c);
}

static int pick_workloads(struct bench_cmd *c, int argc, char **argv)
{
	for (int i = optind; i < argc; i++) {
		const struct workload *w = workload_named(argv[i]);
		bool dup = false;

		if (!w) {
			struct strbuf names = { 0 };

			for (size_t k = 0; k < workload_count(); k++)
				sb_addf(&names, "%s%s", k ? ", " : "", workload_at(k)->name);
			complain(argv[i], "no such workload (%s)", sb_str(&names));
			sb_free(&names);
			return -1;
		}
		for (size_t k = 0; k < c->nsel; k++)
			dup |= c->sel[k] == w;
		if (!dup)
			c->sel[c->nsel++] = w;
	}
	if (c->nsel == 0)
		for (size_t k = 0; k < workload_count(); k++)
			c->sel[c->nsel++] = workload_at(k);
	return 0;
}

/* ---- running ---- */

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void progress(const char *what)
{
	if (progress_tty)
		fprintf(stderr, "\r\033[Kstraddle bench: %4.0f s  %s", since_start(), what);
}

static void progress_done(void)
{
	if (progress_tty)
		fputs("\r\033[K", stderr);
}

/* The run is the unit of replication: each run takes every workload in turn,
 * so a drift of the machine lands in one run of each, and the machine's state
 * is kept per run. The first error ends it. */
static int run_all(struct bench_cmd *c, size_t *failed_at, struct err *e)
{
	for (unsigned run = 0; run < c->runs; run++) {
		struct state_snapshot at;

		state_begin(&at);
		for (size_t i = 0; i < c->nsel; i++) {
			if (c->sel[i]->run(&c->o, &c->res[i], e) || stop_signal) {
				*failed_at = i;
				return -1;
			}
			wl_end_run(&c->res[i]);
		}
		state_end(&at, &c->run[run].state);
		c->run[run].pinned = results_bench_pinned(c->sel, c->res, c->nsel);
	}
	return 0;
}

static void free_results(struct bench_cmd *c)
{
	for (size_t i = 0; i < c->nsel; i++)
		wl_result_free(&c->res[i]);
	for (size_t r = 0; r < c->runs; r++)
		results_bench_run_free(&c->run[r]);
}

/* Interrupted: the workloads have killed and reaped their tasks and
 * closed their files; end the way the signal would have ended us. */
static void die_of(int sig, struct bench_cmd *c)
{
	progress_done();
	free_results(c);
	signal(sig, SIG_DFL);
	block_terminating(SIG_UNBLOCK);
	raise(sig);
	exit(128 + sig);
}

/* ---- output ---- */

/* The result file. A terminating signal during the write ends the run
 * with nothing written and no temporary name (write_atomic), like one
 * during the measurement. */
static int write_json(const struct bench_cmd *c, const struct bench_record *b)
{
	return write_result(results_bench(b), c->out_json);
}

/* ---- --invocations: bench as a user runs it, N times ---- */

struct invocations {
	char *tmp;                      /* DIR.partial-PID until every file is whole */
	char **paths;                   /* the files written, for the clean-up */
	size_t npaths;
	bool gate_failed;               /* an invocation exited 1 (fault-write failed) */
};

/* One invocation's command line, made from the options as parsed (not
 * the words given: getopt takes abbreviations), side B's words last so
 * that they win. */
static int invocation_argv(const struct bench_cmd *c, bool side_b, const char *out,
			   struct self_cmd *a)
{
	if (self_begin(a, "bench"))
		return -1;
	for (size_t i = 0; i < c->nsel; i++)
		self_arg(a, "%s", c->sel[i]->name);
	self_arg(a, "--runs=%u", c->runs);
	self_arg(a, "--align=%u", c->o.align);
	self_arg(a, "--warmup=%u", c->o.warmup);
	self_arg(a, "--dir=%s", c->o.dir);
	self_arg(a, "--mode=%s", c->o.modes == WIS_PROCESSES ? "processes" :
		 c->o.modes == WIS_THREADS ? "threads" : "both");
	if (c->o.duration_s > 0) {
		char *d = xasprintf("%g", c->o.duration_s);

		/* %g lost digits: every one */
		self_arg(a, strtod(d, NULL) != c->o.duration_s ? "--duration=%.17g" :
			 "--duration=%g", c->o.duration_s);
		free(d);
	}
	if (c->o.ntasks) {
		struct strbuf t = { 0 };

		for (size_t i = 0; i < c->o.ntasks; i++)
			sb_addf(&t, "%s%u", i ? "," : "", c->o.tasks[i]);
		self_arg(a, "--tasks=%s", sb_str(&t));
		sb_free(&t);
	}
	for (size_t i = 0; side_b && i < versus_count(c); i++) {
		char *w = versus_word(c, i);

		self_arg(a, "%s", w);
		free(w);
	}
	self_arg(a, "-o");
	self_arg(a, "%s", out);
	return 0;
}

/* Nothing of a run that did not finish stays behind. */
static void remove_partial(struct invocations *iv)
{
	for (size_t i = 0; i < iv->npaths; i++)
		unlink(iv->paths[i]);
	for (const char *side = "ab"; *side; side++) {
		char *d = xasprintf("%s/%c", iv->tmp, *side);

		rmdir(d);
		free(d);
	}
	rmdir(iv->tmp);
}

static void free_invocations(struct invocations *iv)
{
	for (size_t i = 0; i < iv->npaths; i++)
		free(iv->paths[i]);
	free(iv->paths);
	free(iv->tmp);
}

static void on_signal_invocations(int sig)
{
	stop_signal = sig;
	spawn_signal(SIGKILL);
}

/* One child, its output gone, its error's first line kept: 0, or -1 with
 * one line said (the child's own first line). */
static int run_invocation(const struct bench_cmd *c, struct invocations *iv, unsigned i,
			  bool side_b)
{
	char *path = xasprintf("%s/%c/%02u.json", iv->tmp, side_b ? 'b' : 'a', i + 1), line[512];
	struct self_cmd a;
	struct err e = { "" };
	int status, rc = 0;

	iv->paths = xrealloc(iv->paths, (iv->npaths + 1) * sizeof *iv->paths);
	iv->paths[iv->npaths++] = path;
	if (invocation_argv(c, side_b, path, &a))
		return -1;
	if (progress_tty)
		fprintf(stderr, "\r\033[Kstraddle bench: %4.0f s  invocation %u of %u (%c)",
			since_start(), i + 1, c->invocations, side_b ? 'b' : 'a');
	if ((status = self_run(&a, SPAWN_NULL, line, sizeof line, &e)) < 0) {
		complain("bench", "%s", e.msg);
		rc = -1;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_GATE) {
		iv->gate_failed = true;
	} else if (!stop_signal && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		char st[64];

		spawn_status_text(status, st, sizeof st);
		complain("bench", "invocation %u (%c) ended with %s: %s", i + 1, side_b ? 'b' : 'a',
			 st, line);
		rc = -1;
	}
	self_free(&a);
	return rc;
}

/* Does the first file of the side in dir have metrics to band? */
static bool has_metrics(const struct invocations *iv, const char *dir)
{
	for (size_t i = 0; i < iv->npaths; i++)
		if (strncmp(iv->paths[i], dir, strlen(dir)) == 0)
			return results_has_metrics(iv->paths[i]);
	return false;
}

/* Side a's invocations are A/A of each other: their band is this host's
 * drift between invocations, kept for compare (of two single files of
 * this machine, later). Not kept is said, and the run stands. */
static void keep_drift(const struct result_file *aa)
{
	char path[PATH_MAX] = "";
	struct err e = { "" };

	if (results_host_drift_save(aa, path, sizeof path, &e))
		complain(path[0] ? path : "bench", "the drift band is not kept for this host: %s",
			 e.msg);
	else
		printf("the band is kept for this host: %s\n", path);
}

/* Each side's band, written into every file of that side, and said. */
static int record_drift(const struct bench_cmd *c, struct invocations *iv, char side)
{
	char *dir = xasprintf("%s/%c", iv->tmp, side), name[2] = { side, 0 };
	struct result_file aa = { 0 };
	struct err e = { "" };
	json_t *rec;
	int rc = 0;

	if (!has_metrics(iv, dir)) {   /* fault-write alone: counts, no samples */
		printf("%c: %u invocations; no metrics, no band\n", side, c->invocations);
		free(dir);
		return 0;
	}
	if (results_read(dir, &aa, &e)) {
		complain(dir, "%s", e.msg);
		free(dir);
		return -1;
	}
	rec = results_drift_record(&aa, name, side == 'b' ? c->versus : NULL);
	/* iv->paths is in the order run: A B A B ... */
	for (size_t i = 0; i < iv->npaths && rc == 0; i++) {
		char *final_out;
		json_t *doc;

		if (strncmp(iv->paths[i], dir, strlen(dir)) != 0)
			continue;
		final_out = xasprintf("%s%s", c->out_json, iv->paths[i] + strlen(iv->tmp));
		doc = results_drift_stamp(iv->paths[i], rec, i + 1, iv->npaths, final_out);
		free(final_out);
		if (!doc) {
			complain(iv->paths[i], "cannot read it back");
			rc = -1;
		} else {
			rc = write_result(doc, iv->paths[i]);
		}
	}
	printf("%c: %u invocations%s%s; drift between them:", side, c->invocations,
	       side != 'b' ? "" : versus_count(c) ? " with " : " with nothing added",
	       side == 'b' && versus_count(c) ? c->versus : "");
	for (size_t m = 0; m < aa.n; m++) {
		enum stat_kind k = stat_default(aa.m[m].lower_is_better);

		printf("%s %s %.2f%% (%s)", m ? "," : "", aa.m[m].name,
		       results_drift_band(&aa, &aa.m[m], k), stat_name(k));
	}
	printf("\n");
	if (rc == 0 && side == 'a')
		keep_drift(&aa);
	json_decref(rec);
	results_file_free(&aa);
	free(dir);
	return rc;
}

/* --invocations: the children A (B A B ... with --versus) one after the
 * other into DIR.partial-PID, every file's band recorded, then renamed to
 * DIR: the directory appears whole or not at all. */
static int run_invocations(struct bench_cmd *c)
{
	struct invocations iv = { xasprintf("%s.partial-%d", c->out_json, (int)getpid()), NULL, 0,
				  false };
	bool gate_failed;
	int rc = 0;

	if (mkdir(iv.tmp, 0755) != 0) {
		complain(iv.tmp, "cannot make it: %s", strerror(errno));
		free_invocations(&iv);
		return EXIT_USAGE;
	}
	for (const char *side = c->versus ? "ab" : "a"; *side; side++) {
		char *d = xasprintf("%s/%c", iv.tmp, *side);

		mkdir(d, 0755);
		free(d);
	}
	handle_terminating(on_signal_invocations);
	for (unsigned i = 0; i < c->invocations && rc == 0 && !stop_signal; i++) {
		rc = run_invocation(c, &iv, i, false);
		if (c->versus && rc == 0 && !stop_signal)
			rc = run_invocation(c, &iv, i, true);
	}
	progress_done();
	if (rc == 0 && !stop_signal)
		rc = record_drift(c, &iv, 'a');
	if (rc == 0 && !stop_signal && c->versus)
		rc = record_drift(c, &iv, 'b');
	if (rc == 0 && !stop_signal && rename(iv.tmp, c->out_json) != 0) {
		complain(c->out_json, "cannot rename %s to it: %s", iv.tmp, strerror(errno));
		rc = -1;
	}
	if (rc || stop_signal)
		remove_partial(&iv);
	else if (c->versus)
		printf("written: %s/a and %s/b; compare %s/a %s/b tests invocation against "
		       "invocation\n", c->out_json, c->out_json, c->out_json, c->out_json);
	else
		printf("written: %s/a; a file of it is a BASE whose drift compare knows\n",
		       c->out_json);
	gate_failed = iv.gate_failed;
	free_invocations(&iv);
	if (stop_signal) {
		signal(stop_signal, SIG_DFL);
		block_terminating(SIG_UNBLOCK);
		raise(stop_signal);
		exit(128 + stop_signal);
	}
	return rc ? EXIT_USAGE : gate_failed ? EXIT_GATE : EXIT_OK;
}

static int cmd_bench(int argc, char **argv)
{
	static struct bench_cmd c;
	struct bench_record b;
	struct err e = { "" };
	size_t failed_at = 0;
	int status = EXIT_OK;

	memset(&c, 0, sizeof c);
	if (parse_options(&c, argc, argv) || pick_workloads(&c, argc, argv))
		return EXIT_USAGE;
	stop_signal = 0;
	c.o.stop = &stop_signal;
	progress_tty = isatty(STDERR_FILENO);
	if (c.invocations) {
		clock_gettime(CLOCK_MONOTONIC, &started);
		return run_invocations(&c);
	}
	c.o.progress = progress;
	clock_gettime(CLOCK_MONOTONIC, &started);
	handle_terminating(on_signal);
	if (run_all(&c, &failed_at, &e)) {
		if (stop_signal)
			die_of(stop_signal, &c);
		progress_done();
		complain(c.sel[failed_at]->name, "%s", e.msg);
		free_results(&c);
		return EXIT_USAGE;
	}
	c.elapsed_s = since_start();
	progress_done();
	b = (struct bench_record){ argc, argv, c.sel, c.res, c.nsel, &c.o, c.run, c.runs,
				   c.elapsed_s };
	if (!c.out_json || strcmp(c.out_json, "-") != 0)
		report_bench(stdout, &b);
	if (c.out_json && write_json(&c, &b))
		status = EXIT_USAGE;
	for (size_t i = 0; i < c.nsel && status == EXIT_OK; i++)
		if (c.res[i].failed)
			status = EXIT_GATE;
	free_results(&c);
	if (stop_signal)
		die_of(stop_signal, &c);
	return status;
}
