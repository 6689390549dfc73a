/* straddle diff OLD NEW: which loops and functions a change made worse (or
 * better), as a gate a CI can run between two builds (seeds 000 and 003:
 * both regressions were found weeks later and bisected by hand). */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct side {
	const char *arg;
	struct elf_image img;
	struct scan_result r;
};

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN, FORMAT_SARIF };

struct diff_cmd {
	struct scan_opts opts;
	struct diff_opts dopts;
	const struct profile *profiles[32];
	char host_why[HOST_WHY_MAX];
	enum format format;
	bool all, source_lines;
	unsigned long limit;            /* rows per section, 0: all */
	unsigned fail_rules;
	unsigned fail_causes;           /* 1 << enum diff_cause */
	const char *uarch;
	const char *source_root;        /* --source-root: SARIF's SRCROOT */
	struct side old, new;
	struct layout_diff d;
	/* --hot: rows ranked by the samples of a record of either build */
	const char *hot_path, *perf_script;
	double min_share;
	struct hot_run hot;
};

static int cmd_diff(int argc, char **argv);

static int set_format(void *cmd, const char *opt, const char *value)
{
	static const char *const names[] = { "text", "json", "markdown", "sarif" };
	struct diff_cmd *c = cmd;

	for (int i = 0; i < 4; i++)
		if (!strcmp(value, names[i])) {
			c->format = (enum format)i;
			return 0;
		}
	complain(opt, "'%s' is none of text, json, markdown, sarif", value);
	return -1;
}

static int set_json(void *cmd, const char *opt, const char *value)
{
	(void)value;            /* a flag: OPT_CALL gives it NULL */
	return set_format(cmd, opt, "json");
}

static int set_section(void *cmd, const char *opt, const char *value)
{
	struct diff_cmd *c = cmd;

	if (strcmp(value, "hot") && strcmp(value, "all")) {
		complain(opt, "'%s' is neither hot nor all", value);
		return -1;
	}
	c->dopts.skip_cold = !strcmp(value, "hot");
	return 0;
}

/* A hazard can only be gained by a subject that changed, moved or is new. */
static int gate_cause(const char *name)
{
	int c = cause_from_name(name);

	return c == CAUSE_REMOVED ? -1 : c;
}

static int set_causes(void *cmd, const char *opt, const char *value)
{
	struct diff_cmd *c = cmd;

	return parse_name_list(opt, value, gate_cause, "cause", "CAUSE", &c->fail_causes);
}

#define F(field) offsetof(struct diff_cmd, field)

static const struct cmd_option diff_options[] = {
	{ .name = "uarch", .value = "NAME[,NAME]|host|all", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profiles to apply (default host)" },
	{ .name = "fail-on", .value = "RULE,...", .kind = OPT_RULES, .field = F(fail_rules),
	  .help = "the rules whose new hazards fail the gate (default any):\n"
		  "loop-straddles-window, branch-crosses-window,\n"
		  "branch-ends-window, entry-misaligned" },
	{ .name = "cause", .value = "CAUSE,...", .kind = OPT_CALL, .call = set_causes,
	  .help = "the causes whose new hazards fail the gate (default\n"
		  "any): changed, moved, new" },
	{ .name = "section", .value = "hot|all", .kind = OPT_CALL, .call = set_section,
	  .help = "hot: leave cold code out (init, exit, unlikely,\n"
		  ".cold); default all" },
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.func_glob),
	  .help = "only functions whose name matches GLOB" },
	{ .name = "all", .kind = OPT_SET, .field = F(all),
	  .help = "also list functions found on one side only" },
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(limit), .max = LONG_MAX,
	  .help = "at most N rows per section (default 40, 0: all)" },
	{ .name = "format", .value = "text|json|markdown|sarif", .kind = OPT_CALL,
	  .call = set_format,
	  .help = "markdown: the summary and the worst rows as a\n"
		  "table for a code-review comment; sarif: SARIF 2.1.0,\n"
		  "one result per new hazard row (every row)" },
	{ .name = "source-root", .value = "DIR", .kind = OPT_STRING, .field = F(source_root),
	  .help = "with sarif: source paths relative to DIR (SRCROOT)" },
	{ .name = "json", .kind = OPT_CALL, .call = set_json, .help = "the same as --format json" },
	{ .name = "jobs", .letter = 'j', .value = "N", .kind = OPT_UNSIGNED, .field = F(opts.jobs),
	  .min = 1, .max = 256, .help = "threads per scan (default: online CPUs)" },
	{ .name = "no-source", .kind = OPT_CLEAR, .field = F(source_lines),
	  .help = "do not look up source lines (DWARF)" },
	{ .name = "hot", .value = "RECORD", .kind = OPT_STRING, .field = F(hot_path),
	  .help = "rank by the samples of 'straddle record' of OLD or NEW:\n"
		  "a \"samples %\" column, the hottest first" },
	{ .name = "perf-script", .value = "FILE", .kind = OPT_STRING, .field = F(perf_script),
	  .help = "the same from the text of 'perf script [-F ip,dso,sym]';\n"
		  "with --show-mmap-events every file is placed exactly" },
	{ .name = "min-share", .value = "P", .kind = OPT_FRACTION, .field = F(min_share),
	  .lo = 0, .hi = 1,
	  .help = "with --hot: fold hazards in code with less than P of the\n"
		  "samples into one line (default 0.5%)" },
	{ 0 }
};

