/* uarch's text: a table of the profiles per architecture fitted to the
 * terminal, the host line; one profile with every number and where it
 * comes from. */
#include "report.h"

#include <string.h>

static const char *num(unsigned v, char *buf, size_t n)
{
	if (!v)
		return "-";
	snprintf(buf, n, "%u", v);
	return buf;
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

/* One table per architecture (an arch column pushed the rows past 80
 * characters). What a profile covers is its last column, cut to the
 * width, or left out when less than a word of it would fit: the whole of
 * it is in `uarch NAME` and --json. */
static void print_arch_table(FILE *out, enum arch arch, const struct profile *cal, size_t width)
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
	fprintf(out, "%s:\n", arch_name(arch));
	table_print(&t, out);
	table_free(&t);
}

void report_uarch(FILE *out, const struct host *h, const struct profile *cal, const char *path,
		  size_t width)
{
	struct strbuf line = { 0 };

	print_arch_table(out, ARCH_X86_64, cal, width);
	fputc('\n', out);
	print_arch_table(out, ARCH_AARCH64, cal, width);
	fputc('\n', out);
	print_wrapped(out, "Windows in bytes; loop buf: the instructions its loop buffer holds; "
		      "insn/st: the back end's instructions and stores a cycle, under which a "
		      "straddle costs nothing.", 0, width);
	sb_addf(&line, "host: %s%s (%s): profile %s", h->model_name, *h->model_name ? "" : "?",
		h->why, h->profile ? h->profile->name : "none matched, generic used");
	fputc('\n', out);
	print_wrapped(out, sb_str(&line), 2, width);
	if (cal) {
		sb_reset(&line);
		sb_addf(&line, "calibrated for this CPU: %s (--uarch host uses it)", path);
		print_wrapped(out, sb_str(&line), 2, width);
	}
	sb_free(&line);
	fprintf(out, "straddle uarch NAME: one profile, and where each of its numbers comes from\n");
}

void report_profile(FILE *out, const struct profile *p, const char *why, size_t width)
{
	char a[16], b[16], c[16], d[16], e[16], f[16];
	struct strbuf w = { 0 };
	unsigned win[3];
	size_t nw;

	nw = profile_straddle_windows(p, win);
	for (size_t k = 0; k < nw; k++)
		sb_addf(&w, "%s%u", k ? "," : "", win[k]);
	fprintf(out, "profile         %s (%s)\n", p->name, arch_name(p->arch));
	if (*why)
		fprintf(out, "host            %s\n", why);
	fprintf(out, "fetch           %s B\nuop-window      %s B\nline            %s B\n"
		"straddles       %s\n", num(p->fetch, a, sizeof a), num(p->uop_window, b, sizeof b),
		num(p->line, c, sizeof c), nw ? sb_str(&w) : "none");
	fprintf(out, "branch rule     ");
	print_wrapped(out, p->branch_rule == BRANCH_RULE_NONE ? "-" : branch_rule_name(p->branch_rule),
		      16, width);
	fprintf(out, "loop-buffer     %s instructions\nback end        %s instructions, %s stores a "
		"cycle\n", num(p->loop_buffer, d, sizeof d), num(p->issue_width, e, sizeof e),
		num(p->stores_per_cycle, f, sizeof f));
	if (p->window_cycles > 0)
		fprintf(out, "a window more   %.2f cycles an iteration (measured)\n", p->window_cycles);
	else
		fprintf(out, "a window more   1 cycle an iteration (not measured: a window a cycle)\n");
	if (p->latency_window_cycles > 0)
		fprintf(out, "behind a chain  %.2f cycles of it stay (measured)\n", p->latency_window_cycles);
	else
		fprintf(out, "behind a chain  hidden (not measured)\n");
	if (p->store_load_measured)
		fprintf(out, "store to load   %.2f cycles from a store's data to its load\n", p->store_load_cycles);
	else
		fprintf(out, "store to load   the model's load latency (not measured)\n");
	if (profile_models(p))
		fprintf(out, "LLVM model      %s%s%s%s%s\n", profile_models(p)[0],
			profile_models(p)[1] ? ", else " : "", profile_models(p)[1] ? profile_models(p)[1] : "",
			profile_models(p)[1] && profile_models(p)[2] ? ", else " : "",
			profile_models(p)[1] && profile_models(p)[2] ? profile_models(p)[2] : "");
	if (p->branch_rule != BRANCH_RULE_NONE && p->branch_cycles > 0)
		fprintf(out, "branch bubble   %.2f cycles an iteration across, %.2f split (measured)\n",
			p->branch_cycles, p->split_cycles > 0 ? p->split_cycles : 1);
	else if (p->branch_rule != BRANCH_RULE_NONE)
		fprintf(out, "branch bubble   1 cycle an iteration (not measured)\n");
	fprintf(out, "covers          ");
	print_wrapped(out, p->cpus, 16, width);
	fprintf(out, "evidence        ");
	print_wrapped(out, p->evidence, 16, width);
	sb_free(&w);
}

