/* straddle sweep KERNEL...: each kernel placed at every code offset and
 * measured, with confidence intervals and a significance test per offset,
 * beside what the layout model predicted for that placement (seed 002: the
 * maintainers wanted measured bandwidth, not a proxy; seed 000: the loop
 * that straddled a window). */
#include "cmd.h"
#include "../measure/sweep.h"
#include "../report/report.h"
#include "../results/sweep.h"
#include "../workloads/workloads.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sweep_cmd {
	struct sweep s;
	struct routine_args ra;
	struct routine *routine;        /* --file --func: a kernel image's routine */
	const struct workload_shape *workload;
	bool size_given;
	/* --aa: kernels[nprimary + i] is the control of kernels[i], named
	 * aa_name[i], stored in aa[i] */
	bool aa;
	size_t nprimary;
	struct kernel aa_kernel[32];
	const struct kernel *controls[32];
	char aa_name[32][112];
	const struct kernel *kernels[32];
	size_t nkernels;
	uint32_t first, last, step;
	const char *out_json, *plot;
	bool csv;
	struct profiles_arg uarch;      /* the first: the predicted column */
	int argc;
	char **argv;
};

static int set_size(void *cmd, const char *opt, const char *value)
{
	((struct sweep_cmd *)cmd)->size_given = true;
	return parse_size(opt, value, &((struct sweep_cmd *)cmd)->s.size);
}

static int set_workload(void *cmd, const char *opt, const char *value)
{
	struct sweep_cmd *c = cmd;

	if ((c->workload = workload_shape_named(value)))
		return 0;
	complain(opt, "'%s' is not pread_z1k, pread_z10k, pread_z100k, read1 or poll2", value);
	return -1;
}

static int set_alternative(void *cmd, const char *opt, const char *value)
{
	return routine_args_alternative(&((struct sweep_cmd *)cmd)->ra, opt, value);
}

static int set_offsets(void *cmd, const char *opt, const char *s)
{
	struct sweep_cmd *c = cmd;

	return parse_offsets(opt, s, &c->first, &c->last, &c->step);
}

static int cmd_sweep(int argc, char **argv);

#define F(field) offsetof(struct sweep_cmd, field)

static const struct cmd_option sweep_options[] = {
	{ .name = "offsets", .value = "A..B[:STEP]", .kind = OPT_CALL, .call = set_offsets,
	  .help = "code offsets from a page (default 0..63; at most 4095)" },
	{ .name = "size", .value = "BYTES", .kind = OPT_CALL, .call = set_size,
	  .help = "bytes per call, K/M suffixes (default 4096)" },
	{ .name = "workload", .value = "SHAPE", .kind = OPT_CALL, .call = set_workload,
	  .help = "instead, the calls one operation of a seed's\n"
		  "workload makes: pread_z1k, pread_z10k, pread_z100k\n"
		  "(read_zero's 4 KiB clear_user calls), read1 (a 4 KiB\n"
		  "copy), poll2 (a 2-byte put_user)" },
	ROUTINE_OPTIONS(F, set_alternative),
	{ .name = "precision", .value = "P", .kind = OPT_FRACTION, .field = F(s.precision),
	  .lo = 1e-6, .hi = 0.5, .dflt = "1%",
	  .help = "stop when every floor's 95% CI half-width is within P\n"
		  "of it" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(s.budget_s), .dflt = "20",
	  .help = "or after S seconds" },
	{ .name = "min-rounds", .value = "N", .kind = OPT_UNSIGNED, .field = F(s.min_rounds),
	  .min = 1, .max = 1000000, .dflt = OPT_TEXT(SWEEP_MIN_ROUNDS),
	  .help = "rounds before the precision is checked" },
	{ .name = "min-time", .value = "S", .kind = OPT_SECONDS, .field = F(s.min_place_s),
	  .dflt = OPT_TEXT(SWEEP_MIN_PLACE_S), .help = "and seconds each offset must be measured first" },
	OPT_ALPHA(F, s.alpha, "significance level of the slow mark"),
	OPT_MATERIAL(F, s.material, SWEEP_MATERIAL, "how much slower counts"),
	OPT_UARCH_MANY(F, uarch, 4, "the profiles of the prediction: the first fills the\n"
		       "column, each gets an agreement line"),
	OPT_LLVM_MCA(F, s.llvm_mca),
	OPT_SEED(F, s.seed, "the random order"),
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT,
	  .field = F(out_json), .help = "the result file, every raw sample in it ('-': stdout)" },
	{ .name = "aa", .kind = OPT_SET, .field = F(aa),
	  .help = "A/A: a second copy of every placement measured beside\n"
		  "it (its own mapping): the column A/A is its floor over\n"
		  "the first's, the noise the slow marks stand on" },
	{ .name = "csv", .kind = OPT_SET, .field = F(csv),
	  .help = "CSV on standard output instead of the table" },
	{ .name = "plot", .value = "FILE.svg", .kind = OPT_OUTPUT, .field = F(plot),
	  .help = "time against offset, CI whiskers, window boundaries" },
	{ 0 }
};

