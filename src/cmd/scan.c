/* straddle scan [FILE...|vdso]: which loops and functions are placed so
 * that they straddle a fetch window, a uop-cache window or a cache line
 * (seeds 000, 002, 003). */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scan_cmd {
	struct scan_opts opts;
	const struct profile *profiles[32];
	char host_why[160];
	bool json;
	bool source_lines;
	unsigned long limit;
	unsigned fail_rules;            /* bit per enum rule */
	const char *dump_vdso;
	const char *uarch;
	struct json_stream out;
	json_t *errors;
	bool gate_failed;
};

/* ---- the text table ---- */

struct row {
	const struct func_report *func;
	const struct loop_report *loop;         /* NULL: a function entry hazard */
	const struct hazard *hazard;
};

static uint64_t row_bytes(const struct scan_result *r, const struct row *x)
{
	return x->loop ? x->loop->end - x->loop->start : r->funcs.v[x->func->func].size;
}

static uint64_t row_addr(const struct scan_result *r, const struct row *x)
{
	return x->loop ? x->loop->start : r->funcs.v[x->func->func].addr;
}

/* Worst first: severity, then smaller (tighter) loops, then address. */
static int by_worst(const void *a, const void *b, void *ctx)
{
	const struct scan_result *r = ctx;
	const struct row *x = a, *y = b;
	uint64_t bx = row_bytes(r, x), by = row_bytes(r, y);
	uint64_t ax = row_addr(r, x), ay = row_addr(r, y);

	if (x->hazard->severity != y->hazard->severity)
		return x->hazard->severity > y->hazard->severity ? -1 : 1;
	if (x->hazard->certain != y->hazard->certain)
		return x->hazard->certain ? -1 : 1;
	if (bx != by)
		return bx < by ? -1 : 1;
	if (ax != ay)
		return ax < ay ? -1 : 1;
	if (x->loop != y->loop)         /* a loop and its function's entry */
		return x->loop ? -1 : 1;
	if (x->hazard->rule != y->hazard->rule)
		return x->hazard->rule < y->hazard->rule ? -1 : 1;
	if (x->hazard->window != y->hazard->window)
		return x->hazard->window < y->hazard->window ? -1 : 1;
	return (x->hazard > y->hazard) - (x->hazard < y->hazard);
}

/* The same verdict under several profiles is one row naming them all. */
static bool same_verdict(const struct row *x, const struct row *y)
{
	const struct hazard *a = x->hazard, *b = y->hazard;

	return x->func == y->func && x->loop == y->loop && a->rule == b->rule &&
	       a->window == b->window && a->bad_placements == b->bad_placements &&
	       a->all_placements == b->all_placements && a->fix_align == b->fix_align &&
	       a->fix_pad == b->fix_pad;
}

static size_t collect_rows(const struct scan_result *r, struct row **out)
{
	struct row *v = xcalloc(r->nhazard, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t l = f->loop; l < f->loop + f->nloop; l++)
			for (uint32_t h = 0; h < r->loop[l].nhazard; h++)
				v[n++] = (struct row){ f, &r->loop[l], &r->hazard[r->loop[l].hazard + h] };
		for (uint32_t h = f->hazard; h < f->hazard + f->nhazard; h++)
			v[n++] = (struct row){ f, NULL, &r->hazard[h] };
	}
	qsort_r(v, n, sizeof *v, by_worst, (void *)r);
	*out = v;
	return n;
}

static void format_windows(const struct scan_result *r, const struct row *x, char *buf,
			   size_t n)
{
	uint64_t start = row_addr(r, x), bytes = row_bytes(r, x);
	unsigned w = x->hazard->window;

	if (x->hazard->rule == RULE_BRANCH_CROSSES || x->hazard->rule == RULE_BRANCH_ENDS)
		snprintf(buf, n, "branch %#" PRIx64, x->loop->branch);
	else
		snprintf(buf, n, "%u/%u", windows_touched(start, start + bytes, w),
			 x->hazard->rule == RULE_ENTRY_MISALIGNED ? 1 : windows_best(bytes, w));
}

