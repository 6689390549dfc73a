/* straddle bench [WORKLOAD...]: the seeds' kernel workloads on the running
 * kernel, run the way libMicro, will-it-scale and the timens selftests run
 * them, every raw sample kept in a result file that 'straddle compare'
 * reads. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/bench.h"
#include "../stats/stats.h"
#include "../workloads/workloads.h"
#include "../measure/state.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	struct bench_invocations inv;
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

static int set_tasks(void *cmd, const char *opt, const char *s)
{
	struct bench_cmd *c = cmd;

	c->o.tasks = c->tasks;
	return parse_counts(opt, s, "task counts", MAX_TASKS, c->tasks, &c->o.ntasks);
}

static int set_dir(void *cmd, const char *opt, const char *dir)
{
	((struct bench_cmd *)cmd)->o.dir = dir;
	return check_work_dir(opt, dir);
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

static int parse_options(struct bench_cmd *c, int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");

	c->runs = 3;
	c->o.warmup = 2;
	c->o.modes = WIS_PROCESSES | WIS_THREADS;
	c->o.dir = tmp && *tmp ? tmp : "/tmp";
	if (parse_command_line(&bench_command, c, argc, argv))
		return -1;
	c->inv = (struct bench_invocations){ c->sel, c->nsel, &c->o, c->runs, c->invocations,
					     c->versus, c->out_json, isatty(STDERR_FILENO) };
	return bench_invocations_check(&c->inv);
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
	die_of_signal(sig);
}

/* ---- output ---- */

/* The result file. A terminating signal during the write ends the run
 * with nothing written and no temporary name (write_atomic), like one
 * during the measurement. */
static int write_json(const struct bench_cmd *c, const struct bench_record *b)
{
	return write_result(results_bench(b), c->out_json);
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
		c.inv.nsel = c.nsel;
		return bench_invocations_run(&c.inv);
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
