/* straddle scan [FILE...|vdso]: which loops and functions are placed so
 * that they straddle a fetch window, a uop-cache window or a cache line
 * (seeds 000, 002, 003). */
#include "cmd.h"
#include "../report/report.h"
#include "../results/scan.h"
#include "../results/sarif.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scan_cmd {
	struct scan_opts opts;
	struct profiles_arg uarch;
	/* the format, the rows (--all: list_all; opts.keep_all is also set
	 * by --hot), the documents: report/scan_out.c */
	struct scan_out out;
	unsigned fail_rules;            /* bit per enum rule */
	bool fail_uncertain;            /* ... also in loops whose span is uncertain */
	const char *dump_vdso;
	bool gate_failed;
	bool fail_spin;                 /* --fail-on counts spin loops' hazards too */
	/* --hot: samples of a record (or --perf-script text) rank the rows */
	const char *hot_path, *perf_script, *vmlinux;
	struct hot_run hot;
	size_t matched;                 /* functions --func/--section selected, all files */
	uint64_t hot_in_files;          /* --hot: samples of the (user space) files scanned */
	const char *debug_dir;          /* --debug-dir: separate debug files by build-id */
	const char *files_from;         /* --files-from: more operands, one a line */
	struct shard shard;             /* --shard K/N; count 0: none */
	struct shard_info shard_info;   /* then what the shard took */
};

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
	scan_out_failed(&c->out, f->name, f->operand, msg);
	return -1;
}

/* Scan one file of the run (kernel: the kernel's samples rebased onto
 * it, else NULL); 0, or -1 after saying why on stderr. */
static int scan_one(struct scan_cmd *c, const struct input_file *f, const struct hot_file *kernel)
{
	struct elf_image *img = f->img;
	struct scan_result r;
	struct err e = { "" };
	int rc = 0, changed;

	if (f->error)
		return scan_failed(c, f, f->error);
	if (scan_image(img, &c->opts, &r, &e))
		return scan_failed(c, f, elf_changed(img) ? "changed while reading" : e.msg);
	note_back_end(f->name, &r);
	if (c->out.have_hot)
		attribute(c, img, &r, kernel);
	if ((changed = scan_out_file(&c->out, img, &r, f->operand)) < 0) {
		complain("stdout", "out of memory");
		exit(EXIT_USAGE);
	}
	if (!changed) {
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
	c->out.json = !strcmp(value, "json");
	if (!strcmp(value, "sarif"))
		c->out.sarif_asked = true;      /* the log is made once the inputs are known */
	return 0;
}

#define F(field) offsetof(struct scan_cmd, field)

static const struct cmd_option scan_options[] = {
	OPT_UARCH_MANY(F, uarch, MODEL_MAX_PROFILES, "the profiles to apply"),
	{ .name = "all", .kind = OPT_SET, .field = F(out.list_all),
	  .help = "list every loop and irreducible cycle, not only hazards" },
	OPT_FUNC(F, opts.func_glob),
	{ .name = "section", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.section_glob),
	  .help = "only functions in sections whose name matches GLOB" },
	OPT_JSON(F, out.json, ""),
	{ .name = "format", .value = "text|json|sarif", .kind = OPT_CALL, .call = set_format,
	  .help = "sarif: SARIF 2.1.0 for code scanning, one result\n"
		  "per row (every row: no --limit)" },
	OPT_SOURCE_ROOT(F, out.source_root),
	OPT_JOBS(F, opts.jobs),
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(out.limit), .max = LONG_MAX,
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
	OPT_NO_SOURCE(F, out.source_lines),
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
	OPT_MIN_SHARE(F, out.min_share),
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
	c->out.limit = 40;
	c->out.source_lines = true;
	c->opts.cost = true;
	if (parse_command_line(&scan_command, c, argc, argv))
		return -1;
	c->opts.profiles = c->uarch.v;
	c->opts.nprofiles = c->uarch.n;
	c->out.argc = argc, c->out.argv = argv;
	c->out.profiles = c->uarch.v;
	c->out.nprofiles = c->uarch.n;
	c->out.uarch_why = c->uarch.why;
	if (c->out.sarif_asked) {
		c->out.json = false;
		c->opts.shapes = true;  /* an fde@ function's fingerprint is its shape */
	}
	if (hot_load(c->hot_path, c->perf_script, &c->hot))
		return -1;
	c->out.have_hot = c->hot_path || c->perf_script;
	/* --hot's summary judges every hot loop, hazard or not */
	c->opts.keep_all = c->out.list_all || c->out.have_hot;
	return 0;
}

