/* straddle scan [FILE...|vdso]: which loops and functions are placed so
 * that they straddle a fetch window, a uop-cache window or a cache line
 * (seeds 000, 002, 003). */
#include "cmd.h"
#include "../report/report.h"
#include "../results/json.h"
#include "../results/scan.h"
#include "../results/sarif.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scan_cmd {
	struct scan_opts opts;
	bool list_all;                  /* --all (opts.keep_all is also set by --hot) */
	struct profiles_arg uarch;
	bool json;
	bool want_sarif;                /* --format sarif given */
	struct sarif_log *sarif;        /* then the log, written at the end */
	const char *source_root;
	bool source_lines;
	unsigned long limit;
	unsigned fail_rules;            /* bit per enum rule */
	bool fail_uncertain;            /* ... also in loops whose span is uncertain */
	const char *dump_vdso;
	struct scan_doc doc;            /* --json */
	bool gate_failed;
	bool fail_spin;                 /* --fail-on counts spin loops' hazards too */
	/* --hot: samples of a record (or --perf-script text) rank the rows */
	const char *hot_path, *perf_script, *vmlinux;
	struct hot_run hot;
	bool have_hot;
	double min_share;
	size_t matched;                 /* functions --func/--section selected, all files */
	uint64_t hot_in_files;          /* --hot: samples of the (user space) files scanned */
	const char *debug_dir;          /* --debug-dir: separate debug files by build-id */
	const char *files_from;         /* --files-from: more operands, one a line */
	struct shard shard;             /* --shard K/N; count 0: none */
	struct shard_info shard_info;   /* then what the shard took */
};

static void print_text(struct scan_cmd *c, struct elf_image *img, const struct scan_result *r,
		       FILE *out)
{
	struct scan_rows rows;

	scan_rows(r, c->limit, c->min_share, c->list_all, &rows);
	scan_rows_resolve(&rows, img, r, c->source_lines);
	report_scan_text(out, img, r, &rows,
			 &(struct scan_text_opts){ .list_all = c->list_all, .min_share = c->min_share });
	scan_rows_free(&rows);
}

/* kernel: the kernel's samples as addresses of this image (kernel_hot),
 * NULL for a file of user space. */
static void attribute(struct scan_cmd *c, struct elf_image *img, struct scan_result *r,
		      const struct hot_file *kernel)
{
	if (kernel)
		hot_attribute(r, kernel, c->hot.total);
	else
		hot_attribute_image(&c->hot, img, r);
}

static int scan_failed(struct scan_cmd *c, const struct input_file *f, const char *msg)
{
	complain(f->name, "%s", msg);
	if (c->json)
		results_scan_error(&c->doc, f->name, f->operand, msg);
	if (c->sarif)
		sarif_notify(c->sarif, f->name, f->operand, NULL, msg);
	return -1;
}

/* A file's output is made in memory and goes out only if the file did not
 * change while it was read, through the printing (names and source lines
 * are read from the image): a file changed mid-scan has no partial rows. */
static bool print_unless_changed(struct scan_cmd *c, struct elf_image *img,
				 const struct scan_result *r, size_t input)
{
	struct json_stream saved = c->doc.out;
	struct strbuf buf = { 0 };
	FILE *mem = sb_stream(&buf);
	size_t nsarif = c->sarif ? sarif_count(c->sarif) : 0;
	bool changed;

	if (!mem) {
		complain("stdout", "out of memory");
		exit(EXIT_USAGE);
	}
	if (c->json) {
		c->doc.out.f = mem;
		results_scan_file(&c->doc.out, img, r, c->source_lines, input);
		c->doc.out.f = saved.f;
	} else if (c->sarif) {
		sarif_add_scan(c->sarif, img, r, &(struct sarif_rows){ c->min_share, c->source_root,
			       c->source_lines, input });
	} else {
		print_text(c, img, r, mem);
	}
	fclose(mem);
	changed = elf_changed(img);
	if (changed)
		c->doc.out = saved;     /* the element never happened */
	if (changed && c->sarif)
		sarif_truncate(c->sarif, nsarif);
	if (!changed && buf.len)
		fwrite(buf.s, 1, buf.len, stdout);
	sb_free(&buf);
	return !changed;
}

