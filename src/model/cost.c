/* What a straddle costs. The front end fetches a window a cycle, so a
 * loop's iteration needs at least the windows it touches; its back end
 * needs the cycles LLVM's model of the CPU gives it (dependency chains,
 * divides, ports: back_end.c), and at least the profile's measured bound
 * (issue width, stores a cycle). The slower of the two decides: a loop
 * whose back end needs more cycles than it fetches windows pays nothing
 * for a straddle, and says which bound hides it. This file is the formula
 * alone (doc/scan.md, "What a hazard costs"); pricing.c applies it to a
 * whole scan. */
#include "profile.h"
#include "rules.h"
#include "cost.h"
#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cost_bound_name(enum cost_bound b)
{
	static const char *const names[NCOST_BOUND] = { "at-best", "front-end", "latency", "divide",
		"store", "issue", "loop-buffer", "memory" };

	return b < NCOST_BOUND ? names[b] : "?";
}

const char *cost_source_name(enum cost_source s)
{
	static const char *const names[] = { "none", "profile", "llvm-mca", "llvm-mca-width",
		"llvm-model" };

	return s <= COST_SOURCE_MODEL ? names[s] : "?";
}

static double larger(double a, double b)
{
	return a > b ? a : b;
}

/* What a window more costs behind b's dependency chain (a chain's
 * cycles, not a divide's or stores': cost_bound_of). */
static double behind_chain(const struct profile *p, const struct back_end *b)
{
	enum cost_bound k = cost_bound_of(b, 0);

	return k == COST_LATENCY || k == COST_MEMORY ? p->latency_window_cycles : 0;
}

/* The back end's cycles an iteration and what its chain leaves of the
 * windows more: the least the iteration takes today. */
double cost_chain_cycles(const struct profile *p, double best, double touched,
			   const struct back_end *b)
{
	return b->cycles + (touched - best) * behind_chain(p, b);
}

/* The width the front end feeds: the instructions at the issue width
 * (the profile's, else the model's dispatch width), 0 unknown. */
static double fed_width(const struct back_end *b)
{
	return larger(b->issue, b->dispatch);
}

/* The front end's cycles an iteration where the profile measured what a
 * window more costs: the best placement's windows or the instructions at
 * the model's dispatch width, whichever is more, and the windows more on
 * top. That width does not hide a line: cut's 186-byte loop (coreutils
 * 9.1, 5.33 cycles at it, 4 lines where 3 would do) paid 8-12% for its
 * fourth line besides its branch's bubble (doc/prove.md). An issue width
 * calibrate measured is the rate that hides one (zen5: 20 nops, 2 cycles
 * at its 10, did not pay). Unmeasured: a window a cycle, max(touched,
 * width). */
static double front_cycles(const struct profile *p, double best, double touched,
			   const struct back_end *b)
{
	double extra = (touched - best) * p->window_cycles;

	if (p->window_cycles <= 0)
		return larger(touched, fed_width(b));
	if (b->issue > 0)
		return larger(best + extra, b->issue);
	return larger(best, b->dispatch) + extra;
}

/* An iteration's cycles with `touched` windows to fetch where its best
 * placement fetches `best`: its back end's (at least `best`), plus what
 * the windows more add. A front end fetching a window a cycle adds up to
 * touched - max(best, be): nothing once the back end needs the windows'
 * cycles. A profile that measured what one window more costs an
 * iteration (window_cycles) adds that much a window to the front end's
 * (front_cycles), and a window a cycle never more: Zen 5 paid 1.20x for
 * seed 000's 1-cycle loop across a line, not 2x, and still paid with 3
 * stores (1.5 cycles), not with 4 (zen5's evidence). Where a dependency
 * chain bounds the loop, latency_window_cycles a window stays: a 3-cycle
 * imul chain across a line paid 0.2 cycle on goldencove's EMR guest, 8
 * stores nothing (tests/place/bounds.c chain and stores, doc/prove.md). */
double cost_iteration_cycles(const struct profile *p, double best, double touched,
			       const struct back_end *b)
{
	double base = larger(best, b->cycles), room = touched - base;
	double extra = p->window_cycles > 0 ? (touched - best) * p->window_cycles : room;
	double fetch = base + (room > 0 ? (extra < room ? extra : room) : 0);

	if (p->window_cycles > 0)
		fetch = larger(fetch, front_cycles(p, best, touched, b));
	return larger(fetch, cost_chain_cycles(p, best, touched, b));
}

/* The largest over p's straddle windows of max(touched, be) / max(best,
 * be), touched(w, ctx) the windows of w the loop touches. */
static double worst_ratio(const struct profile *p, uint64_t bytes, const struct back_end *be,
			  unsigned (*touched)(unsigned w, const void *ctx), const void *ctx,
			  unsigned *window)
{
	unsigned ws[3];
	size_t n = profile_straddle_windows(p, ws);
	double worst = 1;

	*window = 0;
	for (size_t i = 0; i < n; i++) {
		double t = touched(ws[i], ctx), b = windows_best(bytes, ws[i]);
		double ratio = cost_iteration_cycles(p, b, t, be) / larger(b, be->cycles);

		if (t <= b)
			continue;
		if (ratio > worst || !*window) {
			worst = ratio;
			*window = ws[i];
		}
	}
	return worst;
}

