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
	bool list_all;                  /* --all (opts.keep_all is also set by --hot) */
	const struct profile *profiles[32];
	char host_why[HOST_WHY_MAX];
	bool json;
	json_t *sarif;                  /* --format sarif: the log, written at the end */
	const char *source_root;
	bool source_lines;
	unsigned long limit;
	unsigned fail_rules;            /* bit per enum rule */
	bool fail_uncertain;            /* ... also in loops whose span is uncertain */
	const char *dump_vdso;
	const char *uarch;
	struct json_stream out;
	json_t *errors;
	bool gate_failed;
	bool fail_spin;                 /* --fail-on counts spin loops' hazards too */
	/* --hot: samples of a record (or --perf-script text) rank the rows */
	const char *hot_path, *perf_script, *vmlinux;
	struct hot_run hot;
	bool have_hot;
	double min_share;
	const struct hot_file *kernel_file;     /* kernel samples as the image's addresses */
	size_t matched;                 /* functions --func/--section selected, all files */
	uint64_t hot_in_files;          /* --hot: samples of the (user space) files scanned */
};

/* ---- the text table ---- */

/* A row: one subject's hazards of one rule over every profile and window
 * (issue 24: --uarch all gave one loop ten rows, "30 hazards" for 3). */
struct row {
	const struct func_report *func;
	const struct loop_report *loop;         /* NULL: a function entry hazard */
	const struct hazard *hazard;            /* the one that leads it (worst_hazard) */
};

/* The hazards of a row's subject, all rules. */
static const struct hazard *subject_hazards(const struct scan_result *r, const struct row *x,
					    uint32_t *n)
{
	*n = x->loop ? x->loop->nhazard : x->func->nhazard;
	return &r->hazard[x->loop ? x->loop->hazard : x->func->hazard];
}

/* The hazards of the row, in out[] (room for its subject's): how many. */
static size_t row_hazards(const struct scan_result *r, const struct row *x,
			  const struct hazard **out)
{
	uint32_t n;
	const struct hazard *h = subject_hazards(r, x, &n);
	size_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		if (h[i].rule == x->hazard->rule)
			out[k++] = &h[i];
	return k;
}

static uint64_t row_bytes(const struct scan_result *r, const struct row *x)
{
	return x->loop ? x->loop->bytes : r->funcs.v[x->func->func].size;
}

static uint64_t row_addr(const struct scan_result *r, const struct row *x)
{
	return x->loop ? x->loop->start : r->funcs.v[x->func->func].addr;
}

static bool row_spins(const struct row *x)
{
	return x->loop && x->loop->spin;
}

/* Worst first: hot text before init/exit/unlikely/cold text (which runs
 * once or rarely, issue 8: 767 .init.text loops ranked like hot code),
 * every other row before a spin loop's (a wait: its iterations are not
 * work, issue 21), then severity, then smaller (tighter) loops, then
 * address. */
static int by_worst(const void *a, const void *b, void *ctx)
{
	const struct scan_result *r = ctx;
	const struct row *x = a, *y = b;
	uint64_t bx = row_bytes(r, x), by = row_bytes(r, y);
	uint64_t ax = row_addr(r, x), ay = row_addr(r, y);

	if (x->func->cold_text != y->func->cold_text)
		return x->func->cold_text ? 1 : -1;
	if (row_spins(x) != row_spins(y))
		return row_spins(x) ? 1 : -1;
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

static uint64_t row_samples(const struct row *x)
{
	return x->loop ? x->loop->samples : x->func->samples;
}

/* What aligning would save of the run: a priced straddle its share of
 * what it costs; a rule the model does not price ranks by its whole
 * share (at most what it could save), so it is never buried. */
static double row_key(const struct scan_result *r, const struct row *x)
{
	return hazard_saves(x->hazard, hot_share(r, row_samples(x)));
}

/* With samples: the most saved first, then worst first (hot_order). */
static int by_hot(const void *a, const void *b, void *ctx)
{
	const struct scan_result *r = ctx;
	const struct row *x = a, *y = b;
	int o = row_spins(x) != row_spins(y) ? (row_spins(x) ? 1 : -1) :
		hot_order(row_key(r, x), x->hazard->severity, row_key(r, y), y->hazard->severity);

	return o ? o : by_worst(a, b, ctx);
}

/* The rows of one subject (a loop, or a function's entry when l is
 * NULL) appended to v[*n...): one per rule its hazards break. */
static void subject_rows(const struct func_report *f, const struct loop_report *l,
			 const struct hazard *h, uint32_t nh, struct row *v, size_t *n)
{
	size_t first = *n;

	for (uint32_t i = 0; i < nh; i++) {
		size_t k = first;

		while (k < *n && v[k].hazard->rule != h[i].rule)
			k++;
		if (k == *n)
			v[(*n)++] = (struct row){ f, l, &h[i] };
		else
			v[k].hazard = worst_hazard((const struct hazard *[]){ v[k].hazard, &h[i] }, 2);
	}
}

static size_t collect_rows(const struct scan_result *r, struct row **out)
{
	struct row *v = xcalloc(r->nhazard + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t l = f->loop; l < f->loop + f->nloop; l++)
			subject_rows(f, &r->loop[l], &r->hazard[r->loop[l].hazard], r->loop[l].nhazard,
				     v, &n);
		subject_rows(f, NULL, &r->hazard[f->hazard], f->nhazard, v, &n);
	}
	*out = v;
	return n;
}