const struct command diff_command = {
	.name = "diff",
	.run = cmd_diff,
	.summary = "what got worse (or better) between two builds; exit 1 on a new hazard",
	.args = "[OPTIONS] OLD NEW",
	.about = "What a change did to code layout. Functions are matched by name, then by\n"
		 "the name without a compiler suffix (.constprop.N, .isra.N, .part.N, .cold,\n"
		 ".lto_priv.N), then by the shape of their code (stripped fde@ functions\n"
		 "too) and by order between matched neighbours; loops by the shape of their\n"
		 "instructions, then by position. The hazards each gained and lost are\n"
		 "listed, worst first, cold code (init, exit, unlikely, .cold) last, each\n"
		 "with its cause: changed (its own bytes changed), moved (same bytes, new\n"
		 "address), new or removed (a loop or function on one side only).\n"
		 "OLD and NEW are ELF files of one architecture, or vDSO images saved with\n"
		 "'straddle scan --dump-vdso'.\n",
	.options = diff_options,
	.notes = "Exit status: 0 no new hazard, 1 a new hazard of a selected rule and cause,\n"
		 "2 bad usage or an unreadable file, or OLD and NEW of different architectures.\n",
};

static int parse_options(struct diff_cmd *c, int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	c->opts.jobs = cpus > 0 ? (unsigned)(cpus < 16 ? cpus : 16) : 1;
	c->opts.keep_all = true;        /* every loop: the unchanged ones match the rest */
	c->opts.shapes = true;          /* unnamed functions are matched by shape */
	c->source_lines = true;
	c->limit = 40;
	c->uarch = "host";
	c->min_share = 0.005;
	if (parse_command_line(&diff_command, c, argc, argv) ||
	    hot_load(c->hot_path, c->perf_script, &c->hot))
		return -1;
	if (argc - optind != 2) {
		complain("diff", "needs two files, OLD and NEW (see 'straddle diff --help')");
		return -1;
	}
	c->old.arg = argv[optind];
	c->new.arg = argv[optind + 1];
	if (!c->fail_rules)
		c->fail_rules = ~0u;
	if (!c->fail_causes)
		c->fail_causes = ~0u;
	if (select_profiles(c->uarch, c->profiles, 32, &c->opts.nprofiles, c->host_why,
			    sizeof c->host_why))
		return -1;
	c->opts.profiles = c->profiles;
	return 0;
}

static int load(struct diff_cmd *c, struct side *s)
{
	struct err e = { "" };

	if (elf_open_file(&s->img, s->arg, &e) || scan_image(&s->img, &c->opts, &s->r, &e)) {
		complain(s->arg, "%s", elf_changed(&s->img) ? "changed while reading" : e.msg);
		return -1;
	}
	if (c->hot_path || c->perf_script)
		hot_attribute_image(&c->hot, &s->img, &s->r);
	return 0;
}

/* Either file truncated or rewritten since it was opened (issue 9). */
static bool changed(const struct diff_cmd *c)
{
	const struct side *sides[2] = { &c->old, &c->new };

	for (int i = 0; i < 2; i++)
		if (elf_changed(&sides[i]->img)) {
			complain(sides[i]->arg, "changed while reading");
			return true;
		}
	return false;
}

