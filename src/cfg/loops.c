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

/* The edge from -> to closes a natural loop: to dominates from. */
static bool natural_back_edge(const struct cfg *g, uint32_t from, uint32_t to)
{
	return cfg_dominates(g, to, from);
}

/* An irreducible cycle's blocks are those on a path from its entry to
 * one of its latches: reached from the entry, and reaching a latch
 * without passing the entry, never over a natural loop's back edge (the
 * cycles left when those are removed, as tests/truth/cycles.py defines
 * them). Through an enclosing loop's back edge, the path went round that
 * loop too: libc's _nl_load_domain cycle entered at 0x377f0 took in its
 * enclosing loop's 0x377d8 and 0x37850 and came out with that loop's
 * span, the same hazard reported twice. Every successor counts, a
 * dispatch's table targets too: with only the two slots, a cycle closing
 * through a switch stopped at the jmp * (tests/fixtures/x86/switchcycle.S
 * came out as its top block, 0x401006..0x40100e, instead of
 * 0x401006..0x40102b). This marks the first half in `reach`. */
static void mark_reached(struct cfg *g, uint32_t from, uint32_t stamp)
{
	size_t sp = 0;

	g->reach[from] = stamp;
	g->stack[sp++] = from;
	while (sp) {
		uint32_t b = g->stack[--sp];

		for (uint32_t s = 0; s < cfg_succ_count(g, b); s++) {
			uint32_t t = cfg_succ(g, b, s);

			if (t != CFG_NONE && g->reach[t] != stamp && !natural_back_edge(g, b, t)) {
				g->reach[t] = stamp;
				g->stack[sp++] = t;
			}
		}
	}
}

/* Body of the loop headed by h, whose latches are already in members:
 * walk predecessors backwards from the latches, stopping at h. For an
 * irreducible cycle (h its entry), only blocks h reaches belong, since
 * the walk would otherwise leave through the cycle's other entry. */
static void collect_body(struct cfg *g, struct cfg_loop *l, uint32_t stamp)
{
	size_t sp = 0;

	if (l->irreducible)
		mark_reached(g, l->header, stamp);
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
			if (l->irreducible && (g->reach[p] != stamp || natural_back_edge(g, p, b)))
				continue;       /* outside the cycle */
			if (g->mark[p] != stamp) {
				g->mark[p] = stamp;
				append_member(g, p);
				g->stack[sp++] = p;
			}
		}
	}
	l->nbody = (uint32_t)(g->nmembers - l->body);
}

/* Can the run step from one block of the loop over block b, not the loop's?
 * Only when b is padding: nops put there to align what follows. Any other
 * code ends the run: what lies beyond is out of line. */
static bool is_padding(const struct cfg *g, uint32_t b)
{
	return g->block[b].padding;
}

/* Move *edge (a block index; blocks are in address order) one block of
 * the loop further in direction dir (-1 down, +1 up), over padding only;
 * false when the next block that is not padding is not the loop's. */
static bool grow_once(const struct cfg *g, uint32_t stamp, uint32_t *edge, int dir)
{
	int64_t b = (int64_t)*edge + dir, n = (int64_t)g->nblock;

	while (b >= 0 && b < n && g->mark[b] != stamp && is_padding(g, (uint32_t)b))
		b += dir;
	if (b < 0 || b >= n || g->mark[b] != stamp)
		return false;
	*edge = (uint32_t)b;
	return true;
}

/* The hazard model's piece: a run of the loop's blocks around block b (the
 * header, or the entry of an irreducible cycle, for the first): from b's
 * block, grow over every block of the loop that touches the run or is apart
 * from it only by padding (the padding comes with them). A rotated loop
 * entered in the middle keeps the body above its header: libc's
 * find_derivation is 0x28220..0x28241, where "header and latches" said
 * 0x28224..0x28239. Any other code ends the run. The blocks of l carry
 * `stamp`; the run is blocks [*lo, *hi]. */
static void grow_run(const struct cfg *g, uint32_t stamp, uint32_t b, uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = b;
	while (grow_once(g, stamp, lo, -1))
		;
	while (grow_once(g, stamp, hi, +1))
		;
}

static void append_piece(struct cfg *g, uint32_t lo, uint32_t hi)
{
	GROW(g->pieces, g->pieces_cap, g->npieces + 1);
	g->pieces[g->npieces++] = (struct cfg_piece){
		.start = g->block[lo].start, .end = g->block[hi].end, .first = g->block[lo].first,
		.ninsn = g->block[hi].first + g->block[hi].ninsn - g->block[lo].first };
}

static bool in_pieces(const struct cfg *g, const struct cfg_loop *l, uint32_t b)
{
	for (uint32_t k = l->piece; k < l->piece + l->npiece; k++)
		if (g->block[b].start >= g->pieces[k].start && g->block[b].end <= g->pieces[k].end)
			return true;
	return false;
}

