/* scan's text: a file's header line, the table of its rows (rows.c), every
 * loop with --all, and with samples where the file's samples went. */
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The table of the rows; the lines for the rows folded and past the limit. */
static void hazard_table(const struct scan_result *r, const struct scan_rows *rows,
			 const struct scan_text_opts *o, FILE *out)
{
	const size_t first = r->hot ? 0 : 2;   /* the samples columns only with --hot */
	struct table t;

	table_init(&t, SCAN_COLS - first, scan_cols + first);
	t.max[3 - first] = 48;
	for (size_t i = 0; i < rows->n; i++) {
		struct scan_cells c;

		scan_row_cells(r, &rows->v[i], &c);
		table_row_v(&t, c.cell + first);
		sb_free(&c.profiles);
	}
	if (t.nrows)
		table_print(&t, out);
	if (rows->more)
		fprintf(out, "... and more (--limit 0 shows every row)\n");
	if (rows->free)
		fprintf(out, "%zu %s that cost nothing here (of loops with loops in them, or run from the "
			"loop buffer): --all lists them\n", rows->free, rows->free == 1 ? "hazard" : "hazards");
	if (rows->folded)
		fprintf(out, "%zu more hazards in code with less than %g%% of samples\n", rows->folded,
			100 * o->min_share);
	table_free(&t);
}

static void all_loops(const struct scan_result *r, FILE *out)
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
			table_row(&t, r->funcs.v[f->func].shown, s, e, b, np, ni, d,
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
			       r->funcs.v[r->func[i].func].shown, r->irr[k].entry, r->irr[k].from);
	/* where a dispatch could not be read, a cycle through it is unseen */
	for (size_t i = 0; i < r->nfunc; i++)
		if (r->func[i].unresolved)
			fprintf(out, "indirect jumps unresolved in %s: %u\n",
				r->funcs.v[r->func[i].func].shown, r->func[i].unresolved);
}

