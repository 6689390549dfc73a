/* straddle record -- COMMAND: where a program spends its time, sampled, and
 * which loops those samples fall in, so that scan --hot can put the hazards
 * of the hottest loops first. Seed 000's engineers found __clear_user with a
 * profiler before anyone looked at its alignment. */
#include "cmd.h"
#include "../measure/clock.h"
#include "../measure/sample.h"
#include "../report/report.h"
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

/* ---- running and watching ---- */

/* Run the command, or watch -p's process; -1 after one line. */
static int sample_program(struct record_cmd *c, struct sampling *s)
{
	struct err e = { "" };
	const char *where = "record";
	char what[32];

	snprintf(what, sizeof what, "process %lu", c->pid);
	if (c->pid ? sampling_watch(s, (pid_t)c->pid, c->duration, &e) :
	    sampling_run(s, c->argv, c->stdin_fd, &c->exit_status, &where, &e)) {
		complain(c->pid ? what : where, "%s", e.msg);
		return -1;
	}
	return 0;
}

/* After the record is written: say a signal that interrupted the program
 * and die of one passed to it, as record would have without a program to
 * wait for. */
static void die_of_forwarded(void)
{
	bool forwarded;
	int sig = sampling_interrupted(&forwarded);

	if (sig)
		complain("record", "interrupted by SIG%s: the record holds what was sampled until "
			 "then", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	if (forwarded)
		die_of_signal(sig);
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
	char cost[256];
	size_t files = 0;
	int rc;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (!c.hz_given)
		c.hz = sampling_chosen_rate(&c.sample_cost);
	s.hz = (unsigned)c.hz;
	s.want_kernel = c.kernel;
	rc = sample_program(&c, &s);
	if (rc) {
		sampling_close(&s);
		return EXIT_USAGE;
	}
	sampling_finish(&s);
	if (c.hz_given)         /* after the run: the program did not wait for it */
		sample_cost_ns(&c.sample_cost, sample_max_rate(), &(struct err){ "" });
	record_few_words(c.few_note, sizeof c.few_note, s.samples, c.hz);
	if (s.event_note[0])
		complain("record", "%s", s.event_note);
	if (s.kernel_note[0])
		complain("record", "%s", s.kernel_note);
	rc = write_record(&c, &s);
	for (size_t i = 0; i < s.nfile; i++)
		files += s.file[i].samples > 0;
	record_cost_words(cost, sizeof cost, c.hz, c.hz_given, c.sample_cost);
	if (rc == 0 && cost[0])
		complain("record", "%s", cost);
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
