/* Basic blocks: a leader is the entry, a branch target, or the instruction
 * after a block-ending branch. */
#include "cfg.h"
#include "internal.h"

#include <string.h>

/* Index of the instruction starting exactly at addr, or CFG_NONE (outside
 * the function, or inside an instruction): a table lookup, since every
 * branch asks twice (profiled: the binary search was 2.4% of a scan). An
 * entry counts only if the instruction it names starts there: the others
 * are left from earlier functions (index_offsets). */
static uint32_t insn_at(const struct cfg *g, uint64_t addr)
{
	uint64_t off = addr - g->insn[0].addr;
	uint32_t i;

	if (addr < g->insn[0].addr || off >= g->span)
		return CFG_NONE;
	i = g->at[off];
	return i < g->ninsn && g->insn[i].addr == addr ? i : CFG_NONE;
}

/* at[byte offset] = the instruction starting there. The offsets inside an
 * instruction keep what an earlier function left, which insn_at tells apart:
 * clearing the table for every function (4 bytes a byte of code) was 17% of
 * the instructions building the blocks took (callgrind, libLLVM-14). The same
 * pass lists the instructions that are not BR_NONE, in order: every later
 * step of the blocks needs only those (a fifth of the code), where each used
 * to read every instruction again. */
static void index_offsets(struct cfg *g)
{
	const struct insn *last = &g->insn[g->ninsn - 1];
	uint64_t base = g->insn[0].addr;
	size_t old = g->at_cap;
	uint32_t nbr = 0;

	g->span = last->addr + last->len - base;
	GROW(g->at, g->at_cap, g->span + 1);
	if (g->at_cap > old)    /* new memory: defined values, all CFG_NONE */
		memset(g->at + old, 0xff, (g->at_cap - old) * sizeof *g->at);
	for (size_t i = 0; i < g->ninsn; i++) {
		g->at[g->insn[i].addr - base] = (uint32_t)i;
		g->branch[nbr] = (uint32_t)i;
		nbr += g->insn[i].kind != BR_NONE;
	}
	g->nbranch = nbr;
}

static bool has_target(const struct insn *i)
{
	return i->kind == BR_COND || i->kind == BR_JUMP;
}

/* All scratch arrays have room for one entry per instruction plus the
 * virtual root: a function has no more blocks than instructions. */
static void reserve_scratch(struct cfg *g, size_t n)
{
	size_t cap = g->scratch_cap;

	if (n + 2 <= cap)
		return;
	while (cap < n + 2)
		cap = cap ? cap * 2 : 64;
	g->pred_off = xrealloc(g->pred_off, cap * sizeof *g->pred_off);
	g->post = xrealloc(g->post, cap * sizeof *g->post);
	g->order = xrealloc(g->order, cap * sizeof *g->order);
	g->idom = xrealloc(g->idom, cap * sizeof *g->idom);
	g->mark = xrealloc(g->mark, cap * sizeof *g->mark);
	g->stack = xrealloc(g->stack, cap * sizeof *g->stack);
	g->edge_at = xrealloc(g->edge_at, cap * sizeof *g->edge_at);
	g->branch = xrealloc(g->branch, cap * sizeof *g->branch);
	g->leader = xrealloc(g->leader, cap);
	g->root = xrealloc(g->root, cap);
	g->scratch_cap = cap;
}

/* leader[i]: instruction i starts a block. BR_NONE never ends a block,
 * so the branches alone say where blocks end and where jumps land. */
static void mark_leaders(struct cfg *g)
{
	memset(g->leader, 0, g->ninsn);
	g->leader[0] = 1;
	g->leader[g->ninsn] = 1;        /* a sentinel for cut_blocks */
	for (size_t k = 0; k < g->ntable; k++)
		for (size_t i = 0; i < g->table[k].n; i++) {
			uint32_t t = insn_at(g, g->table[k].target[i]);

			if (t != CFG_NONE)
				g->leader[t] = 1;
		}
	for (size_t k = 0; k < g->nbranch; k++) {
		uint32_t i = g->branch[k];
		const struct insn *in = &g->insn[i];

		if (has_target(in)) {
			uint32_t t = insn_at(g, in->target);

			if (t != CFG_NONE)
				g->leader[t] = 1;
		}
		if (insn_ends_block(in))
			g->leader[i + 1] = 1;
	}
}

static bool is_call(const struct insn *in)
{
	return in->kind == BR_CALL || in->kind == BR_CALL_IND;
}

/* Only nops (or int3): the assembler's alignment padding. Almost no block
 * starts with one, so almost none is read past its first instruction. */
static bool all_padding(const struct insn *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!in[i].padding)
			return false;
	return true;
}

/* The blocks, from leader to leader; edge_at[first] is the block a leader
 * starts, kept while building (the branches' targets are all leaders, so
 * no other instruction needs it). Calls come from the branch list, which
 * `br` walks along. */
