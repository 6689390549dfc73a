/* Scanning an image: every function is decoded, functions that can hold a
 * cycle get a CFG, and every loop and every function entry is put to each
 * profile's rules. Workers take functions in chunks; each keeps its own
 * decoder, CFG scratch and output, so the hot path allocates nothing once
 * its buffers have grown to the largest function. */
#include "profile.h"
#include "rules.h"
#include "geometry.h"
#include "noreturn.h"
#include "shape.h"
#include "scan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 64

struct worker {
	const struct elf_image *img;
	const struct noreturn_set *noreturn;
	const struct scan_opts *opts;
	const struct profile *prof[MODEL_MAX_PROFILES];
	size_t nprof;
	atomic_size_t *next;
	struct decoder *dec;
	struct cfg cfg;
	struct loop_geometry geo;       /* reused from loop to loop */
	struct insn *insn;
	size_t insn_cap;
	/* this function's dispatch tables: targets of all in one buffer */
	struct jump_targets jt;
	uint64_t *target;
	size_t target_cap;
	struct cfg_jump_table *tab;
	size_t *tab_first;
	size_t ntab, tab_cap, tab_first_cap;
	size_t indirect;                /* indirect jumps of the function */
	uint32_t unresolved;            /* ... of them whose targets are unknown */
	bool backward;                  /* a direct branch that can close a cycle */
	uint32_t *call;                 /* its direct calls (instruction indices) */
	size_t ncall, call_cap;
	size_t max_insn;                /* the memory bound, in instructions */
	/* func indices global, offsets local; its arrays are big_realloc's
	 * memory (megabytes for libLLVM: fresh pages are costly, base.h) */
	struct scan_result out;
	size_t func_cap, loop_cap, hazard_cap, irr_cap, piece_cap;
	/* per CFG loop: how many others share its span and are reported as
	 * it, or FOLDED when it is reported as another (fold_same_spans) */
	uint32_t *same_span, *by_span;
	size_t same_span_cap, by_span_cap;
	uint8_t *sec_cold;              /* per section: enum cold, asked once */
	pthread_t thread;
};

enum cold { COLD_UNKNOWN, COLD_NO, COLD_YES };

/* Room for instruction n: grown as instructions are decoded, never from the
 * symbol's size (a 64 MB claim once cost 1.28 GB up front), and never past
 * the worker's bound. */
static bool room_for(struct worker *w, size_t n)
{
	size_t cap = w->insn_cap ? 2 * w->insn_cap : 1024;

	if (n < w->insn_cap)
		return true;
	if (n >= w->max_insn)
		return false;
	cap = cap < w->max_insn ? cap : w->max_insn;
	w->insn = xrealloc(w->insn, cap * sizeof *w->insn);
	w->insn_cap = cap;
	return true;
}

/* What the scan needs to know of each new instruction, asked once as it is
 * decoded: further passes over every instruction of libLLVM (a cycle test, a
 * search for calls) cost more than this one. */
static void note_decoded(struct worker *w, const struct elf_func *f, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const struct insn *in = &w->insn[i];

		w->out.undecoded += in->undecoded;
		if (in->kind == BR_NONE)
			continue;
		w->indirect += in->kind == BR_JUMP_IND;
		w->backward |= cfg_branch_backward(in, f->addr);
		if (in->kind == BR_CALL) {
			GROW(w->call, w->call_cap, w->ncall + 1);
			w->call[w->ncall++] = (uint32_t)i;
		}
	}
}

/* The instructions of f, or SIZE_MAX when they exceed the memory bound. */
static size_t decode_function(struct worker *w, const struct elf_func *f)
{
	const uint8_t *p = elf_func_bytes(w->img, f);
	size_t n = 0;

	w->indirect = w->ncall = 0;
	w->backward = false;
	if (!p)
		return 0;
	for (uint64_t off = 0; off < f->size;) {
		size_t used, k;

		if (!room_for(w, n))
			return SIZE_MAX;
		k = decode_run(w->dec, p + off, f->size - off, f->addr + off, w->insn + n,
			       w->insn_cap - n, &used);
		note_decoded(w, f, n, n + k);
		n += k;
		off += used;
	}
	return n;
}

