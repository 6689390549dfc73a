/* straddle diff OLD NEW: which loops and functions a change made worse (or
 * better), as a gate a CI can run between two builds (seeds 000 and 003:
 * both regressions were found weeks later and bisected by hand). */
#include "cmd.h"
#include "../report/report.h"
#include "../results/scan.h"
#include "../results/diff.h"
#include "../results/sarif.h"

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
	struct profiles_arg uarch;
	enum format format;
	bool all, source_lines;
	unsigned long limit;            /* rows per section, 0: all */
	unsigned fail_rules;
	unsigned fail_causes;           /* 1 << enum diff_cause */
	const char *source_root;        /* --source-root: SARIF's SRCROOT */
	struct side old, new;
	struct layout_diff d;
	/* --hot: rows ranked by the samples of a record of either build */
	const char *hot_path, *perf_script;
	double min_share;
	struct hot_run hot;
	/* two directories or packages (diff_many) */
	const char *debug_dir;
	struct shard shard;
	int argc;
	char **argv;
	/* --measure: kernel routines run (diff_measure.c) */
	bool measure;
	double measure_s;
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
	OPT_UARCH_MANY(F, uarch, MODEL_MAX_PROFILES, "the profiles to apply"),
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
	OPT_FUNC(F, opts.func_glob),
	{ .name = "all", .kind = OPT_SET, .field = F(all),
	  .help = "also list functions found on one side only" },
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(limit), .max = LONG_MAX,
	  .help = "at most N rows per section (default 40, 0: all)" },
	{ .name = "format", .value = "text|json|markdown|sarif", .kind = OPT_CALL,
	  .call = set_format,
	  .help = "markdown: the summary and the worst rows as a\n"
		  "table for a code-review comment; sarif: SARIF 2.1.0,\n"
		  "one result per new hazard row (every row)" },
	OPT_SOURCE_ROOT(F, source_root),
	{ .name = "json", .kind = OPT_CALL, .call = set_json, .help = "the same as --format json" },
	OPT_JOBS(F, opts.jobs),
	OPT_LLVM_MCA(F, opts.llvm_mca),
	OPT_EXACT_COST(F, opts.cost_exact),
	OPT_NO_SOURCE(F, source_lines),
	OPT_DEBUG_DIR(F, debug_dir),
	OPT_SHARD(F, shard, "of two directories or packages, diff only shard K (0\n"
		  "to N-1) of their files, picked by a hash of the path\n"
		  "inside; 'straddle merge' joins the N documents"),
	OPT_HOT(F, hot_path, "rank by the samples of 'straddle record' of OLD or NEW:\n"
		"a \"samples %\" column, the hottest first"),
	OPT_PERF_SCRIPT(F, perf_script),
	{ .name = "measure", .kind = OPT_SET, .field = F(measure),
	  .help = "kernel images: run each routine with a built-in call\n"
		  "whose loops the change moved or resized, both builds'\n"
		  "bytes at each build's placement, and print the measured\n"
		  "change beside the predicted one (text only)" },
	{ .name = "measure-time", .value = "S", .kind = OPT_SECONDS, .field = F(measure_s),
	  .dflt = "10", .help = "--measure's budget per routine and workload" },
	OPT_MIN_SHARE(F, min_share),
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
		 "'straddle scan --dump-vdso'; or two directories or Debian packages (or\n"
		 "one of each), whose ELF files are matched by their path inside and\n"
		 "each pair diffed, in the order of those paths.\n",
	.options = diff_options,
	.notes = "Exit status: 0 no new hazard, 1 a new hazard of a selected rule and cause,\n"
		 "2 bad usage or an unreadable file, or OLD and NEW of different architectures.\n",
};

static int parse_options(struct diff_cmd *c, int argc, char **argv)
{
	c->opts.jobs = jobs_default();
	c->opts.keep_all = true;        /* every loop: the unchanged ones match the rest */
	c->opts.shapes = true;          /* unnamed functions are matched by shape */
	/* each side's loops priced as scan prices them: a straddle the back
	 * end hides is no new hazard, and a row says what it costs */
	c->opts.cost = true;
	c->source_lines = true;
	c->limit = 40;
	if (parse_command_line(&diff_command, c, argc, argv) ||
	    hot_load(c->hot_path, c->perf_script, &c->hot))
		return -1;
	if (argc - optind != 2) {
		complain("diff", "needs two files, OLD and NEW (see 'straddle diff --help')");
		return -1;
	}
	c->old.arg = argv[optind];
	c->new.arg = argv[optind + 1];
	c->argc = argc;
	c->argv = argv;
	if (c->measure && c->format != FORMAT_TEXT) {
		complain("--measure", "prints a table of its own: text only, not --format or --json");
		return -1;
	}
	if (!c->fail_rules)
		c->fail_rules = ~0u;
	if (!c->fail_causes)
		c->fail_causes = ~0u;
	c->opts.profiles = c->uarch.v;
	c->opts.nprofiles = c->uarch.n;
	return 0;
}