/* Scan one file of the run (kernel: the kernel's samples rebased onto
 * it, else NULL); 0, or -1 after saying why on stderr. */
static int scan_one(struct scan_cmd *c, const struct input_file *f, const struct hot_file *kernel)
{
	struct elf_image *img = f->img;
	struct scan_result r;
	struct err e = { "" };
	int rc = 0;

	if (f->error)
		return scan_failed(c, f, f->error);
	if (scan_image(img, &c->opts, &r, &e))
		return scan_failed(c, f, elf_changed(img) ? "changed while reading" : e.msg);
	note_back_end(f->name, &r);
	if (c->have_hot)
		attribute(c, img, &r, kernel);
	if (print_unless_changed(c, img, &r, f->operand)) {
		c->gate_failed |= scan_gate(&r, c->fail_rules, c->fail_spin, c->fail_uncertain);
		c->matched += r.functions_scanned + r.padding_symbols;
		if (!kernel)
			c->hot_in_files += r.file_samples;
		if (r.functions_too_large)
			complain(f->name, "%zu function%s too large to analyse within the memory bound, "
				 "not analysed", r.functions_too_large,
				 r.functions_too_large == 1 ? "" : "s");
	} else {
		rc = scan_failed(c, f, "changed while reading");
	}
	scan_result_free(&r);
	return rc;
}

static int dump_vdso(const char *path)
{
	struct elf_image img;
	struct err e = { "" };
	int rc = elf_open_vdso(&img, &e);

	if (rc == 0 && (rc = elf_save(&img, path, &e)) == 0 && isatty(STDERR_FILENO))
		say("saved the vDSO (%zu bytes) to %s", img.size, path);
	if (rc)
		complain(path, "%s", e.msg);
	elf_close(&img);
	return rc;
}

static int cmd_scan(int argc, char **argv);

static int set_format(void *cmd, const char *opt, const char *value)
{
	struct scan_cmd *c = cmd;

	if (strcmp(value, "text") && strcmp(value, "json") && strcmp(value, "sarif")) {
		complain(opt, "'%s' is none of text, json, sarif", value);
		return -1;
	}
	c->json = !strcmp(value, "json");
	if (!strcmp(value, "sarif"))
		c->want_sarif = true;   /* the log is made once the options are read */
	return 0;
}

#define F(field) offsetof(struct scan_cmd, field)

static const struct cmd_option scan_options[] = {
	OPT_UARCH_MANY(F, uarch, MODEL_MAX_PROFILES, "the profiles to apply"),
	{ .name = "all", .kind = OPT_SET, .field = F(list_all),
	  .help = "list every loop and irreducible cycle, not only hazards" },
	OPT_FUNC(F, opts.func_glob),
	{ .name = "section", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.section_glob),
	  .help = "only functions in sections whose name matches GLOB" },
	OPT_JSON(F, json, ""),
	{ .name = "format", .value = "text|json|sarif", .kind = OPT_CALL, .call = set_format,
	  .help = "sarif: SARIF 2.1.0 for code scanning, one result\n"
		  "per row (every row: no --limit)" },
	OPT_SOURCE_ROOT(F, source_root),
	OPT_JOBS(F, opts.jobs),
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(limit), .max = LONG_MAX,
	  .help = "at most N hazard rows per file in the table (default 40, 0: all)" },
	{ .name = "fail-on", .value = "RULE,..", .kind = OPT_RULES, .field = F(fail_rules),
	  .help = "exit 1 if a hazard of these rules is found ('any' for all):\n"
		  "loop-straddles-window, branch-crosses-window,\n"
		  "branch-ends-window, entry-misaligned; a spin loop's\n"
		  "(pause, yield, wfe) only with --fail-on-spin" },
	{ .name = "fail-on-spin", .kind = OPT_SET, .field = F(fail_spin),
	  .help = "--fail-on counts the hazards of spin loops too" },
	{ .name = "fail-on-uncertain", .kind = OPT_SET, .field = F(fail_uncertain),
	  .help = "--fail-on also gates on loops whose span is uncertain\n"
		  "(an unresolved indirect jump in their function)" },
	OPT_LLVM_MCA(F, opts.llvm_mca),
	OPT_EXACT_COST(F, opts.cost_exact),
	OPT_NO_SOURCE(F, source_lines),
	OPT_DEBUG_DIR(F, debug_dir),
	{ .name = "files-from", .value = "FILE", .kind = OPT_STRING, .field = F(files_from),
	  .help = "more FILEs, one a line (-: standard input): a\n"
		  "distribution's packages, more than a command line holds" },
	OPT_SHARD(F, shard, "scan only shard K (0 to N-1) of the inputs, picked by\n"
		  "a hash of their names; 'straddle merge' joins the N\n"
		  "documents into the run's"),
	{ .name = "dump-vdso", .value = "FILE", .kind = OPT_OUTPUT, .field = F(dump_vdso),
	  .help = "save the running vDSO image to FILE" },
	OPT_HOT(F, hot_path, "rank by the samples of 'straddle record': a \"samples %\"\n"
		"column, the hottest first; with no FILE, the files the\n"
		"record touched, then its kernel samples"),
	OPT_PERF_SCRIPT(F, perf_script),
	OPT_MIN_SHARE(F, min_share),
	{ .name = "vmlinux", .value = "FILE", .kind = OPT_STRING, .field = F(vmlinux),
	  .help = "the recorded kernel's image, for its loops (default\n"
		  "/usr/lib/debug/boot/vmlinux-RELEASE when it is there)" },
	{ 0 }
};

