/* Steps of cfg_build, one file each; nothing outside cfg/ includes this. */
#ifndef STRADDLE_CFG_INTERNAL_H
#define STRADDLE_CFG_INTERNAL_H

#include "cfg.h"

#define VROOT_OF(g) ((uint32_t)(g)->nblock)

void cfg_make_blocks(struct cfg *g);      /* blocks.c: blocks, successors, predecessors */
void cfg_dominators(struct cfg *g);       /* dom.c: DFS postorder, idom, irreducible edges */
bool cfg_dominates(const struct cfg *g, uint32_t a, uint32_t b);
void cfg_find_loops(struct cfg *g);       /* loops.c: natural loops and nesting */

#endif