static void print_hazards(struct scan_cmd *c, struct elf_image *img, const struct scan_result *r)
{
	static const char *const cols[] = { "severity", "function", "address", "source",
		">bytes", "window", "detail", "rule", "profile", "placement", "fix" };
	struct table t;
	struct row *rows;
	size_t n = collect_rows(r, &rows), shown = 0, i = 0;

	table_init(&t, 11, cols);
	t.max[1] = 48;
	while (i < n && (!c->limit || shown < c->limit)) {
		const struct row *x = &rows[i];
		const struct hazard *h = x->hazard;
		char addr[20], src[128], bytes[24], win[16], tb[40], place[32], fix[40];
		char profiles[256] = "";

		for (; i < n && same_verdict(x, &rows[i]); i++)
			snprintf(profiles + strlen(profiles), sizeof profiles - strlen(profiles),
				 "%s%s", *profiles ? "," : "", rows[i].hazard->profile->name);
		shown++;

		hex_addr(addr, row_addr(r, x));
		if (!c->source_lines || !*elf_source_line(img, row_addr(r, x), src, sizeof src))
			snprintf(src, sizeof src, "-");
		snprintf(bytes, sizeof bytes, "%" PRIu64, row_bytes(r, x));
		snprintf(win, sizeof win, "%u", h->window);
		format_windows(r, x, tb, sizeof tb);
		format_fix(h, fix, sizeof fix);
		format_placement(h, place, sizeof place);
		table_row(&t, severity_name(h->severity), r->funcs.v[x->func->func].name, addr,
			  src, bytes, win, tb, rule_name(h->rule), profiles, place, fix);
	}
	if (n)
		table_print(&t, stdout);
	if (i < n)
		printf("... and more (--limit 0 shows every row)\n");
	table_free(&t);
	free(rows);
}

static void print_all_loops(const struct scan_result *r)
{
	static const char *const cols[] = { "function", "start", "end", ">bytes", ">insns",
		">depth", "inner", "call", "entries", ">16", ">32", ">64", ">hazards" };
	struct table t;

	table_init(&t, 13, cols);
	t.max[0] = 48;
	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t k = f->loop; k < f->loop + f->nloop; k++) {
			const struct loop_report *l = &r->loop[k];
			char s[20], e[20], b[24], ni[16], d[16], w[3][16], hz[16];
			static const unsigned sizes[3] = { 16, 32, 64 };

			hex_addr(s, l->start);
			hex_addr(e, l->end);
			snprintf(b, sizeof b, "%" PRIu64, l->end - l->start);
			snprintf(ni, sizeof ni, "%u", l->ninsn);
			snprintf(d, sizeof d, "%u", l->depth);
			for (int j = 0; j < 3; j++)
				snprintf(w[j], sizeof w[j], "%u/%u",
					 windows_touched(l->start, l->end, sizes[j]),
					 windows_best(l->end - l->start, sizes[j]));
			snprintf(hz, sizeof hz, "%u", l->nhazard);
			table_row(&t, r->funcs.v[f->func].name, s, e, b, ni, d,
				  l->innermost ? "yes" : "no", l->has_call ? "yes" : "no",
				  l->irreducible ? "several" : "one", w[0], w[1], w[2], hz);
		}
	}
	if (t.nrows)
		table_print(&t, stdout);
	table_free(&t);
	for (size_t i = 0; i < r->nfunc; i++)
		for (uint32_t k = r->func[i].irr; k < r->func[i].irr + r->func[i].nirr; k++)
			printf("irreducible cycle in %s: entered at %#" PRIx64 " from %#" PRIx64 "\n",
			       r->funcs.v[r->func[i].func].name, r->irr[k].entry, r->irr[k].from);
}