/* A call that never returns ends the path, like ud2. */
static void mark_noreturn_calls(struct worker *w)
{
	for (size_t k = 0; k < w->ncall; k++)
		noreturn_stop_call(w->noreturn, &w->insn[w->call[k]]);
}

/* Every indirect jump of the function through a dispatch table gets its
 * table's targets as successors (decode reads the table); the others,
 * except tail calls through a GOT slot, are counted as unresolved. True when a table leads backward, so the
 * function can hold a cycle even without a backward direct branch. */
static bool resolve_tables(struct worker *w, const struct elf_func *f, size_t n,
			   struct func_report *fr)
{
	const uint8_t *p = elf_func_bytes(w->img, f);
	size_t used = 0;
	bool backward = false;

	w->ntab = 0;
	for (size_t i = 0; p && w->indirect && i < n; i++) {
		if (w->insn[i].kind != BR_JUMP_IND)
			continue;
		switch (decode_jump_table(w->dec, w->img, p, w->insn, n, i, &w->jt)) {
		case JUMP_TABLE: break;
		case JUMP_SLOT: continue;       /* a tail call, like a jmp out */
		case JUMP_UNKNOWN: fr->unresolved++; continue;
		}
		fr->jump_tables++;
		backward |= w->jt.n && w->jt.v[0] <= w->insn[i].addr;
		/* every case may lie in the cold part: a table, no targets */
		if (w->jt.n) {
			GROW(w->target, w->target_cap, used + w->jt.n);
			memcpy(w->target + used, w->jt.v, w->jt.n * sizeof *w->target);
		}
		GROW(w->tab, w->tab_cap, w->ntab + 1);
		GROW(w->tab_first, w->tab_first_cap, w->ntab + 1);
		w->tab[w->ntab] = (struct cfg_jump_table){ .jump = w->insn[i].addr, .n = w->jt.n };
		w->tab_first[w->ntab++] = used;
		used += w->jt.n;
	}
	/* the buffer has stopped moving (and is never grown when no table
	 * has a target here) */
	for (size_t k = 0; k < w->ntab; k++)
		w->tab[k].target = w->tab[k].n ? w->target + w->tab_first[k] : NULL;
	return backward;
}

static struct hazard *reserve_hazards(struct worker *w, size_t n)
{
	GROW_BIG(w->out.hazard, w->hazard_cap, w->out.nhazard + n);
	return &w->out.hazard[w->out.nhazard];
}

static uint64_t shape_hash(const struct insn *insn, size_t first, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = first; i < first + n; i++) {
		h ^= insn[i].shape;
		h *= 1099511628211ull;
	}
	return h;
}

/* The hazards appended since `first` name the function's section. */
static void name_section(struct worker *w, const struct elf_func *f, size_t first)
{
	for (size_t i = first; i < w->out.nhazard; i++)
		w->out.hazard[i].section = w->img->sec[f->sec].name;
}

#define FOLDED UINT32_MAX

/* Same span first; among them a natural loop before an irreducible
 * cycle, then the deepest, then CFG order: the row a group of equal spans
 * is reported as. */
static int by_span_deepest(const void *a, const void *b, void *ctx)
{
	const struct cfg *g = ctx;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct cfg_loop *x = &g->loop[i], *y = &g->loop[j];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->npiece != y->npiece)
		return x->npiece < y->npiece ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	if (x->irreducible != y->irreducible)
		return x->irreducible ? 1 : -1;
	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return (i > j) - (i < j);
}

/* Loops of one function whose spans are equal are the same bytes, so the
 * same hazards: one row, saying how many loops it stands for. Its facts
 * (depth, calls, loop buffer) are a natural loop's when one of them is
 * (entered at its header only, it is the loop the compiler made), else the
 * deepest cycle's (the one run most often).
 * What is left after mark_reached's fix: a natural loop whose header is
 * also an irreducible cycle's entry (vmlinux 6.1 invent_group_ids
 * 0xffffffff81373b7f, a 5-byte header block that an exit ends), and
 * cycles entered at several blocks of one run. */
