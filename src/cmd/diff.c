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

struct diff_cmd {
	struct scan_opts opts;
	const struct profile *profiles[32];
	char host_why[160];
	bool json, all, source_lines;
	unsigned long limit;            /* rows per section, 0: all */
	unsigned fail_rules;
	const char *uarch;
	struct side old, new;
	struct layout_diff d;
};

static int cmd_diff(int argc, char **argv);

#define F(field) offsetof(struct diff_cmd, field)

static const struct cmd_option diff_options[] = {
	{ .name = "uarch", .value = "NAME[,NAME]|host|all", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profiles to apply (default host)" },
	{ .name = "fail-on", .value = "RULE,...", .kind = OPT_RULES, .field = F(fail_rules),
	  .help = "the rules whose new hazards fail the gate (default any):\n"
		  "loop-straddles-window, branch-crosses-window,\n"
		  "branch-ends-window, entry-misaligned" },
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.func_glob),
	  .help = "only functions whose name matches GLOB" },
	{ .name = "all", .kind = OPT_SET, .field = F(all),
	  .help = "also list functions found on one side only" },
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(limit), .max = LONG_MAX,
	  .help = "at most N rows per section (default 40, 0: all)" },
	{ .name = "json", .kind = OPT_SET, .field = F(json), .help = "JSON on standard output" },
	{ .name = "jobs", .letter = 'j', .value = "N", .kind = OPT_UNSIGNED, .field = F(opts.jobs),
	  .min = 1, .max = 256, .help = "threads per scan (default: online CPUs)" },
	{ .name = "no-source", .kind = OPT_CLEAR, .field = F(source_lines),
	  .help = "do not look up source lines (DWARF)" },
	{ 0 }
};

const struct command diff_command = {
	.name = "diff",
	.run = cmd_diff,
	.summary = "what got worse (or better) between two builds; exit 1 on a new hazard",
	.args = "[OPTIONS] OLD NEW",
	.about = "What a change did to code layout: functions are matched by name, loops by\n"
		 "the shape of their instructions (so a loop that moved is still the same\n"
		 "loop), and the hazards each gained and lost are listed, worst first: new\n"
		 "hazards, fixed hazards, then loops that changed size but kept their verdict.\n"
		 "OLD and NEW are ELF files of one architecture, or vDSO images saved with\n"
		 "'straddle scan --dump-vdso'.\n",
	.options = diff_options,
	.notes = "Exit status: 0 no new hazard, 1 a new hazard of a selected rule, 2 bad usage\n"
		 "or an unreadable file, or OLD and NEW of different architectures.\n",
};

static int parse_options(struct diff_cmd *c, int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	c->opts.jobs = cpus > 0 ? (unsigned)(cpus < 16 ? cpus : 16) : 1;
	c->opts.keep_all = true;        /* every loop: the unchanged ones match the rest */
	c->source_lines = true;
	c->limit = 40;
	c->uarch = "host";
	if (parse_command_line(&diff_command, c, argc, argv))
		return -1;
	if (argc - optind != 2) {
		complain("diff", "needs two files, OLD and NEW (see 'straddle diff --help')");
		return -1;
	}
	c->old.arg = argv[optind];
	c->new.arg = argv[optind + 1];
	if (!c->fail_rules)
		c->fail_rules = ~0u;
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
		complain(s->arg, "%s", e.msg);
		return -1;
	}
	return 0;
}

/* ---- text ---- */