const struct command sweep_command = {
	.name = "sweep",
	.run = cmd_sweep,
	.summary = "run a loop at every code offset and measure it",
	.args = "[OPTIONS] KERNEL...",
	.about = "Place each kernel at every code offset and measure it: per offset the floor\n"
		 "(the 10th percentile of the time per call: what the placement allows when the\n"
		 "machine lets it run) with its 95% CI, the median, the bandwidth at the floor,\n"
		 "the ratio of floors to the best offset, and 'slow' where the offset's floor is\n"
		 "both significantly (quantile test, --alpha) and materially (--material) above\n"
		 "the best's; beside it what the layout model predicts for that placement on\n"
		 "this CPU. 'straddle kernels' lists the kernels.\n"
		 "\n"
		 "An arm64 vmlinux's routine (--file, --func) runs under qemu-aarch64, which\n"
		 "has no layout timing: every offset that is a multiple of 4 is run and its\n"
		 "bytes checked, nothing is timed, and -o, --plot, --csv and --aa are refused.\n",
	.options = sweep_options,
	.notes = "Interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT), sweep writes nothing, leaves\n"
		 "no temporary file and dies of the signal, also when the signal comes while\n"
		 "the result file or the plot is being written. -o and --plot replace only a\n"
		 "regular file, keeping its mode.\n"
		 "\n"
		 "Exit status: 0 done, 1 an emulated routine's call went wrong, 2 bad usage or\n"
		 "a measurement that could not run.\n",
};

static int parse_options(struct sweep_cmd *c, int argc, char **argv)
{
	c->first = 0, c->last = 63, c->step = 1;
	c->s.size = 4096;
	return parse_command_line(&sweep_command, c, argc, argv);
}

/* --workload's calls, or a put's or get's one size. */
static int operation(struct sweep_cmd *c)
{
	const struct kernel *k = c->routine ? &c->routine->k : NULL;
	size_t total = 0;

	if (c->workload && c->size_given) {
		complain("--workload", "a workload's calls have their sizes: no --size with it");
		return -1;
	}
	if (c->workload) {
		c->s.calls = c->workload->calls;
		c->s.ncalls = c->workload->ncalls;
		for (size_t i = 0; i < c->s.ncalls; i++)
			total += c->s.calls[i];
		c->s.size = total;
	}
	if (k && (k->kind == KERNEL_PUT || k->kind == KERNEL_GET) && c->s.size != k->call->size) {
		if (c->size_given || c->workload) {
			complain(k->name, "stores or loads %u bytes a call, not %zu", k->call->size,
				 c->s.size);
			return -1;
		}
		c->s.size = k->call->size;
	}
	return 0;
}

static int pick_kernels(struct sweep_cmd *c, int argc, char **argv)
{
	switch (routine_args_open(&c->ra, NULL, &c->routine)) {
	case -1:
		return -1;
	case 1:
		c->kernels[c->nkernels++] = &c->routine->k;
		return operation(c);
	}
	if (optind >= argc) {
		complain("sweep", "name at least one kernel (see 'straddle kernels'), or a kernel "
			 "image's routine with --file and --func");
		return -1;
	}
	if (operation(c))
		return -1;
	for (int i = optind; i < argc; i++) {
		const struct kernel *k = kernel_named(argv[i]);

		if (!k) {
			complain(argv[i], "no such kernel on this %s host (see 'straddle kernels')",
				 arch_name(arena_host_arch()));
			return -1;
		}
		if (c->nkernels == sizeof c->kernels / sizeof c->kernels[0]) {
			complain("sweep", "at most %zu kernels at once", c->nkernels);
			return -1;
		}
		c->kernels[c->nkernels++] = k;
	}
	return 0;
}

