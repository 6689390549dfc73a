/* straddle record -- COMMAND: where a program spends its time, sampled, and
 * which loops those samples fall in, so that scan --hot can put the hazards
 * of the hottest loops first. Seed 000's engineers found __clear_user with a
 * profiler before anyone looked at its alignment. */
#include "cmd.h"
#include "../measure/clock.h"
#include "../measure/sample.h"
#include "../results/record.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Sampling slows the program by at most 2% at the default rate (the
 * promise doc/record.md makes). The rate is chosen for half of that: the slowdown predicted for 250
 * Hz here (48 us a sample) was 1.2%, and bench-record measured it at +0.8% to
 * +2.6% in six runs of 31 to 61 pairs on the loaded guest, so the other half
 * is room for what a run adds. */
#define COST_GOAL 0.02
#define COST_BUDGET (COST_GOAL / 2)
/* Fewer samples than this and record says how far a share can be off. */
#define FEW_SAMPLES 1000

struct record_cmd {
	const char *out;
	unsigned long hz;
	bool hz_given;                  /* -F; else chosen by what a sample costs */
	double sample_cost;             /* ns of the program's time a sample, < 0 unknown */
	bool kernel;
	unsigned long pid;              /* -p: a running process, 0: run argv */
	struct profiles_arg uarch;      /* the scan's that finds the loops */
	const char *stdin_path;         /* --stdin: the program's standard input */
	int stdin_fd;                   /* open, or -1: straddle's own */
	double duration;                /* -p: seconds, 0: until it ends */
	char **argv;                    /* the command */
	int argc;                       /* of straddle record, for the file */
	char **self_argv;
	int exit_status;                /* the program's, passed through */
	char few_note[160];             /* how far a share can be off, when samples are few */
};

static volatile sig_atomic_t stop_signal;

/* -F: at most what the kernel allows (perf_event_max_sample_rate). */
static int set_hz(void *cmd, const char *opt, const char *value)
{
	struct record_cmd *c = cmd;

	c->hz_given = true;
	return parse_number(opt, value, 1, sample_max_rate(), &c->hz);
}

static int cmd_record(int argc, char **argv);

#define F(field) offsetof(struct record_cmd, field)

static const struct cmd_option record_options[] = {
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out),
	  .help = "the result file, written atomically (default\n"
		  "record.json; '-': standard output)" },
	{ .letter = 'F', .value = "HZ", .kind = OPT_CALL, .call = set_hz,
	  .help = "samples a second (default: the highest of 4000, 2000,\n"
		  "1000, 500, 250, 100, 50, 25, 10 that costs the program\n"
		  "at most 1% here, measured first, to keep it within 2%;\n"
		  "at most the kernel's perf_event_max_sample_rate)" },
	{ .name = "kernel", .kind = OPT_SET, .field = F(kernel),
	  .help = "kernel samples too, when the kernel permits them" },
	{ .letter = 'p', .value = "PID", .kind = OPT_ULONG, .field = F(pid), .min = 1,
	  .max = 1ul << 22, .help = "sample a running process (all its threads) instead" },
	{ .name = "duration", .value = "S", .kind = OPT_SECONDS, .field = F(duration),
	  .help = "with -p: stop after S seconds (default: when it ends,\n"
		  "or at ^C)" },
	OPT_UARCH_MANY(F, uarch, MODEL_MAX_PROFILES, "the profiles of the scan that finds the loops"),
	{ .name = "stdin", .value = "FILE|-", .kind = OPT_STRING, .field = F(stdin_path),
	  .help = "the program's standard input ('-': /dev/null; default:\n"
		  "straddle's own)" },
	{ 0 }
};