static const char *func_name(const struct diff_cmd *c, const struct layout_change *ch)
{
	return ch->fnew ? c->new.r.funcs.v[ch->fnew->func].name :
			  c->old.r.funcs.v[ch->fold->func].name;
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

static void subject_columns(const struct diff_cmd *c, const struct layout_change *ch,
			    unsigned w, char *addr, char *bytes, char *tb, size_t n)
{
	const struct loop_report *lo = ch->lold, *ln = ch->lnew;

	if (ch->entry) {
		const struct elf_func *fo = &c->old.r.funcs.v[ch->fold->func];
		const struct elf_func *fn = &c->new.r.funcs.v[ch->fnew->func];

		format_pair(addr, n, "%#" PRIx64, true, fo->addr, true, fn->addr);
		format_pair(bytes, n, "%" PRIu64, true, fo->size, true, fn->size);
		format_pair(tb, n, "%" PRIu64, true, windows_touched(fo->addr, fo->addr + fo->size, w),
			    true, windows_touched(fn->addr, fn->addr + fn->size, w));
		return;
	}
	format_pair(addr, n, "%#" PRIx64, lo, lo ? lo->start : 0, ln, ln ? ln->start : 0);
	format_pair(bytes, n, "%" PRIu64, lo, lo ? lo->end - lo->start : 0, ln,
		    ln ? ln->end - ln->start : 0);
	if (!w)
		return;
	char o[24] = "-", nw[24] = "-";
	if (lo)
		snprintf(o, sizeof o, "%u/%u", windows_touched(lo->start, lo->end, w),
			 windows_best(lo->end - lo->start, w));
	if (ln)
		snprintf(nw, sizeof nw, "%u/%u", windows_touched(ln->start, ln->end, w),
			 windows_best(ln->end - ln->start, w));
	snprintf(tb, n, "%s -> %s", o, nw);
}

/* A row: one subject's hazards of one rule and window, over profiles. */
struct verdict {
	const struct layout_change *ch;
	const struct hazard *const *h;  /* the first; n in a row share rule and window */
	uint32_t n;
};

static uint64_t verdict_bytes(const struct verdict *v)
{
	const struct loop_report *l = v->ch->lnew ? v->ch->lnew : v->ch->lold;

	return l ? l->end - l->start : v->ch->fnew ? 64 : 0;
}

/* Worst first: severity, then smaller loops. */
static int by_worst(const void *a, const void *b)
{
	const struct verdict *x = a, *y = b;
	uint64_t bx = verdict_bytes(x), by = verdict_bytes(y);

	if (x->h[0]->severity != y->h[0]->severity)
		return x->h[0]->severity > y->h[0]->severity ? -1 : 1;
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

			while (j < n && h[j]->rule == h[i]->rule && h[j]->window == h[i]->window)
				j++;
			v[nv++] = (struct verdict){ ch, h + i, j - i };
			i = j;
		}
	}
	qsort(v, nv, sizeof *v, by_worst);
	*out = v;
	return nv;
}

static void verdict_row(const struct diff_cmd *c, const struct verdict *v, bool added,
			struct table *t)
{
	const struct hazard *h = v->h[0];
	char profiles[256] = "", addr[64], bytes[64], tb[64] = "", fix[48], win[16];

	for (uint32_t i = 0; i < v->n; i++)
		snprintf(profiles + strlen(profiles), sizeof profiles - strlen(profiles), "%s%s",
			 i ? "," : "", v->h[i]->profile->name);
	subject_columns(c, v->ch, h->window, addr, bytes, tb, sizeof addr);
	format_fix(h, fix, sizeof fix);
	snprintf(win, sizeof win, "%u", h->window);
	table_row(t, severity_name(h->severity), func_name(c, v->ch), addr, bytes, win, tb,
		  rule_name(h->rule), profiles, added ? fix : "-");
}

static size_t hazard_rows(const struct diff_cmd *c, bool added, struct table *t)
{
	struct verdict *v;
	size_t n = collect_verdicts(c, added, &v);

	for (size_t i = 0; i < n && (!c->limit || i < c->limit); i++)
		verdict_row(c, &v[i], added, t);
	free(v);
	return n;
}