static void swap_rows(struct row *a, struct row *b)
{
	struct row t = *a;

	*a = *b;
	*b = t;
}

/* h[0..n) as a heap whose root is the least bad row (by_worst). */
static void sift_down(struct row *h, size_t n, size_t i, const struct scan_result *r)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < n && by_worst(&h[l], &h[m], (void *)r) > 0)
			m = l;
		if (l + 1 < n && by_worst(&h[l + 1], &h[m], (void *)r) > 0)
			m = l + 1;
		if (m == i)
			return;
		swap_rows(&h[i], &h[m]);
		i = m;
	}
}

/* The k worst rows of v[0..n) to its front, sorted: by_worst is a total
 * order, so they are the first k of the whole sort, in its order. */
static void select_worst(struct row *v, size_t n, size_t k, const struct scan_result *r)
{
	for (size_t i = k / 2; i-- > 0;)
		sift_down(v, k, i, r);
	for (size_t i = k; i < n; i++)
		if (by_worst(&v[i], &v[0], (void *)r) < 0) {
			swap_rows(&v[0], &v[i]);
			sift_down(v, k, 0, r);
		}
	qsort_r(v, k, sizeof *v, by_worst, (void *)r);
}

/* Sort the rows; returns how many leading ones the table reads. Without
 * samples a table of --limit rows needs only the worst few: selecting
 * them, not sorting all (52,083 rows for libLLVM-14 to show 40), took the
 * sort off a scan's profile (issue 8); limit + 1 rows hold the limit's
 * rows and the one that makes "... and more". */
static size_t sort_rows(const struct scan_cmd *c, const struct scan_result *r, struct row *v,
			size_t n)
{
	size_t k = c->limit && c->limit < n ? c->limit + 1 : n;

	if (!r->hot && k < n) {
		select_worst(v, n, k, r);
		return k;
	}
	qsort_r(v, n, sizeof *v, r->hot ? by_hot : by_worst, (void *)r);
	return n;
}

/* " in 2 pieces: 0x8ff70/5 0x8ff80/7" after what buf holds: the runs
 * every iteration fetches, each with its bytes (issue 21). */
static void format_pieces(const struct scan_result *r, const struct loop_report *l, char *buf,
			  size_t n)
{
	size_t k = strlen(buf);

	k += (size_t)snprintf(buf + k, k < n ? n - k : 0, " in %u pieces:", l->npiece);
	for (uint32_t i = l->piece; i < l->piece + l->npiece && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, " %#" PRIx64 "/%" PRIu64, r->piece[i].start,
				      r->piece[i].end - r->piece[i].start);
}

/* The branch at fault, else windows touched/best for each of the row's
 * windows in the order of its window column (issue 24). */
static void format_windows(const struct scan_result *r, const struct row *x,
			   const struct hazard *const *hs, size_t nh, char *buf, size_t n)
{
	uint64_t start = row_addr(r, x), bytes = row_bytes(r, x);
	const struct hazard *h = x->hazard;
	unsigned w[16];
	size_t nw = hazard_windows(hs, nh, w);
	int k = 0;

	buf[0] = 0;
	if (h->branch && h->pair != h->branch)
		snprintf(buf, n, "%s %#" PRIx64 " pair %#" PRIx64,
			 branch_kind_name(h->branch_kind), h->branch, h->pair);
	else if (h->branch)
		snprintf(buf, n, "%s %#" PRIx64, branch_kind_name(h->branch_kind), h->branch);
	else
		for (size_t i = 0; i < nw && k >= 0 && (size_t)k < n; i++)
			k += snprintf(buf + k, n - (size_t)k, "%s%u/%u", i ? "," : "",
				      x->loop ? loop_touched(r, x->loop, w[i]) :
						windows_touched(start, start + bytes, w[i]),
				      x->loop ? windows_best(bytes, w[i]) : 1);
	if (x->loop && x->loop->npiece > 1)
		format_pieces(r, x->loop, buf, n);
	if (row_spins(x))
		snprintf(buf + strlen(buf), n - strlen(buf), ", spin");
}

