/* The cells of scan's and diff's rows (model/rows.h), in the order of
 * their column lists, for the text, the markdown and the page alike: the
 * detail cell, the addresses and bytes old -> new, the fix with the
 * compiler's words. */
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* " in 2 pieces: 0x8ff70/5 0x8ff80/7" after what buf holds: the runs every
 * iteration fetches, each with its bytes. */
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
 * windows in the order of its window column. */
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
	if (scan_row_spins(x))
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