const struct command scan_command = {
	.name = "scan",
	.run = cmd_scan,
	.summary = "find loops and functions whose placement is a hazard",
	.args = "[OPTIONS] [FILE|DIR|PKG.deb|PKG.deb:/PATH|vdso...]",
	.about = "Find loops and functions whose placement is a code-layout hazard: a loop\n"
		 "that straddles more fetch windows, uop-cache windows or cache lines than it\n"
		 "needs, a back-edge branch that crosses or ends on a window where the CPU's\n"
		 "rule says so, a small function whose entry makes it span two lines. Each\n"
		 "hazard comes with its fix: the .p2align that removes it and its padding.\n"
		 "A loop's bytes are those every iteration runs: when the compiler laid the\n"
		 "exit out between its header and its body, its pieces, counted together\n"
		 "(and when no .p2align can fit them, the fix is to move the exit). A loop\n"
		 "holding pause, yield or wfe is a spin loop, ranked after the others.\n"
		 "\n"
		 "With no FILE: this process's vDSO and C library. 'vdso' reads the running\n"
		 "vDSO from memory. Addresses are the ELF's own virtual addresses.\n"
		 "\n"
		 "A FILE may be an ELF file; a directory (every ELF file under it, links\n"
		 "followed, each file once); a Debian package (the ELF files in it, named\n"
		 "PKG.deb:/usr/bin/ls), or one file of it; a compressed module (.ko.xz,\n"
		 ".ko.zst, .ko.gz). In a directory or package, files go by path.\n",
	.options = scan_options,
	.notes = "Memory is bounded by the input: a function whose analysis would need more\n"
		 "than a share of the file's size (at least 16 MiB) is counted, not analysed,\n"
		 "with a line on standard error.\n"
		 "\n"
		 "Exit status: 0 done (hazards or not), 1 --fail-on matched, 2 bad usage or a file\n"
		 "that could not be scanned: not a regular file, not ELF, changed while it was\n"
		 "read (the other files are still scanned).\n",
};

static int parse_options(struct scan_cmd *c, int argc, char **argv)
{
	c->opts.jobs = jobs_default();
	c->limit = 40;
	c->source_lines = true;
	c->opts.cost = true;
	if (parse_command_line(&scan_command, c, argc, argv))
		return -1;
	c->opts.profiles = c->uarch.v;
	c->opts.nprofiles = c->uarch.n;
	if (c->want_sarif) {
		c->json = false;
		c->opts.shapes = true;  /* an fde@ function's fingerprint is its shape */
	}
	if (hot_load(c->hot_path, c->perf_script, &c->hot))
		return -1;
	c->have_hot = c->hot_path || c->perf_script;
	/* --hot's summary judges every hot loop, hazard or not */
	c->opts.keep_all = c->list_all || c->have_hot;
	return 0;
}