/* "; GCC: -falign-loops=16 for the unit" after the directive. */
static void append_compiler_fix(struct elf_image *img, const struct scan_result *r,
				const struct row *x, unsigned align, char *fix, size_t n)
{
	char cfix[256];
	size_t len = strlen(fix);

	compiler_fix(img, r->funcs.v[x->func->func].sec, row_addr(r, x), align, x->loop != NULL,
		     x->hazard, cfix, sizeof cfix);
	if (*cfix)
		snprintf(fix + len, n - len, "; %s", cfix);
}

/* "0.5%" */
static void format_share(double share, char *buf, size_t n)
{
	snprintf(buf, n, "%.1f", 100 * share);
}

/* The table; returns how many rows there are (shown, folded or not). */
static size_t print_hazards(struct scan_cmd *c, struct elf_image *img,
			    const struct scan_result *r, FILE *out)
{
	static const char *const cols[] = { ">samples %", ">saves %", "severity", "function",
		"section", "address", "source", ">bytes", "window", "detail", "rule", "profile",
		"placement", "cost", "fix" };
	const size_t first = r->hot ? 0 : 2;   /* the samples columns only with --hot */
	struct strbuf profiles = { 0 };
	struct table t;
	struct row *rows;
	const struct hazard **h = xcalloc(r->nhazard + 1, sizeof *h);
	size_t total = collect_rows(r, &rows), shown = 0, folded = 0, more = 0;
	size_t n = sort_rows(c, r, rows, total);
	table_init(&t, 15 - first, cols + first);
	t.max[3 - first] = 48;
	for (size_t i = 0; i < n; i++) {
		const struct row *x = &rows[i];
		const struct hazard *lead = x->hazard;
		size_t nh = row_hazards(r, x, h);
		const struct hazard *priced = costliest_hazard(h, nh);
		char addr[20], src[128], bytes[24], win[48], tb[192], place[48], fix[512], pct[16];
		char cost[16], saves[16];
		const char *cells[15];

		if (r->hot && hot_share(r, row_samples(x)) < c->min_share) {
			folded++;
			continue;
		}
		if (c->limit && shown >= c->limit) {
			more++;
			continue;
		}
		shown++;
		sb_reset(&profiles);
		format_profiles(h, nh, &profiles);
		hex_addr(addr, row_addr(r, x));
		if (!c->source_lines || !*elf_source_line(img, r->funcs.v[x->func->func].sec,
							  row_addr(r, x), src, sizeof src))
			snprintf(src, sizeof src, "-");
		snprintf(bytes, sizeof bytes, "%" PRIu64, row_bytes(r, x));
		format_window_list(h, nh, win, sizeof win);
		format_windows(r, x, h, nh, tb, sizeof tb);
		format_fix_all(h, nh, fix, sizeof fix);
		append_compiler_fix(img, r, x, fix_align_all(h, nh), fix, sizeof fix);
		format_loop_placement(lead, x->loop && x->loop->span_uncertain, place, sizeof place);
		format_cost(priced, cost, sizeof cost);
		format_share(hot_share(r, row_samples(x)), pct, sizeof pct);
		if (priced->slowdown > 0)
			format_share(hazard_saves(priced, hot_share(r, row_samples(x))), saves, sizeof saves);
		else
			snprintf(saves, sizeof saves, "-");
		const char *all[15] = { pct, saves, severity_name(lead->severity),
					r->funcs.v[x->func->func].name, lead->section ? lead->section : "-",
					addr, src, bytes, win, tb, rule_name(lead->rule), sb_str(&profiles),
					place, cost, fix };

		memcpy(cells, all + first, (15 - first) * sizeof *cells);
		table_row_v(&t, cells);
	}
	if (t.nrows)
		table_print(&t, out);
	if (more)
		fprintf(out, "... and more (--limit 0 shows every row)\n");
	if (folded)
		fprintf(out, "%zu more hazards in code with less than %g%% of samples\n", folded,
		       100 * c->min_share);
	table_free(&t);
	sb_free(&profiles);
	free(rows);
	free(h);
	return total;
}