/* ---- text ---- */

static const struct elf_func *old_func(const struct diff_cmd *c, const struct func_report *f)
{
	return &c->old.r.funcs.v[f->func];
}

static const struct elf_func *new_func(const struct diff_cmd *c, const struct func_report *f)
{
	return &c->new.r.funcs.v[f->func];
}

static const char *func_name(const struct diff_cmd *c, const struct layout_change *ch)
{
	return ch->fnew ? new_func(c, ch->fnew)->name : old_func(c, ch->fold)->name;
}

/* "0x401036 -> 0x401046", "- -> 0x401046" */
static void format_pair(char *buf, size_t n, const char *fmt, bool has_old, uint64_t o,
			bool has_new, uint64_t nw)
{
	char a[24] = "-", b[24] = "-";

	if (has_old)
		snprintf(a, sizeof a, fmt, o);
	if (has_new)
		snprintf(b, sizeof b, fmt, nw);
	snprintf(buf, n, "%s -> %s", a, b);
}

static void entry_columns(const struct diff_cmd *c, const struct layout_change *ch,
			  unsigned w, char *addr, char *bytes, char *tb, size_t n)
{
	const struct elf_func *fo = ch->fold ? old_func(c, ch->fold) : NULL;
	const struct elf_func *fn = ch->fnew ? new_func(c, ch->fnew) : NULL;

	format_pair(addr, n, "%#" PRIx64, fo, fo ? fo->addr : 0, fn, fn ? fn->addr : 0);
	format_pair(bytes, n, "%" PRIu64, fo, fo ? fo->size : 0, fn, fn ? fn->size : 0);
	if (w)
		format_pair(tb, n, "%" PRIu64, fo, fo ? windows_touched(fo->addr, fo->addr + fo->size, w) : 0,
			    fn, fn ? windows_touched(fn->addr, fn->addr + fn->size, w) : 0);
}

static void subject_columns(const struct diff_cmd *c, const struct layout_change *ch,
			    unsigned w, char *addr, char *bytes, char *tb, size_t n)
{
	const struct loop_report *lo = ch->lold, *ln = ch->lnew;

	if (ch->entry) {
		entry_columns(c, ch, w, addr, bytes, tb, n);
		return;
	}
	format_pair(addr, n, "%#" PRIx64, lo, lo ? lo->start : 0, ln, ln ? ln->start : 0);
	format_pair(bytes, n, "%" PRIu64, lo, lo ? lo->bytes : 0, ln, ln ? ln->bytes : 0);
	if (!w)
		return;
	char o[24] = "-", nw[24] = "-";
	if (lo)
		snprintf(o, sizeof o, "%u/%u", loop_touched(&c->old.r, lo, w),
			 windows_best(lo->bytes, w));
	if (ln)
		snprintf(nw, sizeof nw, "%u/%u", loop_touched(&c->new.r, ln, w),
			 windows_best(ln->bytes, w));
	snprintf(tb, n, "%s -> %s", o, nw);
}

/* "; GCC: -falign-loops=16 for the unit" after the directive, from the new
 * build's DWARF (a fix is for the build that has the hazard). */
static void subject_compiler_fix(const struct diff_cmd *c, const struct layout_change *ch,
				 unsigned align, const struct hazard *lead, char *fix, size_t n)
{
	const struct side *s = ch->fnew ? &c->new : &c->old;
	const struct func_report *f = ch->fnew ? ch->fnew : ch->fold;
	const struct loop_report *l = ch->entry ? NULL : ch->fnew ? ch->lnew : ch->lold;
	const struct elf_func *fn = &s->r.funcs.v[f->func];
	size_t len = strlen(fix);
	char cfix[256];

	compiler_fix((struct elf_image *)&s->img, fn->sec, l ? l->start : fn->addr, align, l != NULL,
		     lead, cfix, sizeof cfix);
	if (*cfix)
		snprintf(fix + len, n - len, "; %s", cfix);
}

/* A row: one subject's hazards of one rule, over profiles and windows
 * (issue 24: one loop had four rows and two fixes). */
struct verdict {
	const struct layout_change *ch;
	const struct hazard *const *h;  /* the first; n in a row share the rule */
	const struct hazard *lead;      /* the worst of them (worst_hazard) */
	uint32_t n;
	double share;                   /* of the samples (--hot), on whichever side has them */
};

