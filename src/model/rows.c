/* The one row model of scan and diff: which hazards make a row, the order
 * of the rows with and without samples, which rows --min-share folds, the
 * windows a row touches. Every renderer (text, markdown, the HTML page,
 * SARIF) takes its rows from here, so they cannot disagree (perf's
 * util/sort.c: each order defined once). The page renders a scan_result
 * read back from the document (results_read_scan), the terminal the one
 * just scanned: the same structs, the same rows. */
#include "rows.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- scan ---- */

static uint32_t subject_nhazard(const struct scan_row *x)
{
	return x->loop ? x->loop->nhazard : x->func->nhazard;
}

static const struct hazard *subject_hazards(const struct scan_result *r, const struct scan_row *x)
{
	return &r->hazard[x->loop ? x->loop->hazard : x->func->hazard];
}

size_t scan_row_hazards(const struct scan_result *r, const struct scan_row *x,
			const struct hazard **out)
{
	const struct hazard *h = subject_hazards(r, x);
	uint32_t n = subject_nhazard(x);
	size_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		if (h[i].rule == x->lead->rule)
			out[k++] = &h[i];
	return k;
}

uint64_t scan_row_bytes(const struct scan_result *r, const struct scan_row *x)
{
	return x->loop ? x->loop->bytes : r->funcs.v[x->func->func].size;
}

uint64_t scan_row_addr(const struct scan_result *r, const struct scan_row *x)
{
	return x->loop ? x->loop->start : r->funcs.v[x->func->func].addr;
}

uint64_t scan_row_samples(const struct scan_row *x)
{
	return x->loop ? x->loop->samples : x->func->samples;
}

bool scan_row_spins(const struct scan_row *x)
{
	return x->loop && x->loop->spin;
}

/* Priced rows before bounds and unpriced rules, and among prices (or
 * among bounds) the costlier first: a severity is a rule's, not what the
 * loop pays. */
static int by_price(const struct scan_row *x, const struct scan_row *y)
{
	enum price_tier tx = price_tier(x->priced), ty = price_tier(y->priced);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->priced->slowdown != y->priced->slowdown)
		return x->priced->slowdown > y->priced->slowdown ? -1 : 1;
	return 0;
}

/* Worst first: hot text before init/exit/unlikely/cold text (which runs once
 * or rarely: a vmlinux's 767 .init.text loops ranked like hot code), every other
 * row before a spin loop's (a wait: its iterations are not work), then by
 * price (by_price), then severity, then smaller (tighter) loops, then
 * address. */
static int by_worst(const void *a, const void *b, void *ctx)
{
	const struct scan_result *r = ctx;
	const struct scan_row *x = a, *y = b;
	uint64_t bx = scan_row_bytes(r, x), by = scan_row_bytes(r, y);
	uint64_t ax = scan_row_addr(r, x), ay = scan_row_addr(r, y);
	int o;

	if (x->func->cold_text != y->func->cold_text)
		return x->func->cold_text ? 1 : -1;
	if (scan_row_spins(x) != scan_row_spins(y))
		return scan_row_spins(x) ? 1 : -1;
	if ((o = by_price(x, y)) != 0)
		return o;
	if (x->lead->severity != y->lead->severity)
		return x->lead->severity > y->lead->severity ? -1 : 1;
	if (x->lead->certain != y->lead->certain)
		return x->lead->certain ? -1 : 1;
	if (bx != by)
		return bx < by ? -1 : 1;
	if (ax != ay)
		return ax < ay ? -1 : 1;
	if (x->loop != y->loop)         /* a loop and its function's entry */
		return x->loop ? -1 : 1;
	if (x->lead->rule != y->lead->rule)
		return x->lead->rule < y->lead->rule ? -1 : 1;
	if (x->lead->window != y->lead->window)
		return x->lead->window < y->lead->window ? -1 : 1;
	return (x->lead > y->lead) - (x->lead < y->lead);
}

/* What aligning would save of the run: a priced straddle its share of
 * what it costs; a rule the model does not price ranks by its whole
 * share (at most what it could save), so it is never buried. */
static double row_key(const struct scan_result *r, const struct scan_row *x)
{
	return hazard_saves(x->priced, hot_share(r, scan_row_samples(x)));
}

/* With samples: priced rows before bounds (a bound is no price to rank
 * by), the most saved first, then worst first (hot_order). */