static void print_all_loops(const struct scan_result *r, FILE *out)
{
	static const char *const cols[] = { "function", "start", "end", ">bytes", ">pieces",
		">insns", ">depth", "inner", "call", "entries", ">16", ">32", ">64", ">hazards" };
	struct table t;

	table_init(&t, 14, cols);
	t.max[0] = 48;
	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t k = f->loop; k < f->loop + f->nloop; k++) {
			const struct loop_report *l = &r->loop[k];
			char s[20], e[20], b[24], np[16], ni[16], d[16], w[MODEL_NWINDOWS][16], hz[32];

			hex_addr(s, l->start);
			hex_addr(e, l->end);
			snprintf(b, sizeof b, "%" PRIu64, l->bytes);
			snprintf(np, sizeof np, "%u", l->npiece);
			snprintf(ni, sizeof ni, "%u", l->ninsn);
			snprintf(d, sizeof d, "%u", l->depth);
			for (size_t j = 0; j < MODEL_NWINDOWS; j++)
				snprintf(w[j], sizeof w[j], "%u/%u",
					 loop_touched(r, l, model_windows[j]),
					 windows_best(l->bytes, model_windows[j]));
			/* why a loop that straddles may have no hazard */
			snprintf(hz, sizeof hz, "%u%s", l->nhazard,
				 l->spin ? " (spin)" :
				 l->back_end_bound ? " (back end)" :
				 l->in_loop_buffer ? " (loop buffer)" : "");
			table_row(&t, r->funcs.v[f->func].name, s, e, b, np, ni, d,
				  l->innermost ? "yes" : "no", l->has_call ? "yes" : "no",
				  l->irreducible ? "several" : "one", w[0], w[1], w[2], hz);
		}
	}
	if (t.nrows)
		table_print(&t, out);
	table_free(&t);
	for (size_t i = 0; i < r->nfunc; i++)
		for (uint32_t k = r->func[i].irr; k < r->func[i].irr + r->func[i].nirr; k++)
			fprintf(out, "irreducible cycle in %s: entered at %#" PRIx64 " from %#" PRIx64 "\n",
			       r->funcs.v[r->func[i].func].name, r->irr[k].entry, r->irr[k].from);
	/* where a dispatch could not be read, a cycle through it is unseen */
	for (size_t i = 0; i < r->nfunc; i++)
		if (r->func[i].unresolved)
			fprintf(out, "indirect jumps unresolved in %s: %u\n",
				r->funcs.v[r->func[i].func].name, r->func[i].unresolved);
}

/* Why a hot loop is fine, costs, or cannot be judged. */
static void judge_loop(const struct scan_result *r, const struct func_report *f,
		       const struct loop_report *l, char *buf, size_t n)
{
	if (l->span_uncertain)
		snprintf(buf, n, "cannot be judged: span uncertain (%u indirect jump%s unresolved in "
			 "its function)", f->unresolved, f->unresolved == 1 ? "" : "s");
	else if (l->nhazard && l->cost.slowdown > 1)
		snprintf(buf, n, "hazard: %.2fx predicted, aligning saves ~%.1f%% of this run",
			 l->cost.slowdown, 100 * hot_saves(r, l));
	else if (l->nhazard)
		snprintf(buf, n, "hazard: %s (not priced)",
			 rule_name(r->hazard[l->hazard].rule));
	else if (l->cost.bound == COST_AT_BEST || !l->cost.slowdown)
		snprintf(buf, n, "fine: at its best placement");
	else
		snprintf(buf, n, "fine: it straddles, but is %s-bound", cost_bound_name(l->cost.bound));
}

static int by_self_samples(const void *a, const void *b, void *ctx)
{
	const uint64_t *self = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return self[x] != self[y] ? (self[x] > self[y] ? -1 : 1) : (x > y) - (x < y);
}

/* scan --hot: where every sample of the file went. Each hot loop (its own
 * samples, nested loops apart) is fine, a hazard with its cost, or cannot
 * be judged; the time in no loop is straight-line code, or cannot be
 * judged where its function has an unresolved indirect jump (a loop
 * through it is invisible). The lines add up to the file's samples. */
static void print_hot_summary(const struct scan_cmd *c, const struct scan_result *r, FILE *out)
{
	uint64_t *self = xcalloc(r->nloop + 1, sizeof *self), *outside = xcalloc(r->nfunc + 1, sizeof *outside);
	size_t *order = xcalloc(r->nloop + 1, sizeof *order), *owner = xcalloc(r->nloop + 1, sizeof *owner);
	uint64_t small = 0, straight = 0, unseen = 0, in_funcs = 0;
	double file = hot_share(r, r->file_samples);

	hot_loop_self(r, self, outside);
	for (size_t f = 0; f < r->nfunc; f++) {
		for (uint32_t i = r->func[f].loop; i < r->func[f].loop + r->func[f].nloop; i++)
			owner[i] = f;
		in_funcs += r->func[f].samples;
		if (r->func[f].unresolved)
			unseen += outside[f];
		else
			straight += outside[f];
	}
	for (size_t i = 0; i < r->nloop; i++)
		order[i] = i;
	qsort_r(order, r->nloop, sizeof *order, by_self_samples, self);
	fprintf(out, "where this file's %.1f%% of the run went:\n", 100 * file);
	for (size_t k = 0; k < r->nloop && self[order[k]]; k++) {
		const struct loop_report *l = &r->loop[order[k]];
		const struct func_report *f = &r->func[owner[order[k]]];
		char why[160];

		if (hot_share(r, self[order[k]]) < c->min_share) {
			small += self[order[k]];
			continue;
		}
		judge_loop(r, f, l, why, sizeof why);
		fprintf(out, "  %5.1f%%  loop %#" PRIx64 " in %s (%" PRIu64 " B): %s\n",
			100 * hot_share(r, self[order[k]]), l->start, r->funcs.v[f->func].name,
			l->bytes, why);
	}
	if (small)
		fprintf(out, "  %5.1f%%  in loops of less than %g%% each\n", 100 * hot_share(r, small),
			100 * c->min_share);
	if (unseen)
		fprintf(out, "  %5.1f%%  cannot be judged: in no loop found, in functions with unresolved "
			"indirect jumps (a loop through them cannot be seen)\n", 100 * hot_share(r, unseen));
	if (straight)
		fprintf(out, "  %5.1f%%  in no loop (straight-line code)\n", 100 * hot_share(r, straight));
	if (r->file_samples > in_funcs)
		fprintf(out, "  %5.1f%%  in no function scanned\n",
			100 * hot_share(r, r->file_samples - in_funcs));
	free(self);
	free(outside);
	free(order);
	free(owner);
}

