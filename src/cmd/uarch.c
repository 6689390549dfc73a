/* straddle uarch: the profiles, the evidence for their numbers, and what
 * this host was detected as. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/profile.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct uarch_cmd {
	bool json;
};

static int cmd_uarch(int argc, char **argv);

#define F(field) offsetof(struct uarch_cmd, field)

static const struct cmd_option uarch_options[] = {
	OPT_JSON(F, json, ""),
	{ 0 }
};

const struct command uarch_command = {
	.name = "uarch",
	.run = cmd_uarch,
	.summary = "the CPU profiles, and what this host was detected as",
	.args = "[NAME] [--json]",
	.about = "The CPU profiles the hazard rules use (fetch window, uop-cache window, line,\n"
		 "branch rule, loop buffer, the back-end bound: instructions and stores a cycle\n"
		 "under which a straddle costs nothing), where each number comes from, and which profile\n"
		 "this host's CPU matches. With NAME (a profile, host, or a calibrate file as\n"
		 "--uarch takes one): that profile alone, every number and its evidence.\n",
	.options = uarch_options,
};

/* This CPU's calibrated profile (straddle calibrate), when its file is
 * there; a file that cannot be read is said, not fatal. */
static const struct profile *calibrated(const struct host *h, char *path, size_t n)
{
	const struct profile *p;
	struct err e;

	if (host_profile_path(h, path, n, &e) != 0 || access(path, F_OK) != 0)
		return NULL;
	if (!(p = results_profile_load(path, &e)))
		complain("uarch", "%s", e.msg);
	return p;
}

static int print_json(const struct host *h)
{
	char path[PATH_MAX];
	const struct profile *cal = calibrated(h, path, sizeof path);
	return write_result(results_uarch(h, cal, path), "-") ? EXIT_USAGE : EXIT_OK;
}

/* uarch NAME: every field of one profile (NAME as --uarch takes one: a
 * built-in name, host, or a calibrate file), its evidence wrapped. */
static int print_profile(const char *name)
{
	const struct profile *p;
	char why[HOST_WHY_MAX] = "";
	size_t n = 0;

	if (strchr(name, ',') || strcmp(name, "all") == 0) {
		complain("uarch", "'%s': one profile, a name, host or a calibrate file", name);
		return EXIT_USAGE;
	}
	if (select_profiles(name, &p, 1, &n, why, sizeof why) || n != 1)
		return EXIT_USAGE;
	report_profile(stdout, p, why, text_width(STDOUT_FILENO));
	return EXIT_OK;
}

static int cmd_uarch(int argc, char **argv)
{
	struct uarch_cmd c = { 0 };
	const struct profile *cal;
	char path[PATH_MAX];
	struct host h;

	if (parse_command_line(&uarch_command, &c, argc, argv))
		return EXIT_USAGE;
	if (optind + 1 < argc) {
		complain("uarch", "unexpected argument '%s' (one NAME at most)", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (optind < argc && c.json) {
		complain("uarch", "--json is every profile: no NAME with it");
		return EXIT_USAGE;
	}
	if (optind < argc)
		return print_profile(argv[optind]);
	host_detect(&h);
	if (c.json)
		return print_json(&h);
	cal = calibrated(&h, path, sizeof path);
	report_uarch(stdout, &h, cal, path, text_width(STDOUT_FILENO));
	return EXIT_OK;
}