/* A side's image, open, scanned; NULL, or why not (e's). */
static const char *scan_side(struct diff_cmd *c, struct side *s, struct err *e)
{
	if (scan_image(&s->img, &c->opts, &s->r, e))
		return elf_changed(&s->img) ? "changed while reading" : e->msg;
	note_back_end(s->arg, &s->r);
	if (c->hot_path || c->perf_script)
		hot_attribute_image(&c->hot, &s->img, &s->r);
	return NULL;
}

static int load(struct diff_cmd *c, struct side *s)
{
	struct err e = { "" };
	const char *why = e.msg;

	if (elf_open_file(&s->img, s->arg, &e) == 0) {
		s->img.debug_dir = c->debug_dir;
		why = scan_side(c, s, &e);
	}
	if (why)
		complain(s->arg, "%s", why);
	return why ? -1 : 0;
}

/* Either file truncated or rewritten since it was opened. */
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

static void print_report(const struct diff_cmd *c, bool fails)
{
	struct diff_report r = { .old_img = &c->old.img, .new_img = &c->new.img,
		.sides = { &c->old.r, &c->new.r }, .d = &c->d, .limit = c->limit,
		.min_share = c->min_share, .all = c->all, .hot_source = c->hot.source,
		.hot_total = c->hot.total, .fails = fails };

	/* the images' DWARF is read on first use: a cache, not their content */
	struct diff_images im = { (struct elf_image *)&c->old.img, (struct elf_image *)&c->new.img,
				  r.sides };

	diff_rows(&c->d, &c->new.r, true, c->min_share, &r.added);
	diff_rows_resolve(&r.added, &im, true, c->limit, c->source_lines);
	diff_rows(&c->d, &c->new.r, false, c->min_share, &r.removed);
	diff_rows_resolve(&r.removed, &im, false, c->limit, c->source_lines);
	if (c->format == FORMAT_MARKDOWN)
		report_diff_markdown(stdout, &r);
	else
		report_diff_text(stdout, &r);
	diff_rows_free(&r.added);
	diff_rows_free(&r.removed);
}

/* ---- JSON (results/diff.c) ---- */

static void print_json(struct diff_cmd *c, bool fails, int argc, char **argv)
{
	json_t *head = results_diff_head(argc, argv, &(struct diff_gate){ c->fail_rules,
		c->fail_causes, fails, fails ? EXIT_GATE : EXIT_OK });

	if (results_diff(stdout, head, &(struct diff_image){ &c->old.img, &c->old.r },
			 &(struct diff_image){ &c->new.img, &c->new.r }, &c->d, c->source_lines,
			 c->min_share))
		complain("stdout", "cannot write the JSON output");
}

/* ---- SARIF: the new hazards as alerts ---- */

static struct sarif_log *new_sarif(const struct diff_cmd *c, const struct shard_info *shard)
{
	return sarif_new(&(struct sarif_head){ c->source_root, c->argc, c->argv, c->uarch.v,
					       c->opts.nprofiles, shard });
}

static void add_sarif(struct diff_cmd *c, struct sarif_log *log)
{
	sarif_add_diff(log, &c->new.img, &c->new.r, &c->d, &(struct sarif_rows){ c->min_share,
		       c->source_root, c->source_lines, 1 });
}

static void print_sarif(struct diff_cmd *c)
{
	struct sarif_log *log = new_sarif(c, NULL);

	add_sarif(c, log);
	if (sarif_write(log, stdout, true))
		complain("stdout", "cannot write the SARIF output");
}

/* A misspelt --func must not pass the gate as "no layout change": as in scan,
 * a pattern that selects no function in either file is an error. */
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
	return layout_diff_gate(&c->d, c->fail_rules, c->fail_causes);
}

static int diff_many(struct diff_cmd *c);

