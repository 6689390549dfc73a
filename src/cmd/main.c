/* straddle: finds, measures and explains code-layout hazards in hot loops. */
#include "cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "scan", cmd_scan, "find loops and functions whose placement is a hazard" },
	{ "diff", cmd_diff, "what got worse (or better) between two builds; exit 1 on a new hazard" },
	{ "kernels", cmd_kernels, "the built-in copy/clear kernels; --check proves their fault contract" },
	{ "sweep", cmd_sweep, "run a loop at every code offset and measure it" },
	{ "bench", cmd_bench, "the seeds' kernel workloads (libMicro, will-it-scale, vDSO) on this kernel" },
	{ "compare", cmd_compare, "tables of result files with % change and significance; exit 1 on regression" },
	{ "calibrate", cmd_calibrate, "learn this CPU's layout rules from synthetic loops; writes a profile" },
	{ "uarch", cmd_uarch, "the CPU profiles, and what this host was detected as" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: straddle COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'straddle COMMAND --help' for a command's options.\n");
}

void complain(const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "straddle: %s: ", what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
		printf("straddle %s\n", STRADDLE_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	complain(argv[1], "no such command (try 'straddle --help')");
	return EXIT_USAGE;
}
