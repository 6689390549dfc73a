/* The hazard rules of DESIGN.md and the padding that fixes each hazard.
 * Every rule is a predicate on a placement, so the same code answers "is it
 * hazardous here", "at how many of the possible placements" (relocatable
 * objects) and "after which .p2align is it gone". */
#include "model.h"

#include <string.h>

const char *rule_name(enum rule r)
{
	switch (r) {
	case RULE_LOOP_STRADDLES: return "loop-straddles-window";
	case RULE_BRANCH_CROSSES: return "branch-crosses-window";
	case RULE_BRANCH_ENDS: return "branch-ends-window";
	case RULE_ENTRY_MISALIGNED: return "entry-misaligned";
	}
	return "?";
}

int rule_from_name(const char *name)
{
	for (int r = RULE_LOOP_STRADDLES; r <= RULE_ENTRY_MISALIGNED; r++)
		if (strcmp(rule_name(r), name) == 0)
			return r;
	return -1;
}

unsigned windows_touched(uint64_t start, uint64_t end, unsigned w)
{
	return end <= start ? 0 : (unsigned)((end - 1) / w - start / w + 1);
}

unsigned windows_best(uint64_t bytes, unsigned w)
{
	return (unsigned)((bytes + w - 1) / w);
}

/* [a, b) spans a boundary of w. */
static bool crosses(uint64_t a, uint64_t b, unsigned w)
{
	return b > a && a / w != (b - 1) / w;
}

/* What is tested: a loop (geometry) or a function entry (size only). */
struct subject {
	const struct loop_geometry *loop;
	uint64_t size;
};

/* Both branch rules take a macro-fused pair whole: the JCC erratum by
 * Intel's description, Golden Cove by measurement (a line between the two
 * parts costs too, less). */
static bool edge_hazard(enum rule r, unsigned w, const struct back_edge *e, uint64_t s)
{
	if (r == RULE_BRANCH_ENDS)
		return (s + e->end) % w == 0;
	return crosses(s + e->pair, s + e->end, w);
}

/* Is the subject hazardous with its first byte at s? */
static bool present(enum rule r, unsigned w, const struct subject *x, uint64_t s)
{
	switch (r) {
	case RULE_LOOP_STRADDLES:
		return windows_touched(s, s + x->loop->bytes, w) > windows_best(x->loop->bytes, w);
	case RULE_ENTRY_MISALIGNED:
		return windows_touched(s, s + x->size, w) > 1;
	default:
		for (uint32_t i = 0; i < x->loop->nedge; i++)
			if (edge_hazard(r, w, &x->loop->edge[i], s))
				return true;
		return false;
	}
}

/* A section aligned to `align` puts a subject at offset `start` at
 * addresses start + k*align: modulo w, w/align placements when align < w,
 * else only the one it is at (DESIGN, placement certainty). */
static unsigned count_bad(enum rule r, unsigned w,
			  const struct subject *x, uint64_t start, uint64_t align,
			  unsigned *all)
{
	unsigned bad = 0;

	if (align >= w) {
		*all = 1;
		return present(r, w, x, start);
	}
	*all = (unsigned)(w / align);
	for (unsigned k = 0; k < *all; k++)
		bad += present(r, w, x, start % align + k * align);
	return bad;
}

/* The smallest .p2align before the subject that removes the hazard at
 * every placement it can then have; 0 when none up to 64 does. */
/* The rules a profile applies to a subject: (rule, window) pairs. */
struct check {
	enum rule rule;
	unsigned window;
};

#define MAX_CHECKS 6

static bool in_loop_buffer(const struct profile *p, const struct loop_geometry *g)
{
	return p->loop_buffer && g->fits_loop_buffer_shape && g->ninsn <= p->loop_buffer;
}

static size_t loop_checks(const struct profile *p, const struct loop_geometry *g,
			  struct check *c)
{
	unsigned windows[3];
	size_t n = 0, nw = profile_straddle_windows(p, windows);