static void fold_same_spans(struct worker *w)
{
	const struct cfg *g = &w->cfg;
	uint32_t n = (uint32_t)g->nloop;

	if (n == 0)
		return;
	GROW(w->same_span, w->same_span_cap, n);
	GROW(w->by_span, w->by_span_cap, n);
	for (uint32_t i = 0; i < n; i++)
		w->by_span[i] = i;
	qsort_r(w->by_span, n, sizeof *w->by_span, by_span_deepest, &w->cfg);
	for (uint32_t k = 0; k < n;) {
		const struct cfg_loop *head = &g->loop[w->by_span[k]];
		uint32_t e = k + 1;

		while (e < n && g->loop[w->by_span[e]].start == head->start &&
		       g->loop[w->by_span[e]].end == head->end &&
		       g->loop[w->by_span[e]].npiece == head->npiece &&
		       g->loop[w->by_span[e]].bytes == head->bytes)
			w->same_span[w->by_span[e++]] = FOLDED;
		w->same_span[w->by_span[k]] = e - k - 1;
		k = e;
	}
}

/* Is branch x of loop l outside every loop nested in it (a loop of its
 * function whose span lies in l's, not the same span)? Then it runs once
 * an outer iteration, the inner loops' between (hazard.outer_only). sum's
 * outer fread loop (coreutils 9.1, 0x28fc): its add/jae across the line
 * at 0x2980, once every 32 KiB its inner loop sums. */
static bool outside_inner_loops(const struct cfg_loop *loops, size_t n, const struct cfg_loop *l,
				uint64_t x)
{
	bool inner = false;

	for (size_t i = 0; i < n; i++) {
		const struct cfg_loop *m = &loops[i];

		if (m->start < l->start || m->end > l->end ||
		    (m->start == l->start && m->end == l->end))
			continue;
		if (m->start <= x && x < m->end)
			return false;
		inner = true;
	}
	return inner;
}

static void mark_outer_branches(const struct worker *w, const struct cfg_loop *l,
				struct hazard *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_branch_rule(h[i].rule))
			h[i].outer_only = outside_inner_loops(w->cfg.loop, w->cfg.nloop, l,
							      h[i].branch);
}

static void report_loop(struct worker *w, const struct elf_func *f, const struct cfg_loop *l,
			uint32_t same_span)
{
	struct loop_geometry *geo = &w->geo;
	uint64_t align = elf_placement_align(w->img, f->sec);
	struct loop_report *r;
	uint64_t first_back = 0;

	loop_geometry(&w->cfg, l, geo);
	uint32_t ncond = 0;

	for (uint32_t i = 0; i < geo->nbranch; i++) {
		if (geo->branch[i].back && !first_back)
			first_back = l->start + geo->branch[i].branch;
		ncond += geo->branch[i].kind == BR_COND;
	}
	GROW_BIG(w->out.loop, w->loop_cap, w->out.nloop + 1);
	r = &w->out.loop[w->out.nloop];
	*r = (struct loop_report){
		.start = l->start, .end = l->end, .bytes = l->bytes, .sec = f->sec, .depth = l->depth, .innermost = l->innermost,
		.has_call = l->has_call, .irreducible = l->irreducible, .spin = l->spin,
		.ninsn = l->run_insns, .cold_blocks = l->cold_blocks,
		.cold_bytes = l->cold_bytes, .same_span = same_span,
		.branch = first_back,
		.hazard = (uint32_t)w->out.nhazard,
		.span_uncertain = w->unresolved > 0,
		.ncond = ncond,
	};
	for (size_t k = 0; k < w->nprof; k++) {
		const struct profile *p = w->prof[k];

		size_t max = loop_hazards_max(geo);

		r->in_loop_buffer |= in_loop_buffer(p, geo);
		loop_count_stores(geo, p, w->dec, w->insn + l->first,
				  elf_func_bytes(w->img, f) + (l->start - f->addr), l->start, align);
		r->back_end_bound |= back_end_hid_straddle(p, geo, l->start, align);
		w->out.nhazard += loop_hazards(p, geo, l->start, align,
					       reserve_hazards(w, max), max);
	}
	r->nhazard = (uint32_t)(w->out.nhazard - r->hazard);
	mark_outer_branches(w, l, w->out.hazard + r->hazard, r->nhazard);
	r->nstore = geo->nstore;
	name_section(w, f, r->hazard);
	if (!r->nhazard && !w->opts->keep_all) {
		w->out.nhazard = r->hazard;
		return;
	}
	r->piece = (uint32_t)w->out.npiece;
	r->npiece = l->npiece;
	GROW_BIG(w->out.piece, w->piece_cap, w->out.npiece + l->npiece);
	for (uint32_t k = 0; k < l->npiece; k++) {
		const struct cfg_piece *p = &w->cfg.pieces[l->piece + k];

		w->out.piece[w->out.npiece++] = (struct loop_piece){ p->start, p->end };
	}
	/* hashed only when kept: 60% of libLLVM's 117,689 loops have no
	 * hazard, and an outer loop's hash reads every instruction it holds */
	r->shape_hash = shape_hash(w->insn, l->first, l->ninsn);
	r->form_hash = form_hash(w->insn + l->first, l->ninsn);
	w->out.nloop++;
}

