/* What the rules need of a loop: its size and the branches in its span
 * (which close it, with their fused partners), as offsets from its start. Shared by the scan of
 * an image and the prediction for code placed in memory (sweep). */
#include "profile.h"
#include "rules.h"
#include "geometry.h"

#include <stdlib.h>
#include <string.h>

/* Every jump, call and return the front end meets in the span: the JCC
 * erratum covers them all (Intel, "Mitigations for Jump Conditional Code
 * Erratum", 2019: "jump instructions ... including conditional, direct
 * and indirect jumps, calls and returns"). */
static bool is_branch(const struct insn *i)
{
	switch (i->kind) {
	case BR_COND: case BR_JUMP: case BR_JUMP_IND: case BR_CALL: case BR_CALL_IND:
	case BR_RET:
		return true;
	default:
		return false;
	}
}

/* Does the branch close the loop l: from a block of it back to a block of
 * it in the span at or before the branch (the layout's way round: a
 * latch's jump, a rotated loop's bottom test, find_derivation's jns), or to
 * the header in either direction; and l, not a loop inside it, is the
 * innermost loop holding both ends (an inner loop's back edge is the
 * inner loop's). */
static bool closes_loop(const struct cfg *g, const struct cfg_loop *l, const uint8_t *in,
			const struct insn *br, uint32_t from)
{
	uint32_t to;

	if ((br->kind != BR_COND && br->kind != BR_JUMP) || !in[from])
		return false;
	/* cheap tests first: most branches go forward, or out of the span */
	if (br->target != g->block[l->header].start &&
	    (br->target > br->addr || br->target < l->start))
		return false;
	to = cfg_block_at(g, br->target);
	if (to == CFG_NONE || !in[to])
		return false;
	return cfg_common_loop(g, from, to) == (uint32_t)(l - g->loop);
}

static void add_branch(struct loop_geometry *geo, const struct cfg *g, size_t i,
		       uint64_t start, bool back)
{
	const struct insn *br = &g->insn[i];
	const struct insn *prev = i > 0 ? br - 1 : NULL;
	uint64_t pair = prev && prev->addr >= start && insn_fuses(prev, br) ? prev->addr : br->addr;

	GROW(geo->branch, geo->branch_cap, geo->nbranch + 1);
	geo->branch[geo->nbranch++] = (struct loop_branch){
		.pair = (uint32_t)(pair - start), .branch = (uint32_t)(br->addr - start),
		.end = (uint32_t)(br->addr + br->len - start), .kind = br->kind, .back = back };
}

/* The pieces as offsets from the loop's start (loops in pieces), which move
 * together when the loop does. */
static void set_pieces(struct loop_geometry *geo, const struct cfg *g, const struct cfg_loop *l)
{
	GROW(geo->piece, geo->piece_cap, l->npiece);
	GROW(geo->piece_first, geo->piece_first_cap, l->npiece);
	geo->npiece = l->npiece;
	geo->first = l->first;
	for (uint32_t k = 0; k < l->npiece; k++) {
		const struct cfg_piece *p = &g->pieces[l->piece + k];

		geo->piece[k] = (struct loop_piece){ p->start - l->start, p->end - l->start };
		geo->piece_first[k] = p->first;
	}
}

void loop_geometry(const struct cfg *g, const struct cfg_loop *l, struct loop_geometry *geo)
{
	geo->bytes = (uint32_t)l->bytes;
	geo->ninsn = l->run_insns;
	geo->fits_loop_buffer_shape = l->innermost && !l->has_call;
	geo->nstore = -1;
	geo->nbranch = 0;
	set_pieces(geo, g, l);
	/* in_loop is all zero between calls: set and clear only the loop's
	 * blocks (clearing all of them per loop was quadratic in a function
	 * of many loops) */
	if (g->nblock > geo->in_loop_cap) {
		free(geo->in_loop);
		geo->in_loop = xcalloc(g->nblock, 1);
		geo->in_loop_cap = g->nblock;
	}
	for (uint32_t k = 0; k < l->nbody; k++)
		geo->in_loop[g->members[l->body + k]] = 1;
	/* The pieces are whole blocks, and a branch ends its block unless it
	 * is a call: only a block with a call is read through (walking every
	 * instruction of every loop, outer loops again for each inner one,
	 * read 5.1 million instructions of libLLVM-14 for 1.1 million
	 * branches). The exit code between pieces is not fetched by an
	 * iteration, and its branches are not the loop's. */
	for (uint32_t k = 0; k < l->npiece; k++) {
		const struct cfg_piece *p = &g->pieces[l->piece + k];

		for (uint32_t block = cfg_block_at(g, p->start);
		     block < g->nblock && g->block[block].start < p->end; block++) {
			const struct cfg_block *b = &g->block[block];
			size_t last = (size_t)b->first + b->ninsn - 1;

			for (size_t i = b->has_call ? b->first : last; i <= last; i++)
				if (is_branch(&g->insn[i]))
					add_branch(geo, g, i, l->start,
						   closes_loop(g, l, geo->in_loop, &g->insn[i], block));
		}
	}
	for (uint32_t k = 0; k < l->nbody; k++)
		geo->in_loop[g->members[l->body + k]] = 0;
}

