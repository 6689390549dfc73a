/* straddle uarch: the profiles, the evidence for their numbers, and what
 * this host was detected as. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"

#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

struct uarch_cmd {
	bool json;
};

static int cmd_uarch(int argc, char **argv);

static const struct cmd_option uarch_options[] = {
	{ .name = "json", .kind = OPT_SET, .field = offsetof(struct uarch_cmd, json),
	  .help = "JSON on standard output" },
	{ 0 }
};

const struct command uarch_command = {
	.name = "uarch",
	.run = cmd_uarch,
	.summary = "the CPU profiles, and what this host was detected as",
	.args = "[--json]",
	.about = "The CPU profiles the hazard rules use (fetch window, uop-cache window, line,\n"
		 "branch rule, loop buffer, the back-end bound: instructions and stores a cycle\n"
		 "under which a straddle costs nothing), where each number comes from, and which profile\n"
		 "this host's CPU matches.\n",
	.options = uarch_options,
};

static const char *num(unsigned v, char *buf, size_t n)
{
	if (!v)
		return "-";
	snprintf(buf, n, "%u", v);
	return buf;
}

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
	json_t *doc = results_new("uarch"), *list = json_array();
	struct err e;
	char path[PATH_MAX];
	const struct profile *cal = calibrated(h, path, sizeof path);
	int rc;

	for (size_t i = 0; i < profile_count(); i++)
		json_array_append_new(list, results_profile(profile_at(i)));
	if (cal) {
		json_t *o = results_profile(cal);

		json_object_set_new(o, "file", json_text(path));
		json_array_append_new(list, o);
	}
	json_object_set_new(doc, "profiles", list);
	json_object_set_new(doc, "host", json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:s?}",
		"vendor", h->vendor, "family", (int)h->family, "model", (int)h->model,
		"stepping", (int)h->stepping, "model_name", h->model_name, "detected", h->why,
		"profile", cal ? cal->name : h->profile ? h->profile->name : NULL));
	rc = results_write(doc, "-", &e);
	if (rc)
		complain("stdout", "%s", e.msg);
	json_decref(doc);
	return rc ? EXIT_USAGE : EXIT_OK;
}

static void profile_row(struct table *t, const struct profile *p)
{
	char a[16], b[16], c[16], d[16], be[32] = "-";
	struct strbuf w = { 0 };
	unsigned win[3];
	size_t nw = profile_straddle_windows(p, win);

	for (size_t k = 0; k < nw; k++)
		sb_addf(&w, "%s%u", k ? "," : "", win[k]);
	if (p->issue_width)
		snprintf(be, sizeof be, "%u insn, %s st", p->issue_width,
			 num(p->stores_per_cycle, d, sizeof d));
	table_row(t, p->name, arch_name(p->arch), num(p->fetch, a, sizeof a),
		  num(p->uop_window, b, sizeof b), num(p->line, c, sizeof c), nw ? sb_str(&w) : "none",
		  branch_rule_name(p->branch_rule), num(p->loop_buffer, d, sizeof d), be, p->cpus);
	sb_free(&w);
}

static void print_text(const struct host *h)
{
	char path[PATH_MAX];
	const struct profile *cal = calibrated(h, path, sizeof path);
	static const char *const cols[] = { "profile", "arch", ">fetch", ">uop-window", ">line",
		"straddles", "branch rule", ">loop-buffer", "back end/cycle", "covers" };
	struct table t;

	table_init(&t, 10, cols);
	for (size_t i = 0; i < profile_count(); i++)
		profile_row(&t, profile_at(i));
	if (cal)
		profile_row(&t, cal);
	table_print(&t, stdout);
	table_free(&t);
	printf("\nevidence:\n");
	for (size_t i = 0; i < profile_count(); i++)
		printf("  %-14s %s\n", profile_at(i)->name, profile_at(i)->evidence);
	if (cal)
		printf("  %-14s %s\n", cal->name, cal->evidence);
	printf("\nhost: %s%s%s (%s): profile %s\n", h->model_name, *h->model_name ? "" : "?",
	       "", h->why, h->profile ? h->profile->name : "none matched, generic used");
	if (cal)
		printf("calibrated for this CPU: %s (--uarch host uses it)\n", path);
}

static int cmd_uarch(int argc, char **argv)
{
	struct uarch_cmd c = { 0 };
	struct host h;

	if (parse_command_line(&uarch_command, &c, argc, argv))
		return EXIT_USAGE;
	if (optind < argc) {
		complain("uarch", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	host_detect(&h);
	if (c.json)
		return print_json(&h);
	print_text(&h);
	return EXIT_OK;
}
