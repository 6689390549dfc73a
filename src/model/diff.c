/* What a change did to the layout: two scans of builds of the same code,
 * matched function by function and loop by loop, with the hazards each gained
 * and lost and why (seed 000: a commit that only changed operand encodings;
 * seed 003: code added before the vDSO functions).
 *
 * Functions are matched by name first; what is left by the name without a
 * compiler suffix, by the shape of the code (stripped code has no names:
 * fde@0x... is an address), by the nearest shape and by order between two
 * functions already matched (60,901 of libLLVM-14's functions had no partner
 * in -15 by name alone). What still has none is new or removed, and its
 * hazards are new or gone like any other. Loops inside a matched function are
 * matched by shape, then by position. */
#include "rules.h"
#include "shape.h"
#include "scan.h"
#include "diff.h"
#include "hot.h"

#include <stdlib.h>
#include <string.h>

static const char *const cause_names[NCAUSE] = { "changed", "moved", "new", "removed" };
static const char *const how_names[NMATCH] = { "name", "base-name", "shape",
	"nearest-shape", "order" };

const char *cause_name(enum diff_cause c)
{
	return c < NCAUSE ? cause_names[c] : "?";
}

int cause_from_name(const char *name)
{
	for (int c = 0; c < NCAUSE; c++)
		if (!strcmp(name, cause_names[c]))
			return c;
	return -1;
}

const char *match_how_name(enum match_how h)
{
	return h < NMATCH ? how_names[h] : "?";
}

/* Kernel padding before each function (-fpatchable-function-entry's __pfx_,
 * kCFI's __cfi_ type hash) has symbols but is no function: 49,066 of them in
 * a 6.12 vmlinux. The scan leaves them out (scan.c); diff checks again. */
static bool is_padding(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6);
}

/* ---- matching functions ---- */

struct matcher {
	const struct diff_side *o, *n;
	int32_t *mo, *mn;               /* partner's index into the other func[], -1: none */
	struct layout_diff *d;
};

static const struct elf_func *func_of(const struct diff_side *s, size_t i)
{
	return &s->r->funcs.v[s->r->func[i].func];
}

static bool takes_part(const struct diff_side *s, size_t i)
{
	return !is_padding(func_of(s, i)->name);
}

/* Fewer instructions than this say little about which function it is: two
 * named functions that short are not called a rename by their content. */
#define RENAME_MIN_INSNS 8

/* May old func[i] and new func[j] be matched by their content, their
 * names differing? Not a cold part (foo.cold: call a warning, ud2, all
 * alike; it is its parent's and matches by name), and not two named
 * functions too short to tell apart. */
static bool content_may_match(const struct matcher *m, size_t i, size_t j)
{
	const struct elf_func *fo = func_of(m->o, i), *fn = func_of(m->n, j);

	if (func_name_cold_part(fo->name) || func_name_cold_part(fn->name))
		return false;
	return fo->source == FROM_FDE || fn->source == FROM_FDE ||
	       (m->o->r->func[i].ninsn >= RENAME_MIN_INSNS &&
		m->n->r->func[j].ninsn >= RENAME_MIN_INSNS);
}

static void pair(struct matcher *m, size_t i, size_t j, enum match_how how)
{
	const struct func_report *fo = &m->o->r->func[i], *fn = &m->n->r->func[j];
	struct layout_diff *d = m->d;

	m->mo[i] = (int32_t)j;
	m->mn[j] = (int32_t)i;
	d->matched_by[how]++;
	d->funcs_matched++;
	if (strcmp(func_of(m->o, i)->name, func_of(m->n, j)->name)) {
		GROW(d->renamed, d->renamed_cap, d->nrenamed + 1);
		d->renamed[d->nrenamed++] = (struct func_rename){ fo, fn, (uint8_t)how };
	}
}

/* A name and the part of it compared (all of it, or its base). */
struct named {
	const char *name;
	size_t len;
	size_t i;                       /* index into func[] */
};