void loop_geometry_free(struct loop_geometry *geo)
{
	free(geo->branch);
	free(geo->in_loop);
	free(geo->piece);
	free(geo->piece_first);
	memset(geo, 0, sizeof *geo);
}

/* Does the loop straddle w here, or at one of its placements when only
 * its address modulo placement_align is known? */
static bool straddles_somewhere(const struct loop_geometry *geo, unsigned w, uint64_t start,
				uint64_t placement_align)
{
	return placement_align < w ||
	       loop_geometry_touched(geo, start, w) > windows_best(geo->bytes, w);
}

bool back_end_hid_straddle(const struct profile *p, const struct loop_geometry *geo,
			   uint64_t start, uint64_t placement_align)
{
	unsigned windows[3];
	size_t nw = profile_straddle_windows(p, windows);

	for (size_t i = 0; i < nw; i++)
		if (straddles_somewhere(geo, windows[i], start, placement_align) &&
		    back_end_hides(p, geo, windows[i]))
			return true;
	return false;
}

void loop_count_stores(struct loop_geometry *geo, const struct profile *p, struct decoder *d,
		       const struct insn *insn, const uint8_t *code, uint64_t start,
		       uint64_t placement_align)
{
	unsigned windows[3];
	size_t nw = profile_straddle_windows(p, windows);
	bool depends = false;

	if (geo->nstore >= 0 || !p->issue_width || !p->stores_per_cycle)
		return;
	/* only for a window the loop straddles (at one of its placements),
	 * when its instructions alone do not hide that and its stores, were
	 * every instruction one, could */
	for (size_t i = 0; i < nw; i++) {
		unsigned w = windows[i];
		uint64_t best = windows_best(geo->bytes, w), fetch = best + 1;

		if (!straddles_somewhere(geo, w, start, placement_align))
			continue;
		depends |= geo->ninsn < fetch * p->issue_width &&
			   geo->ninsn >= fetch * p->stores_per_cycle;
	}
	if (!depends)
		return;
	if (geo->npiece == 0) {         /* one run: a geometry made by hand */
		geo->nstore = (int32_t)decode_count_stores(d, insn, code, geo->bytes);
		return;
	}
	geo->nstore = 0;
	for (uint32_t k = 0; k < geo->npiece; k++)
		geo->nstore += (int32_t)decode_count_stores(d, insn + (geo->piece_first[k] - geo->first),
							    code + geo->piece[k].start,
							    geo->piece[k].end - geo->piece[k].start);
}

/* Each check makes at most one hazard, a branch rule one per branch. */
size_t loop_hazards_max(const struct loop_geometry *geo)
{
	return 4 + 2 * (size_t)geo->nbranch;
}

size_t code_loop_hazards(const struct profile *p, const uint8_t *code, size_t size,
			 uint64_t addr, uint64_t loop_addr, struct hazard *out, size_t max)
{
	struct decoder *d = decoder_new(p->arch);
	struct insn *insn = xcalloc(size + 1, sizeof *insn);
	struct cfg g = { 0 };
	size_t n = 0, found = 0;

	if (!d) {
		free(insn);
		return 0;
	}
	for (uint64_t off = 0; off < size; n++) {
		decode_one(d, code + off, size - off, addr + off, &insn[n]);
		off += insn[n].len;
	}
	cfg_build(&g, insn, n);
	const struct cfg_loop *best = NULL;
	for (size_t i = 0; i < g.nloop; i++) {
		const struct cfg_loop *l = &g.loop[i];

		if (loop_addr >= l->start && loop_addr < l->end &&
		    (!best || l->end - l->start < best->end - best->start))
			best = l;
	}
	if (best) {
		struct loop_geometry geo = { 0 };

		loop_geometry(&g, best, &geo);
		loop_count_stores(&geo, p, d, insn + best->first, code + (best->start - addr),
				  best->start, 4096);
		found = loop_hazards(p, &geo, best->start, 4096, out, max);
		loop_geometry_free(&geo);
	}
	cfg_free(&g);
	free(insn);
	decoder_free(d);
	return found;
}