static int by_hot(const void *a, const void *b, void *ctx)
{
	const struct scan_result *r = ctx;
	const struct scan_row *x = a, *y = b;
	enum price_tier tx = price_tier(x->priced), ty = price_tier(y->priced);
	int o = scan_row_spins(x) != scan_row_spins(y) ? (scan_row_spins(x) ? 1 : -1) :
		tx != ty ? (tx < ty ? -1 : 1) :
		hot_order(row_key(r, x), x->lead->severity, row_key(r, y), y->lead->severity);

	return o ? o : by_worst(a, b, ctx);
}

int scan_row_order(const struct scan_result *r, const struct scan_row *x, const struct scan_row *y)
{
	return (r->hot ? by_hot : by_worst)(x, y, (void *)r);
}

/* The rows of one subject (a loop, or a function's entry when l is
 * NULL) appended to v[*n...): one per rule its hazards break, led by the
 * worst of them (worst_hazard). */
static void subject_rows(const struct func_report *f, const struct loop_report *l,
			 const struct hazard *h, uint32_t nh, struct scan_row *v, size_t *n)
{
	size_t first = *n;

	for (uint32_t i = 0; i < nh; i++) {
		size_t k = first;

		while (k < *n && v[k].lead->rule != h[i].rule)
			k++;
		if (k == *n) {
			v[(*n)++] = (struct scan_row){ .func = f, .loop = l, .lead = &h[i],
						       .priced = &h[i] };
		} else {
			v[k].lead = worst_hazard((const struct hazard *[]){ v[k].lead, &h[i] }, 2);
			v[k].priced = costliest_hazard((const struct hazard *[]){ v[k].priced, &h[i] }, 2);
		}
	}
}

static size_t collect_rows(const struct scan_result *r, struct scan_row **out)
{
	struct scan_row *v = xcalloc(r->nhazard + 1, sizeof *v);
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

static void swap_rows(struct scan_row *a, struct scan_row *b)
{
	struct scan_row t = *a;

	*a = *b;
	*b = t;
}

/* h[0..n) as a heap whose root is the least bad row (by_worst). */
static void sift_down(struct scan_row *h, size_t n, size_t i, const struct scan_result *r)
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
static void select_worst(struct scan_row *v, size_t n, size_t k, const struct scan_result *r)
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

/* Sort the rows; returns how many leading ones are read. Without samples a
 * table of `limit` rows needs only the worst few: selecting them, not sorting
 * all (52,083 rows for libLLVM-14 to show 40), took the sort off a scan's
 * profile; limit + 1 rows hold the limit's rows and the one that makes "...
 * and more". */
static size_t sort_rows(const struct scan_result *r, unsigned long limit, struct scan_row *v,
			size_t n)
{
	size_t k = limit && limit < n ? limit + 1 : n;

	if (!r->hot && k < n) {
		select_worst(v, n, k, r);
		return k;
	}
	qsort_r(v, n, sizeof *v, r->hot ? by_hot : by_worst, (void *)r);
	return n;
}

bool scan_row_folded(const struct scan_result *r, const struct scan_row *x, double min_share)
{
	return r->hot && hot_share(r, scan_row_samples(x)) < min_share;
}

void scan_rows(const struct scan_result *r, unsigned long limit, double min_share,
	       bool keep_free, struct scan_rows *out)
{
	struct scan_row *v;
	size_t total = collect_rows(r, &v), n = sort_rows(r, limit, v, total), k = 0;

	memset(out, 0, sizeof *out);
	out->total = total;
	for (size_t i = 0; i < total && !keep_free; i++)    /* sorted last, past any limit */
		out->free += !scan_row_folded(r, &v[i], min_share) &&
			     price_tier(v[i].priced) == TIER_FREE;
	for (size_t i = 0; i < n; i++) {
		if (scan_row_folded(r, &v[i], min_share))
			out->folded++;
		else if (!keep_free && price_tier(v[i].priced) == TIER_FREE)
			continue;
		else if (limit && k >= limit)
			out->more++;
		else
			v[k++] = v[i];
	}
	out->v = v;
	out->n = k;
	out->hazards = xcalloc(r->nhazard + 1, sizeof *out->hazards);
	for (size_t i = 0, at = 0; i < k; i++) {
		v[i].h = out->hazards + at;
		v[i].nh = scan_row_hazards(r, &v[i], out->hazards + at);
		at += v[i].nh;
	}
}

void scan_rows_free(struct scan_rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i].source);
		free(rs->v[i].compiler_fix);
	}
	free(rs->v);
	free(rs->hazards);
	memset(rs, 0, sizeof *rs);
}