static int cmp_named(const struct named *x, const struct named *y)
{
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = cmp_named(x, y);

	return c ? c : (x->i > y->i) - (x->i < y->i);   /* address order within a name */
}

/* The name without the suffixes GCC and Clang give local copies
 * (foo.constprop.0, foo.isra.0.part.1, foo.cold, foo.llvm.1234): its
 * length. */
static size_t base_name_length(const char *name)
{
	static const char *const suffix[] = { ".constprop.", ".isra.", ".part.", ".cold",
		".lto_priv.", ".llvm." };
	size_t len = strlen(name);

	for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++) {
		const char *p = strstr(name, suffix[k]);

		if (p && (size_t)(p - name) < len && p > name)
			len = (size_t)(p - name);
	}
	return len;
}

/* The unmatched named functions of a side (an fde@ name is an address, not
 * a name), sorted by name or by base name. */
static struct named *unmatched_names(const struct diff_side *s, const int32_t *m, bool base,
				     size_t *count)
{
	struct named *v = xcalloc(s->r->nfunc + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < s->r->nfunc; i++) {
		const struct elf_func *f = func_of(s, i);

		if (m[i] >= 0 || !takes_part(s, i) || f->source == FROM_FDE)
			continue;
		v[n++] = (struct named){ f->name, base ? base_name_length(f->name) : strlen(f->name), i };
	}
	qsort(v, n, sizeof *v, by_name);
	*count = n;
	return v;
}

/* A cold part goes with a cold part: foo.cold and foo share a base name. */
static bool same_part(const struct matcher *m, size_t i, size_t j)
{
	return func_name_cold_part(func_of(m->o, i)->name) == func_name_cold_part(func_of(m->n, j)->name);
}

/* Within one name (or base name): first the same shape, then in order. */
static void pair_group(struct matcher *m, const struct named *a, size_t na,
		       const struct named *b, size_t nb, enum match_how how)
{
	for (int pass = how == MATCH_BASE_NAME ? 0 : 1; pass < 2; pass++)
		for (size_t x = 0; x < na; x++)
			for (size_t y = 0; y < nb && m->mo[a[x].i] < 0; y++)
				if (m->mn[b[y].i] < 0 && same_part(m, a[x].i, b[y].i) &&
				    (pass || m->o->r->func[a[x].i].shape.shape ==
					     m->n->r->func[b[y].i].shape.shape))
					pair(m, a[x].i, b[y].i, how);
}

static void match_names(struct matcher *m, bool base)
{
	size_t na, nb, i = 0, j = 0;
	struct named *a = unmatched_names(m->o, m->mo, base, &na);
	struct named *b = unmatched_names(m->n, m->mn, base, &nb);

	while (i < na && j < nb) {
		int c = cmp_named(&a[i], &b[j]);
		size_t i1 = i, j1 = j;

		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		while (i1 < na && !cmp_named(&a[i1], &a[i]))
			i1++;
		while (j1 < nb && !cmp_named(&b[j1], &b[j]))
			j1++;
		pair_group(m, a + i, i1 - i, b + j, j1 - j, base ? MATCH_BASE_NAME : MATCH_NAME);
		i = i1;
		j = j1;
	}
	free(a);
	free(b);
}

/* ---- by shape ---- */

struct shaped {
	uint64_t shape;
	size_t i;
};