const struct command record_command = {
	.name = "record",
	.run = cmd_record,
	.summary = "sample where a program spends its time; scan --hot ranks by it",
	.args = "[OPTIONS] -- COMMAND [ARGS...] | -p PID [--duration S]",
	.about = "Sample where a program spends its time: instruction pointers through\n"
		 "perf_event_open, hardware cycles when the PMU allows them, else software\n"
		 "cpu-clock (said on standard error). Children and threads are followed, and\n"
		 "every file mapped, libraries loaded late by dlopen and the vDSO included.\n"
		 "The result file has the samples per file (with its build-id), function and\n"
		 "loop, at the files' own virtual addresses; 'straddle scan --hot FILE'\n"
		 "ranks hazards by them.\n"
		 "Without -F the rate fits the machine: what one sample costs is measured\n"
		 "first (~0.2 s, before the program starts), 1-2 us on bare metal but tens\n"
		 "of us in some VMs, and the rate is the highest predicted to cost at most\n"
		 "1%, to keep the program within 2%; with -F, a rate that costs more than\n"
		 "2% is said after the run.\n",
	.options = record_options,
	.in_order = true,
	.notes = "The program reads straddle's standard input (or --stdin FILE) and writes to\n"
		 "its standard output, in its environment and directory. A SIGINT, SIGTERM or\n"
		 "SIGHUP is passed to it; record writes what it sampled, says it was\n"
		 "interrupted and dies of the signal (the program too if straddle is killed).\n"
		 "\n"
		 "Exit status: the program's (128+N when signal N ended it); 2 bad usage, a\n"
		 "program that could not be run, or a result that could not be written.\n",
};

/* --stdin: "-" is /dev/null; a file or a FIFO is read as the program
 * reads it (one run: nothing to keep for another). */
static int open_stdin(struct record_cmd *c)
{
	const char *path = strcmp(c->stdin_path, "-") ? c->stdin_path : "/dev/null";
	struct stat st;

	c->stdin_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->stdin_fd < 0 || fstat(c->stdin_fd, &st) || S_ISDIR(st.st_mode)) {
		complain(c->stdin_path, "%s", c->stdin_fd < 0 ? strerror(errno) : "a directory, not "
			 "an input");
		return -1;
	}
	return 0;
}

static int parse_options(struct record_cmd *c, int argc, char **argv)
{
	c->out = "record.json";
	c->sample_cost = -1;
	c->stdin_fd = -1;
	if (parse_command_line(&record_command, c, argc, argv))
		return -1;
	if (c->stdin_path && open_stdin(c))
		return -1;
	c->argv = argv + optind;
	if (c->pid && optind < argc) {
		complain("record", "-p PID or a COMMAND, not both");
		return -1;
	}
	if (!c->pid && optind >= argc) {
		complain("record", "no command to run (straddle record -- COMMAND [ARGS...])");
		return -1;
	}
	if (c->duration && !c->pid) {
		complain("record", "--duration goes with -p PID");
		return -1;
	}
	return 0;
}

/* ---- the rate: what a sample costs here ---- */

/* Without -F: the highest rate whose cost here is within the budget,
 * measured before the program starts so that none of it is the program's
 * time. When the events cannot be opened at all, the ladder's top, and
 * sampling_open says why, as it would have anyway. */
static void choose_rate(struct record_cmd *c)
{
	struct err e = { "" };

	if (sample_cost_ns(&c->sample_cost, sample_max_rate(), &e))
		c->sample_cost = -1;
	c->hz = default_rate(c->sample_cost > 0 ? c->sample_cost : 0, COST_BUDGET,
			     sample_max_rate());
}

/* "44", "1.6": us, two digits or so */
static void format_us(char *buf, size_t n, double ns)
{
	snprintf(buf, n, ns < 10000 ? "%.1f" : "%.0f", ns / 1000);
}

/* One line on what sampling cost: always for a rate record chose, for
 * -F only when it is over the 2% goal. */
static void say_cost(const struct record_cmd *c)
{
	double share = sampling_slowdown(c->hz, c->sample_cost);
	char us[32], pct[32];

	if (c->sample_cost < 0)
		return;
	format_us(us, sizeof us, c->sample_cost);
	snprintf(pct, sizeof pct, isfinite(share) ? "~%.1f%%" : "over 100%%", 100 * share);
	if (!c->hz_given && share <= COST_BUDGET)
		complain("record", "one sample costs ~%s us here; sampled at %lu Hz to keep the "
			 "program within %g%% (-F to choose)", us, c->hz, 100 * COST_GOAL);
	else if (!c->hz_given)
		complain("record", "one sample costs ~%s us here; sampled at %lu Hz, the lowest "
			 "rate, which still cost the program %s (-F to choose)", us, c->hz, pct);
	else if (share > COST_GOAL)
		complain("record", "-F %lu: one sample costs ~%s us here, so sampling cost the "
			 "program %s (%u Hz keeps it within %g%%)", c->hz, us, pct,
			 default_rate(c->sample_cost, COST_BUDGET, sample_max_rate()),
			 100 * COST_GOAL);
}