static uint64_t entry_alignment(uint64_t addr, uint64_t cap)
{
	uint64_t a = addr ? addr & -addr : cap;

	return a < cap ? a : cap;
}

/* The kernel's 16-byte __pfx_* (and kCFI's __cfi_*) symbols name the padding
 * before a function, not a function (49,066 of them in a 6.12 vmlinux); nor
 * is a symbol over nothing but nops and int3. */
static bool padding_symbol(const char *name)
{
	return strncmp(name, "__pfx_", 6) == 0 || strncmp(name, "__cfi_", 6) == 0;
}

static bool only_padding(const struct insn *insn, size_t n)
{
	if (n == 0)
		return false;   /* no bytes to judge (NOBITS): left as it was */
	for (size_t i = 0; i < n; i++)
		if (!insn[i].padding)
			return false;
	return true;
}

/* Text that runs once (init, exit) or rarely (the compiler's unlikely and
 * .cold parts): a hazard there must not outrank one in hot text. The kernel's
 * .init.text, .exit.text, .ref.text, .meminit.text; GCC's .text.unlikely and
 * .text.exit (-freorder-functions: code run only at exit), their
 * -ffunction-sections forms, and .text.init (diff had a list of its own with
 * these two). */
static bool cold_section(const char *section)
{
	static const char *const cold_sections[] = { ".init.text*", ".exit.text*", ".text.unlikely*",
		".text.*.cold*", ".text.cold*", ".ref.text*", ".meminit.text*", ".text.exit",
		".text.exit.*", ".text.init", ".text.init.*" };

	for (size_t i = 0; i < sizeof cold_sections / sizeof *cold_sections; i++)
		if (glob_match(cold_sections[i], section))
			return true;
	return false;
}

/* The section's answer is asked once per section, not per function, and a
 * name without ".cold" skips fnmatch: nine fnmatch calls a function were 1%
 * of a libLLVM scan. */
static bool cold_text(struct worker *w, const struct elf_func *f)
{
	const char *sec = w->img->sec[f->sec].name;

	if (w->sec_cold[f->sec] == COLD_UNKNOWN)
		w->sec_cold[f->sec] = cold_section(sec ? sec : "") ? COLD_YES : COLD_NO;
	if (w->sec_cold[f->sec] == COLD_YES)
		return true;
	return func_name_cold_part(f->name);
}

bool func_name_cold_part(const char *name)
{
	return strstr(name, ".cold") && (glob_match("*.cold", name) || glob_match("*.cold.*", name));
}

static bool selected(const struct worker *w, const struct elf_func *f)
{
	const char *sec = w->img->sec[f->sec].name;

	return (!w->opts->func_glob || elf_func_matches(&w->out.funcs, f, w->opts->func_glob)) &&
	       (!w->opts->section_glob || glob_match(w->opts->section_glob, sec ? sec : ""));
}

/* PLT stubs (.plt, .plt.sec, .plt.got): one indirect jump each, laid out
 * by the linker at 16 B, called through and never looped in; their FDE covers
 * the whole section, which made a stripped file report "fde@0x1020
 * entry-misaligned". Decoded and counted, no entry or loop hazard. */
