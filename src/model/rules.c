/* The hazard rules and the padding that fixes each hazard. Every
 * rule is a predicate on a placement, so the same code answers "is it
 * hazardous here", "at how many of the possible placements" (relocatable
 * objects) and "after which .p2align is it gone". */
#include "profile.h"
#include "rules.h"
#include "geometry.h"

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

/* What each rule means, for readers of a code-scanning alert (SARIF's rule
 * help): the hazard model, and the seeds behind each. */
const char *rule_summary(enum rule r)
{
	switch (r) {
	case RULE_LOOP_STRADDLES: return "A loop's bytes touch more fetch windows, uop-cache windows or "
					 "cache lines than its size needs.";
	case RULE_BRANCH_CROSSES: return "A branch in a loop, or its macro-fused pair, crosses a window "
					 "boundary that the CPU's branch rule penalises.";
	case RULE_BRANCH_ENDS: return "A branch in a loop, or its macro-fused pair, ends on the last "
				      "byte of a window that the CPU's branch rule penalises.";
	case RULE_ENTRY_MISALIGNED: return "A function no larger than a cache line starts where it "
					   "spans two lines.";
	}
	return "?";
}

const char *rule_help(enum rule r)
{
	switch (r) {
	case RULE_LOOP_STRADDLES:
		return "The front end fetches a loop's bytes every iteration, a window at a time. A loop "
		       "placed across one more window (16 or 32 B fetch block, 32 or 64 B uop-cache "
		       "window, 64 B line) than its size needs costs a fetch per iteration: seed 000, "
		       "__clear_user's 15-byte loop across a 16 B window made pread of /dev/zero 40% "
		       "slower on Zen 1. The fix is the alignment before the loop that keeps it in as "
		       "few windows as its size allows wherever it lands: .p2align in assembly, the "
		       "compiler's loop alignment in C.";
	case RULE_BRANCH_CROSSES:
		return "Skylake's JCC erratum microcode keeps a jump, or a macro-fused compare-and-jump, "
		       "that crosses or ends on a 32 B boundary out of the decoded-uop cache (Intel, "
		       "Mitigations for Jump Conditional Code Erratum, 2019); Golden Cove pays about 2x "
		       "on a tight loop whose fused pair spans a 64 B line (measured with straddle "
		       "sweep on Emerald Rapids). The fix moves the loop so the branch lies inside one "
		       "window.";
	case RULE_BRANCH_ENDS:
		return "Skylake's JCC erratum also applies to a jump or fused pair whose last byte is "
		       "the last byte of a 32 B window (Intel, Mitigations for Jump Conditional Code "
		       "Erratum, 2019). The fix moves the loop so the branch ends inside a window.";
	case RULE_ENTRY_MISALIGNED:
		return "A small function that could sit in one cache line but spans two costs a second "
		       "line on every cold call: seed 003, the vDSO's clock_gettime lost its 64 B "
		       "alignment after an unrelated change and cold calls got 88% slower. The fix "
		       "aligns the function's entry (.p2align 6, or the compiler's function alignment).";
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

unsigned pieces_touched(const struct loop_piece *p, size_t n, uint64_t base, unsigned w)
{
	unsigned touched = 0;
	uint64_t last = UINT64_MAX;     /* the last window counted */

	for (size_t k = 0; k < n; k++) {
		uint64_t a = base + p[k].start, b = base + p[k].end;

		if (b <= a)
			continue;
		touched += windows_touched(a, b, w);
		if (last != UINT64_MAX && a / w == last)
			touched--;      /* shares a window with the piece before */
		last = (b - 1) / w;
	}
	return touched;
}

/* What moving `start` to offset o of its align-byte block adds to every
 * address: a move back is a base above 2^63, and unsigned sums wrap to
 * the address. */
static uint64_t moved_base(uint64_t start, uint32_t o, unsigned align)
{
	return start / align * align + o - start;
}

unsigned pieces_touched_at(const struct loop_piece *p, size_t n, uint64_t start, uint32_t o,
			   unsigned align, unsigned w)
{
	return pieces_touched(p, n, moved_base(start, o, align), w);
}

/* [a, b) spans a boundary of w. */
static bool crosses(uint64_t a, uint64_t b, unsigned w)
{
	return b > a && a / w != (b - 1) / w;
}

double loop_moves_cycles(const struct loop_moves *m, uint32_t o)
{
	uint64_t base = moved_base(m->start, o, m->align);
	double c = pieces_touched(m->piece, m->npiece, base, m->window) * m->window_price;

	for (size_t i = 0; i < m->nbranch; i++) {
		const struct placed_branch *b = &m->branch[i];

		if (crosses(b->pair + base, b->end + base, m->branch_window))
			c += b->pair != b->branch && (b->branch + base) % m->branch_window == 0 ?
			     m->split_price : m->branch_price;
	}
	return c;
}

/* Cycles equal to a thousandth: sums of the same prices. */
static bool same_cycles(double a, double b)
{
	return a - b < 1e-3 && b - a < 1e-3;
}

uint32_t loop_moves_best(const struct loop_moves *m)
{
	uint32_t today = (uint32_t)(m->start % m->align), best = today;
	double fewest = loop_moves_cycles(m, today);

	for (uint32_t o = 0; o < m->align; o++) {
		double c = loop_moves_cycles(m, o);

		if (c < fewest && !same_cycles(c, fewest))
			fewest = c, best = o;
	}
	return best;
}

static uint32_t cyclic_distance(uint32_t a, uint32_t b, unsigned align)
{
	uint32_t d = (a + align - b) % align;

	return d < align - d ? d : align - d;
}

size_t loop_moves_controls(const struct loop_moves *m, uint32_t best, uint32_t *out, size_t max)
{
	uint32_t today = (uint32_t)(m->start % m->align);
	double cycles = loop_moves_cycles(m, today);
	size_t k = 0;

	for (uint32_t d = 1; d <= m->align / 2 && k < max; d++)
		for (uint32_t o = 0; o < m->align && k < max; o++)
			if (cyclic_distance(o, best, m->align) == d && o != today &&
			    same_cycles(loop_moves_cycles(m, o), cycles))
				out[k++] = o;
	return k;
}

unsigned loop_geometry_touched(const struct loop_geometry *g, uint64_t start, unsigned w)
{
	if (g->npiece == 0)
		return windows_touched(start, start + g->bytes, w);
	return pieces_touched(g->piece, g->npiece, start, w);
}

unsigned windows_best(uint64_t bytes, unsigned w)
{
	return (unsigned)((bytes + w - 1) / w);
}

/* What is tested: a loop (geometry) or a function entry (size only). A
 * branch rule looks at one branch (`only`) or at every branch it covers
 * (-1). */
struct subject {
	const struct loop_geometry *loop;
	uint64_t size;
	int64_t only;
};

/* The branches a profile's branch rule covers. Skylake's JCC erratum:
 * every jump, call and return, and a fused pair (Intel's paper). Golden
 * Cove: only a loop's closing branches, since that is what was measured
 * (straddle sweep clear_movq_imm on EMR: the decl/jnz pair across the line
 * ~1.9x); a branch that is not taken every iteration was not measured, and
 * a rule without evidence would be noise. */
static bool rule_covers(const struct profile *p, const struct loop_branch *b)
{
	return p->branch_rule == BRANCH_RULE_JCC_ERRATUM || b->back;
}

/* Both branch rules take a macro-fused pair whole: the JCC erratum by
 * Intel's description, Golden Cove by measurement (a line between the two
 * parts costs too, less). */
static bool branch_hazard(enum rule r, unsigned w, const struct loop_branch *e, uint64_t s)
{
	if (r == RULE_BRANCH_ENDS)
		return (s + e->end) % w == 0;
	return crosses(s + e->pair, s + e->end, w);
}

/* Is the subject hazardous with its first byte at s? */
static bool present(const struct profile *p, enum rule r, unsigned w,
		    const struct subject *x, uint64_t s)
{
	switch (r) {
	case RULE_LOOP_STRADDLES:
		return loop_geometry_touched(x->loop, s, w) > windows_best(x->loop->bytes, w);
	case RULE_ENTRY_MISALIGNED:
		return windows_touched(s, s + x->size, w) > 1;
	default:
		if (x->only >= 0)
			return branch_hazard(r, w, &x->loop->branch[x->only], s);
		for (uint32_t i = 0; i < x->loop->nbranch; i++)
			if (rule_covers(p, &x->loop->branch[i]) &&
			    branch_hazard(r, w, &x->loop->branch[i], s))
				return true;
		return false;
	}
}

/* A section aligned to `align` puts a subject at offset `start` at addresses
 * start + k*align: modulo w, w/align placements when align < w, else only the
 * one it is at. */
static unsigned count_bad(const struct profile *p, enum rule r, unsigned w,
			  const struct subject *x, uint64_t start, uint64_t align,
			  unsigned *all)
{
	unsigned bad = 0;

	if (align >= w) {
		*all = 1;
		return present(p, r, w, x, start);
	}
	*all = (unsigned)(w / align);
	for (unsigned k = 0; k < *all; k++)
		bad += present(p, r, w, x, start % align + k * align);
	return bad;
}

/* The rules a profile applies to a subject: (rule, window) pairs. */
struct check {
	enum rule rule;
	unsigned window;
};

#define MAX_CHECKS 6

bool in_loop_buffer(const struct profile *p, const struct loop_geometry *g)
{
	return p->loop_buffer && g->fits_loop_buffer_shape && g->ninsn <= p->loop_buffer;
}

/* A straddle of w makes the front end fetch at most one window more than
 * the loop's best placement does, a cycle more per iteration; the loop
 * pays it only while fetching is what bounds the iteration. Measured on
 * Zen 5 (straddle calibrate): 40-byte nop loops across a line paid 1.15x
 * with 11 instructions and nothing with 20; copy_unrolled's 80-byte loop
 * (8 stores) paid nothing for its third line on a quiet machine. */
bool back_end_hides(const struct profile *p, const struct loop_geometry *g, unsigned w)
{
	uint64_t fetch = windows_best(g->bytes, w) + 1;

	if (!p->issue_width)
		return false;
	if (g->ninsn >= fetch * p->issue_width)
		return true;
	return p->stores_per_cycle && g->nstore > 0 &&
	       (uint64_t)g->nstore >= fetch * p->stores_per_cycle;
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
			if (!back_end_hides(p, g, windows[i]))
				c[n++] = (struct check){ RULE_LOOP_STRADDLES, windows[i] };
	if (p->branch_rule != BRANCH_RULE_NONE)
		c[n++] = (struct check){ RULE_BRANCH_CROSSES, p->branch_window };
	if (p->branch_rule == BRANCH_RULE_JCC_ERRATUM)
		c[n++] = (struct check){ RULE_BRANCH_ENDS, p->branch_window };
	return n;
}

bool is_branch_rule(enum rule r)
{
	return r == RULE_BRANCH_CROSSES || r == RULE_BRANCH_ENDS;
}

bool is_priced_rule(enum rule r)
{
	return r == RULE_LOOP_STRADDLES || is_branch_rule(r);
}

/* Does a check that passes with the subject at `start` (placements kept
 * modulo `align`) fail at `moved` (modulo `keep`)? A branch rule is
 * judged branch by branch: moving the crossing from one branch to another
 * is no fix. */
static bool brings_in(const struct profile *p, const struct check *c, size_t n,
		      const struct subject *x, uint64_t start, uint64_t align,
		      uint64_t moved, uint64_t keep)
{
	unsigned all;

	for (size_t i = 0; i < n; i++) {
		uint32_t nb = is_branch_rule(c[i].rule) ? x->loop->nbranch : 1;

		for (uint32_t j = 0; j < nb; j++) {
			struct subject xj = *x;

			if (is_branch_rule(c[i].rule)) {
				if (!rule_covers(p, &x->loop->branch[j]))
					continue;
				xj.only = j;
			}
			if (!count_bad(p, c[i].rule, c[i].window, &xj, start, align, &all) &&
			    count_bad(p, c[i].rule, c[i].window, &xj, moved, keep, &all))
				return true;
		}
	}
	return false;
}

/* The smallest .p2align before the subject, up to 64, that removes the
 * hazard of check c[k] on xk (the subject, or the one branch at fault)
 * wherever `place` puts it, preferring one that brings in no hazard of the
 * same profile that is not there now (aligning a loop for the JCC rule
 * should not make it straddle a window); failing that, the smallest that
 * removes it, not clean. False when none does. */
struct fix {
	unsigned align, pad;
	bool clean;
};

static bool search_fix(const struct profile *p, const struct check *c, size_t n, size_t k,
		       const struct subject *x, const struct subject *xk, uint64_t start,
		       uint64_t align, bool anywhere, struct fix *f)
{
	unsigned all;

	*f = (struct fix){ 0 };
	for (uint64_t a = 2; a <= 64; a *= 2) {
		uint64_t moved = (start + a - 1) & ~(a - 1);
		/* here: where the section's own alignment (raised to a by the
		 * directive) puts it from today's address; anywhere: at every
		 * multiple of a, which is all .p2align promises in another
		 * build. Clean is judged here: another build has its own
		 * hazards, each with its own fix. */
		uint64_t here = align > a ? align : a;

		if (!anywhere && moved == start && a <= align)
			continue;  /* already so aligned: no change */
		if (count_bad(p, c[k].rule, c[k].window, xk, moved, anywhere ? a : here, &all))
			continue;
		if (!f->align)
			*f = (struct fix){ (unsigned)a, (unsigned)(moved - start), false };
		if (!brings_in(p, c, n, x, start, align, moved, here)) {
			*f = (struct fix){ (unsigned)a, (unsigned)(moved - start), true };
			return true;
		}
	}
	return f->align != 0;
}

/* the fix holds wherever the subject lands with that alignment; a smaller one
 * that works only at today's address is said as such. */
static void find_fix(const struct profile *p, const struct check *c, size_t n, size_t k,
		     const struct subject *x, const struct subject *xk, uint64_t start,
		     uint64_t align, struct hazard *h)
{
	struct fix any, here;

	search_fix(p, c, n, k, x, xk, start, align, true, &any);
	h->fix_align = (uint16_t)any.align;
	/* A loop in pieces moves whole under one .p2align; when none makes it
	 * fit, the exit code between its pieces is what costs the window, and
	 * the fix is in the layout: one run of its bytes fits windows_best
	 * wherever .p2align w puts it. */
	h->fix_layout = !any.align && c[k].rule == RULE_LOOP_STRADDLES && x->loop->npiece > 1;
	h->fix_pad = (uint16_t)any.pad;
	h->fix_clean = any.clean;
	h->here_align = h->here_pad = 0;
	h->here_clean = false;
	if (search_fix(p, c, n, k, x, xk, start, align, false, &here) &&
	    (!any.align || here.align < any.align)) {
		h->here_align = (uint16_t)here.align;
		h->here_pad = (uint16_t)here.pad;
		h->here_clean = here.clean;
	}
}

static enum severity severity(const struct profile *p, enum rule r, unsigned w)
{
	if (is_branch_rule(r))
		return SEVERITY_HIGH;
	if (r == RULE_LOOP_STRADDLES && w == p->line)
		return SEVERITY_MEDIUM;
	return SEVERITY_LOW;
}

static struct hazard make_hazard(const struct profile *p, const struct check *c, unsigned bad,
				 unsigned all)
{
	return (struct hazard){
		.profile = p, .rule = (uint8_t)c->rule, .window = (uint16_t)c->window,
		.severity = severity(p, c->rule, c->window), .certain = bad == all,
		.bad_placements = (uint16_t)bad, .all_placements = (uint16_t)all,
	};
}

/* Every failing check becomes a hazard with its fix; a branch rule makes
 * one per branch at fault, naming it. */
static size_t apply(const struct profile *p, const struct check *c, size_t nc,
		    const struct subject *x, uint64_t start, uint64_t align,
		    struct hazard *out, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < nc; k++) {
		bool per_branch = is_branch_rule(c[k].rule);
		uint32_t nb = per_branch ? x->loop->nbranch : 1;

		for (uint32_t j = 0; j < nb && n < max; j++) {
			struct subject xk = *x;
			unsigned all, bad;

			if (per_branch) {
				if (!rule_covers(p, &x->loop->branch[j]))
					continue;
				xk.only = j;
			}
			bad = count_bad(p, c[k].rule, c[k].window, &xk, start, align, &all);
			if (!bad)
				continue;
			out[n] = make_hazard(p, &c[k], bad, all);
			if (per_branch) {
				const struct loop_branch *b = &x->loop->branch[j];

				out[n].branch = start + b->branch;
				out[n].pair = start + b->pair;
				out[n].branch_end = start + b->end;
				out[n].branch_kind = b->kind;
			}
			find_fix(p, c, nc, k, x, &xk, start, align, &out[n]);
			n++;
		}
	}
	return n;
}

size_t loop_hazards(const struct profile *p, const struct loop_geometry *g,
		    uint64_t start, uint64_t placement_align,
		    struct hazard *out, size_t max)
{
	struct subject x = { .loop = g, .only = -1 };
	struct check c[MAX_CHECKS];
	size_t n = loop_checks(p, g, c);

	return apply(p, c, n, &x, start, placement_align, out, max);
}

size_t entry_hazards(const struct profile *p, uint64_t addr, uint64_t size,
		     uint64_t placement_align, struct hazard *out, size_t max)
{
	struct subject x = { .size = size, .only = -1 };
	struct check c = { RULE_ENTRY_MISALIGNED, p->line };

	if (size == 0 || size > p->line)
		return 0;
	return apply(p, &c, 1, &x, addr, placement_align, out, max);
}