/* The blocks every iteration runs besides the header: those of the loop that
 * dominate every latch but not the header, the idom chain from the latches'
 * nearest common dominator up to the header (a natural loop's header
 * dominates the chain; an irreducible cycle's entry need not, and its chain
 * stops at the first block outside the cycle or dominating the entry: a path
 * to the entry avoids any other, so the way round from the entry to a latch
 * passes it). Each not yet in a piece starts one. An exit laid out as the
 * fall-through with the loop going on past it (pthread_spin_lock, libc x86-64
 * 0x8ff70: lock decl; jne body; xor; ret; body: pause ... jg header) was
 * reported as its header alone: the body is such a block. */
static void add_body_pieces(struct cfg *g, struct cfg_loop *l, uint32_t stamp)
{
	uint32_t d = g->members[l->latch], lo, hi;

	for (uint32_t i = 1; i < l->nlatch; i++)
		d = cfg_nearest_dominator(g, d, g->members[l->latch + i]);
	for (; d < g->nblock && d != l->header && g->mark[d] == stamp &&
	       !cfg_dominates(g, d, l->header); d = g->idom[d]) {
		if (in_pieces(g, l, d))
			continue;
		grow_run(g, stamp, d, &lo, &hi);
		append_piece(g, lo, hi);
		l->npiece++;
	}
}

static int by_start(const void *a, const void *b)
{
	const struct cfg_piece *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* The loop's pieces in address order, and the range from the first to
 * the last. */
static void set_range(struct cfg *g, struct cfg_loop *l, uint32_t stamp)
{
	struct cfg_piece *p;
	uint32_t lo, hi;

	l->piece = (uint32_t)g->npieces;
	grow_run(g, stamp, l->header, &lo, &hi);
	append_piece(g, lo, hi);
	l->npiece = 1;
	add_body_pieces(g, l, stamp);
	p = &g->pieces[l->piece];
	qsort(p, l->npiece, sizeof *p, by_start);
	l->bytes = 0;
	l->run_insns = 0;
	for (uint32_t k = 0; k < l->npiece; k++) {
		l->bytes += p[k].end - p[k].start;
		l->run_insns += p[k].ninsn;
	}
	l->start = p[0].start;
	l->end = p[l->npiece - 1].end;
	l->first = p[0].first;
	l->ninsn = p[l->npiece - 1].first + p[l->npiece - 1].ninsn - l->first;
}

/* Body blocks wholly outside the pieces are out of line (cold). */
static void measure_body(struct cfg *g, struct cfg_loop *l)
{
	l->has_call = false;
	l->spin = false;
	l->cold_blocks = 0;
	l->cold_bytes = 0;
	for (uint32_t i = 0; i < l->nbody; i++) {
		uint32_t k = g->members[l->body + i];
		const struct cfg_block *b = &g->block[k];

		l->has_call |= b->has_call;
		l->spin |= b->spin;
		if (!in_pieces(g, l, k)) {
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
	GROW(g->reach, g->reach_cap, g->nblock);
	memset(g->mark, 0, g->nblock * sizeof *g->mark);
	memset(g->reach, 0, g->nblock * sizeof *g->reach);
	g->nloop = 0;
	g->nmembers = 0;
	g->npieces = 0;
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
		collect_body(g, l, (uint32_t)g->nloop);
	}
}

/* Spans and what lies out of line. Loop i's blocks were stamped i + 1 by
 * collect_body, and no other block ever was; later loops took some of
 * them over, so stamp them again. */
static void place_loops(struct cfg *g)
{
	for (uint32_t i = 0; i < g->nloop; i++) {
		struct cfg_loop *l = &g->loop[i];

		for (uint32_t k = 0; k < l->nbody; k++)
			g->mark[g->members[l->body + k]] = i + 1;
		set_range(g, l, i + 1);
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
	uint32_t *owner, *idx = g->order;

	GROW(g->owner, g->owner_cap, g->nblock);
	owner = g->owner;
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
	place_loops(g);
}

void cfg_build(struct cfg *g, const struct insn *insn, size_t n)
{
	g->insn = insn;
	g->ninsn = n;
	g->nblock = g->nloop = g->nmembers = g->nirr = g->nretreat = g->npieces = 0;
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
	free(g->pieces);
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
	free(g->branch);
	free(g->root);
	free(g->retreat);
	free(g->xsucc);
	free(g->at);
	free(g->reach);
	free(g->owner);
	memset(g, 0, sizeof *g);
}

uint32_t cfg_block_at(const struct cfg *g, uint64_t addr)
{
	size_t lo = 0, hi = g->nblock;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (g->block[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nblock && g->block[lo].start == addr ? (uint32_t)lo : CFG_NONE;
}

uint32_t cfg_common_loop(const struct cfg *g, uint32_t a, uint32_t b)
{
	uint32_t x = g->owner[a], y = g->owner[b];

	while (x != y && x != CFG_NONE && y != CFG_NONE) {
		if (g->loop[x].depth >= g->loop[y].depth)
			x = g->loop[x].parent;
		else
			y = g->loop[y].parent;
	}
	return x == y ? x : CFG_NONE;
}