struct one_run {
	uint64_t start, bytes;
};

static unsigned run_touched(unsigned w, const void *ctx)
{
	const struct one_run *x = ctx;

	return windows_touched(x->start, x->start + x->bytes, w);
}

double cost_ratio_at(const struct profile *p, uint64_t start, uint64_t bytes,
		     const struct back_end *be,
		     unsigned *window)
{
	struct one_run x = { start, bytes };

	return worst_ratio(p, bytes, be, run_touched, &x, window);
}

struct scanned_loop {
	const struct scan_result *r;
	const struct loop_report *l;
};

static unsigned scanned_touched(unsigned w, const void *ctx)
{
	const struct scanned_loop *x = ctx;

	return loop_touched(x->r, x->l, w);
}

/* A scanned loop's ratio: its pieces' windows (a loop in pieces). */
double cost_loop_ratio(const struct scan_result *r, const struct loop_report *l,
			 const struct profile *p, const struct back_end *be, unsigned *window)
{
	struct scanned_loop x = { r, l };

	return worst_ratio(p, l->bytes, be, scanned_touched, &x, window);
}

/* What branch hazard z adds to an iteration's front end under its
 * profile: the pair's two instructions each whole, the window falling
 * on the branch's first byte, cost less than an instruction across it
 * (goldencove's evidence: 1.06-1.13x against 1.92-1.95x). */
double profile_branch_price(const struct profile *p, bool split)
{
	double c = split ? p->split_cycles : p->branch_cycles;

	return c > 0 ? c : 1;
}

double hazard_branch_price(const struct hazard *z)
{
	return profile_branch_price(z->profile, z->rule == RULE_BRANCH_CROSSES &&
				    z->pair != z->branch && z->window &&
				    z->branch % z->window == 0);
}

/* The cycles the branch hazards h[0..n) under p add to their loop's
 * front end. */
static double hazards_penalty(const struct hazard *h, size_t n, const struct profile *p)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		if (h[i].profile == p && is_branch_rule(h[i].rule) && !h[i].outer_only)
			sum += hazard_branch_price(&h[i]);
	return sum;
}

double cost_branch_penalty(const struct scan_result *r, const struct loop_report *l,
			     const struct profile *p)
{
	return hazards_penalty(r->hazard + l->hazard, l->nhazard, p);
}

/* The loop's ratio with `penalty` cycles of branch hazards added to its
 * front end: max(fetch, width) + penalty today, against the best
 * placement's max(best, back end). w: the window deciding the fetch (the
 * straddle's, else the line's, at its best). The back end hides the
 * bubble only with cycles of its own beyond the front end's: the 3-cycle
 * imul chain paid nothing for its decl across a line, fe's 1-cycle loop
 * 1.8x (tests/place/bounds.c, pair and pairchain); what its windows more
 * cost behind it stays (iteration_cycles). */
static double front_ratio(const struct profile *p, double best, double touched,
			  const struct back_end *b, double penalty)
{
	double today = larger(front_cycles(p, best, touched, b) + penalty,
			      cost_chain_cycles(p, best, touched, b));

	return today / larger(best, b->cycles);
}

double cost_branch_ratio(const struct profile *p, const struct scan_result *r,
			   const struct loop_report *l, const struct back_end *b, unsigned w,
			   double penalty)
{
	double best = windows_best(l->bytes, w ? w : p->line);

	return front_ratio(p, best, w ? loop_touched(r, l, w) : best, b, penalty);
}

double cost_branch_ratio_at(const struct profile *p, uint64_t start, uint64_t bytes,
			    const struct back_end *b, const struct hazard *h, size_t n)
{
	unsigned ws[3], w = 0;
	size_t nw = profile_straddle_windows(p, ws);
	double penalty = hazards_penalty(h, n, p), best, touched;

	if (!penalty)
		return 1;
	for (size_t i = 0; i < nw && !w; i++)   /* the window a straddle decides */
		if (windows_touched(start, start + bytes, ws[i]) > windows_best(bytes, ws[i]))
			w = ws[i];
	best = windows_best(bytes, w ? w : p->line);
	touched = w ? windows_touched(start, start + bytes, w) : best;
	return front_ratio(p, best, touched, b, penalty);
}

enum cost_bound cost_bound_of(const struct back_end *b, double front_end)
{
	if (b->cycles < front_end)
		return COST_FRONT_END;
	if (b->store > 0 && b->store >= b->cycles)
		return COST_STORE;
	if (b->issue > 0 && b->issue >= b->cycles)
		return COST_ISSUE;
	if (b->dispatch > 0 && b->dispatch >= b->cycles)
		return COST_ISSUE;      /* the model's width alone: not simulated */
	if (b->divides)
		return COST_DIVIDE;
	if (b->latency)
		return b->memory ? COST_MEMORY : COST_LATENCY;
	/* the ports: stores alone, at one a cycle, would fill them */
	if (b->nstore > 0 && b->nstore >= b->mca_throughput)
		return COST_STORE;
	return COST_ISSUE;
}