/* The kernel's samples in the loops of its image at vmlinux, else by
 * symbol (1). */
static int kernel_through_image(struct scan_cmd *c, const char *vmlinux)
{
	struct hot_file kf;
	struct elf_image img;
	struct err e = { "" };
	enum hot_kernel_fit fit;
	char id[129];
	int rc = -1;

	if (elf_open_file(&img, vmlinux, &e))
		complain(vmlinux, "%s", e.msg);
	else if ((fit = hot_kernel_in_image(&c->hot, &img, vmlinux, id, &kf)) != HOT_KERNEL_FITS)
		report_kernel_unplaced(stdout, &c->hot, fit, vmlinux, id), rc = 1;
	else {
		img.debug_dir = c->debug_dir;
		rc = scan_one(c, &(struct input_file){ .name = vmlinux, .img = &img }, &kf);
		free(kf.addrs.v);
	}
	elf_close(&img);
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
	if (vmlinux && (rc = kernel_through_image(c, vmlinux)) <= 0)
		return rc;
	if (!vmlinux)
		report_kernel_unplaced(stdout, h, HOT_KERNEL_NO_IMAGE, path, "");
	report_kernel_symbols(stdout, &c->hot, c->out.min_share);
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

/* Every file of the operands (inputs.h: directories and packages
 * expanded, a shard's only); EXIT_USAGE when one could not be scanned,
 * -1 when an operand is refused before any output. */
static int scan_operands(struct scan_cmd *c, const char **ops, int n)
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
	c->shard_info = (struct shard_info){ c->shard, in.units, in.units_total };
	scan_out_begin(&c->out, c->shard.count ? &c->shard_info : NULL);
	while (inputs_next(&in, &f))
		if (scan_one(c, &f, NULL))
			status = EXIT_USAGE;
	inputs_close(&in);
	return status;
}

/* The operands of the command line, then those --files-from lists: in
 * *listed, copies, and *targets; -1 after one line. */
static int listed_operands(const struct scan_cmd *c, const char ***targets, int *n,
			   char ***listed, size_t *nlisted)
{
	struct err e = { "" };

	if (!c->files_from)
		return 0;
	if (inputs_list(c->files_from, *targets, (size_t)*n, listed, nlisted, &e)) {
		complain(c->files_from, "%s", e.msg);
		return -1;
	}
	*targets = (const char **)*listed;
	*n = (int)*nlisted;
	return 0;
}

static int cmd_scan(int argc, char **argv)
{
	struct scan_cmd c = { 0 };
	const char *defaults[2] = { "vdso", elf_libc_path() };
	const char **targets = (const char **)argv;
	char **listed = NULL;
	size_t nlisted = 0;
	int status, ntargets;
	bool free_targets = false;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (c.dump_vdso && dump_vdso(c.dump_vdso))
		return EXIT_USAGE;
	targets += optind;
	ntargets = argc - optind;
	if (listed_operands(&c, &targets, &ntargets, &listed, &nlisted)) {
		hot_run_free(&c.hot);
		return EXIT_USAGE;
	}
	if (ntargets == 0 && c.out.have_hot) {
		targets = hot_run_files(&c.hot, &ntargets);
		free_targets = true;
	} else if (ntargets == 0) {
		if (c.dump_vdso)
			return EXIT_OK;
		targets = defaults;
		ntargets = defaults[1] ? 2 : 1;
	}
	status = scan_operands(&c, targets, ntargets);
	if (free_targets)
		free(targets);
	inputs_list_free(listed, nlisted);
	if (status < 0) {
		hot_run_free(&c.hot);
		return EXIT_USAGE;
	}
	if (free_targets && !c.out.json && !c.out.sarif && kernel_hot(&c))
		status = EXIT_USAGE;
	if (c.out.have_hot && !c.out.json)
		report_run_rest(stdout, &c.hot, c.hot_in_files);
	hot_run_free(&c.hot);
	if (c.out.json && results_scan_end(&c.out.doc)) {
		complain("stdout", "cannot write the JSON output");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK && c.gate_failed)
		status = EXIT_GATE;
	if (no_match(&c))
		status = EXIT_USAGE;
	if (c.out.sarif && sarif_write(c.out.sarif, stdout, status != EXIT_USAGE)) {
		complain("stdout", "cannot write the SARIF output");
		status = EXIT_USAGE;
	}
	return status;
}