static bool plt_section(const char *sec)
{
	return sec && (!strcmp(sec, ".plt") || !strcmp(sec, ".plt.sec") || !strcmp(sec, ".plt.got"));
}

static void scan_function(struct worker *w, size_t index)
{
	const struct elf_func *f = &w->out.funcs.v[index];
	uint64_t align = elf_placement_align(w->img, f->sec);
	struct func_report fr = { .func = index, .entry_align = entry_alignment(f->addr, align) };
	size_t n;

	if (!selected(w, f))
		return;
	if (padding_symbol(f->name)) {
		w->out.padding_symbols++;
		return;
	}
	n = decode_function(w, f);
	if (n == SIZE_MAX) {
		w->out.functions_scanned++;
		w->out.functions_too_large++;
		return;
	}
	if (only_padding(w->insn, n)) {
		w->out.padding_symbols++;
		return;
	}
	w->out.functions_scanned++;
	fr.cold_text = cold_text(w, f);
	fr.ninsn = (uint32_t)n;
	if (w->opts->shapes)            /* only diff matches by it: not on scan's path */
		func_shape(w->insn, n, &fr.shape);
	w->out.instructions += n;
	w->out.bytes_decoded += f->size;
	fr.loop = (uint32_t)w->out.nloop;
	bool plt = plt_section(w->img->sec[f->sec].name);
	bool cyclic = !plt && (resolve_tables(w, f, n, &fr) | w->backward);

	w->unresolved = fr.unresolved;
	if (cyclic) {
		mark_noreturn_calls(w);
		cfg_build_tables(&w->cfg, w->insn, n, w->tab, w->ntab);
		fold_same_spans(w);
		for (size_t i = 0; i < w->cfg.nloop; i++) {
			if (w->same_span[i] == FOLDED)
				continue;
			w->out.loops_total++;
			report_loop(w, f, &w->cfg.loop[i], w->same_span[i]);
		}
		fr.irr = (uint32_t)w->out.nirr;
		fr.nirr = (uint32_t)w->cfg.nirr;
		for (size_t i = 0; i < w->cfg.nirr; i++) {
			GROW_BIG(w->out.irr, w->irr_cap, w->out.nirr + 1);
			w->out.irr[w->out.nirr++] = w->cfg.irr[i];
		}
	}
	fr.nloop = (uint32_t)(w->out.nloop - fr.loop);
	fr.hazard = (uint32_t)w->out.nhazard;
	for (size_t k = 0; k < w->nprof && !plt; k++)
		w->out.nhazard += entry_hazards(w->prof[k], f->addr, f->size, align,
						reserve_hazards(w, 1), 1);
	fr.nhazard = (uint32_t)(w->out.nhazard - fr.hazard);
	w->out.jump_tables += fr.jump_tables;
	w->out.unresolved += fr.unresolved;
	name_section(w, f, w->out.nhazard - fr.nhazard);
	if (fr.nloop || fr.nhazard || fr.nirr || w->opts->keep_all) {
		GROW_BIG(w->out.func, w->func_cap, w->out.nfunc + 1);
		w->out.func[w->out.nfunc++] = fr;
	}
}

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t total = w->out.funcs.n;

	for (;;) {
		size_t first = atomic_fetch_add(w->next, CHUNK);

		if (first >= total)
			return NULL;
		for (size_t i = first; i < total && i < first + CHUNK; i++)
			scan_function(w, i);
	}
}

static int by_func(const void *a, const void *b)
{
	const struct func_report *x = a, *y = b;

	return (x->func > y->func) - (x->func < y->func);
}

/* Append src[first .. first+n); src is NULL when a worker found none. */
static void copy_hazards(struct scan_result *r, const struct hazard *src, uint32_t first,
			 uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		r->hazard[r->nhazard + i] = src[first + i];
}

/* One worker's output is already the result: it took the functions in order,
 * and its indices are those of the whole. Moved, not copied (the copy and its
 * fresh pages were 2% of a libLLVM scan). */