	/* Seed 000: a loop running from the loop buffer is not fetched, so
	 * where its bytes lie does not matter (Haswell was unaffected). */
	if (!in_loop_buffer(p, g))
		for (size_t i = 0; i < nw; i++)
			c[n++] = (struct check){ RULE_LOOP_STRADDLES, windows[i] };
	if (p->branch_rule != BRANCH_RULE_NONE)
		c[n++] = (struct check){ RULE_BRANCH_CROSSES, p->branch_window };
	if (p->branch_rule == BRANCH_RULE_JCC_ERRATUM)
		c[n++] = (struct check){ RULE_BRANCH_ENDS, p->branch_window };
	return n;
}

/* Which checks fail with the subject at `start`: a bit each. */
static unsigned failing(const struct check *c, size_t n,
			const struct subject *x, uint64_t start, uint64_t align)
{
	unsigned mask = 0, all;

	for (size_t i = 0; i < n; i++)
		if (count_bad(c[i].rule, c[i].window, x, start, align, &all))
			mask |= 1u << i;
	return mask;
}

/* The smallest .p2align before the subject that removes hazard `k` at
 * every placement it can then have, preferring one that brings in no hazard
 * of the same profile that is not there now (aligning a loop for the JCC
 * rule should not make it straddle a window); failing that, the smallest
 * that removes it, marked as not clean; 0 when no alignment up to 64 does. */
static void find_fix(const struct check *c, size_t n, size_t k,
		     const struct subject *x, uint64_t start, uint64_t align,
		     struct hazard *h)
{
	unsigned now = failing(c, n, x, start, align);

	h->fix_align = 0;
	h->fix_pad = 0;
	h->fix_clean = false;
	for (uint64_t a = 2; a <= 64; a *= 2) {
		uint64_t moved = (start + a - 1) & ~(a - 1);
		unsigned after;

		if (moved == start && a <= align)
			continue;  /* already so aligned: no change */
		after = failing(c, n, x, moved, align > a ? align : a);
		if (after & (1u << k))
			continue;
		if (!h->fix_align) {
			h->fix_align = (uint16_t)a;
			h->fix_pad = (uint16_t)(moved - start);
		}
		if (!(after & ~now)) {
			h->fix_align = (uint16_t)a;
			h->fix_pad = (uint16_t)(moved - start);
			h->fix_clean = true;
			return;
		}
	}
}

static uint8_t severity(const struct profile *p, enum rule r, unsigned w)
{
	if (r == RULE_BRANCH_CROSSES || r == RULE_BRANCH_ENDS)
		return 3;
	if (r == RULE_LOOP_STRADDLES && w == p->line)
		return 2;
	return 1;
}

/* Every failing check becomes a hazard with its fix. */
static size_t apply(const struct profile *p, const struct check *c, size_t nc,
		    const struct subject *x, uint64_t start, uint64_t align,
		    struct hazard *out, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < nc && n < max; k++) {
		unsigned all, bad = count_bad(c[k].rule, c[k].window, x, start, align, &all);

		if (!bad)
			continue;
		out[n] = (struct hazard){
			.profile = p, .rule = (uint8_t)c[k].rule, .window = (uint16_t)c[k].window,
			.severity = severity(p, c[k].rule, c[k].window), .certain = bad == all,
			.bad_placements = (uint16_t)bad, .all_placements = (uint16_t)all,
		};
		find_fix(c, nc, k, x, start, align, &out[n]);
		n++;
	}
	return n;
}

size_t loop_hazards(const struct profile *p, const struct loop_geometry *g,
		    uint64_t start, uint64_t placement_align,
		    struct hazard *out, size_t max)
{
	struct subject x = { .loop = g };
	struct check c[MAX_CHECKS];
	size_t n = loop_checks(p, g, c);

	return apply(p, c, n, &x, start, placement_align, out, max);
}

size_t entry_hazards(const struct profile *p, uint64_t addr, uint64_t size,
		     uint64_t placement_align, struct hazard *out, size_t max)
{
	struct subject x = { .size = size };
	struct check c = { RULE_ENTRY_MISALIGNED, p->line };

	if (size == 0 || size > p->line)
		return 0;
	return apply(p, &c, 1, &x, addr, placement_align, out, max);
}