/* The kernel's samples as addresses of its image: KASLR moved _text. */
static int kernel_through_image(struct scan_cmd *c, const char *vmlinux)
{
	const struct hot_run *h = &c->hot;
	struct hot_file kf;
	struct elf_image img;
	struct err e = { "" };
	char id[129];
	uint64_t text;
	int rc;

	if (elf_open_file(&img, vmlinux, &e)) {
		complain(vmlinux, "%s", e.msg);
		elf_close(&img);
		return -1;
	}
	elf_build_id_hex(&img, id);
	if (h->kernel_build_id[0] && strcmp(id, h->kernel_build_id) != 0) {
		printf("kernel: %" PRIu64 " samples (%.1f%%); %s is build-id %s, the recorded kernel "
		       "(%s) was %s: not its image, so by symbol only:\n", h->kernel.samples,
		       100.0 * (double)h->kernel.samples / (double)h->total, vmlinux,
		       *id ? id : "none", h->kernel_release[0] ? h->kernel_release : "?",
		       h->kernel_build_id);
		elf_close(&img);
		return 1;
	}
	if (!h->kernel_text || elf_symbol_value(&img, "_text", &text)) {
		printf("kernel: %" PRIu64 " samples; where _text was (KASLR) is not known, so by "
		       "symbol only:\n", h->kernel.samples);
		elf_close(&img);
		return 1;
	}
	hot_kernel_rebased(h, vmlinux, text, &kf);
	img.debug_dir = c->debug_dir;
	rc = scan_one(c, &(struct input_file){ .name = vmlinux, .img = &img }, &kf);
	elf_close(&img);
	free(kf.addrs.v);
	return rc;
}

/* Kernel samples: through --vmlinux, else Debian's debug image of the
 * recorded release when installed, when it is the recorded kernel (same
 * build-id); else by /proc/kallsyms symbol, with one note. */
static int kernel_hot(struct scan_cmd *c)
{
	const struct hot_run *h = &c->hot;
	char path[300];
	const char *vmlinux = c->vmlinux;
	int rc;

	if (!h->kernel.samples)
		return 0;
	snprintf(path, sizeof path, "/usr/lib/debug/boot/vmlinux-%s", h->kernel_release);
	if (!vmlinux && h->kernel_release[0] && access(path, R_OK) == 0)
		vmlinux = path;
	if (vmlinux) {
		if ((rc = kernel_through_image(c, vmlinux)) <= 0)
			return rc;
	} else if (h->kernel_release[0]) {
		printf("kernel: %" PRIu64 " samples (%.1f%%), by symbol only: loops need the "
		       "kernel's image (--vmlinux FILE, or %s from linux-image-%s-dbg)\n",
		       h->kernel.samples, 100.0 * (double)h->kernel.samples / (double)h->total,
		       path, h->kernel_release);
	} else {
		printf("kernel: %" PRIu64 " samples (%.1f%%), by symbol only: loops need the "
		       "kernel's image (--vmlinux FILE)\n", h->kernel.samples,
		       100.0 * (double)h->kernel.samples / (double)h->total);
	}
	report_kernel_symbols(stdout, &c->hot, c->min_share);
	return 0;
}

/* A gate whose pattern is misspelt must not pass silently: a --func or
 * --section that selected no function in any file is an error. A shard cannot
 * tell: its files may hold none of the run's matches. */
static bool no_match(const struct scan_cmd *c)
{
	if (c->matched || (!c->opts.func_glob && !c->opts.section_glob) || c->shard.count)
		return false;
	if (c->opts.func_glob && c->opts.section_glob)
		complain("--func", "'%s' in --section '%s' matches no function",
			 c->opts.func_glob, c->opts.section_glob);
	else if (c->opts.func_glob)
		complain("--func", "'%s' matches no function", c->opts.func_glob);
	else
		complain("--section", "'%s' matches no section with functions", c->opts.section_glob);
	return true;
}

/* The documents' heads, once the inputs are known (a shard's says what
 * it took of them). */
