/* straddle uarch: the profiles, the evidence for their numbers, and what
 * this host was detected as. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void help(FILE *out)
{
	fputs("usage: straddle uarch [--json]\n"
	      "\n"
	      "The CPU profiles the hazard rules use (fetch window, uop-cache window, line,\n"
	      "branch rule, loop buffer), where each number comes from, and which profile\n"
	      "this host's CPU matches.\n", out);
}

static const char *num(unsigned v, char *buf, size_t n)
{
	if (!v)
		return "-";
	snprintf(buf, n, "%u", v);
	return buf;
}

static int print_json(const struct host *h)
{
	json_t *doc = results_new("uarch"), *list = json_array();
	struct err e;
	int rc;

	for (size_t i = 0; i < profile_count(); i++)
		json_array_append_new(list, results_profile(profile_at(i)));
	json_object_set_new(doc, "profiles", list);
	json_object_set_new(doc, "host", json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:s?}",
		"vendor", h->vendor, "family", (int)h->family, "model", (int)h->model,
		"stepping", (int)h->stepping, "model_name", h->model_name, "detected", h->why,
		"profile", h->profile ? h->profile->name : NULL));
	rc = results_write(doc, "-", &e);
	if (rc)
		complain("stdout", "%s", e.msg);
	json_decref(doc);
	return rc ? EXIT_USAGE : EXIT_OK;
}

static void print_text(const struct host *h)
{
	static const char *const cols[] = { "profile", "arch", ">fetch", ">uop-window", ">line",
		"straddles", "branch rule", ">loop-buffer", "covers" };
	struct table t;

	table_init(&t, 9, cols);
	for (size_t i = 0; i < profile_count(); i++) {
		const struct profile *p = profile_at(i);
		char a[16], b[16], c[16], d[16], w[32] = "";
		unsigned win[3];
		size_t nw = profile_straddle_windows(p, win);

		for (size_t k = 0; k < nw; k++)
			snprintf(w + strlen(w), sizeof w - strlen(w), "%s%u", k ? "," : "", win[k]);
		table_row(&t, p->name, arch_name(p->arch), num(p->fetch, a, sizeof a),
			  num(p->uop_window, b, sizeof b), num(p->line, c, sizeof c), w,
			  branch_rule_name(p->branch_rule), num(p->loop_buffer, d, sizeof d), p->cpus);
	}
	table_print(&t, stdout);
	table_free(&t);
	printf("\nevidence:\n");
	for (size_t i = 0; i < profile_count(); i++)
		printf("  %-14s %s\n", profile_at(i)->name, profile_at(i)->evidence);
	printf("\nhost: %s%s%s (%s): profile %s\n", h->model_name, *h->model_name ? "" : "?",
	       "", h->why, h->profile ? h->profile->name : "none matched, generic used");
}

int cmd_uarch(int argc, char **argv)
{
	static const struct option longopts[] = { { "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	struct host h;
	bool json = false;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (ch == 'J')
			json = true;
		else if (ch == 'h') {
			help(stdout);
			return EXIT_OK;
		} else {
			bad_option("uarch", ch, argv);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		complain("uarch", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	host_detect(&h);
	if (json)
		return print_json(&h);
	print_text(&h);
	return EXIT_OK;
}