/* A share of n samples is a binomial proportion: its 95% interval is
 * widest at a share of 1/2, +/- 1.96 * sqrt(1/4n). */
static void note_few_samples(struct record_cmd *c, uint64_t n)
{
	c->few_note[0] = 0;
	if (n == 0)
		snprintf(c->few_note, sizeof c->few_note, "no samples: the program ran less "
			 "than one sampling period (%.1f ms at %lu Hz) of CPU time",
			 1000.0 / (double)c->hz, c->hz);
	else if (n < FEW_SAMPLES)
		snprintf(c->few_note, sizeof c->few_note, "only %llu samples: shares are "
			 "+/-%.1f%% (95%%, at a share of 50%%); a longer run gives more",
			 (unsigned long long)n, 100 * 0.98 / sqrt((double)n));
}

/* ---- running and watching ---- */

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int wait_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 2;
}

/* The program, while it runs: a SIGTERM or SIGHUP that would end record is
 * passed to it, and record dies of that signal only after the program ended
 * and its record is written; SIGTERM used to leave the program running under
 * PID 1. SIGINT and SIGQUIT from the terminal reach the whole process group,
 * the program too; one sent to record alone (si_code SI_USER, from kill) is
 * passed on as well. */
static volatile sig_atomic_t forwarded, from_terminal;

static void forward_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if ((sig == SIGINT || sig == SIGQUIT) && si->si_code != SI_USER) {
		from_terminal = sig;
		return;         /* the terminal's: the program has it already */
	}
	forwarded = sig;
	if (spawn_signal(sig))
		return;
	/* the program is over: nothing to wait for, record ends now (a read
	 * that never returns must not make it unkillable) */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void forward_terminating(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (const int *sig = (const int[]){ SIGINT, SIGTERM, SIGHUP, SIGQUIT, 0 }; *sig; sig++)
		sigaction(*sig, &sa, NULL);
}

/* After the record is written: die of the forwarded signal, as record
 * would have without a program to wait for. */
static void die_of_forwarded(void)
{
	int sig = forwarded ? forwarded : from_terminal;

	if (sig)
		complain("record", "interrupted by SIG%s: the record holds what was sampled until "
			 "then", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	if (!forwarded)
		return;
	signal(forwarded, SIG_DFL);
	raise(forwarded);
}

/* The program, held until its events are open so that nothing it runs
 * escapes them (they start when it execs); a SIGKILL to record, which no
 * handler sees, ends it too (spawn: PR_SET_PDEATHSIG). */
static int run_command(struct record_cmd *c, struct sampling *s)
{
	struct spawn child = { .argv = c->argv, .in = c->stdin_fd >= 0 ? c->stdin_fd : SPAWN_OURS,
			       .in_start = -1, .out = SPAWN_OURS, .err = SPAWN_OURS,
			       .forward = true, .hold = true };
	struct err e = { "" };
	int st;

	if (spawn_start(&child, &e)) {
		complain("record", "fork: %s", strerror(child.error));
		return -1;
	}
	if (sampling_open(s, &child.pid, 1, true, &e)) {
		complain("record", "%s", e.msg);
		spawn_signal(SIGKILL);
		spawn_wait(&child, &st, NULL, &e);
		return -1;
	}
	/* ^C goes to the whole process group: the program decides, we wait */
	forward_terminating();
	if (spawn_release(&child, &e)) {
		complain(c->argv[0], "cannot run: %s", strerror(child.error));
		return -1;
	}
	while (spawn_poll(&child, &st) == 0)
		sampling_drain(s, 50);
	sampling_drain(s, 0);
	c->exit_status = wait_status(st);
	return 0;
}

static int watch_process(struct record_cmd *c, struct sampling *s)
{
	pid_t *tids;
	size_t n = process_threads((pid_t)c->pid, &tids);
	struct err e = { "" };
	struct sigaction sa = { .sa_handler = on_stop };
	double end = monotonic_s() + (c->duration ? c->duration : 1e12);
	char what[32];

	snprintf(what, sizeof what, "process %lu", c->pid);
	if (n == 0) {
		complain(what, "no such process");
		return -1;
	}
	if (sampling_open(s, tids, n, false, &e) ||
	    sampling_add_proc_maps(s, (pid_t)c->pid, &e)) {
		complain(what, "%s", e.msg);
		free(tids);
		return -1;
	}
	free(tids);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sampling_enable(s);
	while (!stop_signal && monotonic_s() < end && (kill((pid_t)c->pid, 0) == 0 || errno == EPERM))
		sampling_drain(s, 50);
	sampling_drain(s, 0);
	c->exit_status = EXIT_OK;
	return 0;
}

/* ---- from file offsets to loops ---- */

/* A sampled file with its samples at their ELF addresses and scanned;
 * one that cannot be is an error entry (of 0 functions), said. */
static void record_file(struct record_cmd *c, const struct sampled_file *sf,
			struct record_doc *d)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct scan_opts o = { .profiles = c->uarch.v, .nprofiles = c->uarch.n,
			       .jobs = cpus > 0 ? (unsigned)(cpus < 16 ? cpus : 16) : 1,
			       .keep_all = true };
	struct elf_image img;
	struct hot_file hf;
	struct scan_result r;
	struct err e = { "" };

	if (sampled_file_scan(sf, &o, &img, &hf, &r, &d->outside, &e)) {
		results_record_add_file(d, &hf, NULL, e.msg);
		complain(sf->path, "%s; its %llu samples are not placed in loops", e.msg,
			 (unsigned long long)sf->samples);
	} else {
		results_record_add_file(d, &hf, &r, NULL);
		scan_result_free(&r);
	}
	elf_close(&img);
	free(hf.addrs.v);
}

