/* straddle report [-o FILE.html] RESULT.json...: one self-contained HTML page
 * of any mix of result files. The files are read and checked here, the page
 * is report/html.c's; it is written atomically, so a bad input leaves no page
 * behind. */
#include "cmd.h"
#include "../report/report.h"

#include <stdlib.h>
#include <string.h>

struct report_cmd {
	const char *out;
	struct report_input *in;
	size_t n;
};

static int cmd_report(int argc, char **argv);

#define F(field) offsetof(struct report_cmd, field)

static const struct cmd_option report_options[] = {
	{ .name = "output", .letter = 'o', .value = "FILE", .kind = OPT_OUTPUT, .field = F(out),
	  .help = "the page (default report.html; -: standard output)" },
	{ 0 }
};

const struct command report_command = {
	.name = "report",
	.run = cmd_report,
	.summary = "one self-contained HTML page of result files",
	.args = "[-o FILE.html] RESULT.json...",
	.about = "Write one HTML page of the result files of scan --json, diff --json, record,\n"
		 "sweep, place, prove, calibrate, bench and compare --format json, in any mix: a\n"
		 "header naming the machines and the command lines that made each file, then one\n"
		 "section per file with its tables and plots (bench results together, compared).\n"
		 "The page needs nothing else: inline CSS and SVG, no script, no network; every\n"
		 "plot has the table behind it as its text alternative. Long tables show their\n"
		 "first rows and say how many more there are.\n",
	.options = report_options,
	.notes = "Exit status: 0 the page was written, 2 bad usage or a result file that cannot\n"
		 "be read (nothing is written then).\n",
};

/* Read one file into in: 0, or -1 after one line naming it. */
static int read_report_input(const char *path, struct report_input *in)
{
	struct err e = { "" };

	if (report_input_read(path, in, &e)) {
		say("%s", e.msg);
		return -1;
	}
	return 0;
}

/* Each input's 1-based index among those of its command: the section ids. */
static void number_inputs(struct report_input *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		in[i].index = 1;
		for (size_t j = 0; j < i; j++)
			if (in[j].command == in[i].command)
				in[i].index++;
	}
}

static int write_page(FILE *f, void *ctx)
{
	const struct report_cmd *c = ctx;

	return report_html(f, c->in, c->n);
}

static int cmd_report(int argc, char **argv)
{
	struct report_cmd c = { .out = "report.html" };
	struct err e = { "" };
	int status = EXIT_USAGE;

	if (parse_command_line(&report_command, &c, argc, argv))
		return EXIT_USAGE;
	if (optind >= argc) {
		complain("report", "no result files (see 'straddle report --help')");
		return EXIT_USAGE;
	}
	c.in = xcalloc((size_t)(argc - optind), sizeof *c.in);
	for (int i = optind; i < argc; i++, c.n++)
		if (read_report_input(argv[i], &c.in[c.n]))
			goto out;
	number_inputs(c.in, c.n);
	if (strcmp(c.out, "-") == 0) {
		if (write_page(stdout, &c)) {
			complain("stdout", "cannot write the page");
			goto out;
		}
	} else if (write_atomic(c.out, write_page, &c, &e)) {
		complain(c.out, "%s", e.msg);
		goto out;
	}
	status = EXIT_OK;
out:
	for (size_t i = 0; i < c.n; i++)
		report_input_free(&c.in[i]);
	free(c.in);
	return status;
}
