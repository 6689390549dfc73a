/* straddle compare BASE NEW...: tables of result files with their percent
 * change and whether it is real, the way mmtests and the kernel test robot
 * print them (seeds 000 and 004), and a gate: exit 1 on a significant
 * regression beyond the threshold. The run is the unit: the rows, the tests
 * and the tables are report/compare.c's. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/metrics.h"
#include "../results/compare.h"
#include "../stats/stats.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum style { STYLE_MMTESTS, STYLE_LKP };
enum format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_CSV, FORMAT_JSON };

struct compare_cmd {
	enum style style;
	enum format format;
	bool verbose;
	struct compare cmp;
	const char *drift_path;         /* --drift */
	const char *layout_path;        /* --layout-noise */
};

static int parse_choice(const char *opt, const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	complain(opt, "'%s' is not one of the choices (see 'straddle compare --help')", s);
	return -1;
}

static int set_style(void *cmd, const char *opt, const char *value)
{
	static const char *const styles[] = { "mmtests", "lkp" };
	int v = parse_choice(opt, value, styles, 2);

	if (v < 0)
		return -1;
	((struct compare_cmd *)cmd)->style = (enum style)v;
	return 0;
}

static int set_format(void *cmd, const char *opt, const char *value)
{
	static const char *const formats[] = { "text", "markdown", "csv", "json" };
	int v = parse_choice(opt, value, formats, 4);

	if (v < 0)
		return -1;
	((struct compare_cmd *)cmd)->format = (enum format)v;
	return 0;
}

static int set_stats(void *cmd, const char *opt, const char *value)
{
	struct compare_cmd *c = cmd;
	int v = stat_from_name(value);

	if (v < 0) {
		complain(opt, "'%s' is not mean95, median, mean, min or max", value);
		return -1;
	}
	c->cmp.stat = (enum stat_kind)v;
	c->cmp.stat_given = true;
	return 0;
}

static int cmd_compare(int argc, char **argv);

#define F(field) offsetof(struct compare_cmd, field)

static const struct cmd_option compare_options[] = {
	{ .name = "style", .value = "mmtests|lkp", .kind = OPT_CALL, .call = set_style,
	  .help = "mmtests: the statistic with its change, positive = better,\n"
		  "*...* when significant; lkp: the kernel test robot's\n"
		  "%stddev %change %stddev, a * after %change when\n"
		  "significant (default mmtests)" },
	{ .name = "stats", .value = "S", .kind = OPT_CALL, .call = set_stats,
	  .help = "mean95, median, mean, min or max for every metric: the\n"
		  "value, the change, the test and the threshold (default\n"
		  "median for times, mean for rates)" },
	{ .name = "format", .value = "F", .kind = OPT_CALL, .call = set_format,
	  .help = "text, markdown, csv or json (default text)" },
	OPT_ALPHA(F, cmp.alpha, "significance level"),
	{ .name = "threshold", .value = "P", .kind = OPT_FRACTION, .field = F(cmp.threshold),
	  .lo = 0, .hi = 0.99, .help = "how much worse a significant change must be to fail\n"
				       "(default 2%)" },
	{ .name = "drift", .value = "DIR", .kind = OPT_STRING, .field = F(drift_path),
	  .help = "result files of 2 or more A/A invocations on this machine\n"
		  "(the same command, nothing changed): a change of a side\n"
		  "of one invocation inside their range is inconclusive\n"
		  "(default: the band a BASE of bench --invocations recorded,\n"
		  "else the one it keeps for this host)" },
	{ .name = "layout-noise", .value = "FILE.json", .kind = OPT_STRING, .field = F(layout_path),
	  .help = "a place --offsets random result: a change inside the band\n"
		  "new layouts of the code move the program is inconclusive" },
	{ .name = "verbose", .kind = OPT_SET, .field = F(verbose),
	  .help = "every noisy metric, not their count" },
	{ 0 }
};

const struct command compare_command = {
	.name = "compare",
	.run = cmd_compare,
	.summary = "tables of result files with % change and significance; exit 1 on regression",
	.args = "[OPTIONS] BASE NEW...",
	.about = "Compare result files of 'straddle bench', 'sweep', 'place' or 'ab': one row per\n"
		 "metric of BASE, each NEW file's value and percent change, and whether the\n"
		 "change is real. The run is the unit: each run's statistic is one observation,\n"
		 "and a change is real when Welch's t test on them is below --alpha and the\n"
		 "change stands out of the run-to-run range of both sides. With fewer than 3 runs\n"
		 "on a side the change is printed as inconclusive. BASE or NEW may be a\n"
		 "directory: its *.json results are one side. Runs of one invocation share its\n"
		 "machine state, so when both sides are directories the unit is the invocation\n"
		 "(each file's mean of its runs' statistic), 3 or more a side, best taken\n"
		 "alternately (A B A B ...: bench --invocations N --versus OPTS; sides whose\n"
		 "times do not interleave are warned of). A side of one invocation (two single\n"
		 "files) gets a verdict only with --drift, or when BASE carries the band its\n"
		 "bench --invocations recorded: run against run, and outside the range of A/A\n"
		 "invocations; or against the band bench --invocations keeps for this host\n"
		 "($XDG_DATA_HOME/straddle/drift/HOST.json) when both ran on its machine, and\n"
		 "then no run of one side within the other's range; without any, 'inconclusive:\n"
		 "one invocation a side'. When the recorded machine states differ beyond the\n"
		 "warning's limits (steal, other tenants' CPU, load, MHz, clock source, governor)\n"
		 "every verdict is 'inconclusive: machine state changed'. Each verdict says the\n"
		 "noise it saw and the runs or invocations a side that would resolve --threshold\n"
		 "at that noise.\n",
	.options = compare_options,
	.notes = "Exit status: 0 no significant regression beyond the threshold, 1 one or more,\n"
		 "2 bad usage or a result file that cannot be read.\n",
};

static int parse_options(struct compare_cmd *c, int argc, char **argv)
{
	c->cmp.threshold = COMPARE_THRESHOLD;
	if (parse_command_line(&compare_command, c, argc, argv))
		return -1;
	if (argc - optind < 2) {
		complain("compare", "needs a BASE and at least one NEW result file");
		return -1;
	}
	return 0;
}

static int print(const struct compare_cmd *c)
{
	const struct compare *k = &c->cmp;
	int rc = 0;

	switch (c->format) {
	case FORMAT_JSON:
		rc = write_result(results_compare(k), "-");
		break;
	case FORMAT_CSV: report_compare_csv(stdout, stderr, k, c->verbose); break;
	case FORMAT_MARKDOWN: report_compare_markdown(stdout, k, c->verbose); break;
	default: report_compare_text(stdout, k, c->style == STYLE_LKP, c->verbose); break;
	}
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_cmd c = { 0 };
	struct err e = { "" };
	int status = EXIT_USAGE;

	if (parse_options(&c, argc, argv) == 0 &&
	    results_compare_open(&c.cmp, argv + optind, (size_t)(argc - optind), c.drift_path,
				 c.layout_path, &e) == 0) {
		compare_build(&c.cmp);
		status = print(&c) ? EXIT_USAGE : c.cmp.regression ? EXIT_GATE : EXIT_OK;
		compare_free(&c.cmp);
	}
	else if (e.msg[0])
		say("%s", e.msg);
	results_compare_close(&c.cmp);
	return status;
}