size_t scan_row_windows(const struct scan_result *r, const struct scan_row *x,
			struct row_window out[static 16])
{
	uint64_t start = scan_row_addr(r, x), bytes = scan_row_bytes(r, x);
	unsigned w[16];
	size_t nw = hazard_windows(x->h, x->nh, w);

	for (size_t i = 0; i < nw; i++)         /* window 0: a document's nonsense */
		out[i] = !w[i] ? (struct row_window){ 0, 0, 0 } : (struct row_window){ w[i],
			x->loop ? loop_touched(r, x->loop, w[i]) :
				  windows_touched(start, start + bytes, w[i]),
			x->loop ? windows_best(bytes, w[i]) : 1 };
	return nw;
}

/* ---- diff ---- */

static uint64_t diff_row_bytes(const struct diff_row *v)
{
	const struct loop_report *l = v->ch->lnew ? v->ch->lnew : v->ch->lold;

	return l ? l->bytes : v->ch->fnew ? 64 : 0;
}

/* Worst first: priced rows before bounds; with --hot the most a fix saves
 * (share and price), then severity (hot_order, as scan --hot); else hot
 * before cold text (a list walk in init code runs once), the costlier,
 * severity, then smaller loops. */
static int diff_by_worst(const void *a, const void *b, void *ctx)
{
	const struct scan_result *new = ctx;
	const struct diff_row *x = a, *y = b;
	uint64_t bx = diff_row_bytes(x), by = diff_row_bytes(y);
	enum price_tier tx = price_tier(x->priced), ty = price_tier(y->priced);
	int o = !new->hot ? 0 : tx != ty ? (tx < ty ? -1 : 1) :
		hot_order(hazard_saves(x->priced, x->share), x->lead->severity,
			  hazard_saves(y->priced, y->share), y->lead->severity);

	if (o)
		return o;
	if (x->ch->cold != y->ch->cold)
		return x->ch->cold ? 1 : -1;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->priced->slowdown != y->priced->slowdown)
		return x->priced->slowdown > y->priced->slowdown ? -1 : 1;
	if (x->lead->severity != y->lead->severity)
		return x->lead->severity > y->lead->severity ? -1 : 1;
	if (bx != by)
		return bx < by ? -1 : 1;
	return (x->ch > y->ch) - (x->ch < y->ch);
}

/* The rows of the hazards gained (added) or lost: a change's hazards of one
 * rule, over profiles and windows, are one row (one loop had four rows and
 * two fixes); d->refs holds each change's by rule. */
static size_t collect_diff_rows(const struct layout_diff *d, const struct scan_result *new,
				bool added, struct diff_row **out)
{
	struct diff_row *v = xcalloc(d->nrefs + 1, sizeof *v);
	size_t nv = 0;

	for (size_t k = 0; k < d->n; k++) {
		const struct layout_change *ch = &d->v[k];
		const struct hazard *const *h = d->refs + (added ? ch->added : ch->removed);
		uint32_t n = added ? ch->nadded : ch->nremoved;

		for (uint32_t i = 0; i < n;) {
			uint32_t j = i;

			while (j < n && h[j]->rule == h[i]->rule)
				j++;
			v[nv++] = (struct diff_row){ .ch = ch, .h = h + i, .n = j - i,
						     .lead = worst_hazard(h + i, j - i),
						     .priced = costliest_hazard(h + i, j - i),
						     .share = hot_share(new, layout_change_samples(ch)) };
			i = j;
		}
	}
	qsort_r(v, nv, sizeof *v, diff_by_worst, (void *)new);
	*out = v;
	return nv;
}

void diff_rows(const struct layout_diff *d, const struct scan_result *new, bool added,
	       double min_share, struct diff_rows *out)
{
	size_t n = collect_diff_rows(d, new, added, &out->v), k = 0;

	out->folded = out->free = 0;
	for (size_t i = 0; i < n; i++)
		if (layout_change_folded(out->v[i].ch, new, min_share))
			out->folded++;
		else if (price_tier(out->v[i].priced) == TIER_FREE)
			out->free++;
		else
			out->v[k++] = out->v[i];
	out->n = k;
	out->added = added;
}