static uint64_t verdict_bytes(const struct verdict *v)
{
	const struct loop_report *l = v->ch->lnew ? v->ch->lnew : v->ch->lold;

	return l ? l->bytes : v->ch->fnew ? 64 : 0;
}

static double change_share(const struct diff_cmd *c, const struct layout_change *ch)
{
	return hot_share(&c->new.r, layout_change_samples(ch));
}

/* Worst first: with --hot the larger share of samples, then severity
 * (hot_order, as scan --hot); else hot before cold by section (a list
 * walk in init code runs once: issue 10), severity, then smaller loops. */
static int by_worst(const void *a, const void *b, void *ctx)
{
	const struct diff_cmd *c = ctx;
	const struct verdict *x = a, *y = b;
	uint64_t bx = verdict_bytes(x), by = verdict_bytes(y);
	int o = c->new.r.hot ? hot_order(x->share, x->lead->severity, y->share, y->lead->severity) : 0;

	if (o)
		return o;
	if (x->ch->cold != y->ch->cold)
		return x->ch->cold ? 1 : -1;
	if (x->lead->severity != y->lead->severity)
		return x->lead->severity > y->lead->severity ? -1 : 1;
	if (bx != by)
		return bx < by ? -1 : 1;
	return (x->ch > y->ch) - (x->ch < y->ch);
}

static size_t collect_verdicts(const struct diff_cmd *c, bool added, struct verdict **out)
{
	struct verdict *v = xcalloc(c->d.nrefs + 1, sizeof *v);
	size_t nv = 0;

	for (size_t k = 0; k < c->d.n; k++) {
		const struct layout_change *ch = &c->d.v[k];
		const struct hazard *const *h = c->d.refs + (added ? ch->added : ch->removed);
		uint32_t n = added ? ch->nadded : ch->nremoved;

		for (uint32_t i = 0; i < n;) {
			uint32_t j = i;

			while (j < n && h[j]->rule == h[i]->rule)
				j++;
			v[nv++] = (struct verdict){ .ch = ch, .h = h + i, .n = j - i,
						    .lead = worst_hazard(h + i, j - i),
						    .share = change_share(c, ch) };
			i = j;
		}
	}
	qsort_r(v, nv, sizeof *v, by_worst, (void *)c);
	*out = v;
	return nv;
}

#define HAZARD_COLS 12

/* The cells of a verdict's row. */
struct row {
	struct strbuf profiles;         /* sb_free it after use */
	char addr[64], src[128], bytes[64], tb[192], fix[512], win[48], pct[16];
	const char *cell[HAZARD_COLS];
};

/* "st.c:5" of a change's subject, on the side it is on (the new one when
 * both), "-" without DWARF or with --no-source. The image's DWARF is
 * opened on first use, which changes only its cache, not what it reads. */
static void subject_source(const struct diff_cmd *c, const struct layout_change *ch, char *buf,
			   size_t n)
{
	const struct side *s = ch->fnew ? &c->new : &c->old;
	const struct func_report *f = ch->fnew ? ch->fnew : ch->fold;
	const struct loop_report *l = ch->fnew ? ch->lnew : ch->lold;
	const struct elf_func *fn = &s->r.funcs.v[f->func];

	if (!c->source_lines || !*elf_source_line((struct elf_image *)&s->img, fn->sec,
						  l ? l->start : fn->addr, buf, n))
		snprintf(buf, n, "-");
}

/* The first column shown: "samples %" only with --hot. */
static size_t first_col(const struct diff_cmd *c)
{
	return !c->new.r.hot;
}

/* touched/best of the old and new subject in each of the row's windows,
 * in the order of its window column: "1/1,1/1 -> 2/1,2/1". */
static void windows_columns(const struct diff_cmd *c, const struct verdict *v, char *tb, size_t n)
{
	struct strbuf old = { 0 }, new = { 0 };
	unsigned w[16];
	size_t nw = hazard_windows(v->h, v->n, w);

	for (size_t i = 0; i < nw; i++) {
		char a[64], b[64], one[64];
		const char *arrow;

		subject_columns(c, v->ch, w[i], a, b, one, sizeof one);
		arrow = strstr(one, " -> ");
		if (!arrow)
			continue;
		sb_addf(&old, "%s%.*s", i ? "," : "", (int)(arrow - one), one);
		sb_addf(&new, "%s%s", i ? "," : "", arrow + 4);
	}
	/* a side the subject is not on is "-", not one "-" per window */
	snprintf(tb, n, "%s -> %s", v->ch->lold || (v->ch->entry && v->ch->fold) ? sb_str(&old) : "-",
		 v->ch->lnew || (v->ch->entry && v->ch->fnew) ? sb_str(&new) : "-");
	sb_free(&old);
	sb_free(&new);
}