static void cut_blocks(struct cfg *g)
{
	uint32_t nb = 0, br = 0;

	for (uint32_t i = 0, j; i < g->ninsn; i = j) {
		bool call = false, spin = g->insn[i].spin;

		for (j = i + 1; !g->leader[j]; j++)
			spin |= g->insn[j].spin;
		for (; br < g->nbranch && g->branch[br] < j; br++)
			call |= is_call(&g->insn[g->branch[br]]);
		g->edge_at[i] = nb;
		GROW(g->block, g->block_cap, (size_t)nb + 1);
		g->block[nb++] = (struct cfg_block){
			.start = g->insn[i].addr,
			.end = g->insn[j - 1].addr + g->insn[j - 1].len,
			.first = i,
			.ninsn = j - i,
			.has_call = call,
			.spin = spin,
			.padding = all_padding(&g->insn[i], j - i),
		};
	}
	g->nblock = nb;
}

static const struct cfg_jump_table *table_of(const struct cfg *g, uint64_t jump)
{
	size_t lo = 0, hi = g->ntable;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (g->table[mid].jump < jump)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->ntable && g->table[lo].jump == jump ? &g->table[lo] : NULL;
}

/* A dispatch's successors: the blocks its table's targets start. */
static void link_table(struct cfg *g, struct cfg_block *b, const struct insn *jump)
{
	const struct cfg_jump_table *t = table_of(g, jump->addr);

	b->xsucc = (uint32_t)g->nxsucc;
	if (!t)
		return;
	GROW(g->xsucc, g->xsucc_cap, g->nxsucc + t->n);
	for (size_t i = 0; i < t->n; i++) {
		uint32_t at = insn_at(g, t->target[i]);

		if (at != CFG_NONE)
			g->xsucc[g->nxsucc++] = g->edge_at[at];
	}
	b->nxsucc = (uint32_t)(g->nxsucc - b->xsucc);
}

static void link_successors(struct cfg *g)
{
	g->nxsucc = 0;
	for (size_t k = 0; k < g->nblock; k++) {
		struct cfg_block *b = &g->block[k];
		const struct insn *last = &g->insn[b->first + b->ninsn - 1];
		uint32_t next = k + 1 < g->nblock ? (uint32_t)k + 1 : CFG_NONE;
		uint32_t t;

		b->succ[0] = b->succ[1] = CFG_NONE;
		b->xsucc = b->nxsucc = 0;
		switch (last->kind) {
		case BR_COND:
			b->succ[0] = next;
			/* fall through */
		case BR_JUMP:
			t = insn_at(g, last->target);
			b->succ[1] = t == CFG_NONE ? CFG_NONE : g->edge_at[t];
			break;
		case BR_NONE: case BR_CALL: case BR_CALL_IND:
			b->succ[0] = next;
			break;
		case BR_JUMP_IND:
			link_table(g, b, last);
			break;
		default:
			break;  /* ret, trap, bad bytes: no successor */
		}
	}
}

/* Predecessor lists in compressed form: pred[pred_off[b] .. pred_off[b+1]). */
static void link_predecessors(struct cfg *g)
{
	size_t total = 0;

	memset(g->pred_off, 0, (g->nblock + 2) * sizeof *g->pred_off);
	for (uint32_t k = 0; k < g->nblock; k++)
		for (uint32_t s = 0; s < cfg_succ_count(g, k); s++)
			if (cfg_succ(g, k, s) != CFG_NONE) {
				g->pred_off[cfg_succ(g, k, s) + 1]++;
				total++;
			}
	for (size_t k = 0; k < g->nblock; k++)
		g->pred_off[k + 1] += g->pred_off[k];
	GROW(g->pred, g->pred_cap, total + 1);
	memcpy(g->mark, g->pred_off, g->nblock * sizeof *g->mark);
	for (uint32_t k = 0; k < g->nblock; k++)
		for (uint32_t s = 0; s < cfg_succ_count(g, k); s++)
			if (cfg_succ(g, k, s) != CFG_NONE)
				g->pred[g->mark[cfg_succ(g, k, s)]++] = k;
}

void cfg_make_blocks(struct cfg *g)
{
	reserve_scratch(g, g->ninsn);
	index_offsets(g);
	mark_leaders(g);
	cut_blocks(g);
	link_successors(g);
	link_predecessors(g);
}

bool cfg_may_have_cycle(const struct insn *insn, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (cfg_branch_backward(&insn[i], insn[0].addr))
			return true;
	return false;
}

const struct insn *cfg_block_last(const struct cfg *g, uint32_t block)
{
	const struct cfg_block *b = &g->block[block];

	return &g->insn[b->first + b->ninsn - 1];
}

void cfg_build_tables(struct cfg *g, const struct insn *insn, size_t n,
		      const struct cfg_jump_table *table, size_t ntable)
{
	g->table = table;
	g->ntable = ntable;
	cfg_build(g, insn, n);
	g->table = NULL;        /* the caller's buffers: not kept past the build */
	g->ntable = 0;
}