void diff_rows_free(struct diff_rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i].source);
		free(rs->v[i].compiler_fix);
	}
	free(rs->v);
	memset(rs, 0, sizeof *rs);
}

size_t diff_row_count(const struct layout_diff *d, bool added, size_t by_cause[NCAUSE])
{
	size_t n = 0;

	memset(by_cause, 0, NCAUSE * sizeof *by_cause);
	for (size_t k = 0; k < d->n; k++) {
		const struct layout_change *ch = &d->v[k];
		const struct hazard *const *h = d->refs + (added ? ch->added : ch->removed);
		uint32_t nh = added ? ch->nadded : ch->nremoved;

		for (uint32_t i = 0; i < nh; i++)
			if (i == 0 || h[i]->rule != h[i - 1]->rule) {
				by_cause[ch->cause]++;
				n++;
			}
	}
	return n;
}

const char *diff_row_name(const struct diff_sides *s, const struct layout_change *ch)
{
	return ch->fnew ? s->new->funcs.v[ch->fnew->func].shown : s->old->funcs.v[ch->fold->func].shown;
}


/* ---- what a row says that only the image knows ---- */

void scan_rows_resolve(struct scan_rows *rows, struct elf_image *img, const struct scan_result *r,
		       bool source_lines)
{
	for (size_t i = 0; i < rows->n; i++) {
		struct scan_row *x = &rows->v[i];
		uint32_t sec = r->funcs.v[x->func->func].sec;
		char src[128], buf[256];

		if (source_lines && *elf_source_line(img, sec, scan_row_addr(r, x), src, sizeof src))
			x->source = xstrdup(src);
		compiler_fix(img, sec, scan_row_addr(r, x), fix_align_all(x->h, x->nh), x->loop != NULL,
			     x->lead, buf, sizeof buf);
		if (*buf)
			x->compiler_fix = xstrdup(buf);
	}
}

/* "st.c:5" of a change's subject, on the side it is on (the new one when
 * both): a loop of one side is looked up in that side's image, not the
 * function's entry on the other (a loop removed from a matched function
 * was given the new build's entry line); NULL without DWARF. The image's
 * DWARF is opened on first use, which changes only its cache, not what it
 * reads. */
static char *subject_source(const struct diff_images *im, const struct layout_change *ch)
{
	bool new = ch->entry ? ch->fnew != NULL : ch->lnew != NULL;
	const struct scan_result *r = new ? im->sides.new : im->sides.old;
	const struct func_report *f = new ? ch->fnew : ch->fold;
	const struct loop_report *l = ch->entry ? NULL : new ? ch->lnew : ch->lold;
	/* a loop's side has its function; an entry is on the side it names */
	const struct elf_func *fn = &r->funcs.v[f->func];
	char buf[128];

	if (!*elf_source_line(new ? im->new : im->old, fn->sec, l ? l->start : fn->addr, buf,
			      sizeof buf))
		return NULL;
	return xstrdup(buf);
}

/* "GCC: -falign-loops=16 for the unit", from the new build's DWARF (a fix
 * is for the build that has the hazard); NULL when not known. */
static char *subject_compiler_fix(const struct diff_images *im, const struct diff_row *v)
{
	const struct layout_change *ch = v->ch;
	const struct scan_result *r = ch->fnew ? im->sides.new : im->sides.old;
	const struct func_report *f = ch->fnew ? ch->fnew : ch->fold;
	const struct loop_report *l = ch->entry ? NULL : ch->fnew ? ch->lnew : ch->lold;
	const struct elf_func *fn = &r->funcs.v[f->func];
	char cfix[256];

	compiler_fix(ch->fnew ? im->new : im->old, fn->sec, l ? l->start : fn->addr,
		     fix_align_all(v->h, v->n), l != NULL, v->lead, cfix, sizeof cfix);
	return *cfix ? xstrdup(cfix) : NULL;
}

void diff_rows_resolve(struct diff_rows *rows, const struct diff_images *im, bool added,
		       size_t limit, bool source_lines)
{
	for (size_t i = 0; i < rows->n && (!limit || i < limit); i++) {
		if (source_lines)
			rows->v[i].source = subject_source(im, rows->v[i].ch);
		if (added)
			rows->v[i].compiler_fix = subject_compiler_fix(im, &rows->v[i]);
	}
}