static void take_arrays(struct scan_result *r, struct scan_result *o)
{
	r->func = o->func;
	r->nfunc = o->nfunc;
	r->loop = o->loop;
	r->nloop = o->nloop;
	r->hazard = o->hazard;
	r->nhazard = o->nhazard;
	r->irr = o->irr;
	r->nirr = o->nirr;
	r->piece = o->piece;
	r->npiece = o->npiece;
	o->piece = NULL;
	o->func = NULL;
	o->loop = NULL;
	o->hazard = NULL;
	o->irr = NULL;
}

/* Concatenate the workers' output, in function order, rebasing indices. */
static void merge(struct scan_result *r, struct worker *w, unsigned nw)
{
	size_t nf = 0, nl = 0, nh = 0, ni = 0, np = 0;

	for (unsigned k = 0; k < nw; k++) {
		nf += w[k].out.nfunc;
		nl += w[k].out.nloop;
		nh += w[k].out.nhazard;
		ni += w[k].out.nirr;
		np += w[k].out.npiece;
		r->functions_scanned += w[k].out.functions_scanned;
		r->padding_symbols += w[k].out.padding_symbols;
		r->instructions += w[k].out.instructions;
		r->loops_total += w[k].out.loops_total;
		r->bytes_decoded += w[k].out.bytes_decoded;
		r->undecoded += w[k].out.undecoded;
		r->jump_tables += w[k].out.jump_tables;
		r->unresolved += w[k].out.unresolved;
		r->functions_too_large += w[k].out.functions_too_large;
	}
	if (nw == 1) {
		take_arrays(r, &w[0].out);
		return;
	}
	r->func = big_realloc(NULL, nf * sizeof *r->func);
	r->loop = big_realloc(NULL, nl * sizeof *r->loop);
	r->hazard = big_realloc(NULL, nh * sizeof *r->hazard);
	r->irr = big_realloc(NULL, ni * sizeof *r->irr);
	r->piece = big_realloc(NULL, np * sizeof *r->piece);
	for (unsigned k = 0; k < nw; k++) {
		struct scan_result *o = &w[k].out;

		for (size_t i = 0; i < o->nfunc; i++) {
			struct func_report fr = o->func[i];

			for (uint32_t j = fr.loop; j < fr.loop + fr.nloop; j++) {
				struct loop_report lr = o->loop[j];

				copy_hazards(r, o->hazard, lr.hazard, lr.nhazard);
				lr.hazard = (uint32_t)r->nhazard;
				r->nhazard += lr.nhazard;
				memcpy(r->piece + r->npiece, o->piece + lr.piece,
				       lr.npiece * sizeof *r->piece);
				lr.piece = (uint32_t)r->npiece;
				r->npiece += lr.npiece;
				r->loop[r->nloop + (j - fr.loop)] = lr;
			}
			fr.loop = (uint32_t)r->nloop;
			r->nloop += fr.nloop;
			copy_hazards(r, o->hazard, fr.hazard, fr.nhazard);
			fr.hazard = (uint32_t)r->nhazard;
			r->nhazard += fr.nhazard;
			for (uint32_t j = 0; j < fr.nirr; j++)
				r->irr[r->nirr + j] = o->irr[fr.irr + j];
			fr.irr = (uint32_t)r->nirr;
			r->nirr += fr.nirr;
			r->func[r->nfunc++] = fr;
		}
	}
	/* Each worker's output is in order; restore the global order while
	 * keeping every loop block where it was written. */
	qsort(r->func, r->nfunc, sizeof *r->func, by_func);
}

/* Peak memory within 2x of the input: each worker's largest function may use
 * its share of the image's size, at least 16 MiB so that small files are
 * never refused, at INSN_COST bytes an instruction (the instruction, the
 * CFG's index of byte offsets and per-instruction scratch, blocks and loops).
 * A larger function is counted, not analysed. */
#define INSN_COST 64
#define MIN_BOUND (16u << 20)

static size_t insn_bound(const struct elf_image *img, unsigned nw)
{
	size_t share = img->size / nw;

	return (share > MIN_BOUND ? share : MIN_BOUND) / INSN_COST;
}

