/* What a change did to the layout: two scans of builds of the same code,
 * matched function by function (by name; locals sharing a name by order)
 * and loop by loop (by the shape of their instructions, so a loop that
 * moved is still the same loop; then by position), with the hazards each
 * gained and lost (seed 000: a commit that only changed operand encodings;
 * seed 003: code added before the vDSO functions). */
#include "model.h"

#include <stdlib.h>
#include <string.h>

/* ---- matching functions by name ---- */

struct named {
	const struct scan_result *r;
	const struct func_report *fr;
};

static const char *name_of(const struct named *n)
{
	return n->r->funcs.v[n->fr->func].name;
}

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(name_of(x), name_of(y));

	if (c)
		return c;
	/* same name: in address order, so the k-th local matches the k-th */
	uint64_t ax = x->r->funcs.v[x->fr->func].addr, ay = y->r->funcs.v[y->fr->func].addr;
	return (ax > ay) - (ax < ay);
}

static struct named *sorted_by_name(const struct scan_result *r)
{
	struct named *v = xcalloc(r->nfunc, sizeof *v);

	for (size_t i = 0; i < r->nfunc; i++)
		v[i] = (struct named){ r, &r->func[i] };
	qsort(v, r->nfunc, sizeof *v, by_name);
	return v;
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

/* Hazards of b missing from a, appended to refs; returns how many. */
static uint32_t missing(struct layout_diff *d, const struct hazard *a, uint32_t na,
			const struct hazard *b, uint32_t nb)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nb; i++)
		if (!contains(a, na, &b[i])) {
			add_ref(d, &b[i]);
			n++;
		}
	return n;
}

static struct layout_change *new_change(struct layout_diff *d)
{
	GROW(d->v, d->cap, d->n + 1);
	memset(&d->v[d->n], 0, sizeof d->v[d->n]);
	return &d->v[d->n++];
}

/* Record the change of one subject (a loop pair, or a function's entry
 * when both loops are NULL); nothing when nothing changed. */
static bool compare(struct layout_diff *d, const struct scan_result *ro,
		    const struct scan_result *rn, const struct func_report *fo,
		    const struct func_report *fn, const struct loop_report *lo,
		    const struct loop_report *ln, bool entry)
{
	const struct hazard *ho = ro->hazard + (lo ? lo->hazard : entry ? fo->hazard : 0);
	const struct hazard *hn = rn->hazard + (ln ? ln->hazard : entry ? fn->hazard : 0);
	uint32_t no = lo ? lo->nhazard : entry && fo ? fo->nhazard : 0;
	uint32_t nn = ln ? ln->nhazard : entry && fn ? fn->nhazard : 0;
	struct layout_change c = { .fold = fo, .fnew = fn, .lold = lo, .lnew = ln,
				   .entry = entry };

	c.added = (uint32_t)d->nrefs;
	c.nadded = missing(d, ho, no, hn, nn);
	c.removed = (uint32_t)d->nrefs;
	c.nremoved = missing(d, hn, nn, ho, no);
	if (lo && ln)
		c.resized = lo->end - lo->start != ln->end - ln->start;
	if (entry && fo && fn)
		c.moved = fo->entry_align != fn->entry_align;
	if (!c.nadded && !c.nremoved && !c.resized && !(lo && !ln) && !(ln && !lo) &&
	    !(entry && c.moved))
		return false;
	*new_change(d) = c;
	d->hazards_added += c.nadded;
	d->hazards_removed += c.nremoved;
	return true;
}

/* ---- matching loops inside a matched function ---- */

/* First by shape, in order (a loop that moved keeps its instructions);
 * then, between two loops so matched, the rest by position (the same loop,
 * edited); what is left was added or removed. Returns whether anything
 * changed. */
static bool match_loops(struct layout_diff *d, const struct scan_result *ro,
			const struct scan_result *rn, const struct func_report *fo,
			const struct func_report *fn)
{
	uint32_t no = fo->nloop, nn = fn->nloop, next = 0, i = 0, j = 0;
	uint32_t *pair = xcalloc(no + 1, sizeof *pair);  /* new index + 1; 0: none */
	const struct loop_report *lo = ro->loop + fo->loop, *ln = rn->loop + fn->loop;
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
			changed |= compare(d, ro, rn, fo, fn, &lo[i], &ln[j], false);
		for (; i < ai; i++)
			changed |= compare(d, ro, rn, fo, fn, &lo[i], NULL, false);
		for (; j < aj; j++)
			changed |= compare(d, ro, rn, fo, fn, NULL, &ln[j], false);
		if (ai == no)
			break;
		changed |= compare(d, ro, rn, fo, fn, &lo[ai], &ln[aj], false);
		i = ai + 1;
		j = aj + 1;
	}
	free(pair);
	return changed;
}

static void match_functions(struct layout_diff *d, const struct scan_result *ro,
			    const struct scan_result *rn)
{
	struct named *vo = sorted_by_name(ro), *vn = sorted_by_name(rn);
	size_t i = 0, j = 0;

	while (i < ro->nfunc || j < rn->nfunc) {
		int c = i == ro->nfunc ? 1 : j == rn->nfunc ? -1 : strcmp(name_of(&vo[i]),
									   name_of(&vn[j]));

		if (c < 0) {
			d->funcs_only_old++;
			GROW(d->only_old, d->only_old_cap, d->funcs_only_old);
			d->only_old[d->funcs_only_old - 1] = vo[i++].fr;
		} else if (c > 0) {
			d->funcs_only_new++;
			GROW(d->only_new, d->only_new_cap, d->funcs_only_new);
			d->only_new[d->funcs_only_new - 1] = vn[j++].fr;
		} else {
			const struct func_report *fo = vo[i++].fr, *fn = vn[j++].fr;
			bool changed = match_loops(d, ro, rn, fo, fn);

			changed |= compare(d, ro, rn, fo, fn, NULL, NULL, true);
			d->funcs_matched++;
			d->funcs_unchanged += !changed;
		}
	}
	free(vo);
	free(vn);
}

void layout_diff(const struct scan_result *old, const struct scan_result *new,
		 struct layout_diff *d)
{
	memset(d, 0, sizeof *d);
	match_functions(d, old, new);
	for (size_t k = 0; k < d->n; k++) {
		d->loops_added += !d->v[k].lold && d->v[k].lnew;
		d->loops_removed += d->v[k].lold && !d->v[k].lnew && !d->v[k].entry;
		d->loops_resized += d->v[k].resized;
	}
}

void layout_diff_free(struct layout_diff *d)
{
	free(d->v);
	free(d->refs);
	free(d->only_old);
	free(d->only_new);
	memset(d, 0, sizeof *d);
}
