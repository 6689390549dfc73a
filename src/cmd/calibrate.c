/* straddle calibrate: learn this CPU's layout rules from synthetic loops
 * measured at every offset of a line, and save them as a profile that --uarch
 * host then uses (every built-in profile but one was a manual's guess for the
 * CPU in front of it; seed 002's maintainers asked for measured evidence). */
#include "cmd.h"
#include "../measure/calibrate.h"
#include "../report/report.h"
#include "../results/calibrate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_BUDGET_S 260.0          /* the issue: at most 5 minutes, set-up and fit included */
#define QUICK_BUDGET_S 45.0             /* --quick: at most 1 minute */

struct calibrate_cmd {
	struct calib_opts o;
	bool quick;
	double time;                    /* --time, 0: not given */
	const char *out, *plot_dir, *from;
	char default_out[PATH_MAX];
	struct host host;
	json_t *machine;                /* --from: the recording's, owned */
	struct calib_experiment *x;
	size_t nx;
	struct calib_fit fit;
	struct calib_profile_text text;
	struct profile profile;
	int argc;
	char **argv;
};

static int cmd_calibrate(int argc, char **argv);

#define F(field) offsetof(struct calibrate_cmd, field)

static const struct cmd_option calibrate_options[] = {
	{ .name = "quick", .kind = OPT_SET, .field = F(quick),
	  .help = "at most a minute (default: at most 5)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(time),
	  .help = "the measuring budget in seconds" },
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out),
	  .help = "where to save (default $XDG_DATA_HOME/straddle/\n"
		  "profiles/VENDOR-FAMILY-MODEL-STEPPING.json, else\n"
		  "under ~/.local/share)" },
	{ .name = "plot", .value = "DIR", .kind = OPT_STRING, .field = F(plot_dir),
	  .help = "one SVG per experiment: time against offset" },
	{ .name = "from", .value = "FILE.json", .kind = OPT_STRING, .field = F(from),
	  .help = "fit the experiments recorded in a profile file\n"
		  "again, measuring nothing" },
	OPT_SEED(F, o.seed, "the random order and the bootstrap"),
	{ 0 }
};

const struct command calibrate_command = {
	.name = "calibrate",
	.run = cmd_calibrate,
	.summary = "learn this CPU's layout rules from synthetic loops; writes a profile",
	.args = "[--quick] [--time S] [-o PROFILE.json] [--plot DIR] [--from FILE.json]",
	.about = "Measure synthetic loops (and a small called function) at every offset of a\n"
		 "line, fit which layout rules cost on this CPU (windows a loop must not\n"
		 "straddle, branches crossing or ending on a window, how large a loop the loop\n"
		 "buffer hides, how many instructions and stores a cycle hide a straddle behind\n"
		 "the back end), each as a ratio with its 95% CI, claimed only when significant,\n"
		 "material and seen in both halves of the run; save the profile for this CPU.\n"
		 "Then --uarch host (scan, diff, sweep) uses it.\n",
	.options = calibrate_options,
	.notes = "Refuses, in one line, under an emulator or with a clock too coarse.\n"
		 "Progress goes to standard error when it is a terminal.\n",
};

static int parse_options(struct calibrate_cmd *c, int argc, char **argv)
{
	c->o = (struct calib_opts){ .arch = arena_host_arch(), .budget_s = DEFAULT_BUDGET_S,
		.precision = 0.005, .alpha = STATS_ALPHA, .material = 0.05, .size = 4096 };
	if (parse_command_line(&calibrate_command, c, argc, argv))
		return -1;
	if (optind < argc) {
		complain("calibrate", "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	c->o.budget_s = c->time > 0 ? c->time : c->quick ? QUICK_BUDGET_S : DEFAULT_BUDGET_S;
	return 0;
}

/* Before minutes of measuring: can the profile be written where asked? */
static int check_profile_target(struct calibrate_cmd *c)
{
	struct err e = { 0 };

	if (!c->out) {
		if (host_profile_path(&c->host, c->default_out, sizeof c->default_out, &e)) {
			complain("calibrate", "%s: say where with -o", e.msg);
			return -1;
		}
		c->out = c->default_out;
		if (make_parents(c->out)) {
			complain(c->out, "cannot make its directory: %s", strerror(errno));
			return -1;
		}
	}
	if (check_output(c->out, &e)) {         /* its directory too */
		complain(c->out, "%s", e.msg);
		return -1;
	}
	return 0;
}

static void progress(void *ctx, size_t i, size_t n, const char *name)
{
	(void)ctx;
	fprintf(stderr, "\rcalibrate: experiment %zu of %zu: %-24s", i + 1, n, name);
	fflush(stderr);
}

static int measure(struct calibrate_cmd *c)
{
	struct err e;
	int rc;

	if (calib_check_machine(&e)) {
		complain("calibrate", "%s", e.msg);
		return -1;
	}
	if (isatty(2)) {
		c->o.progress = progress;
		fprintf(stderr, "calibrate: about %.0f s\n", c->o.budget_s);
	}
	rc = calib_run(&c->o, &c->x, &c->nx, &e);
	if (isatty(2))
		fputc('\n', stderr);
	if (rc)
		complain("calibrate", "%s", e.msg);
	return rc;
}

static int write_outputs(struct calibrate_cmd *c)
{
	json_t *head = results_calibration_head(c->argc, c->argv, c->machine, c->from);
	json_t *doc = results_calibration(head, &c->profile, &c->fit, c->x, c->nx);
	int rc = write_result(doc, c->out);
	struct err e;

	if (rc == 0)
		printf("saved: %s\n", c->out);
	if (c->plot_dir && rc == 0 && (rc = make_output_dir(c->plot_dir, "plot directory", &e)))
		complain(c->plot_dir, "%s", e.msg);
	for (size_t i = 0; c->plot_dir && rc == 0 && i < c->nx; i++)
		if ((rc = report_calibrate_plot(c->plot_dir, &c->profile, &c->x[i], &e)))
			say("%s", e.msg);
	return rc;
}

static int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_cmd c = { .argc = argc, .argv = argv };
	struct err e;
	int status = EXIT_USAGE;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	host_detect(&c.host);
	/* --from: the recorded machine's identity, not this one's */
	if (c.from && results_calibration_read(c.from, &c.host, &c.machine, &c.x, &c.nx, &e)) {
		complain("--from", "%s", e.msg);
		goto out;
	}
	/* before minutes of measuring: can the plots be written? */
	if (check_profile_target(&c) ||
	    (c.plot_dir && check_output_dir(c.plot_dir, "plot directory")))
		goto out;
	if (!c.from && measure(&c))
		goto out;
	calib_conclude(c.x, c.nx, &c.o, &c.host, &c.fit, &c.text, &c.profile);
	report_calibrate_text(stdout, &(struct calib_report){ &c.profile, &c.fit, c.x, c.nx,
							      c.from != NULL });
	if (write_outputs(&c) == 0)
		status = EXIT_OK;
out:
	calib_free(c.x, c.nx);
	json_decref(c.machine);
	return status;
}