static int by_samples(const void *a, const void *b)
{
	const struct sampled_file *x = a, *y = b;

	return (x->samples < y->samples) - (x->samples > y->samples);
}

static void record_kernel(const struct sampling *s, struct record_doc *d)
{
	struct hot_run h;

	sampled_kernel(s, &h);
	d->ksyms_hidden = !h.nksym;
	results_record_set_kernel(d, &h);
	h.kernel.addrs = (struct sample_hist){ 0 };     /* still the sampling's */
	hot_run_free(&h);
}

static int write_record(struct record_cmd *c, struct sampling *s)
{
	struct record_doc d = { .argc = c->argc, .argv = c->self_argv, .s = s,
				.hz = c->hz, .hz_auto = !c->hz_given,
				.sample_cost_ns = c->sample_cost, .exit_status = c->exit_status,
				.few = c->few_note };

	qsort(s->file, s->nfile, sizeof *s->file, by_samples);
	for (size_t i = 0; i < s->nfile; i++)
		if (s->file[i].samples)
			record_file(c, &s->file[i], &d);
	if (s->kernel)
		record_kernel(s, &d);
	return write_result(results_record(&d), c->out);
}

static int cmd_record(int argc, char **argv)
{
	struct record_cmd c = { .argc = argc, .self_argv = argv };
	struct sampling s = { 0 };
	size_t files = 0;
	int rc;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (!c.hz_given)
		choose_rate(&c);
	s.hz = (unsigned)c.hz;
	s.want_kernel = c.kernel;
	rc = c.pid ? watch_process(&c, &s) : run_command(&c, &s);
	if (rc) {
		sampling_close(&s);
		return EXIT_USAGE;
	}
	sampling_finish(&s);
	if (c.hz_given)         /* after the run: the program did not wait for it */
		sample_cost_ns(&c.sample_cost, sample_max_rate(), &(struct err){ "" });
	note_few_samples(&c, s.samples);
	if (s.event_note[0])
		complain("record", "%s", s.event_note);
	if (s.kernel_note[0])
		complain("record", "%s", s.kernel_note);
	rc = write_record(&c, &s);
	for (size_t i = 0; i < s.nfile; i++)
		files += s.file[i].samples > 0;
	if (rc == 0)
		say_cost(&c);
	if (rc == 0 && strcmp(c.out, "-") != 0)
		complain("record", "%llu samples (%s, %lu Hz; %llu kernel, %llu in no file, %llu lost) in %zu files: %s",
			(unsigned long long)s.samples, s.event, c.hz,
			(unsigned long long)s.kernel_samples, (unsigned long long)s.unmapped,
			(unsigned long long)s.lost, files, c.out);
	if (rc == 0 && c.few_note[0])
		complain("record", "%s", c.few_note);
	sampling_close(&s);
	die_of_forwarded();
	return rc ? EXIT_USAGE : c.exit_status;
}
