/* cfg: basic blocks of one function, dominators, natural loops with their
 * nesting, and the cycles that are not natural loops (irreducible), which
 * are reported as such rather than dropped.
 *
 * A struct cfg is reusable scratch: cfg_build() keeps its buffers, so
 * analysing a whole library allocates only while the largest function
 * grows them. */
#ifndef STRADDLE_CFG_H
#define STRADDLE_CFG_H

#include "../base/base.h"
#include "../decode/decode.h"

#define CFG_NONE UINT32_MAX

struct cfg_block {
	uint64_t start, end;            /* [start, end) bytes */
	uint32_t first, ninsn;          /* into the instruction array */
	uint32_t succ[2];               /* CFG_NONE when absent */
	uint32_t xsucc, nxsucc;         /* an indirect jump's: into cfg.xsucc */
	bool has_call;
	bool padding;                   /* only nops */
	bool spin;                      /* holds a wait hint (insn.spin) */
};

/* A run of a loop's blocks that every iteration fetches (loops in pieces). */
struct cfg_piece {
	uint64_t start, end;            /* [start, end) bytes */
	uint32_t first, ninsn;          /* instructions inside it */
};

struct cfg_loop {
	uint32_t header;                /* block index */
	uint32_t body, nbody;           /* into cfg.members: block indices */
	uint32_t latch, nlatch;         /* into cfg.members: blocks with a back edge */
	uint32_t parent;                /* enclosing loop index, or CFG_NONE */
	uint32_t depth;                 /* 1 for an outermost loop */
	/* entered other than through its header: the cycle of a retreating
	 * edge whose target does not dominate its source (header: that
	 * target). Its body: the blocks on a path from the header to a latch. */
	bool irreducible;
	bool innermost;
	bool has_call;
	/* a block of it holds pause/yield/wfe: a wait, not a throughput loop */
	bool spin;
	/* the hazard model's footprint of an iteration: the runs of
	 * the loop's blocks around its header and around each block that
	 * dominates every latch, over padding between them (pieces, in
	 * address order; one for a loop laid out in one run). [start, end) is
	 * from the first piece's start to the last one's end; body blocks
	 * outside every piece are out of line (cold). */
	uint64_t start, end;
	uint32_t piece, npiece;         /* into cfg.pieces */
	uint64_t bytes;                 /* the pieces' bytes together */
	uint32_t run_insns;             /* the pieces' instructions together */
	uint32_t cold_blocks;
	uint64_t cold_bytes;
	uint32_t first, ninsn;          /* instructions inside [start, end) */
};

struct cfg_irreducible {
	uint64_t entry;                 /* block entered by a retreating edge */
	uint64_t from;                  /* block the edge leaves */
};

struct cfg {
	const struct insn *insn;
	size_t ninsn;
	struct cfg_block *block;
	size_t nblock, block_cap;
	struct cfg_loop *loop;
	size_t nloop, loop_cap;
	uint32_t *members;
	size_t nmembers, members_cap;
	struct cfg_piece *pieces;
	size_t npieces, pieces_cap;
	struct cfg_irreducible *irr;
	size_t nirr, irr_cap;
	/* scratch, sized to the largest function seen */
	uint32_t *pred_off, *pred, *post, *order, *idom, *mark, *stack, *edge_at;
	uint8_t *leader, *root;
	uint32_t *branch;               /* instructions that are not BR_NONE */
	size_t nbranch;
	uint32_t *retreat;               /* (from, to, irreducible) of retreating edges */
	size_t nretreat, retreat_cap;
	size_t nvisited;                /* blocks numbered by the DFS */
	/* the dispatch tables of this build, and the successors they give */
	const struct cfg_jump_table *table;
	size_t ntable;
	uint32_t *xsucc;
	size_t nxsucc, xsucc_cap;
	uint32_t *at;                   /* byte offset -> instruction index */
	uint32_t *reach;                /* irreducible cycles: reached from the entry */
	size_t reach_cap;
	uint32_t *owner;                /* block -> innermost loop holding it, CFG_NONE */
	size_t owner_cap;
	size_t span, at_cap;
	size_t scratch_cap, pred_cap;
};

/* Build the CFG of one function whose instructions (sorted, contiguous)
 * are insn[0..n). Branch targets outside [insn[0].addr, end) leave the
 * function. */
void cfg_build(struct cfg *g, const struct insn *insn, size_t n);

/* The targets of an indirect jump read from its dispatch table
 * (decode_jump_table). */
struct cfg_jump_table {
	uint64_t jump;                  /* address of the indirect jump */
	const uint64_t *target;
	size_t n;
};

/* cfg_build, with the successors of the indirect jumps whose tables were
 * resolved: table[0..ntable), sorted by jump address. Cycles that close
 * through a switch are then seen (otherwise an indirect jump has none). */
void cfg_build_tables(struct cfg *g, const struct insn *insn, size_t n,
		      const struct cfg_jump_table *table, size_t ntable);
void cfg_free(struct cfg *g);

/* Cheap test: can this function contain a cycle at all? Every cycle needs
 * a branch to an address at or before itself, inside the function. */
bool cfg_may_have_cycle(const struct insn *insn, size_t n);
/* That branch, in a function starting at func_start: the scan asks it
 * while decoding, instead of a pass of its own. */
static inline bool cfg_branch_backward(const struct insn *in, uint64_t func_start)
{
	return (in->kind == BR_COND || in->kind == BR_JUMP) && in->target <= in->addr &&
	       in->target >= func_start;
}

/* The branch instruction ending a latch block (its back edge). */
const struct insn *cfg_block_last(const struct cfg *g, uint32_t block);
/* The innermost loop holding both blocks a and b, or CFG_NONE. */
uint32_t cfg_common_loop(const struct cfg *g, uint32_t a, uint32_t b);
/* The block starting exactly at addr, or CFG_NONE. */
uint32_t cfg_block_at(const struct cfg *g, uint64_t addr);

#endif
