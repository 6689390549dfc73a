/* Natural loops: for each back edge u -> h (h dominates u), the loop is h
 * plus every block that reaches u without passing through h; back edges to
 * one header make one loop. A retreating edge whose target does not
 * dominate its source enters a cycle with more than one entry: irreducible. */
#include "cfg.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static void append_member(struct cfg *g, uint32_t b)
{
	GROW(g->members, g->members_cap, g->nmembers + 1);
	g->members[g->nmembers++] = b;
}

/* Body of the loop headed by h, whose latches are already in members:
 * walk predecessors backwards from the latches, stopping at h. */
static void collect_body(struct cfg *g, struct cfg_loop *l, uint32_t stamp)
{
	size_t sp = 0;

	l->body = (uint32_t)g->nmembers;
	g->mark[l->header] = stamp;
	append_member(g, l->header);
	for (uint32_t i = 0; i < l->nlatch; i++) {
		uint32_t u = g->members[l->latch + i];

		if (g->mark[u] != stamp) {
			g->mark[u] = stamp;
			append_member(g, u);
			g->stack[sp++] = u;
		}
	}
	while (sp) {
		uint32_t b = g->stack[--sp];

		for (uint32_t i = g->pred_off[b]; i < g->pred_off[b + 1]; i++) {
			uint32_t p = g->pred[i];

			if (g->idom[p] == CFG_NONE)
				continue;       /* unreached padding */
			if (g->mark[p] != stamp) {
				g->mark[p] = stamp;
				append_member(g, p);
				g->stack[sp++] = p;
			}
		}
	}
	l->nbody = (uint32_t)(g->nmembers - l->body);
}

/* DESIGN, hazard model: [start, end) spans the header and every latch. */
static void set_range(struct cfg *g, struct cfg_loop *l)
{
	const struct cfg_block *h = &g->block[l->header];
	uint32_t lo = l->header, hi = l->header;

	l->start = h->start;
	l->end = h->end;
	for (uint32_t i = 0; i < l->nlatch; i++) {
		uint32_t b = g->members[l->latch + i];

		if (g->block[b].start < l->start) {
			l->start = g->block[b].start;
			lo = b;
		}
		if (g->block[b].end > l->end) {
			l->end = g->block[b].end;
			hi = b;
		}
	}
	l->ninsn = g->block[hi].first + g->block[hi].ninsn - g->block[lo].first;
}

/* An irreducible cycle has no header that bounds it; take what lies in
 * its range (blocks are in address order). */
static void collect_range(struct cfg *g, struct cfg_loop *l)
{
	l->body = (uint32_t)g->nmembers;
	for (uint32_t b = 0; b < g->nblock; b++)
		if (g->block[b].start >= l->start && g->block[b].end <= l->end &&
		    g->idom[b] != CFG_NONE)
			append_member(g, b);
	l->nbody = (uint32_t)(g->nmembers - l->body);
}

/* Body blocks wholly outside the range are out of line (cold). */
static void measure_body(struct cfg *g, struct cfg_loop *l)
{
	l->has_call = false;
	l->cold_blocks = 0;
	l->cold_bytes = 0;
	for (uint32_t i = 0; i < l->nbody; i++) {
		const struct cfg_block *b = &g->block[g->members[l->body + i]];

		l->has_call |= b->has_call;
		if (b->end <= l->start || b->start >= l->end) {
			l->cold_blocks++;
			l->cold_bytes += b->end - b->start;
		}
	}
}