static void print_hazards(const struct diff_cmd *c, bool added)
{
	static const char *const cols[] = { "severity", "function", "address", "bytes", "window",
		"touched/best", "rule", "profile", "fix" };
	struct table t;

	size_t n;

	table_init(&t, 9, cols);
	t.max[1] = 48;
	if ((n = hazard_rows(c, added, &t))) {
		printf("%s\n", added ? "new hazards:" : "fixed hazards:");
		table_print(&t, stdout);
		if (n > t.nrows)
			printf("... and %zu more (--limit 0 shows every row)\n", n - t.nrows);
		printf("\n");
	}
	table_free(&t);
}

static void print_resized(const struct diff_cmd *c)
{
	static const char *const cols[] = { "function", "address", "bytes" };
	struct table t;

	table_init(&t, 3, cols);
	t.max[0] = 48;
	for (size_t k = 0; k < c->d.n; k++) {
		const struct layout_change *ch = &c->d.v[k];
		char addr[64], bytes[64], tb[64];

		if (!ch->resized || ch->nadded || ch->nremoved ||
		    (c->limit && t.nrows >= c->limit))
			continue;
		subject_columns(c, ch, 0, addr, bytes, tb, sizeof addr);
		table_row(&t, func_name(c, ch), addr, bytes);
	}
	if (t.nrows) {
		printf("loops that changed size, same verdict:\n");
		table_print(&t, stdout);
		printf("\n");
	}
	table_free(&t);
}

static void print_one_sided(const struct diff_cmd *c)
{
	for (size_t i = 0; i < c->d.funcs_only_old; i++)
		printf("only in old: %s\n", c->old.r.funcs.v[c->d.only_old[i]->func].name);
	for (size_t i = 0; i < c->d.funcs_only_new; i++)
		printf("only in new: %s\n", c->new.r.funcs.v[c->d.only_new[i]->func].name);
}

static void print_text(const struct diff_cmd *c)
{
	const struct layout_diff *d = &c->d;

	printf("%s -> %s: %s; profile", c->old.img.path, c->new.img.path,
	       arch_name(c->new.img.arch));
	for (size_t i = 0; i < c->new.r.nprofile; i++)
		printf("%s %s", i ? "," : "", c->new.r.profile[i]->name);
	printf("\n\n");
	print_hazards(c, true);
	print_hazards(c, false);
	print_resized(c);
	if (c->all)
		print_one_sided(c);
	if (!d->hazards_added && !d->hazards_removed && !d->loops_resized && !d->loops_added &&
	    !d->loops_removed && !d->funcs_only_old && !d->funcs_only_new &&
	    d->funcs_unchanged == d->funcs_matched) {
		printf("no layout change (%zu functions)\n", d->funcs_matched);
		return;
	}
	printf("%zu new hazards, %zu fixed, %zu loops resized, %zu added, %zu removed; "
	       "%zu functions unchanged of %zu matched, %zu only in old, %zu only in new\n",
	       d->hazards_added, d->hazards_removed, d->loops_resized, d->loops_added,
	       d->loops_removed, d->funcs_unchanged, d->funcs_matched, d->funcs_only_old,
	       d->funcs_only_new);
}

/* ---- JSON ---- */

static void loop_side(struct diff_cmd *c, struct jw *w, const char *key, struct side *s,
		      const struct loop_report *l)
{
	if (l)
		results_write_loop(w, key, &s->img, &s->r, l, c->source_lines);
	else
		jw_null(w, key);
}

static void write_loop_change(struct diff_cmd *c, struct jw *w, const struct layout_change *ch)
{
	const struct layout_diff *d = &c->d;

	jw_open(w, NULL, '{');
	jw_string(w, "function", func_name(c, ch));
	loop_side(c, w, "old", &c->old, ch->lold);
	loop_side(c, w, "new", &c->new, ch->lnew);
	results_write_hazards(w, "added", d->refs + ch->added, NULL, ch->nadded);
	results_write_hazards(w, "removed", d->refs + ch->removed, NULL, ch->nremoved);
	jw_close(w, '}');
}