static void print_text(struct scan_cmd *c, struct elf_image *img, const struct scan_result *r,
		       FILE *out)
{
	size_t loops_with = 0, entries = 0;

	for (size_t i = 0; i < r->nloop; i++)
		loops_with += r->loop[i].nhazard > 0;
	for (size_t i = 0; i < r->nfunc; i++)
		entries += r->func[i].nhazard > 0;
	fprintf(out, "%s: %s %s, %zu functions, %" PRIu64 " instructions, %" PRIu64 " loops",
	       img->path, arch_name(img->arch), elf_type_name(img->type), r->functions_scanned,
	       r->instructions, r->loops_total);
	if (c->list_all && img->arch == ARCH_AARCH64)
		fprintf(out, ", %" PRIu64 " undecoded words", r->undecoded);
	if (c->list_all)
		fprintf(out, ", %" PRIu64 " jump tables, %" PRIu64 " indirect jumps unresolved",
			r->jump_tables, r->unresolved);
	fprintf(out, "; profile");
	for (size_t i = 0; i < r->nprofile; i++)
		fprintf(out, "%s %s", i ? "," : "", r->profile[i]->name);
	/* what priced the back end, when anything did */
	for (size_t i = 0, said = 0; i < r->nprofile; i++)
		if (strcmp(r->back_end[i], "none") != 0 && r->back_end[i][0])
			fprintf(out, "%s %s: %s", said++ ? "," : "; back end", r->profile[i]->name,
				r->back_end[i]);
	if (r->hot)
		fprintf(out, "; %" PRIu64 " of %" PRIu64 " samples (%.1f%%)", r->file_samples,
		       r->run_samples, 100 * hot_share(r, r->file_samples));
	fprintf(out, "\n");
	size_t rows = print_hazards(c, img, r, out);

	if (c->list_all)
		print_all_loops(r, out);
	if (r->hot)
		print_hot_summary(c, r, out);
	/* rows, not hazards: a loop under ten profiles is one hazard to fix */
	fprintf(out, "%zu hazards: %zu loops, %zu function entries\n\n", rows, loops_with, entries);
}

/* Every row of a file (no --limit: an alert list is whole) into the log. */
static void add_sarif(struct scan_cmd *c, struct elf_image *img, const struct scan_result *r)
{
	struct row *rows;
	const struct hazard **h = xcalloc(r->nhazard + 1, sizeof *h);
	size_t n = collect_rows(r, &rows);
	struct sarif_ordinals ord;

	sarif_ordinals(r, &ord);
	qsort_r(rows, n, sizeof *rows, r->hot ? by_hot : by_worst, (void *)r);
	for (size_t i = 0; i < n; i++) {
		if (r->hot && hot_share(r, row_samples(&rows[i])) < c->min_share)
			continue;
		sarif_add_row(c->sarif, &(struct sarif_row){ .img = img, .r = r,
			.func = rows[i].func, .loop = rows[i].loop, .h = h,
			.n = row_hazards(r, &rows[i], h), .source_root = c->source_root,
			.lines = c->source_lines, .ord = &ord });
	}
	sarif_ordinals_free(&ord);
	free(h);
	free(rows);
}

static json_t *sarif_results(json_t *log)
{
	return json_object_get(json_array_get(json_object_get(log, "runs"), 0), "results");
}

static void gate_hazards(struct scan_cmd *c, const struct hazard *h, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (c->fail_rules & (1u << h[i].rule))
			c->gate_failed = true;
}

/* A spin loop's hazards gate only when --fail-on-spin asks (issue 21);
 * one in a loop whose span is uncertain only with --fail-on-uncertain
 * (issue 26): its bytes may not be the loop's. */