static int by_shape(const void *a, const void *b)
{
	const struct shaped *x = a, *y = b;

	if (x->shape != y->shape)
		return x->shape < y->shape ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static struct shaped *unmatched_shapes(const struct diff_side *s, const int32_t *m, size_t *count)
{
	struct shaped *v = xcalloc(s->r->nfunc + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < s->r->nfunc; i++)
		if (m[i] < 0 && takes_part(s, i))
			v[n++] = (struct shaped){ s->r->func[i].shape.shape, i };
	qsort(v, n, sizeof *v, by_shape);
	*count = n;
	return v;
}

/* The same mnemonic sequence, as many times on each side: in order. A
 * shape that is more common on one side (a two-instruction thunk) is left
 * to the order between neighbours. */
static void match_shapes(struct matcher *m)
{
	size_t na, nb, i = 0, j = 0;
	struct shaped *a = unmatched_shapes(m->o, m->mo, &na);
	struct shaped *b = unmatched_shapes(m->n, m->mn, &nb);

	while (i < na && j < nb) {
		size_t i1 = i, j1 = j;

		if (a[i].shape != b[j].shape) {
			*(a[i].shape < b[j].shape ? &i : &j) += 1;
			continue;
		}
		while (i1 < na && a[i1].shape == a[i].shape)
			i1++;
		while (j1 < nb && b[j1].shape == b[j].shape)
			j1++;
		if (i1 - i == j1 - j)
			for (size_t k = 0; k < i1 - i; k++)
				if (content_may_match(m, a[i + k].i, b[j + k].i))
					pair(m, a[i + k].i, b[j + k].i, MATCH_SHAPE);
		i = i1;
		j = j1;
	}
	free(a);
	free(b);
}

/* ---- between matched neighbours ---- */

/* Pairs in one gap tried for the nearest shape; a larger gap (a rewritten
 * file) is left to order alone rather than cost quadratic time. */
#define GAP_PAIRS 4096

struct candidate {
	unsigned distance;
	uint32_t a, b;                  /* into the gap's lists */
};

static int by_distance(const void *x, const void *y)
{
	const struct candidate *p = x, *q = y;

	if (p->distance != q->distance)
		return p->distance < q->distance ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/* Near: at most a quarter of the larger function's instructions differ. */
static bool near(const struct func_report *x, const struct func_report *y, unsigned dist)
{
	uint32_t big = x->ninsn > y->ninsn ? x->ninsn : y->ninsn;

	return (uint64_t)dist * 4 <= big;
}

static void match_nearest(struct matcher *m, const size_t *a, size_t na, const size_t *b,
			  size_t nb)
{
	struct candidate *c;
	size_t nc = 0;

	if (!na || !nb || na * nb > GAP_PAIRS)
		return;
	c = xcalloc(na * nb, sizeof *c);
	for (size_t x = 0; x < na; x++)
		for (size_t y = 0; y < nb; y++) {
			const struct func_report *fo = &m->o->r->func[a[x]], *fn = &m->n->r->func[b[y]];
			unsigned dist = shape_distance(&fo->shape, &fn->shape);

			if (near(fo, fn, dist) && content_may_match(m, a[x], b[y]))
				c[nc++] = (struct candidate){ dist, (uint32_t)x, (uint32_t)y };
		}
	qsort(c, nc, sizeof *c, by_distance);
	for (size_t k = 0; k < nc; k++)
		if (m->mo[a[c[k].a]] < 0 && m->mn[b[c[k].b]] < 0)
			pair(m, a[c[k].a], b[c[k].b], MATCH_NEAREST);
	free(c);
}

/* The unmatched functions of func[lo, hi) of a side, in order. */
static size_t gap_members(const struct diff_side *s, const int32_t *m, size_t lo, size_t hi,
			  size_t *out)
{
	size_t n = 0;

	for (size_t i = lo; i < hi; i++)
		if (m[i] < 0 && takes_part(s, i))
			out[n++] = i;
	return n;
}

static void match_gap(struct matcher *m, size_t olo, size_t ohi, size_t nlo, size_t nhi,
		      size_t *a, size_t *b)
{
	size_t na = gap_members(m->o, m->mo, olo, ohi, a);
	size_t nb = gap_members(m->n, m->mn, nlo, nhi, b);

	match_nearest(m, a, na, b, nb);
	na = gap_members(m->o, m->mo, olo, ohi, a);
	nb = gap_members(m->n, m->mn, nlo, nhi, b);
	if (na == nb)
		for (size_t k = 0; k < na; k++)
			if (content_may_match(m, a[k], b[k]))
				pair(m, a[k], b[k], MATCH_ORDER);
}

/* The matched functions of old func[] that are in the same order on both
 * sides, as many as can be (the longest increasing subsequence of their
 * partners' indices): a function matched far from where it was, a small
 * one matched by a shape it shares, is no anchor. */
static bool *anchors(const struct matcher *m)
{
	size_t no = m->o->r->nfunc, len = 0;
	size_t *tail = xcalloc(no + 1, sizeof *tail);  /* old index ending a run of length k+1 */
	size_t *prev = xcalloc(no + 1, sizeof *prev);
	bool *is = xcalloc(no + 1, sizeof *is);

	for (size_t i = 0; i < no; i++) {
		size_t lo = 0, hi = len;

		if (m->mo[i] < 0)
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (m->mo[tail[mid]] < m->mo[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = i;
		len += lo == len;
	}
	for (size_t i = len ? tail[len - 1] : SIZE_MAX; i != SIZE_MAX; i = prev[i])
		is[i] = true;
	free(tail);
	free(prev);
	return is;
}

/* Between two anchors the unmatched functions of each side are one gap. */
static void match_gaps(struct matcher *m)
{
	size_t no = m->o->r->nfunc, nn = m->n->r->nfunc, pi = 0, pj = 0;
	size_t *a = xcalloc(no + 1, sizeof *a), *b = xcalloc(nn + 1, sizeof *b);
	bool *anchor = anchors(m);

	for (size_t i = 0; i <= no; i++) {
		size_t j = i < no ? (size_t)m->mo[i] : nn;

		if (i < no && !anchor[i])
			continue;
		match_gap(m, pi, i, pj, j, a, b);
		pi = i + 1;
		pj = j + 1;
	}
	free(anchor);
	free(a);
	free(b);
}

/* ---- hazards gained and lost ---- */

static bool same_hazard(const struct hazard *a, const struct hazard *b)
{
	return a->profile == b->profile && a->rule == b->rule && a->window == b->window;
}

static bool contains(const struct hazard *v, uint32_t n, const struct hazard *h)
{
	for (uint32_t i = 0; i < n; i++)
		if (same_hazard(&v[i], h))
			return true;
	return false;
}

static void add_ref(struct layout_diff *d, const struct hazard *h)
{
	GROW(d->refs, d->refs_cap, d->nrefs + 1);
	d->refs[d->nrefs++] = h;
}

/* By rule, then as the scan listed them (profile by profile). */
static int by_rule(const void *x, const void *y)
{
	const struct hazard *a = *(const struct hazard *const *)x;
	const struct hazard *b = *(const struct hazard *const *)y;

	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	return (a > b) - (a < b);
}

/* Hazards of b missing from a, appended to refs, those of one rule together
 * (a row of diff is a subject's rule); returns how many. */
static uint32_t missing(struct layout_diff *d, const struct hazard *a, uint32_t na,
			const struct hazard *b, uint32_t nb)
{
	size_t first = d->nrefs;
	uint32_t n = 0;

	for (uint32_t i = 0; i < nb; i++)
		if (!contains(a, na, &b[i])) {
			add_ref(d, &b[i]);
			n++;
		}
	if (n > 1)
		qsort(d->refs + first, n, sizeof *d->refs, by_rule);
	return n;
}

static struct layout_change *new_change(struct layout_diff *d)
{
	GROW(d->v, d->cap, d->n + 1);
	memset(&d->v[d->n], 0, sizeof d->v[d->n]);
	return &d->v[d->n++];
}

/* One side of a subject: its hazards (none when it is missing). */
static const struct hazard *hazards_of(const struct scan_result *r, const struct func_report *f,
				       const struct loop_report *l, bool entry, uint32_t *n)
{
	*n = l ? l->nhazard : entry && f ? f->nhazard : 0;
	return *n ? r->hazard + (l ? l->hazard : f->hazard) : NULL;
}

static enum diff_cause cause_of(const struct layout_change *c)
{
	uint64_t a, b;

	if (c->entry ? !c->fold : !c->lold)
		return CAUSE_NEW;
	if (c->entry ? !c->fnew : !c->lnew)
		return CAUSE_REMOVED;
	a = c->entry ? c->fold->shape.form : c->lold->form_hash;
	b = c->entry ? c->fnew->shape.form : c->lnew->form_hash;
	return a == b ? CAUSE_MOVED : CAUSE_CHANGED;
}

/* What one subject is compared in: the two scans, the two functions (one
 * NULL when the function is new or removed) and whether it is cold. */
struct pairing {
	const struct scan_result *ro, *rn;
	const struct func_report *fo, *fn;
	bool cold;
};

/* Record the change of one subject (a loop pair, or a function's entry
 * when both loops are NULL); nothing when nothing changed. Whatever is on
 * one side only is a change. */
static bool compare(struct layout_diff *d, const struct pairing *p,
		    const struct loop_report *lo, const struct loop_report *ln, bool entry)
{
	uint32_t no, nn;
	const struct hazard *ho = hazards_of(p->ro, p->fo, lo, entry, &no);
	const struct hazard *hn = hazards_of(p->rn, p->fn, ln, entry, &nn);
	struct layout_change c = { .fold = p->fo, .fnew = p->fn, .lold = lo, .lnew = ln,
				   .entry = entry, .cold = p->cold };

	c.cause = (uint8_t)cause_of(&c);
	c.added = (uint32_t)d->nrefs;
	c.nadded = missing(d, ho, no, hn, nn);
	c.removed = (uint32_t)d->nrefs;
	c.nremoved = missing(d, hn, nn, ho, no);
	if (lo && ln)
		c.resized = lo->bytes != ln->bytes;
	if (entry && p->fo && p->fn)
		c.moved = p->fo->entry_align != p->fn->entry_align;
	if (!c.nadded && !c.nremoved && !c.resized && !(entry && c.moved) &&
	    (c.cause == CAUSE_CHANGED || c.cause == CAUSE_MOVED))
		return false;
	*new_change(d) = c;
	d->hazards_added += c.nadded;
	d->hazards_removed += c.nremoved;
	d->added_by[c.cause] += c.nadded;
	d->removed_by[c.cause] += c.nremoved;
	return true;
}

/* ---- matching loops inside a matched function ---- */

/* First by shape, in order (a loop that moved keeps its instructions);
 * then, between two loops so matched, the rest by position (the same loop,
 * edited); what is left was added or removed. Returns whether anything
 * changed. A function on one side only has every loop added or removed. */
static bool match_loops(struct layout_diff *d, const struct pairing *p)
{
	uint32_t no = p->fo ? p->fo->nloop : 0, nn = p->fn ? p->fn->nloop : 0;
	uint32_t next = 0, i = 0, j = 0;
	uint32_t *pair = xcalloc(no + 1, sizeof *pair);  /* new index + 1; 0: none */
	const struct loop_report *lo = no ? p->ro->loop + p->fo->loop : NULL;
	const struct loop_report *ln = nn ? p->rn->loop + p->fn->loop : NULL;
	bool changed = false;

	for (uint32_t a = 0; a < no; a++)
		for (uint32_t b = next; b < nn; b++)
			if (lo[a].shape_hash == ln[b].shape_hash) {
				pair[a] = b + 1;
				next = b + 1;
				break;
			}
	for (;;) {
		uint32_t ai = i, aj;

		while (ai < no && !pair[ai])
			ai++;
		aj = ai < no ? pair[ai] - 1 : nn;
		for (; i < ai && j < aj; i++, j++)
			changed |= compare(d, p, &lo[i], &ln[j], false);
		for (; i < ai; i++)
			changed |= compare(d, p, &lo[i], NULL, false);
		for (; j < aj; j++)
			changed |= compare(d, p, NULL, &ln[j], false);
		if (ai == no)
			break;
		changed |= compare(d, p, &lo[ai], &ln[aj], false);
		i = ai + 1;
		j = aj + 1;
	}
	free(pair);
	return changed;
}

static void only_on_one_side(struct layout_diff *d, const struct func_report *f, bool old)
{
	if (old) {
		GROW(d->only_old, d->only_old_cap, d->funcs_only_old + 1);
		d->only_old[d->funcs_only_old++] = f;
	} else {
		GROW(d->only_new, d->only_new_cap, d->funcs_only_new + 1);
		d->only_new[d->funcs_only_new++] = f;
	}
}

enum compared { SAME, CHANGED, LEFT_OUT };

/* Compare the functions of old func[i] and new func[j] (either may be
 * absent: SIZE_MAX). */
static enum compared compare_functions(struct matcher *m, const struct diff_opts *o, size_t i, size_t j)
{
	struct pairing p = { m->o->r, m->n->r,
		i != SIZE_MAX ? &m->o->r->func[i] : NULL, j != SIZE_MAX ? &m->n->r->func[j] : NULL,
		false };
	bool changed;

	p.cold = p.fn ? p.fn->cold_text : p.fo->cold_text;     /* the scan's one test */
	if (!p.fo || !p.fn)
		only_on_one_side(m->d, p.fo ? p.fo : p.fn, p.fo != NULL);
	if (p.cold && o->skip_cold) {
		m->d->funcs_cold_left_out++;
		return LEFT_OUT;
	}
	changed = match_loops(m->d, &p);
	changed |= compare(m->d, &p, NULL, NULL, true);
	return changed ? CHANGED : SAME;
}

void layout_diff(const struct diff_side *old, const struct diff_side *new,
		 const struct diff_opts *o, struct layout_diff *d)
{
	size_t no = old->r->nfunc, nn = new->r->nfunc;
	struct matcher m = { old, new, xcalloc(no + 1, sizeof *m.mo),
			     xcalloc(nn + 1, sizeof *m.mn), d };

	memset(d, 0, sizeof *d);
	memset(m.mo, 0xff, (no + 1) * sizeof *m.mo);
	memset(m.mn, 0xff, (nn + 1) * sizeof *m.mn);
	match_names(&m, false);
	match_names(&m, true);
	match_shapes(&m);
	match_gaps(&m);
	for (size_t i = 0; i < no; i++)
		if (takes_part(old, i)) {
			size_t j = m.mo[i] >= 0 ? (size_t)m.mo[i] : SIZE_MAX;

			d->funcs_unchanged += compare_functions(&m, o, i, j) == SAME && j != SIZE_MAX;
		}
	for (size_t j = 0; j < nn; j++)
		if (m.mn[j] < 0 && takes_part(new, j))
			compare_functions(&m, o, SIZE_MAX, j);
	for (size_t k = 0; k < d->n; k++) {
		d->loops_added += !d->v[k].lold && d->v[k].lnew;
		d->loops_removed += d->v[k].lold && !d->v[k].lnew;
		d->loops_resized += d->v[k].resized;
	}
	free(m.mo);
	free(m.mn);
}

uint64_t layout_change_samples(const struct layout_change *ch)
{
	uint64_t o = ch->lold ? ch->lold->samples : ch->fold ? ch->fold->samples : 0;
	uint64_t n = ch->lnew ? ch->lnew->samples : ch->fnew ? ch->fnew->samples : 0;

	return o > n ? o : n;
}

bool layout_change_folded(const struct layout_change *ch, const struct scan_result *r,
			  double min_share)
{
	return r->hot && hot_share(r, layout_change_samples(ch)) < min_share;
}

void layout_diff_free(struct layout_diff *d)
{
	free(d->v);
	free(d->refs);
	free(d->only_old);
	free(d->only_new);
	free(d->renamed);
	memset(d, 0, sizeof *d);
}

bool layout_diff_gate(const struct layout_diff *d, unsigned rules, unsigned causes)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct layout_change *ch = &d->v[i];

		if (!(causes & (1u << ch->cause)))
			continue;
		for (uint32_t k = 0; k < ch->nadded; k++)
			if (rules & (1u << d->refs[ch->added + k]->rule))
				return true;
	}
	return false;
}