static void print_text(struct scan_cmd *c, struct elf_image *img, const struct scan_result *r)
{
	size_t loops_with = 0, entries = 0;

	for (size_t i = 0; i < r->nloop; i++)
		loops_with += r->loop[i].nhazard > 0;
	for (size_t i = 0; i < r->nfunc; i++)
		entries += r->func[i].nhazard > 0;
	printf("%s: %s %s, %zu functions, %" PRIu64 " instructions, %" PRIu64 " loops; profile",
	       img->path, arch_name(img->arch), elf_type_name(img->type), r->functions_scanned,
	       r->instructions, r->loops_total);
	for (size_t i = 0; i < r->nprofile; i++)
		printf("%s %s", i ? "," : "", r->profile[i]->name);
	printf("\n");
	print_hazards(c, img, r);
	if (c->opts.keep_all)
		print_all_loops(r);
	printf("%zu hazards: %zu loops, %zu function entries\n\n", r->nhazard, loops_with, entries);
}

static void check_gate(struct scan_cmd *c, const struct scan_result *r)
{
	for (size_t i = 0; i < r->nhazard; i++)
		if (c->fail_rules & (1u << r->hazard[i].rule))
			c->gate_failed = true;
}

static int open_target(const char *arg, struct elf_image *img, struct err *e)
{
	if (strcmp(arg, "vdso") == 0)
		return elf_open_vdso(img, e);
	return elf_open_file(img, arg, e);
}

/* Scan one file; 0, or -1 after saying why on stderr. */
static int scan_one(struct scan_cmd *c, const char *arg)
{
	struct elf_image img;
	struct scan_result r;
	struct err e = { "" };

	if (open_target(arg, &img, &e) || scan_image(&img, &c->opts, &r, &e)) {
		complain(strcmp(arg, "vdso") == 0 ? "[vdso]" : arg, "%s", e.msg);
		if (c->json)
			json_array_append_new(c->errors, json_pack("{s:o, s:o}", "path", json_text(arg),
								   "error", json_text(e.msg)));
		elf_close(&img);
		return -1;
	}
	check_gate(c, &r);
	if (c->json)
		results_scan_file(&c->out, &img, &r, c->source_lines);
	else
		print_text(c, &img, &r);
	scan_result_free(&r);
	elf_close(&img);
	return 0;
}

static int dump_vdso(const char *path)
{
	struct elf_image img;
	struct err e = { "" };
	int rc = elf_open_vdso(&img, &e);

	if (rc == 0 && (rc = elf_save(&img, path, &e)) == 0 && isatty(STDERR_FILENO))
		fprintf(stderr, "straddle: saved the vDSO (%zu bytes) to %s\n", img.size, path);
	if (rc)
		complain(path, "%s", e.msg);
	elf_close(&img);
	return rc;
}

static int cmd_scan(int argc, char **argv);

#define F(field) offsetof(struct scan_cmd, field)

static const struct cmd_option scan_options[] = {
	{ .name = "uarch", .value = "NAME[,NAME]|host|all", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profiles to apply (default host; see 'straddle uarch')" },
	{ .name = "all", .kind = OPT_SET, .field = F(opts.keep_all),
	  .help = "list every loop and irreducible cycle, not only hazards" },
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.func_glob),
	  .help = "only functions whose name matches GLOB" },
	{ .name = "json", .kind = OPT_SET, .field = F(json), .help = "JSON on standard output" },
	{ .name = "jobs", .letter = 'j', .value = "N", .kind = OPT_UNSIGNED, .field = F(opts.jobs),
	  .min = 1, .max = 256, .help = "threads (default: online CPUs)" },
	{ .name = "limit", .value = "N", .kind = OPT_ULONG, .field = F(limit), .max = LONG_MAX,
	  .help = "at most N hazard rows per file in the table (default 40, 0: all)" },
	{ .name = "fail-on", .value = "RULE,..", .kind = OPT_RULES, .field = F(fail_rules),
	  .help = "exit 1 if a hazard of these rules is found ('any' for all):\n"
		  "loop-straddles-window, branch-crosses-window,\n"
		  "branch-ends-window, entry-misaligned" },
	{ .name = "no-source", .kind = OPT_CLEAR, .field = F(source_lines),
	  .help = "do not look up source lines (DWARF)" },
	{ .name = "dump-vdso", .value = "FILE", .kind = OPT_STRING, .field = F(dump_vdso),
	  .help = "save the running vDSO image to FILE" },
	{ 0 }
};

