/* What the rules need of a loop: its size and its closing branches with
 * their fused partners, as offsets from its start. Shared by the scan of
 * an image and the prediction for code placed in memory (sweep). */
#include "model.h"

#include <stdlib.h>

/* A closing branch: the latch's branch back to the header, or, in a
 * rotated loop whose latch falls through into a test at the bottom, the
 * header's own branch back to the top (DESIGN, hazard model). */
static const struct insn *closing_branch(const struct cfg *g, const struct cfg_loop *l,
					 uint32_t latch)
{
	const struct insn *last = cfg_block_last(g, latch);
	const struct cfg_block *h = &g->block[l->header];

	if ((last->kind == BR_COND || last->kind == BR_JUMP) && last->target == h->start)
		return last;
	last = cfg_block_last(g, l->header);
	if ((last->kind == BR_COND || last->kind == BR_JUMP) &&
	    last->target >= l->start && last->target < last->addr)
		return last;
	return NULL;
}

static void add_edge(struct loop_geometry *geo, const struct cfg *g, const struct insn *br,
		     uint64_t start)
{
	const struct insn *first = g->insn;
	const struct insn *prev = br > first ? br - 1 : NULL;
	uint64_t pair = prev && insn_fuses(prev, br) ? prev->addr : br->addr;

	for (uint32_t i = 0; i < geo->nedge; i++)
		if (geo->edge[i].branch == br->addr - start)
			return;
	if (geo->nedge == MAX_BACK_EDGES)
		return;
	geo->edge[geo->nedge++] = (struct back_edge){
		.pair = (uint32_t)(pair - start), .branch = (uint32_t)(br->addr - start),
		.end = (uint32_t)(br->addr + br->len - start) };
}

void loop_geometry(const struct cfg *g, const struct cfg_loop *l, struct loop_geometry *geo)
{
	*geo = (struct loop_geometry){ .bytes = (uint32_t)(l->end - l->start), .ninsn = l->ninsn,
		.fits_loop_buffer_shape = l->innermost && !l->has_call };
	for (uint32_t i = 0; i < l->nlatch; i++) {
		const struct insn *br = closing_branch(g, l, g->members[l->latch + i]);

		if (br)
			add_edge(geo, g, br, l->start);
	}
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
		struct loop_geometry geo;

		loop_geometry(&g, best, &geo);
		found = loop_hazards(p, &geo, best->start, 4096, out, max);
	}
	cfg_free(&g);
	free(insn);
	decoder_free(d);
	return found;
}