/* Natural loops first, grouped by header; then irreducible entries. */
static int by_header(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;  /* (from, to, irreducible) */

	if (x[2] != y[2])
		return x[2] < y[2] ? -1 : 1;
	if (x[1] != y[1])
		return x[1] < y[1] ? -1 : 1;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void split_retreating_edges(struct cfg *g)
{
	g->nirr = 0;
	for (size_t i = 0; i < g->nretreat; i++) {
		uint32_t from = g->retreat[3 * i], to = g->retreat[3 * i + 1];

		if (cfg_dominates(g, to, from))
			continue;
		g->retreat[3 * i + 2] = 1;
		GROW(g->irr, g->irr_cap, g->nirr + 1);
		g->irr[g->nirr++] = (struct cfg_irreducible){
			.entry = g->block[to].start, .from = g->block[from].start };
	}
	if (g->nretreat)        /* retreat is NULL until a function has one */
		qsort(g->retreat, g->nretreat, 3 * sizeof *g->retreat, by_header);
}

static void make_loops(struct cfg *g)
{
	memset(g->mark, 0, g->nblock * sizeof *g->mark);
	g->nloop = 0;
	g->nmembers = 0;
	for (size_t i = 0; i < g->nretreat;) {
		struct cfg_loop *l;
		uint32_t h = g->retreat[3 * i + 1], irr = g->retreat[3 * i + 2];

		GROW(g->loop, g->loop_cap, g->nloop + 1);
		l = &g->loop[g->nloop++];
		memset(l, 0, sizeof *l);
		l->header = h;
		l->irreducible = irr;
		l->latch = (uint32_t)g->nmembers;
		for (; i < g->nretreat && g->retreat[3 * i + 1] == h &&
		       g->retreat[3 * i + 2] == irr; i++)
			append_member(g, g->retreat[3 * i]);
		l->nlatch = (uint32_t)(g->nmembers - l->latch);
		set_range(g, l);
		if (irr)
			collect_range(g, l);
		else
			collect_body(g, l, (uint32_t)g->nloop);
		measure_body(g, l);
	}
}

static int by_size_desc(const void *a, const void *b, void *ctx)
{
	const struct cfg *g = ctx;
	const struct cfg_loop *x = &g->loop[*(const uint32_t *)a];
	const struct cfg_loop *y = &g->loop[*(const uint32_t *)b];

	return x->nbody != y->nbody ? (x->nbody < y->nbody ? 1 : -1) :
	       (x->header > y->header) - (x->header < y->header);
}

/* Natural loops with distinct headers nest or are disjoint. Visiting them
 * largest first, the last loop to claim a header's block is the smallest
 * loop enclosing it: the parent. */
static void nest_loops(struct cfg *g)
{
	uint32_t *owner = g->stack, *idx = g->order;

	for (size_t b = 0; b < g->nblock; b++)
		owner[b] = CFG_NONE;
	for (uint32_t i = 0; i < g->nloop; i++)
		idx[i] = i;
	qsort_r(idx, g->nloop, sizeof *idx, by_size_desc, g);
	for (uint32_t k = 0; k < g->nloop; k++) {
		struct cfg_loop *l = &g->loop[idx[k]];

		l->parent = owner[l->header];
		l->depth = l->parent == CFG_NONE ? 1 : g->loop[l->parent].depth + 1;
		l->innermost = true;
		if (l->parent != CFG_NONE)
			g->loop[l->parent].innermost = false;
		for (uint32_t i = 0; i < l->nbody; i++)
			owner[g->members[l->body + i]] = idx[k];
	}
}

void cfg_find_loops(struct cfg *g)
{
	split_retreating_edges(g);
	make_loops(g);
	nest_loops(g);
}

void cfg_build(struct cfg *g, const struct insn *insn, size_t n)
{
	g->insn = insn;
	g->ninsn = n;
	g->nblock = g->nloop = g->nmembers = g->nirr = g->nretreat = 0;
	if (n == 0)
		return;
	cfg_make_blocks(g);
	cfg_dominators(g);
	cfg_find_loops(g);
}

void cfg_free(struct cfg *g)
{
	free(g->block);
	free(g->loop);
	free(g->members);
	free(g->irr);
	free(g->pred_off);
	free(g->pred);
	free(g->post);
	free(g->order);
	free(g->idom);
	free(g->mark);
	free(g->stack);
	free(g->edge_at);
	free(g->leader);
	free(g->root);
	free(g->retreat);
	free(g->xsucc);
	free(g->at);
	memset(g, 0, sizeof *g);
}