static void check_gate(struct scan_cmd *c, const struct scan_result *r)
{
	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t k = f->loop; k < f->loop + f->nloop; k++)
			if ((!r->loop[k].spin || c->fail_spin) &&
			    (!r->loop[k].span_uncertain || c->fail_uncertain))
				gate_hazards(c, r->loop[k].nhazard ? r->hazard + r->loop[k].hazard : NULL,
					     r->loop[k].nhazard);
		gate_hazards(c, f->nhazard ? r->hazard + f->hazard : NULL, f->nhazard);
	}
}

static int open_target(const char *arg, struct elf_image *img, struct err *e)
{
	if (strcmp(arg, "vdso") == 0)
		return elf_open_vdso(img, e);
	return elf_open_file(img, arg, e);
}

static void attribute(struct scan_cmd *c, struct elf_image *img, struct scan_result *r)
{
	if (c->kernel_file)
		hot_attribute(r, c->kernel_file, c->hot.total);
	else
		hot_attribute_image(&c->hot, img, r);
}

static int scan_failed(struct scan_cmd *c, const char *arg, const char *msg)
{
	complain(strcmp(arg, "vdso") == 0 ? "[vdso]" : arg, "%s", msg);
	if (c->json)
		json_array_append_new(c->errors, json_pack("{s:o, s:o}", "path", json_text(arg),
							   "error", json_text(msg)));
	if (c->sarif)
		sarif_notify(c->sarif, arg, msg);
	return -1;
}

/* A file's output is made in memory and goes out only if the file did not
 * change while it was read, through the printing (names and source lines
 * are read from the image): a file changed mid-scan has no partial rows. */
static bool print_unless_changed(struct scan_cmd *c, struct elf_image *img,
				 const struct scan_result *r)
{
	struct json_stream saved = c->out;
	struct strbuf buf = { 0 };
	FILE *mem = sb_stream(&buf);
	size_t nsarif = c->sarif ? json_array_size(sarif_results(c->sarif)) : 0;
	bool changed;

	if (!mem) {
		complain("stdout", "out of memory");
		exit(EXIT_USAGE);
	}
	if (c->json) {
		c->out.f = mem;
		results_scan_file(&c->out, img, r, c->source_lines);
		c->out.f = saved.f;
	} else if (c->sarif) {
		add_sarif(c, img, r);
	} else {
		print_text(c, img, r, mem);
	}
	fclose(mem);
	changed = elf_changed(img);
	if (changed)
		c->out = saved;         /* the element never happened */
	while (changed && c->sarif && json_array_size(sarif_results(c->sarif)) > nsarif)
		json_array_remove(sarif_results(c->sarif), nsarif);
	if (!changed && buf.len)
		fwrite(buf.s, 1, buf.len, stdout);
	sb_free(&buf);
	return !changed;
}

/* Scan one file; 0, or -1 after saying why on stderr. */
static int scan_one(struct scan_cmd *c, const char *arg)
{
	struct elf_image img;
	struct scan_result r;
	struct err e = { "" };
	int rc = 0;

	if (open_target(arg, &img, &e) || scan_image(&img, &c->opts, &r, &e)) {
		rc = scan_failed(c, arg, elf_changed(&img) ? "changed while reading" : e.msg);
		elf_close(&img);
		return rc;
	}
	if (c->have_hot)
		attribute(c, &img, &r);
	if (print_unless_changed(c, &img, &r)) {
		check_gate(c, &r);
		c->matched += r.functions_scanned + r.padding_symbols;
		if (!c->kernel_file)
			c->hot_in_files += r.file_samples;
		if (r.functions_too_large)
			complain(arg, "%zu function%s too large to analyse within the memory bound, "
				 "not analysed", r.functions_too_large,
				 r.functions_too_large == 1 ? "" : "s");
	} else {
		rc = scan_failed(c, arg, "changed while reading");
	}
	scan_result_free(&r);
	elf_close(&img);
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
	if (!strcmp(value, "sarif") && !c->sarif)
		c->sarif = json_object();       /* made whole once the options are read */
	return 0;
}

#define F(field) offsetof(struct scan_cmd, field)

