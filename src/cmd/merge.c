/* straddle merge OUT IN...: the documents of a run's shards (scan or diff
 * with --shard K/N, JSON or SARIF) joined into the one the run would have
 * written unsharded; results/merge.c reads, checks and writes them. */
#include "cmd.h"
#include "../results/merge.h"

#include <string.h>

/* merge has no options but --help; parse_command_line wants a target */
struct merge_cmd {
	int none;
};

static int cmd_merge(int argc, char **argv);

static const struct cmd_option merge_options[] = {
	{ 0 }
};

const struct command merge_command = {
	.name = "merge",
	.run = cmd_merge,
	.summary = "join the documents of a run's shards (--shard K/N) into the run's",
	.args = "OUT IN...",
	.about = "Join the documents of the N shards of one run (scan or diff with --shard K/N,\n"
		 "each --json or each --format sarif) into OUT, the document the run would have\n"
		 "written unsharded: the same head (its time and machine the first shard's), the\n"
		 "files (diff: pairs; SARIF: results, in one run) in the run's order, the same\n"
		 "tail (errors; diff's lists, summary and gate joined). OUT is written whole or\n"
		 "not at all ('-': standard output).\n",
	.options = merge_options,
	.notes = "Refused, with one line and nothing written: a file that is not a shard's\n"
		 "document, one cut short (truncated), shards of another run (their command\n"
		 "lines differ but for --shard), of another straddle version or other\n"
		 "profiles, a shard given twice or missing.\n"
		 "\n"
		 "Exit status: 0 written, 2 bad usage or refused.\n",
};

static int cmd_merge(int argc, char **argv)
{
	struct merge_cmd c = { 0 };
	struct merge *m;
	struct err e = { "" };
	const char *out;
	int rc;

	if (parse_command_line(&merge_command, &c, argc, argv))
		return EXIT_USAGE;
	if (argc - optind < 2) {
		complain("merge", "needs OUT and at least one IN (see 'straddle merge --help')");
		return EXIT_USAGE;
	}
	out = argv[optind];
	if (strcmp(out, "-") && check_output(out, &e)) {
		complain(out, "%s", e.msg);
		return EXIT_USAGE;
	}
	if (!(m = results_merge_open(argv + optind + 1, (size_t)(argc - optind - 1), &e))) {
		say("%s", e.msg);
		return EXIT_USAGE;
	}
	if (strcmp(out, "-") == 0)
		rc = results_merge_write(stdout, m);
	else
		rc = write_atomic(out, results_merge_write, m, &e);
	if (rc)
		complain(strcmp(out, "-") ? out : "stdout", "%s", strcmp(out, "-") ? e.msg :
			 "cannot write the document");
	results_merge_free(m);
	return rc ? EXIT_USAGE : EXIT_OK;
}