static void begin_output(struct scan_cmd *c, const struct inputs *in, int argc, char **argv)
{
	const struct shard_info *shard = c->shard.count ? &c->shard_info : NULL;

	c->shard_info = (struct shard_info){ c->shard, in->units, in->units_total };
	if (c->uarch.why[0] && !c->json && !c->want_sarif)
		printf("%s\n", c->uarch.why);
	if (c->want_sarif)
		c->sarif = sarif_new(&(struct sarif_head){ c->source_root, argc, argv, c->uarch.v,
			c->opts.nprofiles, shard });
	if (c->json) {
		/* tens of megabytes: write them in large blocks */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		results_scan_begin(&c->doc, stdout, &(struct scan_head){ argc, argv, c->uarch.v,
			c->opts.nprofiles, c->uarch.why, c->have_hot, c->min_share, shard });
	}
}

/* Every file of the operands (inputs.h: directories and packages
 * expanded, a shard's only); EXIT_USAGE when one could not be scanned,
 * -1 when an operand is refused before any output. */
static int scan_operands(struct scan_cmd *c, const char **ops, int n, int argc, char **argv)
{
	struct inputs in;
	struct input_file f;
	struct err e = { "" };
	int status = EXIT_OK;

	if (inputs_open(&in, (char *const *)ops, (size_t)n, &c->shard, c->debug_dir, &e)) {
		say("%s", e.msg);
		inputs_close(&in);
		return -1;
	}
	begin_output(c, &in, argc, argv);
	while (inputs_next(&in, &f))
		if (scan_one(c, &f, NULL))
			status = EXIT_USAGE;
	inputs_close(&in);
	return status;
}

/* The operands of the command line, then those --files-from lists: a new
 * array in *all (NULL without --files-from); -1 after one line. */
static int listed_operands(const struct scan_cmd *c, const char ***targets, int *n,
			   const char ***all, char ***listed, size_t *nlisted)
{
	struct err e = { "" };

	*all = NULL;
	*listed = NULL;
	*nlisted = 0;
	if (!c->files_from)
		return 0;
	if (inputs_list(c->files_from, listed, nlisted, &e)) {
		complain(c->files_from, "%s", e.msg);
		return -1;
	}
	*all = xcalloc((size_t)*n + *nlisted + 1, sizeof **all);
	memcpy(*all, *targets, (size_t)*n * sizeof **all);
	memcpy(*all + *n, *listed, *nlisted * sizeof **all);
	*targets = *all;
	*n += (int)*nlisted;
	return 0;
}

static int cmd_scan(int argc, char **argv)
{
	struct scan_cmd c = { 0 };
	const char *defaults[2] = { "vdso", elf_libc_path() };
	const char **targets = (const char **)argv, **all;
	char **listed;
	size_t nlisted;
	int status, ntargets;
	bool free_targets = false;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (c.dump_vdso && dump_vdso(c.dump_vdso))
		return EXIT_USAGE;
	targets += optind;
	ntargets = argc - optind;
	if (listed_operands(&c, &targets, &ntargets, &all, &listed, &nlisted)) {
		hot_run_free(&c.hot);
		return EXIT_USAGE;
	}
	if (ntargets == 0 && c.have_hot) {
		targets = hot_run_files(&c.hot, &ntargets);
		free_targets = true;
	} else if (ntargets == 0) {
		if (c.dump_vdso)
			return EXIT_OK;
		targets = defaults;
		ntargets = defaults[1] ? 2 : 1;
	}
	status = scan_operands(&c, targets, ntargets, argc, argv);
	if (free_targets)
		free(targets);
	free(all);
	inputs_list_free(listed, nlisted);
	if (status < 0) {
		hot_run_free(&c.hot);
		return EXIT_USAGE;
	}
	if (free_targets && !c.json && !c.sarif && kernel_hot(&c))
		status = EXIT_USAGE;
	if (c.have_hot && !c.json)
		report_run_rest(stdout, &c.hot, c.hot_in_files);
	hot_run_free(&c.hot);
	if (c.json && results_scan_end(&c.doc)) {
		complain("stdout", "cannot write the JSON output");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK && c.gate_failed)
		status = EXIT_GATE;
	if (no_match(&c))
		status = EXIT_USAGE;
	if (c.sarif && sarif_write(c.sarif, stdout, status != EXIT_USAGE)) {
		complain("stdout", "cannot write the SARIF output");
		status = EXIT_USAGE;
	}
	return status;
}