static void verdict_cells(const struct diff_cmd *c, const struct verdict *v, bool added,
			  struct row *r)
{
	const struct hazard *h = v->lead;

	r->profiles = (struct strbuf){ 0 };
	r->tb[0] = 0;
	format_profiles(v->h, v->n, &r->profiles);
	subject_columns(c, v->ch, 0, r->addr, r->bytes, r->tb, sizeof r->addr);
	windows_columns(c, v, r->tb, sizeof r->tb);
	subject_source(c, v->ch, r->src, sizeof r->src);
	format_fix_all(v->h, v->n, r->fix, sizeof r->fix);
	subject_compiler_fix(c, v->ch, fix_align_all(v->h, v->n), v->lead, r->fix, sizeof r->fix);
	format_window_list(v->h, v->n, r->win, sizeof r->win);
	snprintf(r->pct, sizeof r->pct, "%.1f", 100 * v->share);
	const char *cells[HAZARD_COLS] = { r->pct, severity_name(h->severity), func_name(c, v->ch),
		cause_name(v->ch->cause), r->addr, r->src, r->bytes, r->win, r->tb,
		rule_name(h->rule), sb_str(&r->profiles), added ? r->fix : "-" };
	memcpy(r->cell, cells, sizeof cells);
}

/* touched/best is of the window of the row's worst hazard (v->lead) */
static const char *const hazard_cols[HAZARD_COLS] = { ">samples %", "severity", "function", "cause",
	"address", "source", "bytes", "window", "touched/best", "rule", "profile", "fix" };

/* With --hot, a row in code with less than --min-share is folded. */
static bool folded(const struct diff_cmd *c, const struct verdict *v)
{
	return layout_change_folded(v->ch, &c->new.r, c->min_share);
}

/* A section's rows, worst first, without those --min-share folds: text,
 * markdown and JSON show the same rows; *nfolded counts the others. */
static size_t shown_verdicts(const struct diff_cmd *c, bool added, struct verdict **out,
			     size_t *nfolded)
{
	size_t n = collect_verdicts(c, added, out), k = 0;

	for (size_t i = 0; i < n; i++)
		if (!folded(c, &(*out)[i]))
			(*out)[k++] = (*out)[i];
	*nfolded = n - k;
	return k;
}

/* The line that stands for the folded rows. */
static void print_folded(const struct diff_cmd *c, size_t nfolded)
{
	printf("%zu more hazards in code with less than %g%% of samples\n", nfolded,
	       100 * c->min_share);
}

/* The rows not folded (at most --limit of them in t); *nfolded the others. */
static size_t hazard_rows(const struct diff_cmd *c, bool added, struct table *t, size_t *nfolded)
{
	struct verdict *v;
	size_t n = shown_verdicts(c, added, &v, nfolded);

	for (size_t i = 0; i < n && (!c->limit || i < c->limit); i++) {
		struct row r;

		verdict_cells(c, &v[i], added, &r);
		table_row_v(t, r.cell + first_col(c));
		sb_free(&r.profiles);
	}
	free(v);
	return n;
}

static void print_hazards(const struct diff_cmd *c, bool added)
{
	struct table t;
	size_t n, nfolded;

	table_init(&t, HAZARD_COLS - first_col(c), hazard_cols + first_col(c));
	t.max[2 - first_col(c)] = 48;
	n = hazard_rows(c, added, &t, &nfolded);
	if (n || nfolded)
		printf("%s\n", added ? "new hazards:" : "fixed hazards:");
	if (n) {
		table_print(&t, stdout);
		if (n > t.nrows)
			printf("... and %zu more (--limit 0 shows every row)\n", n - t.nrows);
	}
	if (nfolded)
		print_folded(c, nfolded);
	if (n || nfolded)
		printf("\n");
	table_free(&t);
}

