/* straddle: finds, measures and explains code-layout hazards in hot loops. */
#include "cmd.h"
#include "../results/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct command *const commands[] = {
	&scan_command, &diff_command, &kernels_command, &sweep_command, &place_command, &prove_command,
	&ab_command, &record_command,
	&bench_command,
	&compare_command, &calibrate_command, &report_command, &merge_command, &uarch_command,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
	fprintf(out, "usage: straddle COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\n'straddle COMMAND --help' for a command's options, 'straddle --man' for\n"
		     "the manual page (roff).\n");
}

int write_result(struct json_t *doc, const char *path)
{
	struct err e;
	int rc = results_write(doc, path, &e);

	if (rc)
		complain(strcmp(path, "-") ? path : "stdout", "%s", e.msg);
	json_decref(doc);
	return rc;
}


int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("straddle %s\nbuilt with %s, %s, %s\n", STRADDLE_VERSION,
		       decode_library_versions(), elf_library_version(), results_library_version());
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--man") == 0) {
		print_man(commands, NCOMMANDS, stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i]->name) == 0)
			return commands[i]->run(argc - 1, argv + 1);
	complain(argv[1], "no such command (try 'straddle --help')");
	return EXIT_USAGE;
}
