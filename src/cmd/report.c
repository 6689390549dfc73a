/* straddle report [-o FILE.html] RESULT.json...: one self-contained HTML
 * page of any mix of result files (issue 14). The files are read and
 * checked here, the page is report/html.c's; it is written atomically, so
 * a bad input leaves no page behind. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"

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
		 "sweep, calibrate, bench and compare --format json, in any mix: a header naming\n"
		 "the machines and the command lines that made each file, then one section per\n"
		 "file with its tables and plots (bench results together, compared). The page\n"
		 "needs nothing else: inline CSS and SVG, no script, no network; every plot has\n"
		 "the table behind it as its text alternative. Long tables show their first rows\n"
		 "and say how many more there are.\n",
	.options = report_options,
	.notes = "Exit status: 0 the page was written, 2 bad usage or a result file that cannot\n"
		 "be read (nothing is written then).\n",
};

/* The kinds of result a page can show (a document's "command") and the
 * field without which a document of that kind is not one. */
static const struct {
	const char *command, *needs;
} known[] = {
	{ "scan", "files" }, { "diff", "summary" }, { "record", "files" }, { "sweep", NULL }, { "place", "moved" },
	{ "calibrate", NULL }, { "bench", NULL }, { "compare", NULL },
};

static int known_command(const char *name)
{
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (name && strcmp(name, known[i].command) == 0)
			return (int)i;
	return -1;
}

/* Read one file into in: 0, or -1 after one line naming it. */
static int read_input(const char *path, struct report_input *in)
{
	json_error_t je;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	const char *name;
	struct err e = { "" };
	int kind;

	if (!doc) {
		complain(path, "not a JSON result: %s (line %d)", je.text, je.line);
		return -1;
	}
	name = json_string_value(json_object_get(doc, "command"));
	if (!json_is_object(doc) || !name) {
		complain(path, "not a straddle result file (no \"command\")");
		json_decref(doc);
		return -1;
	}
	kind = known_command(name);
	if (kind < 0) {
		complain(path, "a '%s' result has no section in a report (one of scan, diff, record, "
			 "sweep, calibrate, bench, compare)", name);
		json_decref(doc);
		return -1;
	}
	if (known[kind].needs && !json_object_get(doc, known[kind].needs)) {
		complain(path, "a %s result without \"%s\"", name, known[kind].needs);
		json_decref(doc);
		return -1;
	}
	*in = (struct report_input){ path, doc, known[kind].command, 0 };
	/* the measured kinds, read as their own commands read them */
	if (report_check_measured(in, &e)) {
		complain("report", "%s", e.msg);
		json_decref(doc);
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
		if (read_input(argv[i], &c.in[c.n]))
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
		json_decref(c.in[i].doc);
	free(c.in);
	return status;
}