static void print_resized(const struct diff_cmd *c)
{
	static const char *const cols[] = { "function", "cause", "address", "bytes" };
	struct table t;

	table_init(&t, 4, cols);
	t.max[0] = 48;
	for (size_t k = 0; k < c->d.n; k++) {
		const struct layout_change *ch = &c->d.v[k];
		char addr[64], bytes[64], tb[64];

		if (!ch->resized || ch->nadded || ch->nremoved ||
		    (c->limit && t.nrows >= c->limit))
			continue;
		subject_columns(c, ch, 0, addr, bytes, tb, sizeof addr);
		table_row(&t, func_name(c, ch), cause_name(ch->cause), addr, bytes);
	}
	if (t.nrows) {
		printf("loops that changed size, same verdict:\n");
		table_print(&t, stdout);
		printf("\n");
	}
	table_free(&t);
}

/* An fde@ name is an address: two of them are no rename worth reading. */
static bool named_rename(const struct diff_cmd *c, const struct func_rename *r)
{
	return old_func(c, r->fold)->source != FROM_FDE || new_func(c, r->fnew)->source != FROM_FDE;
}

static void print_renamed(const struct diff_cmd *c)
{
	size_t shown = 0, named = 0;

	for (size_t i = 0; i < c->d.nrenamed; i++) {
		const struct func_rename *r = &c->d.renamed[i];

		if (!named_rename(c, r))
			continue;
		named++;
		if (c->limit && shown >= c->limit)
			continue;
		printf("renamed %s -> %s (by %s)\n", old_func(c, r->fold)->name,
		       new_func(c, r->fnew)->name, match_how_name(r->how));
		shown++;
	}
	if (named > shown)
		printf("... and %zu more renamed (--limit 0 shows every row)\n", named - shown);
	if (shown)
		printf("\n");
}

static void print_one_sided(const struct diff_cmd *c)
{
	for (size_t i = 0; i < c->d.funcs_only_old; i++)
		printf("only in old: %s\n", old_func(c, c->d.only_old[i])->name);
	for (size_t i = 0; i < c->d.funcs_only_new; i++)
		printf("only in new: %s\n", new_func(c, c->d.only_new[i])->name);
}

/* The rows of hazards gained (or lost), by cause: what the summary counts,
 * a subject's rule under several profiles and windows being one. */
static size_t count_rows(const struct diff_cmd *c, bool added, size_t by_cause[NCAUSE])
{
	size_t n = 0;

	memset(by_cause, 0, NCAUSE * sizeof *by_cause);
	for (size_t k = 0; k < c->d.n; k++) {
		const struct layout_change *ch = &c->d.v[k];
		const struct hazard *const *h = c->d.refs + (added ? ch->added : ch->removed);
		uint32_t nh = added ? ch->nadded : ch->nremoved;

		for (uint32_t i = 0; i < nh; i++)
			if (i == 0 || h[i]->rule != h[i - 1]->rule) {
				by_cause[ch->cause]++;
				n++;
			}
	}
	return n;
}

static void print_summary(const struct diff_cmd *c, FILE *out)
{
	const struct layout_diff *d = &c->d;
	size_t added_by[NCAUSE], removed_by[NCAUSE];
	size_t added = count_rows(c, true, added_by), removed = count_rows(c, false, removed_by);

	fprintf(out, "%zu new hazards (%zu changed, %zu moved, %zu new), "
		"%zu fixed (%zu changed, %zu moved, %zu removed); "
		"%zu loops resized, %zu added, %zu removed; "
		"%zu functions unchanged of %zu matched (%zu renamed), %zu only in old, "
		"%zu only in new", added, added_by[CAUSE_CHANGED], added_by[CAUSE_MOVED],
		added_by[CAUSE_NEW], removed, removed_by[CAUSE_CHANGED], removed_by[CAUSE_MOVED],
		removed_by[CAUSE_REMOVED], d->loops_resized, d->loops_added, d->loops_removed,
		d->funcs_unchanged, d->funcs_matched, d->nrenamed, d->funcs_only_old,
		d->funcs_only_new);
	if (d->funcs_cold_left_out)
		fprintf(out, "; %zu cold left out", d->funcs_cold_left_out);
	fputc('\n', out);
}

static bool no_change(const struct layout_diff *d)
{
	return !d->hazards_added && !d->hazards_removed && !d->loops_resized && !d->loops_added &&
	       !d->loops_removed && !d->funcs_only_old && !d->funcs_only_new &&
	       d->funcs_unchanged == d->funcs_matched && !d->nrenamed;
}

