/* straddle diff OLD NEW: which loops and functions a change made worse (or
 * better), as a gate a CI can run between two builds (seeds 000 and 003:
 * both regressions were found weeks later and bisected by hand). */
#include "cmd.h"
#include "../report/report.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct diff_cmd {
	struct scan_opts opts;
	struct diff_opts dopts;
	struct profiles_arg uarch;
	struct diff_out out;            /* format, rows, gate: report/diff_out.c */
	struct diff_build old, new;
	struct layout_diff d;
	/* --hot: rows ranked by the samples of a record of either build */
	const char *hot_path, *perf_script;
	struct hot_run hot;
	/* two directories or packages (diff_many) */
	const char *debug_dir;
	struct shard shard;
	/* --measure: kernel routines run (diff_measure.c) */
	bool measure;
	double measure_s;
};

static int cmd_diff(int argc, char **argv);

static int set_json(void *cmd, const char *opt, const char *value)
{
	(void)opt, (void)value;         /* a flag: OPT_CALL gives it NULL */
	((struct diff_cmd *)cmd)->out.format = DIFF_JSON;
	return 0;
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

	return parse_name_list(opt, value, gate_cause, "cause", "CAUSE", &c->out.fail_causes);
}

#define F(field) offsetof(struct diff_cmd, field)

static const struct cmd_option diff_options[] = {
	OPT_UARCH_MANY(F, uarch, MODEL_MAX_PROFILES, "the profiles to apply"),
	{ .name = "fail-on", .value = "RULE,...", .kind = OPT_RULES, .field = F(out.fail_rules),
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
	{ .name = "all", .kind = OPT_SET, .field = F(out.all),
	  .help = "also list functions found on one side only" },
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(out.limit), .max = LONG_MAX,
	  .help = "at most N rows per section (default 40, 0: all)" },
	{ .name = "format", .value = "text|json|markdown|sarif", .kind = OPT_CHOICE,
	  .field = F(out.format), .choices = (const char *const[]){ "text", "json", "markdown",
								 "sarif", NULL },
	  .help = "markdown: the summary and the worst rows as a\n"
		  "table for a code-review comment; sarif: SARIF 2.1.0,\n"
		  "one result per new hazard row (every row)" },
	OPT_SOURCE_ROOT(F, out.source_root),
	{ .name = "json", .kind = OPT_CALL, .call = set_json, .help = "the same as --format json" },
	OPT_JOBS(F, opts.jobs),
	OPT_LLVM_MCA(F, opts.llvm_mca),
	OPT_EXACT_COST(F, opts.cost_exact),
	OPT_NO_SOURCE(F, out.source_lines),
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
	OPT_MIN_SHARE(F, out.min_share),
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
	c->out.source_lines = true;
	c->out.limit = 40;
	if (parse_command_line(&diff_command, c, argc, argv) ||
	    hot_load(c->hot_path, c->perf_script, &c->hot))
		return -1;
	if (argc - optind != 2) {
		complain("diff", "needs two files, OLD and NEW (see 'straddle diff --help')");
		return -1;
	}
	c->old.arg = argv[optind];
	c->new.arg = argv[optind + 1];
	c->out.argc = argc;
	c->out.argv = argv;
	c->out.hot = &c->hot;
	if (c->measure && c->out.format != DIFF_TEXT) {
		complain("--measure", "prints a table of its own: text only, not --format or --json");
		return -1;
	}
	if (!c->out.fail_rules)
		c->out.fail_rules = ~0u;
	if (!c->out.fail_causes)
		c->out.fail_causes = ~0u;
	c->opts.profiles = c->uarch.v;
	c->opts.nprofiles = c->uarch.n;
	c->out.profiles = c->uarch.v;
	c->out.nprofiles = c->uarch.n;
	return 0;
}

/* A side's image scanned, its note said; NULL, or why not (e's). */
static const char *scan_side(struct diff_cmd *c, struct diff_build *s, struct err *e)
{
	const char *why = diff_build_scan(s, &c->opts, c->hot_path || c->perf_script ? &c->hot :
					  NULL, e);

	if (!why)
		note_back_end(s->arg, &s->r);
	return why;
}

static int load(struct diff_cmd *c, struct diff_build *s)
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
	return layout_diff_gate(&c->d, c->out.fail_rules, c->out.fail_causes);
}

static int diff_many(struct diff_cmd *c);