int cmd_diff(int argc, char **argv)
{
	struct diff_cmd c = { 0 };
	int status = EXIT_USAGE;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (input_is_many(c.old.arg) || input_is_many(c.new.arg)) {
		status = diff_many(&c);
		hot_run_free(&c.hot);
		return status;
	}
	if (c.shard.count) {
		complain("--shard", "%s and %s are single files: shards split the files of two "
			 "directories or packages", c.old.arg, c.new.arg);
		goto out;
	}
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
	else if (c.format == FORMAT_SARIF)
		print_sarif(&c);
	else
		print_report(&c, status == EXIT_GATE);
	if (c.measure)
		diff_measure(&(struct routine_diff_input){ c.old.arg, c.new.arg, &c.old.img, &c.new.img,
			c.uarch.v[0], c.uarch.why, c.opts.llvm_mca, c.measure_s });
out:
	hot_run_free(&c.hot);
	layout_diff_free(&c.d);
	scan_result_free(&c.old.r);
	scan_result_free(&c.new.r);
	elf_close(&c.old.img);
	elf_close(&c.new.img);
	return status;
}

/* ---- two directories or packages: a diff per file (inputs.h) ---- */

struct many {
	struct pairs p;
	struct diff_doc doc;            /* --json */
	struct sarif_log *sarif;        /* --format sarif */
	struct shard_info shard;
	const char *op[2];              /* OLD and NEW as given */
	int status;                     /* EXIT_USAGE once a file failed */
	bool fails;                     /* a pair's new hazard fails the gate */
	size_t diffed, changed, worse, only[2], matched;
	struct strbuf only_text;        /* the text's lines of files on one side */
};

/* A file of a pair that could not be read or diffed: one line, and an
 * entry in the document; the other pairs go on. */
static void pair_failed(struct diff_cmd *c, struct many *m, const char *member, const char *path,
			const char *why)
{
	complain(path, "%s", why);
	if (c->format == FORMAT_JSON)
		results_diff_error(&m->doc, member, path, why);
	if (c->format == FORMAT_SARIF)
		sarif_notify(m->sarif, path, 1, member, why);
	m->status = EXIT_USAGE;
}

/* An image the pairs opened, moved into a side (the struct moves; the
 * mapping it describes stays where it is). */
static void take_image(struct side *s, struct elf_image *img)
{
	s->img = *img;
	s->arg = s->img.path;
	memset(img, 0, sizeof *img);
}

static void pair_output(struct diff_cmd *c, struct many *m, const char *member, bool fails)
{
	if (c->format == FORMAT_JSON)
		results_diff_pair(&m->doc, member, &(struct diff_image){ &c->old.img, &c->old.r },
				  &(struct diff_image){ &c->new.img, &c->new.r }, &c->d,
				  c->source_lines, c->min_share);
	else if (c->format == FORMAT_SARIF)
		add_sarif(c, m->sarif);
	else if (c->d.n) {      /* the text: the files something changed in */
		print_report(c, fails);
		printf("\n");
	}
}

/* Both sides scanned and diffed: NULL, or why not (the side in *bad). */
static const char *diffed(struct diff_cmd *c, struct side **bad, char *buf, size_t n,
			  struct err *e)
{
	const char *why;

	*bad = &c->old;
	if ((why = scan_side(c, &c->old, e)))
		return why;
	*bad = &c->new;
	if ((why = scan_side(c, &c->new, e)))
		return why;
	if (c->old.img.arch != c->new.img.arch) {
		snprintf(buf, n, "is %s but %s is %s: nothing to compare", arch_name(c->new.img.arch),
			 c->old.arg, arch_name(c->old.img.arch));
		return buf;
	}
	layout_diff(&(struct diff_side){ &c->old.img, &c->old.r },
		    &(struct diff_side){ &c->new.img, &c->new.r }, &c->dopts, &c->d);
	*bad = elf_changed(&c->old.img) ? &c->old : &c->new;
	return elf_changed(&c->old.img) || elf_changed(&c->new.img) ? "changed while reading" : NULL;
}

