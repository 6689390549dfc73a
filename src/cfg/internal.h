/* Steps of cfg_build, one file each; nothing outside cfg/ includes this. */
#ifndef STRADDLE_CFG_INTERNAL_H
#define STRADDLE_CFG_INTERNAL_H

#include "cfg.h"

#define VROOT_OF(g) ((uint32_t)(g)->nblock)

void cfg_make_blocks(struct cfg *g);      /* blocks.c: blocks, successors, predecessors */
/* Successors of block b: 2 slots (CFG_NONE when absent), then a
 * dispatch's. */
static inline uint32_t cfg_succ_count(const struct cfg *g, uint32_t b)
{
	return 2 + g->block[b].nxsucc;
}

static inline uint32_t cfg_succ(const struct cfg *g, uint32_t b, uint32_t i)
{
	const struct cfg_block *k = &g->block[b];

	return i < 2 ? k->succ[i] : g->xsucc[k->xsucc + i - 2];
}
/* dom.c: DFS postorder, retreating edges, and idom (only when there is a
 * retreating edge: without one, nothing asks) */
void cfg_dominators(struct cfg *g);
bool cfg_dominates(const struct cfg *g, uint32_t a, uint32_t b);
/* The nearest block dominating both a and b (both reached). */
uint32_t cfg_nearest_dominator(const struct cfg *g, uint32_t a, uint32_t b);
void cfg_find_loops(struct cfg *g);       /* loops.c: natural loops and nesting */

#endif