int cmd_diff(int argc, char **argv)
{
	struct diff_cmd c = { 0 };
	struct diff_build *bad;
	const char *why;
	char buf[PATH_MAX + 128];
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
	if ((why = diff_builds(&c.old, &c.new, &c.dopts, &c.d, &bad, buf, sizeof buf))) {
		complain(bad->arg, "%s", why);
		goto out;
	}
	status = gate_fails(&c) ? EXIT_GATE : EXIT_OK;
	if ((why = diff_out_one(&c.out, &c.old, &c.new, &c.d, status == EXIT_GATE, status)))
		complain("stdout", "cannot write the %s output", why);
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

/* A file of a pair that could not be read or diffed: one line, and an
 * entry in the document; the other pairs go on. */
static void pair_failed(struct diff_cmd *c, const char *member, const char *path, const char *why)
{
	complain(path, "%s", why);
	diff_out_failed(&c->out, member, path, why);
}

/* An image the pairs opened, moved into a side (the struct moves; the
 * mapping it describes stays where it is). */
static void take_image(struct diff_build *s, struct elf_image *img)
{
	s->img = *img;
	s->arg = s->img.path;
	memset(img, 0, sizeof *img);
}

/* Both sides scanned and diffed: NULL, or why not (the side in *bad). */
static const char *diffed(struct diff_cmd *c, struct diff_build **bad, char *buf, size_t n,
			  struct err *e)
{
	const char *why;

	*bad = &c->old;
	if ((why = scan_side(c, &c->old, e)))
		return why;
	*bad = &c->new;
	if ((why = scan_side(c, &c->new, e)))
		return why;
	return diff_builds(&c->old, &c->new, &c->dopts, &c->d, bad, buf, n);
}

/* One matched pair, scanned, diffed and written; its memory freed. The
 * functions it matched counted in *matched. */
static void diff_pair(struct diff_cmd *c, const struct input_pair *ip, size_t *matched)
{
	struct err e = { "" };
	struct diff_build *bad;
	char buf[128];
	const char *why;

	take_image(&c->old, ip->old.img);
	take_image(&c->new, ip->new.img);
	if ((why = diffed(c, &bad, buf, sizeof buf, &e))) {
		pair_failed(c, ip->member, bad->img.path, why);
	} else {
		*matched += c->old.r.functions_scanned + c->old.r.padding_symbols +
			    c->new.r.functions_scanned + c->new.r.padding_symbols;
		diff_out_member(&c->out, ip->member, &c->old, &c->new, &c->d, gate_fails(c));
	}
	layout_diff_free(&c->d);
	for (int i = 0; i < 2; i++) {
		struct diff_build *s = i ? &c->new : &c->old;

		scan_result_free(&s->r);
		elf_close(&s->img);
	}
}

/* Two directories or packages (or one of each): their ELF files matched
 * by the path inside, each pair diffed, in the order of those paths; a
 * file on one side only is listed. */
static int diff_many(struct diff_cmd *c)
{
	struct pairs p;
	struct input_pair ip;
	struct err e = { "" };
	const char *what;
	size_t matched = 0;
	int status;

	if (!input_is_many(c->old.arg) || !input_is_many(c->new.arg)) {
		complain(input_is_many(c->old.arg) ? c->new.arg : c->old.arg, "is one file, but %s "
			 "is a directory or package: diff two of those, or two files",
			 input_is_many(c->old.arg) ? c->old.arg : c->new.arg);
		return EXIT_USAGE;
	}
	if (pairs_open(&p, c->old.arg, c->new.arg, &c->shard, c->debug_dir, &e)) {
		say("%s", e.msg);
		pairs_close(&p);
		return EXIT_USAGE;
	}
	c->out.op[0] = c->old.arg, c->out.op[1] = c->new.arg;
	diff_out_begin(&c->out, c->shard.count ? &(struct shard_info){ c->shard, p.units,
		       p.units_total } : NULL);
	while (pairs_next(&p, &ip))
		if (ip.old.error || ip.new.error)
			pair_failed(c, ip.member, ip.old.error ? ip.old.name : ip.new.name,
				    ip.old.error ? ip.old.error : ip.new.error);
		else if (!ip.old.img || !ip.new.img)
			diff_out_only(&c->out, ip.member, ip.new.img != NULL);
		else
			diff_pair(c, &ip, &matched);
	if (c->opts.func_glob && !matched && !c->shard.count) {
		complain("--func", "'%s' matches no function in %s or %s", c->opts.func_glob,
			 c->out.op[0], c->out.op[1]);
		c->out.failed = true;
	}
	status = c->out.failed ? EXIT_USAGE : c->out.fails ? EXIT_GATE : EXIT_OK;
	if ((what = diff_out_end(&c->out, status))) {
		complain("stdout", "cannot write the %s output", what);
		status = EXIT_USAGE;
	}
	pairs_close(&p);
	return status;
}