/* --aa: a clone of each placed kernel, swept over the same offsets. */
static int add_controls(struct sweep_cmd *c)
{
	struct err e = { "" };

	c->nprimary = c->nkernels;
	if (!c->aa)
		return 0;
	for (size_t i = 0; i < c->nprimary; i++) {
		const struct kernel *k = c->kernels[i];

		if (!k->placeable || c->nkernels == sizeof c->kernels / sizeof c->kernels[0])
			continue;
		snprintf(c->aa_name[i], sizeof c->aa_name[i], "%.100s/aa", k->name);
		if (kernel_clone(k, c->aa_name[i], &c->aa_kernel[i], &e)) {
			complain("--aa", "%s", e.msg);
			return -1;
		}
		c->kernels[c->nkernels++] = &c->aa_kernel[i];
		c->controls[i] = &c->aa_kernel[i];
	}
	return 0;
}

/* ---- output ---- */

static int write_json(const struct sweep_cmd *c)
{
	return write_result(results_sweep(&c->s, c->uarch.v[0]->name, c->uarch.v, c->uarch.n,
					  c->kernels, c->nkernels, c->argc, c->argv), c->out_json);
}

static void render(const struct sweep_cmd *c, struct sweep_view *w)
{
	*w = (struct sweep_view){ &c->s, c->kernels, c->nkernels, c->nprimary,
		c->aa ? c->controls : NULL, c->uarch.v, c->uarch.n,
		c->workload ? c->workload->name : NULL, c->first, c->last };
	if (c->csv)
		report_sweep_csv(stdout, &c->s);
	else if (!c->out_json || strcmp(c->out_json, "-") != 0)
		report_sweep_text(stdout, w);
}

/* Another architecture's routine, under qemu-user: every offset run and
 * checked, nothing timed (kernels.h says why), so nothing to write. */
static int sweep_emulated(const struct sweep_cmd *c)
{
	uint32_t one = (uint32_t)c->s.size;
	struct err e = { "" };
	int rc;

	if (c->out_json || c->plot || c->csv || c->aa) {
		complain("sweep", "%s runs under qemu-aarch64, which times nothing: no -o, --plot, "
			 "--csv or --aa", c->routine->k.name);
		return EXIT_USAGE;
	}
	rc = routine_sweep_emulated(c->routine, c->first, c->last, c->step,
				    c->s.ncalls ? c->s.calls : &one, c->s.ncalls ? c->s.ncalls : 1,
				    stdout, &e);
	if (rc < 0)
		complain("sweep", "%s", e.msg);
	return rc < 0 ? EXIT_USAGE : rc ? EXIT_GATE : EXIT_OK;
}

static int cmd_sweep(int argc, char **argv)
{
	struct sweep_cmd c = { .argc = argc, .argv = argv };
	struct sweep_view w;
	struct err e = { "" };
	int status = EXIT_USAGE;

	if (parse_options(&c, argc, argv) || pick_kernels(&c, argc, argv) || add_controls(&c))
		goto out;
	if (c.routine && c.routine->emulated) {
		status = sweep_emulated(&c);
		goto out;
	}
	if (sweep_variants(&c.s, c.kernels, c.nkernels, c.first, c.last, c.step, &e) ||
	    sweep_prepare(&c.s, &e) || sweep_run(&c.s, &e)) {
		complain("sweep", "%s", e.msg);
		goto out;
	}
	sweep_analyse(&c.s, c.uarch.v[0]);
	render(&c, &w);
	status = EXIT_OK;
	if (c.out_json && write_json(&c))
		status = EXIT_USAGE;
	/* the result file failed (a full disk): no plot of it either; outputs
	 * appear whole or not at all */
	if (c.plot && status == EXIT_OK && report_sweep_plot(c.plot, &w, &e)) {
		complain(c.plot, "%s", e.msg);
		status = EXIT_USAGE;
	}
out:
	sweep_free(&c.s);
	free(c.s.v);
	for (size_t i = 0; c.aa && i < c.nprimary; i++)
		kernel_unclone(&c.aa_kernel[i]);
	routine_free(c.routine);
	return status;
}