static void write_entry_change(struct diff_cmd *c, struct jw *w, const struct layout_change *ch)
{
	const struct layout_diff *d = &c->d;

	jw_open(w, NULL, '{');
	jw_string(w, "name", func_name(c, ch));
	jw_hex(w, "old_addr", c->old.r.funcs.v[ch->fold->func].addr);
	jw_hex(w, "new_addr", c->new.r.funcs.v[ch->fnew->func].addr);
	jw_int(w, "old_entry_align", (long long)ch->fold->entry_align);
	jw_int(w, "new_entry_align", (long long)ch->fnew->entry_align);
	results_write_hazards(w, "added", d->refs + ch->added, NULL, ch->nadded);
	results_write_hazards(w, "removed", d->refs + ch->removed, NULL, ch->nremoved);
	jw_close(w, '}');
}

static void print_json(struct diff_cmd *c)
{
	json_t *head = results_new("diff"), *names = json_array();
	const struct layout_diff *d = &c->d;
	struct json_stream out;

	for (size_t i = 0; i < c->new.r.nprofile; i++)
		json_array_append_new(names, json_string(c->new.r.profile[i]->name));
	json_object_set_new(head, "old", json_text(c->old.img.path));
	json_object_set_new(head, "new", json_text(c->new.img.path));
	json_object_set_new(head, "arch", json_string(arch_name(c->new.img.arch)));
	json_object_set_new(head, "profiles", names);
	jstream_begin(&out, stdout, head);
	jstream_open(&out, "loops", '[');
	for (size_t k = 0; k < d->n; k++) {
		struct jw w;

		if (d->v[k].entry)
			continue;
		jstream_raw(&out, NULL, &w);
		write_loop_change(c, &w, &d->v[k]);
	}
	jstream_close(&out);
	jstream_open(&out, "functions", '[');
	for (size_t k = 0; k < d->n; k++) {
		struct jw w;

		if (!d->v[k].entry)
			continue;
		jstream_raw(&out, NULL, &w);
		write_entry_change(c, &w, &d->v[k]);
	}
	jstream_close(&out);
	jstream_put(&out, "summary", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		"new_hazards", (json_int_t)d->hazards_added,
		"fixed_hazards", (json_int_t)d->hazards_removed,
		"loops_resized", (json_int_t)d->loops_resized,
		"loops_added", (json_int_t)d->loops_added,
		"loops_removed", (json_int_t)d->loops_removed,
		"functions_matched", (json_int_t)d->funcs_matched,
		"functions_unchanged", (json_int_t)d->funcs_unchanged,
		"functions_only_old", (json_int_t)d->funcs_only_old,
		"functions_only_new", (json_int_t)d->funcs_only_new));
	if (jstream_end(&out))
		complain("stdout", "cannot write the JSON output");
}

static bool gate_fails(const struct diff_cmd *c)
{
	for (size_t i = 0; i < c->d.n; i++)
		for (uint32_t k = 0; k < c->d.v[i].nadded; k++)
			if (c->fail_rules & (1u << c->d.refs[c->d.v[i].added + k]->rule))
				return true;
	return false;
}

static int cmd_diff(int argc, char **argv)
{
	struct diff_cmd c = { 0 };
	int status = EXIT_USAGE;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (load(&c, &c.old) || load(&c, &c.new))
		goto out;
	if (c.old.img.arch != c.new.img.arch) {
		complain(c.new.arg, "is %s but %s is %s: nothing to compare",
			 arch_name(c.new.img.arch), c.old.arg, arch_name(c.old.img.arch));
		goto out;
	}
	layout_diff(&c.old.r, &c.new.r, &c.d);
	if (c.json)
		print_json(&c);
	else
		print_text(&c);
	status = gate_fails(&c) ? EXIT_GATE : EXIT_OK;
out:
	layout_diff_free(&c.d);
	scan_result_free(&c.old.r);
	scan_result_free(&c.new.r);
	elf_close(&c.old.img);
	elf_close(&c.new.img);
	return status;
}
