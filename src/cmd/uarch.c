/* straddle uarch: the profiles, the evidence for their numbers, and what
 * this host was detected as. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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
	.args = "[NAME] [--json]",
	.about = "The CPU profiles the hazard rules use (fetch window, uop-cache window, line,\n"
		 "branch rule, loop buffer, the back-end bound: instructions and stores a cycle\n"
		 "under which a straddle costs nothing), where each number comes from, and which profile\n"
		 "this host's CPU matches. With NAME (a profile, host, or a calibrate file as\n"
		 "--uarch takes one): that profile alone, every number and its evidence.\n",
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
	char path[PATH_MAX];
	const struct profile *cal = calibrated(h, path, sizeof path);
	return write_result(results_uarch(h, cal, path), "-") ? EXIT_USAGE : EXIT_OK;
}

/* The width lines must fit (issue 23: one evidence line was 1,277
 * characters): the terminal's, else $COLUMNS, else 80. */
static size_t line_width(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	long n;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	n = cols ? strtol(cols, NULL, 10) : 0;
	return n >= 40 && n <= 1000 ? (size_t)n : 80;
}

/* text from column `indent` on, in words, no line past width; a word
 * longer than a line has one of its own. */
static void print_wrapped(const char *text, size_t indent, size_t width)
{
	size_t col = indent;
	bool first = true;

	for (const char *w = text; *w;) {
		size_t len = strcspn(w, " ");

		if (!first && col + 1 + len > width) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)len, w);
		col += len;
		first = false;
		w += len;
		w += strspn(w, " ");
	}
	putchar('\n');
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
		snprintf(be, sizeof be, "%u/%s", p->issue_width, num(p->stores_per_cycle, d, sizeof d));
	const char *cells[] = { p->name, num(p->fetch, a, sizeof a), num(p->uop_window, b, sizeof b),
		num(p->line, c, sizeof c), nw ? sb_str(&w) : "none",
		p->branch_rule == BRANCH_RULE_NONE ? "-" : branch_rule_id(p->branch_rule),
		num(p->loop_buffer, d, sizeof d), be, p->cpus };

	table_row_v(t, cells);          /* the first t->ncols of them */
	sb_free(&w);
}

/* A table of the profiles of one architecture, the calibrated one last;
 * what each covers only when ncols is 9. */
static void arch_table(struct table *t, size_t ncols, enum arch arch, const struct profile *cal)
{
	static const char *const cols[] = { "profile", ">fetch", ">uop", ">line", "straddles",
		"branch", ">loop buf", "insn/st", "covers" };

	table_init(t, ncols, cols);
	for (size_t i = 0; i < profile_count(); i++)
		if (profile_at(i)->arch == arch)
			profile_row(t, profile_at(i));
	if (cal && cal->arch == arch)
		profile_row(t, cal);
}

/* The width of the table's rows as table_print sets them. */
static size_t table_width(const struct table *t)
{
	size_t sum = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		size_t w = strlen(t->head[c]);

		for (size_t r = 0; r < t->nrows; r++) {
			size_t len = strlen(t->cell[r * t->ncols + c]);

			w = len > w ? len : w;
		}
		sum += w + (c ? 2 : 0);
	}
	return sum;
}

/* One table per architecture (an arch column pushed the rows past 80
 * characters). What a profile covers is its last column, cut to the
 * width, or left out when less than a word of it would fit: the whole of
 * it is in `uarch NAME` and --json. */
static void print_arch_table(enum arch arch, const struct profile *cal, size_t width)
{
	struct table t;
	size_t used;

	arch_table(&t, 8, arch, cal);
	used = table_width(&t) + 2;
	if (used + 12 <= width) {
		table_free(&t);
		arch_table(&t, 9, arch, cal);
		for (size_t r = 0; r < t.nrows; r++) {
			char *cell = t.cell[r * t.ncols + 8];

			if (strlen(cell) > width - used)
				strcpy(cell + width - used - 3, "...");
		}
	}
	printf("%s:\n", arch_name(arch));
	table_print(&t, stdout);
	table_free(&t);
}

