/* Depth-first order and dominators (Cooper, Harvey and Kennedy, "A Simple,
 * Fast Dominance Algorithm", 2001). Blocks that the entry does not reach
 * (jump-table targets, code after a noreturn call) become extra roots under
 * a virtual root, so their loops are still found. */
#include "cfg.h"
#include "internal.h"

#include <string.h>

enum { UNSEEN, ON_STACK, DONE };

static void add_retreat(struct cfg *g, uint32_t from, uint32_t to)
{
	GROW(g->retreat, g->retreat_cap, 3 * g->nretreat + 3);
	g->retreat[3 * g->nretreat] = from;
	g->retreat[3 * g->nretreat + 1] = to;
	g->retreat[3 * g->nretreat + 2] = 0;    /* irreducible: decided later */
	g->nretreat++;
}

/* Iterative DFS from `root`; edge_at[b] holds the next successor slot to
 * try. Numbers blocks in postorder from *count. */
static void dfs(struct cfg *g, uint32_t root, uint32_t *count)
{
	size_t sp = 0;

	g->stack[sp++] = root;
	g->mark[root] = ON_STACK;
	g->edge_at[root] = 0;
	while (sp) {
		uint32_t b = g->stack[sp - 1];

		if (g->edge_at[b] < cfg_succ_count(g, b)) {
			uint32_t s = cfg_succ(g, b, g->edge_at[b]++);

			if (s == CFG_NONE)
				continue;
			if (g->mark[s] == ON_STACK)
				add_retreat(g, b, s);
			else if (g->mark[s] == UNSEEN) {
				g->mark[s] = ON_STACK;
				g->edge_at[s] = 0;
				g->stack[sp++] = s;
			}
			continue;
		}
		g->mark[b] = DONE;
		g->post[b] = *count;
		g->order[(*count)++] = b;
		sp--;
	}
}

static void number_blocks(struct cfg *g)
{
	uint32_t count = 0;

	memset(g->mark, 0, g->nblock * sizeof *g->mark);
	memset(g->root, 0, g->nblock);
	g->nretreat = 0;
	g->root[0] = 1;
	dfs(g, 0, &count);
	/* Unreached blocks without predecessors first, then whatever is left
	 * (cycles entered only from unreached code). Unreached nops are the
	 * assembler's alignment padding, not code: rooting them would make a
	 * second entry into whatever follows them. They stay unnumbered, with
	 * no idom, and the loop finder skips them. */
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t b = 0; b < g->nblock; b++)
			if (g->mark[b] == UNSEEN && !g->block[b].padding &&
			    (pass == 1 || g->pred_off[b] == g->pred_off[b + 1])) {
				g->root[b] = 1;
				dfs(g, b, &count);
			}
	g->nvisited = count;
	g->post[VROOT_OF(g)] = (uint32_t)g->nblock;
}

uint32_t cfg_nearest_dominator(const struct cfg *g, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (g->post[a] < g->post[b])
			a = g->idom[a];
		while (g->post[b] < g->post[a])
			b = g->idom[b];
	}
	return a;
}

/* After the first pass: does every retreating edge go to a block that
 * dominates its source (a reducible CFG)? That pass set each block's idom
 * from its predecessors earlier in reverse postorder, skipping only the
 * sources of retreating edges (their idom still unset). A source its
 * target dominates cannot move the target's idom (the nearest common
 * dominator of it and the others is the others'), so a second pass would
 * change nothing, and the iteration can stop. */
static bool retreats_dominated(const struct cfg *g)
{
	for (size_t i = 0; i < g->nretreat; i++)
		if (!cfg_dominates(g, g->retreat[3 * i + 1], g->retreat[3 * i]))
			return false;
	return true;
}

void cfg_dominators(struct cfg *g)
{
	uint32_t vroot = VROOT_OF(g);
	bool changed = true, first = true;

	number_blocks(g);
	for (size_t b = 0; b < g->nblock; b++)
		g->idom[b] = CFG_NONE;
	g->idom[vroot] = vroot;
	/* Without a retreating edge there is no cycle, and only the loop
	 * finder, edge by retreating edge, asks for dominators: a function
	 * whose backward jumps all go to a shared exit skips the iteration,
	 * and its idom stays unset. */
	if (g->nretreat == 0)
		return;
	while (changed) {
		changed = false;
		for (size_t k = g->nvisited; k-- > 0;) {  /* reverse postorder */
			uint32_t b = g->order[k];
			uint32_t best = g->root[b] ? vroot : CFG_NONE;

			for (uint32_t i = g->pred_off[b]; i < g->pred_off[b + 1]; i++) {
				uint32_t p = g->pred[i];

				if (g->idom[p] == CFG_NONE)
					continue;
				best = best == CFG_NONE ? p : cfg_nearest_dominator(g, p, best);
			}
			if (best != CFG_NONE && g->idom[b] != best) {
				g->idom[b] = best;
				changed = true;
			}
		}
		/* the confirming pass was half of this function's time on
		 * libLLVM-14; an irreducible CFG iterates on */
		if (first && retreats_dominated(g))
			return;
		first = false;
	}
}

bool cfg_dominates(const struct cfg *g, uint32_t a, uint32_t b)
{
	uint32_t vroot = VROOT_OF(g);

	while (b != a && b != vroot)
		b = g->idom[b];
	return b == a;
}
