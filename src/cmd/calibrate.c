/* straddle calibrate: learn this CPU's layout rules from synthetic loops
 * measured at every offset of a line, and save them as a profile that
 * --uarch host then uses (issue 11: every built-in profile but one was a
 * manual's guess for the CPU in front of it; seed 002's maintainers asked
 * for measured evidence). */
#include "cmd.h"
#include "../measure/measure.h"
#include "../report/report.h"
#include "../results/results.h"

#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	{ .name = "seed", .value = "N", .kind = OPT_U64, .field = F(o.seed), .max = ULONG_MAX,
	  .help = "seed of the random order and the bootstrap (default 1)" },
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
	c->o = (struct calib_opts){ .arch = place_host_arch(), .budget_s = DEFAULT_BUDGET_S,
		.precision = 0.005, .alpha = 0.05, .material = 0.05, .size = 4096, .seed = 1 };
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

/* Before minutes of measuring: can the plots be written? Nothing is made
 * yet: a run ended by a signal left the empty DIR it had made (issue 25);
 * make_plot_dir makes it once there is something to put in it. */
static int check_plot_dir(const char *dir)
{
	struct stat st;
	char *copy, *parent;
	int rc = 0;

	if (!dir)
		return 0;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode) || access(dir, W_OK) != 0) {
			complain(dir, "is not a writable directory");
			return -1;
		}
		return 0;
	}
	copy = xstrdup(dir);
	parent = dirname(copy);
	if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode) || access(parent, W_OK) != 0) {
		complain(dir, "cannot make the plot directory: %s is not a writable directory",
			 parent);
		rc = -1;
	}
	free(copy);
	return rc;
}

static int make_plot_dir(const char *dir)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		complain(dir, "cannot make the plot directory: %s", strerror(errno));
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

static void cpu_text(const struct host *h, char *buf, size_t n)
{
	snprintf(buf, n, "%s (%s family 0x%x model 0x%x stepping 0x%x)",
		 *h->model_name ? h->model_name : "?", h->vendor, h->family, h->model,
		 h->stepping);
}

static void fit(struct calibrate_cmd *c)
{
	const struct profile *base = c->host.profile;
	char cpu[160];

	for (size_t i = 0; i < c->nx; i++)
		calib_mark(&c->x[i], &c->o);
	calib_fit(c->x, c->nx, &c->o, &c->fit);
	if (!base || base->arch != c->o.arch)
		base = profile_named(c->o.arch == ARCH_AARCH64 ? "generic-arm64" : "generic-x86");
	c->o.arch = base->arch;
	cpu_text(&c->host, cpu, sizeof cpu);
	calib_profile(&c->fit, base, cpu, &c->text, &c->profile);
}

static void print_text(const struct calibrate_cmd *c)
{
	static const char *const cols[] = { "rule", ">window", "verdict" };
	const struct profile *p = &c->profile;
	unsigned w[3];
	size_t nw = profile_straddle_windows(p, w);
	struct table t;
	double secs = 0;

	for (size_t i = 0; i < c->nx; i++)
		secs += c->x[i].elapsed_s;
	printf("cpu: %s\n", p->cpus);
	printf("%zu experiments, %.0f s of measuring%s\n", c->nx, secs,
	       c->from ? " (recorded, fitted again)" : "");
	table_init(&t, 3, cols);
	for (size_t i = 0; i < c->fit.nrule; i++) {
		const struct calib_rule *r = &c->fit.rule[i];
		char win[8], verdict[200];

		snprintf(win, sizeof win, "%u", r->window);
		calib_rule_text(r, verdict, sizeof verdict);
		table_row(&t, calib_effect_name(r->effect), win, verdict);
	}
	table_print(&t, stdout);
	table_free(&t);
	printf("back end: %s\n", c->fit.back_end_why);
	printf("loop buffer: %s\n", c->fit.loop_buffer_why);
	printf("a line more: %s\n", c->fit.window_why);
	printf("profile: fetch %u, uop window %u, line %u; straddles:", p->fetch, p->uop_window,
	       p->line);
	for (size_t i = 0; i < nw; i++)
		printf(" %u", w[i]);
	printf("%s; branch rule: %s", nw ? "" : " none", branch_rule_name(p->branch_rule));
	if (p->branch_rule != BRANCH_RULE_NONE)
		printf(" (window %u)", p->branch_window);
	printf("; loop buffer: %u; back end: %u a cycle, %u stores\n", p->loop_buffer,
	       p->issue_width, p->stores_per_cycle);
}

/* ---- plots: one per experiment ---- */

static int write_plot_file(FILE *f, void *ctx)
{
	return plot_svg(f, ctx);
}

static int plot_one(const struct calibrate_cmd *c, const struct calib_experiment *x)
{
	double xs[CALIB_SPAN], ys[CALIB_SPAN], lo[CALIB_SPAN], hi[CALIB_SPAN], sh[CALIB_SPAN];
	bool mark[CALIB_SPAN];
	size_t nsh = 0;
	char path[1024], title[200];
	struct err e;

	for (size_t i = 0; i < x->npt; i++) {
		const struct calib_point *pt = &x->pt[i];

		xs[i] = pt->pos, ys[i] = pt->floor, lo[i] = pt->floor_lo, hi[i] = pt->floor_hi;
		mark[i] = pt->slow;
		if (calib_predicted(&c->profile, x, pt->pos))
			sh[nsh++] = pt->pos;
	}
	struct plot_series s = { x->name, xs, ys, lo, hi, mark, x->npt };
	snprintf(title, sizeof title, "straddle calibrate %s: %s", x->name, x->what);
	struct plot p = { title, x->entry ? "the callee's entry, offset in a 64 B line" :
			  "the loop's first byte, offset in a 64 B line",
			  "ns per call (floor: 10th percentile, 95% CI)", &s, 1, NULL, 0, sh, nsh,
			  "the calibrated profile predicts a hazard in the grey bands", NULL };
	snprintf(path, sizeof path, "%s/%s.svg", c->plot_dir, x->name);
	if (write_atomic(path, write_plot_file, &p, &e)) {
		complain(path, "%s", e.msg);
		return -1;
	}
	return 0;
}

static int write_outputs(struct calibrate_cmd *c)
{
	json_t *head = results_calibration_head(c->argc, c->argv, c->machine, c->from);
	json_t *doc = results_calibration(head, &c->profile, &c->fit, c->x, c->nx);
	int rc = write_result(doc, c->out);

	if (rc == 0)
		printf("saved: %s\n", c->out);
	if (c->plot_dir && rc == 0)
		rc = make_plot_dir(c->plot_dir);
	for (size_t i = 0; c->plot_dir && rc == 0 && i < c->nx; i++)
		rc = plot_one(c, &c->x[i]);
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
	if (check_profile_target(&c) || check_plot_dir(c.plot_dir))
		goto out;
	if (!c.from && measure(&c))
		goto out;
	fit(&c);
	print_text(&c);
	if (write_outputs(&c) == 0)
		status = EXIT_OK;
out:
	calib_free(c.x, c.nx);
	json_decref(c.machine);
	return status;
}