static void print_table(const struct host *h)
{
	char path[PATH_MAX];
	const struct profile *cal = calibrated(h, path, sizeof path);
	struct strbuf line = { 0 };

	size_t width = line_width();

	print_arch_table(ARCH_X86_64, cal, width);
	putchar('\n');
	print_arch_table(ARCH_AARCH64, cal, width);
	putchar('\n');
	print_wrapped("Windows in bytes; loop buf: the instructions its loop buffer holds; "
		      "insn/st: the back end's instructions and stores a cycle, under which a "
		      "straddle costs nothing.", 0, width);
	sb_addf(&line, "host: %s%s (%s): profile %s", h->model_name, *h->model_name ? "" : "?",
		h->why, h->profile ? h->profile->name : "none matched, generic used");
	putchar('\n');
	print_wrapped(sb_str(&line), 2, width);
	if (cal) {
		sb_reset(&line);
		sb_addf(&line, "calibrated for this CPU: %s (--uarch host uses it)", path);
		print_wrapped(sb_str(&line), 2, width);
	}
	sb_free(&line);
	printf("straddle uarch NAME: one profile, and where each of its numbers comes from\n");
}

/* uarch NAME: every field of one profile (NAME as --uarch takes one: a
 * built-in name, host, or a calibrate file), its evidence wrapped. */
static int print_profile(const char *name)
{
	const struct profile *p;
	char why[HOST_WHY_MAX] = "", a[16], b[16], c[16], d[16], e[16], f[16];
	size_t n = 0, width = line_width();
	struct strbuf w = { 0 };
	unsigned win[3];
	size_t nw;

	if (strchr(name, ',') || strcmp(name, "all") == 0) {
		complain("uarch", "'%s': one profile, a name, host or a calibrate file", name);
		return EXIT_USAGE;
	}
	if (select_profiles(name, &p, 1, &n, why, sizeof why) || n != 1)
		return EXIT_USAGE;
	nw = profile_straddle_windows(p, win);
	for (size_t k = 0; k < nw; k++)
		sb_addf(&w, "%s%u", k ? "," : "", win[k]);
	printf("profile         %s (%s)\n", p->name, arch_name(p->arch));
	if (*why)
		printf("host            %s\n", why);
	printf("fetch           %s B\nuop-window      %s B\nline            %s B\n"
	       "straddles       %s\n", num(p->fetch, a, sizeof a), num(p->uop_window, b, sizeof b),
	       num(p->line, c, sizeof c), nw ? sb_str(&w) : "none");
	printf("branch rule     ");
	print_wrapped(p->branch_rule == BRANCH_RULE_NONE ? "-" : branch_rule_name(p->branch_rule),
		      16, width);
	printf("loop-buffer     %s instructions\nback end        %s instructions, %s stores a "
	       "cycle\n", num(p->loop_buffer, d, sizeof d), num(p->issue_width, e, sizeof e),
	       num(p->stores_per_cycle, f, sizeof f));
	if (p->window_cycles > 0)
		printf("a window more   %.2f cycles an iteration (measured)\n", p->window_cycles);
	else
		printf("a window more   1 cycle an iteration (not measured: a window a cycle)\n");
	if (p->latency_window_cycles > 0)
		printf("behind a chain  %.2f cycles of it stay (measured)\n", p->latency_window_cycles);
	else
		printf("behind a chain  hidden (not measured)\n");
	if (p->store_load_measured)
		printf("store to load   %.2f cycles from a store's data to its load\n", p->store_load_cycles);
	else
		printf("store to load   the model's load latency (not measured)\n");
	if (profile_models(p))
		printf("LLVM model      %s%s%s%s%s\n", profile_models(p)[0],
		       profile_models(p)[1] ? ", else " : "", profile_models(p)[1] ? profile_models(p)[1] : "",
		       profile_models(p)[1] && profile_models(p)[2] ? ", else " : "",
		       profile_models(p)[1] && profile_models(p)[2] ? profile_models(p)[2] : "");
	if (p->branch_rule != BRANCH_RULE_NONE && p->branch_cycles > 0)
		printf("branch bubble   %.2f cycles an iteration across, %.2f split (measured)\n",
		       p->branch_cycles, p->split_cycles > 0 ? p->split_cycles : 1);
	else if (p->branch_rule != BRANCH_RULE_NONE)
		printf("branch bubble   1 cycle an iteration (not measured)\n");
	printf("covers          ");
	print_wrapped(p->cpus, 16, width);
	printf("evidence        ");
	print_wrapped(p->evidence, 16, width);
	sb_free(&w);
	return EXIT_OK;
}

static int cmd_uarch(int argc, char **argv)
{
	struct uarch_cmd c = { 0 };
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
	print_table(&h);
	return EXIT_OK;
}
