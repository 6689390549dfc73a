/* The one row model of scan and diff (issue 23): which hazards make a row,
 * the order of the rows with and without samples, which rows --min-share
 * folds, and the detail cell. Every renderer (text, markdown, SARIF, the
 * HTML page) takes its rows from here, so they cannot disagree (perf's
 * util/sort.c: each order defined once). The page renders a scan_result
 * read back from the document (results_read_scan), the terminal the one
 * just scanned: the same structs, the same rows. */
#include "report.h"

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

static bool row_spins(const struct scan_row *x)
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

/* Worst first: hot text before init/exit/unlikely/cold text (which runs
 * once or rarely, issue 8: 767 .init.text loops ranked like hot code),
 * every other row before a spin loop's (a wait: its iterations are not
 * work, issue 21), then by price (by_price), then severity, then smaller
 * (tighter) loops, then address. */
static int by_worst(const void *a, const void *b, void *ctx)
{
	const struct scan_result *r = ctx;
	const struct scan_row *x = a, *y = b;
	uint64_t bx = scan_row_bytes(r, x), by = scan_row_bytes(r, y);
	uint64_t ax = scan_row_addr(r, x), ay = scan_row_addr(r, y);
	int o;

	if (x->func->cold_text != y->func->cold_text)
		return x->func->cold_text ? 1 : -1;
	if (row_spins(x) != row_spins(y))
		return row_spins(x) ? 1 : -1;
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
	int o = row_spins(x) != row_spins(y) ? (row_spins(x) ? 1 : -1) :
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

/* Sort the rows; returns how many leading ones are read. Without samples
 * a table of `limit` rows needs only the worst few: selecting them, not
 * sorting all (52,083 rows for libLLVM-14 to show 40), took the sort off a
 * scan's profile (issue 8); limit + 1 rows hold the limit's rows and the
 * one that makes "... and more". */
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

/* The branch at fault, else windows touched/best for each of the row's
 * windows in the order of its window column (issue 24). */
static void format_detail(const struct scan_result *r, const struct scan_row *x, char *buf,
			  size_t n)
{
	const struct hazard *h = x->lead;
	struct row_window w[16];
	size_t nw = scan_row_windows(r, x, w);
	int k = 0;

	buf[0] = 0;
	if (h->branch && h->pair != h->branch)
		snprintf(buf, n, "%s %#" PRIx64 " pair %#" PRIx64,
			 branch_kind_name(h->branch_kind), h->branch, h->pair);
	else if (h->branch)
		snprintf(buf, n, "%s %#" PRIx64, branch_kind_name(h->branch_kind), h->branch);
	else if (!h->window)
		snprintf(buf, n, "-");  /* a document's nonsense: no window to count */
	else
		for (size_t i = 0; i < nw && k >= 0 && (size_t)k < n; i++)
			k += !w[i].window ? 0 : snprintf(buf + k, n - (size_t)k, "%s%u/%u",
							 i ? "," : "", w[i].touched, w[i].best);
	if (x->loop && x->loop->npiece > 1)
		format_pieces(r, x->loop, buf, n);
	if (row_spins(x))
		snprintf(buf + strlen(buf), n - strlen(buf), ", spin");
}

/* "0.5" */
static void format_share(double share, char *buf, size_t n)
{
	snprintf(buf, n, "%.1f", 100 * share);
}

void scan_row_cells(const struct scan_result *r, const struct scan_row *x,
		    struct scan_cells *c)
{
	const struct hazard *lead = x->lead, *priced = costliest_hazard(x->h, x->nh);
	double share = hot_share(r, scan_row_samples(x));
	size_t len;

	c->profiles = (struct strbuf){ 0 };
	format_profiles(x->h, x->nh, &c->profiles);
	hex_addr(c->addr, scan_row_addr(r, x));
	snprintf(c->bytes, sizeof c->bytes, "%" PRIu64, scan_row_bytes(r, x));
	format_window_list(x->h, x->nh, c->windows, sizeof c->windows);
	format_detail(r, x, c->detail, sizeof c->detail);
	format_fix_all(x->h, x->nh, c->fix, sizeof c->fix);
	len = strlen(c->fix);
	if (x->compiler_fix && *x->compiler_fix)
		snprintf(c->fix + len, sizeof c->fix - len, "; %s", x->compiler_fix);
	format_loop_placement(lead, x->loop && x->loop->span_uncertain, c->placement,
			      sizeof c->placement);
	format_cost(priced, c->cost, sizeof c->cost);
	format_share(share, c->samples, sizeof c->samples);
	if (priced->slowdown > 0)
		format_share(hazard_saves(priced, share), c->saves, sizeof c->saves);
	else
		snprintf(c->saves, sizeof c->saves, "-");
	const char *cells[SCAN_COLS] = { c->samples, c->saves, severity_name(lead->severity),
		r->funcs.v[x->func->func].shown, lead->section ? lead->section : "-", c->addr,
		x->source && *x->source ? x->source : "-", c->bytes, c->windows, c->detail,
		rule_name(lead->rule), sb_str(&c->profiles), c->placement, c->cost, c->fix };
	memcpy(c->cell, cells, sizeof cells);
}

const char *const scan_cols[SCAN_COLS] = { ">samples %", ">saves %", "severity", "function",
	"section", "address", "source", ">bytes", "window", "detail", "rule", "profile",
	"placement", "cost", "fix" };

/* ---- diff ---- */

static uint64_t diff_row_bytes(const struct diff_row *v)
{
	const struct loop_report *l = v->ch->lnew ? v->ch->lnew : v->ch->lold;

	return l ? l->bytes : v->ch->fnew ? 64 : 0;
}

/* Worst first: priced rows before bounds; with --hot the most a fix saves
 * (share and price), then severity (hot_order, as scan --hot); else hot
 * before cold text (a list walk in init code runs once: issue 10), the
 * costlier, severity, then smaller loops. */
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

/* The rows of the hazards gained (added) or lost: a change's hazards of
 * one rule, over profiles and windows, are one row (issue 24: one loop had
 * four rows and two fixes); d->refs holds each change's by rule. */
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

static void entry_columns(const struct diff_sides *s, const struct layout_change *ch,
			  unsigned w, char *addr, char *bytes, char *tb, size_t n)
{
	const struct elf_func *fo = ch->fold ? &s->old->funcs.v[ch->fold->func] : NULL;
	const struct elf_func *fn = ch->fnew ? &s->new->funcs.v[ch->fnew->func] : NULL;

	format_pair(addr, n, "%#" PRIx64, fo, fo ? fo->addr : 0, fn, fn ? fn->addr : 0);
	format_pair(bytes, n, "%" PRIu64, fo, fo ? fo->size : 0, fn, fn ? fn->size : 0);
	if (w)
		format_pair(tb, n, "%" PRIu64, fo, fo ? windows_touched(fo->addr, fo->addr + fo->size, w) : 0,
			    fn, fn ? windows_touched(fn->addr, fn->addr + fn->size, w) : 0);
}

void diff_subject_columns(const struct diff_sides *s, const struct layout_change *ch,
			  unsigned w, char *addr, char *bytes, char *tb, size_t n)
{
	const struct loop_report *lo = ch->lold, *ln = ch->lnew;

	if (ch->entry) {
		entry_columns(s, ch, w, addr, bytes, tb, n);
		return;
	}
	format_pair(addr, n, "%#" PRIx64, lo, lo ? lo->start : 0, ln, ln ? ln->start : 0);
	format_pair(bytes, n, "%" PRIu64, lo, lo ? lo->bytes : 0, ln, ln ? ln->bytes : 0);
	if (!w)
		return;
	char o[24] = "-", nw[24] = "-";
	if (lo)
		snprintf(o, sizeof o, "%u/%u", loop_touched(s->old, lo, w), windows_best(lo->bytes, w));
	if (ln)
		snprintf(nw, sizeof nw, "%u/%u", loop_touched(s->new, ln, w), windows_best(ln->bytes, w));
	snprintf(tb, n, "%s -> %s", o, nw);
}

/* touched/best of the old and new subject in each of the row's windows,
 * in the order of its window column: "1/1,1/1 -> 2/1,2/1". */
static void windows_columns(const struct diff_sides *s, const struct diff_row *v, char *tb,
			    size_t n)
{
	struct strbuf old = { 0 }, new = { 0 };
	unsigned w[16];
	size_t nw = hazard_windows(v->h, v->n, w);

	for (size_t i = 0; i < nw; i++) {
		char a[64], b[64], one[64] = "";
		const char *arrow;

		if (!w[i])
			continue;       /* a document's nonsense: no window to count */
		diff_subject_columns(s, v->ch, w[i], a, b, one, sizeof one);
		arrow = strstr(one, " -> ");
		if (!arrow)
			continue;
		sb_addf(&old, "%s%.*s", i ? "," : "", (int)(arrow - one), one);
		sb_addf(&new, "%s%s", i ? "," : "", arrow + 4);
	}
	/* a side the subject is not on is "-", not one "-" per window */
	snprintf(tb, n, "%s -> %s", v->ch->lold || (v->ch->entry && v->ch->fold) ? sb_str(&old) : "-",
		 v->ch->lnew || (v->ch->entry && v->ch->fnew) ? sb_str(&new) : "-");
	sb_free(&old);
	sb_free(&new);
}

void diff_row_cells(const struct diff_sides *s, const struct diff_row *v, bool added,
		    struct diff_cells *c)
{
	const struct hazard *h = v->lead;
	size_t len;

	c->profiles = (struct strbuf){ 0 };
	c->detail[0] = 0;
	format_profiles(v->h, v->n, &c->profiles);
	diff_subject_columns(s, v->ch, 0, c->addr, c->bytes, c->detail, sizeof c->addr);
	windows_columns(s, v, c->detail, sizeof c->detail);
	format_fix_all(v->h, v->n, c->fix, sizeof c->fix);
	len = strlen(c->fix);
	if (v->compiler_fix && *v->compiler_fix)
		snprintf(c->fix + len, sizeof c->fix - len, "; %s", v->compiler_fix);
	format_window_list(v->h, v->n, c->windows, sizeof c->windows);
	snprintf(c->samples, sizeof c->samples, "%.1f", 100 * v->share);
	format_cost(v->priced, c->cost, sizeof c->cost);
	const char *cells[DIFF_COLS] = { c->samples, severity_name(h->severity),
		diff_row_name(s, v->ch), cause_name(v->ch->cause), c->addr,
		v->source && *v->source ? v->source : "-", c->bytes, c->windows, c->detail,
		rule_name(h->rule), sb_str(&c->profiles), c->cost, added ? c->fix : "-" };
	memcpy(c->cell, cells, sizeof cells);
}

/* touched/best is of the window of the row's worst hazard (v->lead) */
const char *const diff_cols[DIFF_COLS] = { ">samples %", "severity", "function", "cause",
	"address", "source", "bytes", "window", "touched/best", "rule", "profile", "cost", "fix" };