void report_judge_loop(const struct scan_result *r, const struct func_report *f,
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

void hot_summary(const struct scan_result *r, double min_share, struct hot_summary *s)
{
	uint64_t *outside = xcalloc(r->nfunc + 1, sizeof *outside), in_funcs = 0;
	size_t *owner = xcalloc(r->nloop + 1, sizeof *owner);

	memset(s, 0, sizeof *s);
	s->self = xcalloc(r->nloop + 1, sizeof *s->self);
	s->order = xcalloc(r->nloop + 1, sizeof *s->order);
	s->owner = owner;
	hot_loop_self(r, s->self, outside);
	for (size_t f = 0; f < r->nfunc; f++) {
		for (uint32_t i = r->func[f].loop; i < r->func[f].loop + r->func[f].nloop; i++)
			owner[i] = f;
		in_funcs += r->func[f].samples;
		if (r->func[f].unresolved)
			s->unseen += outside[f];
		else
			s->straight += outside[f];
	}
	for (size_t i = 0; i < r->nloop; i++)
		s->order[i] = i;
	qsort_r(s->order, r->nloop, sizeof *s->order, by_self_samples, s->self);
	for (size_t k = 0; k < r->nloop && s->self[s->order[k]]; k++)
		if (hot_share(r, s->self[s->order[k]]) < min_share)
			s->small += s->self[s->order[k]];
		else
			s->order[s->n++] = s->order[k];
	s->no_function = r->file_samples > in_funcs ? r->file_samples - in_funcs : 0;
	free(outside);
}

void hot_summary_free(struct hot_summary *s)
{
	free(s->self);
	free(s->order);
	free(s->owner);
}

/* scan --hot: where every sample of the file went (hot_summary). */
static void print_hot_summary(const struct scan_result *r, double min_share, FILE *out)
{
	struct hot_summary s;

	hot_summary(r, min_share, &s);
	fprintf(out, "where this file's %.1f%% of the run went:\n", 100 * hot_share(r, r->file_samples));
	for (size_t k = 0; k < s.n; k++) {
		const struct loop_report *l = &r->loop[s.order[k]];
		const struct func_report *f = &r->func[s.owner[s.order[k]]];
		char why[160];

		report_judge_loop(r, f, l, why, sizeof why);
		fprintf(out, "  %5.1f%%  loop %#" PRIx64 " in %s (%" PRIu64 " B): %s\n",
			100 * hot_share(r, s.self[s.order[k]]), l->start, r->funcs.v[f->func].shown,
			l->bytes, why);
	}
	if (s.small)
		fprintf(out, "  %5.1f%%  in loops of less than %g%% each\n", 100 * hot_share(r, s.small),
			100 * min_share);
	if (s.unseen)
		fprintf(out, "  %5.1f%%  cannot be judged: in no loop found, in functions with unresolved "
			"indirect jumps (a loop through them cannot be seen)\n", 100 * hot_share(r, s.unseen));
	if (s.straight)
		fprintf(out, "  %5.1f%%  in no loop (straight-line code)\n", 100 * hot_share(r, s.straight));
	if (s.no_function)
		fprintf(out, "  %5.1f%%  in no function scanned\n", 100 * hot_share(r, s.no_function));
	hot_summary_free(&s);
}

static void print_head(const struct elf_image *img, const struct scan_result *r,
		       const struct scan_text_opts *o, FILE *out)
{
	fprintf(out, "%s: %s %s, %zu functions, %" PRIu64 " instructions, %" PRIu64 " loops",
	       img->path, arch_name(img->arch), elf_type_name(img->type), r->functions_scanned,
	       r->instructions, r->loops_total);
	if (o->list_all && img->arch == ARCH_AARCH64)
		fprintf(out, ", %" PRIu64 " undecoded words", r->undecoded);
	if (o->list_all)
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
}

void report_scan_text(FILE *out, const struct elf_image *img, const struct scan_result *r,
		      const struct scan_rows *rows, const struct scan_text_opts *o)
{
	size_t loops_with = 0, entries = 0;

	for (size_t i = 0; i < r->nloop; i++)
		loops_with += r->loop[i].nhazard > 0;
	for (size_t i = 0; i < r->nfunc; i++)
		entries += r->func[i].nhazard > 0;
	print_head(img, r, o, out);
	hazard_table(r, rows, o, out);
	if (o->list_all)
		all_loops(r, out);
	if (r->hot)
		print_hot_summary(r, o->min_share, out);
	/* rows, not hazards: a loop under ten profiles is one hazard to fix */
	fprintf(out, "%zu hazards: %zu loops, %zu function entries\n\n", rows->total, loops_with,
		entries);
}

void report_kernel_unplaced(FILE *out, const struct hot_run *h, enum hot_kernel_fit why,
			    const char *image, const char *id)
{
	double pct = 100.0 * (double)h->kernel.samples / (double)h->total;

	if (why == HOT_KERNEL_OTHER_BUILD)
		fprintf(out, "kernel: %" PRIu64 " samples (%.1f%%); %s is build-id %s, the recorded "
			"kernel (%s) was %s: not its image, so by symbol only:\n", h->kernel.samples,
			pct, image, *id ? id : "none", h->kernel_release[0] ? h->kernel_release : "?",
			h->kernel_build_id);
	else if (why == HOT_KERNEL_NO_TEXT)
		fprintf(out, "kernel: %" PRIu64 " samples (%.1f%%); where _text was (KASLR) is not "
			"known, so by symbol only:\n", h->kernel.samples, pct);
	else if (h->kernel_release[0])
		fprintf(out, "kernel: %" PRIu64 " samples (%.1f%%), by symbol only: loops need the "
			"kernel's image (--vmlinux FILE, or %s from linux-image-%s-dbg)\n",
			h->kernel.samples, pct, image, h->kernel_release);
	else
		fprintf(out, "kernel: %" PRIu64 " samples (%.1f%%), by symbol only: loops need the "
			"kernel's image (--vmlinux FILE)\n", h->kernel.samples, pct);
}

void report_kernel_symbols(FILE *out, const struct hot_run *h, double min_share)
{
	static const char *const cols[] = { ">samples %", "function", "address" };
	struct table t;
	size_t folded = 0;

	table_init(&t, 3, cols);
	for (size_t i = 0; i < h->nksym; i++) {
		const struct hot_ksym *k = &h->ksym[i];
		char pct[16], addr[20];

		if (!k->samples)
			continue;
		if ((double)k->samples < min_share * (double)h->total) {
			folded++;
			continue;
		}
		snprintf(pct, sizeof pct, "%.1f", 100.0 * (double)k->samples / (double)h->total);
		table_row(&t, pct, k->name, k->addr ? hex_addr(addr, k->addr) : "-");
	}
	if (t.nrows)
		table_print(&t, out);
	if (folded)
		fprintf(out, "%zu more kernel functions with less than %g%% of samples\n", folded,
			100 * min_share);
	table_free(&t);
}

void report_run_rest(FILE *out, const struct hot_run *h, uint64_t in_files)
{
	uint64_t other = h->total - h->kernel.samples;

	other = other > in_files ? other - in_files : 0;
	if (!h->total)
		return;
	fprintf(out, "the run's %" PRIu64 " samples: %.1f%% in the files above, %.1f%% in the kernel, "
		"%.1f%% in files not scanned\n", h->total,
		100.0 * (double)in_files / (double)h->total,
		100.0 * (double)h->kernel.samples / (double)h->total, 100.0 * (double)other / (double)h->total);
}