/* One matched pair, scanned, diffed and written; its memory freed. */
static void diff_pair(struct diff_cmd *c, struct many *m, const struct input_pair *ip)
{
	struct err e = { "" };
	struct side *bad;
	char buf[128];
	const char *why;

	take_image(&c->old, ip->old.img);
	take_image(&c->new, ip->new.img);
	if ((why = diffed(c, &bad, buf, sizeof buf, &e))) {
		pair_failed(c, m, ip->member, bad->img.path, why);
	} else {
		bool fails = gate_fails(c);

		m->fails |= fails;
		m->diffed++;
		m->changed += c->d.n > 0;
		m->worse += c->d.hazards_added > 0;
		m->matched += c->old.r.functions_scanned + c->old.r.padding_symbols +
			      c->new.r.functions_scanned + c->new.r.padding_symbols;
		pair_output(c, m, ip->member, fails);
	}
	layout_diff_free(&c->d);
	for (int i = 0; i < 2; i++) {
		struct side *s = i ? &c->new : &c->old;

		scan_result_free(&s->r);
		elf_close(&s->img);
	}
}

static void one_side(struct diff_cmd *c, struct many *m, const struct input_pair *ip)
{
	bool in_new = ip->new.img != NULL;

	m->only[in_new]++;
	if (c->format == FORMAT_JSON)
		results_diff_only(&m->doc, in_new, ip->member);
	if (c->format == FORMAT_TEXT || c->format == FORMAT_MARKDOWN)
		sb_addf(&m->only_text, "only in %s: %s\n", m->op[in_new], ip->member);
}

static void begin_many(struct diff_cmd *c, struct many *m)
{
	const struct shard_info *shard = c->shard.count ? &m->shard : NULL;

	if (c->format == FORMAT_JSON)
		results_diff_begin(&m->doc, stdout, results_diff_many_head(c->argc, c->argv,
			m->op[0], m->op[1], c->uarch.v, c->opts.nprofiles, shard));
	if (c->format == FORMAT_SARIF)
		m->sarif = new_sarif(c, shard);
}

static int end_many(struct diff_cmd *c, struct many *m)
{
	int status = m->status != EXIT_OK ? m->status : m->fails ? EXIT_GATE : EXIT_OK;

	if (c->format == FORMAT_JSON && results_diff_end(&m->doc, &(struct diff_gate){
		c->fail_rules, c->fail_causes, m->fails, status })) {
		complain("stdout", "cannot write the JSON output");
		status = EXIT_USAGE;
	}
	if (c->format == FORMAT_SARIF && sarif_write(m->sarif, stdout, status != EXIT_USAGE)) {
		complain("stdout", "cannot write the SARIF output");
		status = EXIT_USAGE;
	}
	if (c->format == FORMAT_TEXT || c->format == FORMAT_MARKDOWN)
		printf("%s%zu files diffed, %zu changed, %zu with new hazards; %zu only in %s, %zu "
		       "only in %s\n", sb_str(&m->only_text), m->diffed, m->changed, m->worse,
		       m->only[0], m->op[0], m->only[1], m->op[1]);
	sb_free(&m->only_text);
	return status;
}

/* Two directories or packages (or one of each): their ELF files matched
 * by the path inside, each pair diffed, in the order of those paths; a
 * file on one side only is listed. */
static int diff_many(struct diff_cmd *c)
{
	struct many m = { .op = { c->old.arg, c->new.arg }, .status = EXIT_OK };
	struct input_pair ip;
	struct err e = { "" };
	int status;

	if (!input_is_many(c->old.arg) || !input_is_many(c->new.arg)) {
		complain(input_is_many(c->old.arg) ? c->new.arg : c->old.arg, "is one file, but %s "
			 "is a directory or package: diff two of those, or two files",
			 input_is_many(c->old.arg) ? c->old.arg : c->new.arg);
		return EXIT_USAGE;
	}
	if (pairs_open(&m.p, c->old.arg, c->new.arg, &c->shard, c->debug_dir, &e)) {
		say("%s", e.msg);
		pairs_close(&m.p);
		return EXIT_USAGE;
	}
	m.shard = (struct shard_info){ c->shard, m.p.units, m.p.units_total };
	begin_many(c, &m);
	while (pairs_next(&m.p, &ip))
		if (ip.old.error || ip.new.error)
			pair_failed(c, &m, ip.member, ip.old.error ? ip.old.name : ip.new.name,
				    ip.old.error ? ip.old.error : ip.new.error);
		else if (!ip.old.img || !ip.new.img)
			one_side(c, &m, &ip);
		else
			diff_pair(c, &m, &ip);
	if (c->opts.func_glob && !m.matched && !c->shard.count) {
		complain("--func", "'%s' matches no function in %s or %s", c->opts.func_glob,
			 m.op[0], m.op[1]);
		m.status = EXIT_USAGE;
	}
	status = end_many(c, &m);
	pairs_close(&m.p);
	return status;
}