const struct command scan_command = {
	.name = "scan",
	.run = cmd_scan,
	.summary = "find loops and functions whose placement is a hazard",
	.args = "[OPTIONS] [FILE...|vdso]",
	.about = "Find loops and functions whose placement is a code-layout hazard: a loop\n"
		 "that straddles more fetch windows, uop-cache windows or cache lines than it\n"
		 "needs, a back-edge branch that crosses or ends on a window where the CPU's\n"
		 "rule says so, a small function whose entry makes it span two lines. Each\n"
		 "hazard comes with its fix: the .p2align that removes it and its padding.\n"
		 "\n"
		 "With no FILE: this process's vDSO and C library. 'vdso' reads the running\n"
		 "vDSO from memory. Addresses are the ELF's own virtual addresses.\n",
	.options = scan_options,
	.notes = "Exit status: 0 done (hazards or not), 1 --fail-on matched, 2 bad usage or a file\n"
		 "that could not be scanned (the other files are still scanned).\n",
};

static int parse_options(struct scan_cmd *c, int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	c->opts.jobs = cpus > 0 ? (unsigned)(cpus < 16 ? cpus : 16) : 1;
	c->limit = 40;
	c->source_lines = true;
	c->uarch = "host";
	if (parse_command_line(&scan_command, c, argc, argv))
		return -1;
	if (select_profiles(c->uarch, c->profiles, 32, &c->opts.nprofiles, c->host_why,
			    sizeof c->host_why))
		return -1;
	c->opts.profiles = c->profiles;
	return 0;
}

static int cmd_scan(int argc, char **argv)
{
	struct scan_cmd c = { 0 };
	const char *defaults[2] = { "vdso", elf_libc_path() };
	const char **targets = (const char **)argv;
	int status = EXIT_OK, ntargets;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (c.dump_vdso && dump_vdso(c.dump_vdso))
		return EXIT_USAGE;
	targets += optind;
	ntargets = argc - optind;
	if (ntargets == 0) {
		if (c.dump_vdso)
			return EXIT_OK;
		targets = defaults;
		ntargets = defaults[1] ? 2 : 1;
	}
	if (c.host_why[0] && !c.json)
		printf("%s\n", c.host_why);
	if (c.json) {
		json_t *head = results_new("scan"), *names = json_array();

		for (size_t i = 0; i < c.opts.nprofiles; i++)
			json_array_append_new(names, json_string(c.profiles[i]->name));
		json_object_set_new(head, "profiles", names);
		if (c.host_why[0])
			json_object_set_new(head, "host", json_string(c.host_why));
		c.errors = json_array();
		/* tens of megabytes: write them in large blocks */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		jstream_begin(&c.out, stdout, head);
		jstream_open(&c.out, "files", '[');
	}
	for (int i = 0; i < ntargets; i++)
		if (scan_one(&c, targets[i]))
			status = EXIT_USAGE;
	if (c.json) {
		jstream_close(&c.out);
		jstream_put(&c.out, "errors", c.errors);
		if (jstream_end(&c.out)) {
			complain("stdout", "cannot write the JSON output");
			status = EXIT_USAGE;
		}
	}
	if (status == EXIT_OK && c.gate_failed)
		status = EXIT_GATE;
	return status;
}