static void worker_free(struct worker *w)
{
	decoder_free(w->dec);
	cfg_free(&w->cfg);
	loop_geometry_free(&w->geo);
	free(w->insn);
	free(w->jt.v);
	free(w->target);
	free(w->tab);
	free(w->tab_first);
	free(w->call);
	big_free(w->out.func);
	big_free(w->out.loop);
	big_free(w->out.hazard);
	big_free(w->out.irr);
	big_free(w->out.piece);
	free(w->sec_cold);
	free(w->same_span);
	free(w->by_span);
}

int scan_image(const struct elf_image *img, const struct scan_opts *o,
	       struct scan_result *r, struct err *e)
{
	unsigned nw = o->jobs ? o->jobs : 1;
	struct worker *w;
	struct noreturn_set noreturn;
	atomic_size_t next = 0;
	int rc = 0;

	memset(r, 0, sizeof *r);
	if (elf_functions(img, &r->funcs, e))
		return -1;
	for (size_t i = 0; i < o->nprofiles && r->nprofile < MODEL_MAX_PROFILES; i++)
		if (o->profiles[i]->arch == img->arch)
			r->profile[r->nprofile++] = o->profiles[i];
	if (r->nprofile == 0)
		r->profile[r->nprofile++] = profile_named(
			img->arch == ARCH_AARCH64 ? "generic-arm64" : "generic-x86");
	noreturn_find(img, &r->funcs, nw, &noreturn);
	w = xcalloc(nw, sizeof *w);
	for (unsigned k = 0; k < nw; k++) {
		w[k].img = img;
		w[k].noreturn = &noreturn;
		w[k].opts = o;
		w[k].next = &next;
		w[k].out.funcs = r->funcs;
		memcpy(w[k].prof, r->profile, sizeof r->profile);
		w[k].nprof = r->nprofile;
		w[k].max_insn = insn_bound(img, nw);
		w[k].sec_cold = xcalloc(img->nsec ? img->nsec : 1, 1);
		w[k].dec = decoder_new(img->arch);
		if (!w[k].dec)
			rc = err_set(e, "no decoder for %s", arch_name(img->arch));
	}
	if (rc == 0) {
		bool started[nw];

		/* A worker that cannot start leaves its share to the others. */
		for (unsigned k = 1; k < nw; k++)
			started[k] = pthread_create(&w[k].thread, NULL, work, &w[k]) == 0;
		work(&w[0]);
		for (unsigned k = 1; k < nw; k++)
			if (started[k])
				pthread_join(w[k].thread, NULL);
		merge(r, w, nw);
		if (o->cost)
			scan_costs(img, o, r);
	}
	for (unsigned k = 0; k < nw; k++)
		worker_free(&w[k]);
	free(w);
	free(noreturn.addr);
	return rc;
}

void scan_result_free(struct scan_result *r)
{
	elf_funcs_free(&r->funcs);
	big_free(r->func);
	big_free(r->loop);
	big_free(r->hazard);
	big_free(r->irr);
	big_free(r->piece);
	memset(r, 0, sizeof *r);
}

unsigned loop_touched(const struct scan_result *r, const struct loop_report *l, unsigned w)
{
	return pieces_touched(r->piece + l->piece, l->npiece, 0, w);
}

/* A spin loop's hazards gate only when asked (spin): a spin loop waits by
 * design; a loop whose span is uncertain only when asked (uncertain): its
 * bytes may not be the loop's. */
static bool gate_hazards(unsigned rules, const struct hazard *h, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (rules & (1u << h[i].rule))
			return true;
	return false;
}

bool scan_gate(const struct scan_result *r, unsigned rules, bool spin, bool uncertain)
{
	bool fails = false;

	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t k = f->loop; k < f->loop + f->nloop; k++)
			if ((!r->loop[k].spin || spin) && (!r->loop[k].span_uncertain || uncertain))
				fails |= gate_hazards(rules, r->loop[k].nhazard ?
						      r->hazard + r->loop[k].hazard : NULL,
						      r->loop[k].nhazard);
		fails |= gate_hazards(rules, f->nhazard ? r->hazard + f->hazard : NULL, f->nhazard);
	}
	return fails;
}