static void print_profiles(const struct diff_cmd *c)
{
	for (size_t i = 0; i < c->new.r.nprofile; i++)
		printf("%s %s", i ? "," : "", c->new.r.profile[i]->name);
}

static void print_text(const struct diff_cmd *c)
{
	printf("%s -> %s: %s; profile", c->old.img.path, c->new.img.path,
	       arch_name(c->new.img.arch));
	print_profiles(c);
	printf("\n");
	if (c->new.r.hot)
		printf("samples of %s: %" PRIu64 " of %" PRIu64 " in %s, %" PRIu64 " in %s\n",
		       c->hot.source, c->old.r.file_samples, c->hot.total, c->old.img.path,
		       c->new.r.file_samples, c->new.img.path);
	printf("\n");
	print_hazards(c, true);
	print_hazards(c, false);
	print_resized(c);
	print_renamed(c);
	if (c->all)
		print_one_sided(c);
	if (no_change(&c->d)) {
		printf("no layout change (%zu functions)\n", c->d.funcs_matched);
		return;
	}
	print_summary(c, stdout);
}

/* ---- markdown, for a code-review comment ---- */

/* A cell of a GitHub table: a pipe would end it, names go in code spans
 * (C++ and kernel names are full of underscores, which emphasise). */
static void md_cell(const char *s, bool code)
{
	fputs(code ? "| `" : "| ", stdout);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : *s == '`' ? "'" : (char[2]){ *s, 0 }, stdout);
	fputs(code ? "` " : " ", stdout);
}

static void md_hazards(const struct diff_cmd *c, bool added)
{
	struct verdict *v;
	size_t nfolded, n = shown_verdicts(c, added, &v, &nfolded);
	size_t shown = c->limit && c->limit < n ? c->limit : n;

	if (n || nfolded)
		printf("\n**%s hazards**\n", added ? "New" : "Fixed");
	if (n) {
		printf("\n");
		for (size_t k = first_col(c); k < HAZARD_COLS; k++)
			printf("| %s ", hazard_cols[k] + (hazard_cols[k][0] == '>'));
		printf("|\n");
		for (size_t k = first_col(c); k < HAZARD_COLS; k++)
			printf("|---");
		printf("|\n");
	}
	for (size_t i = 0; i < shown; i++) {
		struct row r;

		verdict_cells(c, &v[i], added, &r);
		for (size_t k = first_col(c); k < HAZARD_COLS; k++)
			md_cell(r.cell[k], k == 2 || k == HAZARD_COLS - 1);
		printf("|\n");
		sb_free(&r.profiles);
	}
	if (n > shown)
		printf("\n... and %zu more.\n", n - shown);
	if (nfolded) {
		printf("\n");
		print_folded(c, nfolded);
	}
	free(v);
}

static void print_markdown(const struct diff_cmd *c, bool fails)
{
	printf("### straddle diff: `%s` -> `%s` (%s; profile", c->old.img.path, c->new.img.path,
	       arch_name(c->new.img.arch));
	print_profiles(c);
	printf(")\n\n");
	if (c->new.r.hot)
		printf("Samples of `%s`: %" PRIu64 " of %" PRIu64 " in `%s`, %" PRIu64 " in `%s`.\n\n",
		       c->hot.source, c->old.r.file_samples, c->hot.total, c->old.img.path,
		       c->new.r.file_samples, c->new.img.path);
	if (no_change(&c->d)) {
		printf("No layout change (%zu functions).\n", c->d.funcs_matched);
		return;
	}
	printf("%s\n\n", fails ? "**The gate fails**: a new hazard of a selected rule and cause." :
				  "The gate passes.");
	print_summary(c, stdout);
	md_hazards(c, true);
	md_hazards(c, false);
}

/* ---- JSON (results/diff.c) ---- */

/* The gate as the exit status gives it, with what it was asked to fail
 * on, so a report of the file can say it (issue 14). */