static const struct cmd_option scan_options[] = {
	{ .name = "uarch", .value = "NAME[,NAME]|host|all", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profiles to apply (default host; see 'straddle uarch')" },
	{ .name = "all", .kind = OPT_SET, .field = F(list_all),
	  .help = "list every loop and irreducible cycle, not only hazards" },
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.func_glob),
	  .help = "only functions whose name matches GLOB" },
	{ .name = "section", .value = "GLOB", .kind = OPT_STRING, .field = F(opts.section_glob),
	  .help = "only functions in sections whose name matches GLOB" },
	{ .name = "json", .kind = OPT_SET, .field = F(json), .help = "JSON on standard output" },
	{ .name = "format", .value = "text|json|sarif", .kind = OPT_CALL, .call = set_format,
	  .help = "sarif: SARIF 2.1.0 for code scanning, one result\n"
		  "per row (every row: no --limit)" },
	{ .name = "source-root", .value = "DIR", .kind = OPT_STRING, .field = F(source_root),
	  .help = "with sarif: source paths relative to DIR (SRCROOT)" },
	{ .name = "jobs", .letter = 'j', .value = "N", .kind = OPT_UNSIGNED, .field = F(opts.jobs),
	  .min = 1, .max = 256, .help = "threads (default: online CPUs)" },
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
	{ .name = "llvm-mca", .value = "PROGRAM|none", .kind = OPT_STRING, .field = F(opts.llvm_mca),
	  .help = "the cost model's back end: LLVM's scheduling model of each\n"
		  "profile's CPU (default: $STRADDLE_LLVM_MCA, else the newest\n"
		  "llvm-mca-N installed); none: the profile's measured bound only" },
	{ .name = "no-source", .kind = OPT_CLEAR, .field = F(source_lines),
	  .help = "do not look up source lines (DWARF)" },
	{ .name = "dump-vdso", .value = "FILE", .kind = OPT_OUTPUT, .field = F(dump_vdso),
	  .help = "save the running vDSO image to FILE" },
	{ .name = "hot", .value = "RECORD", .kind = OPT_STRING, .field = F(hot_path),
	  .help = "rank by the samples of 'straddle record': a \"samples %\"\n"
		  "column, the hottest first; with no FILE, the files the\n"
		  "record touched, then its kernel samples" },
	{ .name = "perf-script", .value = "FILE", .kind = OPT_STRING, .field = F(perf_script),
	  .help = "the same from the text of 'perf script [-F ip,dso,sym]';\n"
		  "with --show-mmap-events every file is placed exactly" },
	{ .name = "min-share", .value = "P", .kind = OPT_FRACTION, .field = F(min_share),
	  .lo = 0, .hi = 1,
	  .help = "fold hazards in code with less than P of the samples into\n"
		  "one line (default 0.5%)" },
	{ .name = "vmlinux", .value = "FILE", .kind = OPT_STRING, .field = F(vmlinux),
	  .help = "the recorded kernel's image, for its loops (default\n"
		  "/usr/lib/debug/boot/vmlinux-RELEASE when it is there)" },
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
		 "A loop's bytes are those every iteration runs: when the compiler laid the\n"
		 "exit out between its header and its body, its pieces, counted together\n"
		 "(and when no .p2align can fit them, the fix is to move the exit). A loop\n"
		 "holding pause, yield or wfe is a spin loop, ranked after the others.\n"
		 "\n"
		 "With no FILE: this process's vDSO and C library. 'vdso' reads the running\n"
		 "vDSO from memory. Addresses are the ELF's own virtual addresses.\n",
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
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	c->opts.jobs = cpus > 0 ? (unsigned)(cpus < 16 ? cpus : 16) : 1;
	c->limit = 40;
	c->source_lines = true;
	c->uarch = "host";
	c->min_share = 0.005;
	c->opts.cost = true;
	c->opts.llvm_mca = getenv("STRADDLE_LLVM_MCA");
	if (parse_command_line(&scan_command, c, argc, argv))
		return -1;
	if (select_profiles(c->uarch, c->profiles, 32, &c->opts.nprofiles, c->host_why,
			    sizeof c->host_why))
		return -1;
	c->opts.profiles = c->profiles;
	/* a back end asked for by name that does not run is a usage error,
	 * not a silent fallback */
	if (c->opts.llvm_mca && strcmp(c->opts.llvm_mca, "none") != 0 &&
	    !mca_version(c->opts.llvm_mca)) {
		complain("--llvm-mca", "'%s' is not an llvm-mca that runs here", c->opts.llvm_mca);
		return -1;
	}
	if (c->sarif) {
		json_decref(c->sarif);
		c->sarif = sarif_new(c->source_root);
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

/* The kernel functions with at least --min-share of the samples, from
 * the symbols of the record (/proc/kallsyms) or of perf script. */
static void print_kernel_symbols(struct scan_cmd *c)
{
	static const char *const cols[] = { ">samples %", "function", "address" };
	const struct hot_run *h = &c->hot;
	struct table t;
	size_t folded = 0;

	table_init(&t, 3, cols);
	for (size_t i = 0; i < h->nksym; i++) {
		const struct hot_ksym *k = &h->ksym[i];
		char pct[16], addr[20];

		if (!k->samples)
			continue;
		if ((double)k->samples < c->min_share * (double)h->total) {
			folded++;
			continue;
		}
		snprintf(pct, sizeof pct, "%.1f", 100.0 * (double)k->samples / (double)h->total);
		table_row(&t, pct, k->name, k->addr ? hex_addr(addr, k->addr) : "-");
	}
	if (t.nrows)
		table_print(&t, stdout);
	if (folded)
		printf("%zu more kernel functions with less than %g%% of samples\n", folded,
		       100 * c->min_share);
	table_free(&t);
}

/* The kernel's samples as addresses of its image: KASLR moved _text. */
static int kernel_through_image(struct scan_cmd *c, const char *vmlinux)
{
	struct hot_run *h = &c->hot;
	struct hot_file kf = { .path = (char *)vmlinux, .samples = h->kernel.samples };
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
	elf_close(&img);
	kf.addrs.v = xcalloc(h->kernel.addrs.n + 1, sizeof *kf.addrs.v);
	for (size_t i = 0; i < h->kernel.addrs.n; i++)
		kf.addrs.v[kf.addrs.n++] = (struct sample_count){
			h->kernel.addrs.v[i].key - h->kernel_text + text, h->kernel.addrs.v[i].count };
	c->kernel_file = &kf;
	rc = scan_one(c, vmlinux);
	c->kernel_file = NULL;
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
	print_kernel_symbols(c);
	return 0;
}

/* With --hot and no FILE: every file the record has samples of, the
 * hottest first ("vdso" for the vDSO); the kernel comes after them. */
static const char **hot_targets(const struct hot_run *h, int *n)
{
	const char **v = xcalloc(h->nfile + 1, sizeof *v);
	size_t *order = xcalloc(h->nfile + 1, sizeof *order);

	*n = 0;
	for (size_t i = 0; i < h->nfile; i++)
		if (h->file[i].samples)
			order[(*n)++] = i;
	for (int i = 1; i < *n; i++)    /* by samples, stable */
		for (int j = i; j > 0 && h->file[order[j]].samples > h->file[order[j - 1]].samples; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < *n; i++)
		v[i] = strcmp(h->file[order[i]].path, "[vdso]") == 0 ? "vdso" : h->file[order[i]].path;
	free(order);
	return v;
}

/* The rest of the run, so that the summaries add up to all its samples:
 * the kernel's, and those of files not scanned. */
static void print_run_rest(const struct scan_cmd *c)
{
	const struct hot_run *h = &c->hot;
	uint64_t other = h->total - h->kernel.samples;

	other = other > c->hot_in_files ? other - c->hot_in_files : 0;
	if (!h->total)
		return;
	printf("the run's %" PRIu64 " samples: %.1f%% in the files above, %.1f%% in the kernel, "
	       "%.1f%% in files not scanned\n", h->total,
	       100.0 * (double)c->hot_in_files / (double)h->total,
	       100.0 * (double)h->kernel.samples / (double)h->total, 100.0 * (double)other / (double)h->total);
}

/* A gate whose pattern is misspelt must not pass silently (issue 8): a
 * --func or --section that selected no function in any file is an error. */
static bool no_match(const struct scan_cmd *c)
{
	if (c->matched || (!c->opts.func_glob && !c->opts.section_glob))
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

static int cmd_scan(int argc, char **argv)
{
	struct scan_cmd c = { 0 };
	const char *defaults[2] = { "vdso", elf_libc_path() };
	const char **targets = (const char **)argv;
	int status = EXIT_OK, ntargets;
	bool free_targets = false;

	if (parse_options(&c, argc, argv))
		return EXIT_USAGE;
	if (c.dump_vdso && dump_vdso(c.dump_vdso))
		return EXIT_USAGE;
	targets += optind;
	ntargets = argc - optind;
	if (ntargets == 0 && c.have_hot) {
		targets = hot_targets(&c.hot, &ntargets);
		free_targets = true;
	} else if (ntargets == 0) {
		if (c.dump_vdso)
			return EXIT_OK;
		targets = defaults;
		ntargets = defaults[1] ? 2 : 1;
	}
	if (c.host_why[0] && !c.json && !c.sarif)
		printf("%s\n", c.host_why);
	if (c.json) {
		json_t *head = results_run_info("scan", argc, argv), *names = json_array();

		for (size_t i = 0; i < c.opts.nprofiles; i++)
			json_array_append_new(names, json_string(c.profiles[i]->name));
		json_object_set_new(head, "profiles", names);
		if (c.host_why[0])
			json_object_set_new(head, "host", json_text(c.host_why));
		c.errors = json_array();
		/* tens of megabytes: write them in large blocks */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		jstream_begin(&c.out, stdout, head);
		jstream_open(&c.out, "files", '[');
	}
	for (int i = 0; i < ntargets; i++)
		if (scan_one(&c, targets[i]))
			status = EXIT_USAGE;
	if (free_targets) {
		free(targets);
		if (!c.json && !c.sarif && kernel_hot(&c))
			status = EXIT_USAGE;
	}
	if (c.have_hot && !c.json)
		print_run_rest(&c);
	hot_run_free(&c.hot);
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
	if (no_match(&c))
		status = EXIT_USAGE;
	if (c.sarif && sarif_write(c.sarif, stdout, status != EXIT_USAGE)) {
		complain("stdout", "cannot write the SARIF output");
		status = EXIT_USAGE;
	}
	return status;
}