static json_t *gate_json(const struct diff_cmd *c, bool fails)
{
	json_t *rules = json_array(), *causes = json_array();

	for (int r = RULE_LOOP_STRADDLES; r <= RULE_ENTRY_MISALIGNED; r++)
		if (c->fail_rules & (1u << r))
			json_array_append_new(rules, json_string(rule_name(r)));
	for (int k = CAUSE_CHANGED; k < CAUSE_REMOVED; k++)
		if (c->fail_causes & (1u << k))
			json_array_append_new(causes, json_string(cause_name(k)));
	return json_pack("{s:b, s:i, s:o, s:o}", "fails", fails, "exit_status",
			 fails ? EXIT_GATE : EXIT_OK, "fail_on", rules, "causes", causes);
}

static void print_json(struct diff_cmd *c, bool fails, int argc, char **argv)
{
	json_t *head = results_run_info("diff", argc, argv);

	json_object_set_new(head, "gate", gate_json(c, fails));
	if (results_diff(stdout, head, &(struct diff_image){ &c->old.img, &c->old.r },
			 &(struct diff_image){ &c->new.img, &c->new.r }, &c->d, c->source_lines,
			 c->min_share))
		complain("stdout", "cannot write the JSON output");
}

/* ---- SARIF: the new hazards as alerts ---- */

static void print_sarif(struct diff_cmd *c)
{
	json_t *log = sarif_new(c->source_root);
	struct verdict *v;
	size_t nfolded, n = shown_verdicts(c, true, &v, &nfolded);
	struct sarif_ordinals ord;

	sarif_ordinals(&c->new.r, &ord);
	for (size_t i = 0; i < n; i++) {
		const struct layout_change *ch = v[i].ch;

		sarif_add_row(log, &(struct sarif_row){ .img = &c->new.img, .r = &c->new.r,
			.func = ch->fnew, .loop = ch->entry ? NULL : ch->lnew, .h = v[i].h,
			.n = v[i].n, .cause = cause_name(ch->cause), .source_root = c->source_root,
			.lines = c->source_lines, .ord = &ord });
	}
	sarif_ordinals_free(&ord);
	free(v);
	if (sarif_write(log, stdout, true))
		complain("stdout", "cannot write the SARIF output");
}

/* A misspelt --func must not pass the gate as "no layout change" (issue
 * 24): as in scan, a pattern that selects no function in either file is
 * an error. */
static bool no_match(const struct diff_cmd *c)
{
	const struct scan_result *o = &c->old.r, *n = &c->new.r;

	if (!c->opts.func_glob || o->functions_scanned + o->padding_symbols +
	    n->functions_scanned + n->padding_symbols)
		return false;
	complain("--func", "'%s' matches no function in %s or %s", c->opts.func_glob, c->old.arg,
		 c->new.arg);
	return true;
}

/* A new hazard of a selected rule, gained for a selected cause. */
static bool gate_fails(const struct diff_cmd *c)
{
	for (size_t i = 0; i < c->d.n; i++) {
		const struct layout_change *ch = &c->d.v[i];

		if (!(c->fail_causes & (1u << ch->cause)))
			continue;
		for (uint32_t k = 0; k < ch->nadded; k++)
			if (c->fail_rules & (1u << c->d.refs[ch->added + k]->rule))
				return true;
	}
	return false;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cmd c = { 0 };
	int status = EXIT_USAGE;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (load(&c, &c.old) || load(&c, &c.new))
		goto out;
	if (no_match(&c))
		goto out;
	if (c.old.img.arch != c.new.img.arch) {
		complain(c.new.arg, "is %s but %s is %s: nothing to compare",
			 arch_name(c.new.img.arch), c.old.arg, arch_name(c.old.img.arch));
		goto out;
	}
	layout_diff(&(struct diff_side){ &c.old.img, &c.old.r },
		    &(struct diff_side){ &c.new.img, &c.new.r }, &c.dopts, &c.d);
	if (changed(&c))
		goto out;
	status = gate_fails(&c) ? EXIT_GATE : EXIT_OK;
	if (c.format == FORMAT_JSON)
		print_json(&c, status == EXIT_GATE, argc, argv);
	else if (c.format == FORMAT_MARKDOWN)
		print_markdown(&c, status == EXIT_GATE);
	else if (c.format == FORMAT_SARIF)
		print_sarif(&c);
	else
		print_text(&c);
out:
	hot_run_free(&c.hot);
	layout_diff_free(&c.d);
	scan_result_free(&c.old.r);
	scan_result_free(&c.new.r);
	elf_close(&c.old.img);
	elf_close(&c.new.img);
	return status;
}
