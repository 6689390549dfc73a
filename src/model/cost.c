/* What a straddle costs (issue 26; DESIGN: the hazard model, "Cost"). The
 * front end fetches a window a cycle, so a loop's iteration needs at least
 * the windows it touches; its back end needs the cycles llvm-mca's model
 * of the CPU gives it (dependency chains, divides, ports), and at least the
 * profile's measured bound (issue width, stores a cycle). The slower of
 * the two decides: a loop whose back end needs more cycles than it fetches
 * windows pays nothing for a straddle, and says which bound hides it. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cost_bound_name(enum cost_bound b)
{
	static const char *const names[NCOST_BOUND] = { "at-best", "front-end", "latency", "divide",
		"store", "issue", "loop-buffer" };

	return b < NCOST_BOUND ? names[b] : "?";
}

const char *cost_source_name(enum cost_source s)
{
	static const char *const names[] = { "none", "profile", "llvm-mca", "llvm-mca-width" };

	return s <= COST_SOURCE_MCA_WIDTH ? names[s] : "?";
}

static double larger(double a, double b)
{
	return a > b ? a : b;
}

/* What a window more costs behind b's dependency chain (a chain's
 * cycles, not a divide's or stores': cost_bound_of). */
static double behind_chain(const struct profile *p, const struct back_end *b)
{
	return cost_bound_of(b, 0) == COST_LATENCY ? p->latency_window_cycles : 0;
}

/* The back end's cycles an iteration and what its chain leaves of the
 * windows more: the least the iteration takes today. */
static double chain_cycles(const struct profile *p, double best, double touched,
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
static double iteration_cycles(const struct profile *p, double best, double touched,
			       const struct back_end *b)
{
	double base = larger(best, b->cycles), room = touched - base;
	double extra = p->window_cycles > 0 ? (touched - best) * p->window_cycles : room;
	double fetch = base + (room > 0 ? (extra < room ? extra : room) : 0);

	if (p->window_cycles > 0)
		fetch = larger(fetch, front_cycles(p, best, touched, b));
	return larger(fetch, chain_cycles(p, best, touched, b));
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
		double ratio = iteration_cycles(p, b, t, be) / larger(b, be->cycles);

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
static double loop_ratio(const struct scan_result *r, const struct loop_report *l,
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

static double branch_penalty(const struct scan_result *r, const struct loop_report *l,
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
			      chain_cycles(p, best, touched, b));

	return today / larger(best, b->cycles);
}

static double branch_ratio(const struct profile *p, const struct scan_result *r,
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

/* llvm-mca's cycles well above what the ports alone need mean a chain of
 * dependent instructions decides (the 3-cycle imul chain: 3.03 against a
 * throughput of 1.0 on znver3, LLVM 14). */
#define LATENCY_OVER_THROUGHPUT 1.5

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
	if (b->mca_cycles > 0 && b->mca_cycles >= LATENCY_OVER_THROUGHPUT * b->mca_throughput)
		return COST_LATENCY;
	/* the ports: stores alone, at one a cycle, would fill them */
	if (b->nstore > 0 && b->nstore >= b->mca_throughput)
		return COST_STORE;
	return COST_ISSUE;
}

/* The profile's bound and llvm-mca's region (NULL: not modelled). A
 * profile whose issue width was measured (calibrate) is believed over
 * LLVM's model for what it measured, the rate instructions and stores go
 * through: LLVM 19's znver5 (its Zen 4 model) dispatches 6 a cycle and
 * puts 3 stores above 2 cycles, where Zen 5 paid for a line with 19 nops
 * and with 3 stores (tests/fixtures/x86/backend.S). The model still adds
 * what no rate shows: a dependency chain, a divide. */
static void combine(const struct profile *p, uint32_t ninsn, const struct mca_region *m,
		    struct back_end *b)
{
	bool modelled = m && m->ok;

	b->issue = p->issue_width ? (double)ninsn / p->issue_width : 0;
	b->store = p->stores_per_cycle && b->nstore > 0 ? (double)b->nstore / p->stores_per_cycle : 0;
	b->mca_cycles = modelled ? m->cycles : 0;
	b->mca_throughput = modelled ? m->throughput : 0;
	if (modelled && p->issue_width && !b->divides &&
	    m->cycles < LATENCY_OVER_THROUGHPUT * m->throughput)
		modelled = false;
	b->cycles = larger(larger(modelled ? b->mca_cycles : 0, b->dispatch),
			   larger(b->issue, b->store));
	b->source = modelled ? COST_SOURCE_MCA : b->dispatch ? COST_SOURCE_MCA_WIDTH :
		    p->issue_width ? COST_SOURCE_PROFILE : COST_SOURCE_NONE;
}

#define ASM_LINE 160

/* A string instruction (movs, stos, lods, scas, cmps, ins, outs, with or
 * without rep), as the decoder's Intel text prints it: bare, no operands.
 * llvm-mca gives `movsq` and `rep movsb` 100 cycles (znver3 and skylake,
 * LLVM 14 and 19; alderlake 7-8 in 19, 100 in 14): a microcoded sequence
 * its models do not hold, which made copy loops latency-bound. Such a
 * loop is left to the bound. */
static bool string_instruction(const char *line)
{
	static const char *const names[] = { "movs", "stos", "lods", "scas", "cmps", "ins", "outs" };

	if (strncmp(line, "rep", 3) == 0)
		return true;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t k = strlen(names[i]);

		if (strncmp(line, names[i], k) == 0 && strchr("bwdq", line[k]) && line[k] &&
		    line[k + 1] == 0)
			return true;
	}
	return false;
}

/* The instructions of code[0..n) at addr as lines of the region being
 * made, labels relative to base; false when one does not decode, or is
 * one llvm-mca does not model (string_instruction). */
static bool add_lines(struct mca_input *in, struct decoder *d, const uint8_t *code, size_t n,
		      uint64_t addr, uint64_t base, bool *divides, uint32_t *ninsn)
{
	char line[ASM_LINE];

	for (size_t off = 0; off < n;) {
		struct insn insn;
		bool div;

		decode_one(d, code + off, n - off, addr + off, &insn);
		if (insn.kind == BR_INVALID || insn.undecoded ||
		    !decode_asm_text(d, code + off, n - off, addr + off, base, line, sizeof line, &div) ||
		    string_instruction(line))
			return false;
		*divides |= div;
		sb_addf(&in->text, "%s\n", line);
		(*ninsn)++;
		off += insn.len;
	}
	return true;
}

/* The loop's pieces p[0..np) (addresses; the function's bytes `fcode`
 * start at faddr) as one region: what an iteration runs. False when an
 * instruction does not decode (the loop is left to the bound). */
static bool add_loop(struct mca_input *in, struct decoder *d, const uint8_t *fcode, uint64_t faddr,
		     const struct loop_piece *p, size_t np, bool *divides)
{
	size_t start = in->text.len;
	uint32_t ninsn = 0;

	*divides = false;
	for (size_t i = 0; i < np; i++)
		if (!add_lines(in, d, fcode + (p[i].start - faddr), p[i].end - p[i].start, p[i].start,
			       p[0].start, divides, &ninsn)) {
			in->text.len = start;
			if (in->text.s)
				in->text.s[start] = 0;
			return false;
		}
	GROW(in->loop, in->cap, in->nloop + 1);
	in->loop[in->nloop++] = (struct mca_loop){ start, in->text.len, ninsn };
	return true;
}

static void mca_input_free(struct mca_input *in)
{
	sb_free(&in->text);
	free(in->loop);
	memset(in, 0, sizeof *in);
}

/* The stores of code[0..n), through the decoder's own count. */
static int32_t count_stores(struct decoder *d, const uint8_t *code, size_t n, uint64_t addr)
{
	struct insn *insn = xcalloc(n + 1, sizeof *insn);
	size_t used, k = decode_run(d, code, n, addr, insn, n + 1, &used);
	int32_t stores = (int32_t)decode_count_stores(d, insn, code, n);

	(void)k;
	free(insn);
	return stores;
}

/* Loops past this many instructions are not simulated: their back end is
 * the model's dispatch width at least (source "llvm-mca-width", so their
 * slowdown is a bound from above), as llvm-mca's time grows with the
 * instructions it simulates (half of libLLVM-14's loops left to simulate
 * are larger: make bench-scan). Nor are loops that call: llvm-mca gives a
 * call 100 cycles of latency ("call instructions are not correctly
 * modeled"), and the callee's time is not in the loop's bytes. */
#define MCA_MAX_INSN 64

int loop_back_end(const char *llvm_mca, const struct profile *p, struct decoder *d,
		  const uint8_t *code, size_t n, uint64_t addr, struct back_end *out, struct err *e)
{
	struct mca_input in = { .arch = p->arch };
	struct mca_region m = { 0 };
	const char *cpu = mca_cpu(llvm_mca, p);
	struct err ignored;
	uint32_t ncond = 0;
	bool calls = false;

	memset(out, 0, sizeof *out);
	struct loop_piece one = { addr, addr + n };

	for (size_t off = 0; off < n;) {        /* the branches that may fuse */
		struct insn insn;

		decode_one(d, code + off, n - off, addr + off, &insn);
		ncond += insn.kind == BR_COND;
		calls |= insn.kind == BR_CALL || insn.kind == BR_CALL_IND;
		off += insn.len;
	}
	if (!add_loop(&in, d, code, addr, &one, 1, &out->divides)) {
		mca_input_free(&in);
		return err_set(e, "the loop at %#llx does not decode", (unsigned long long)addr);
	}
	out->nstore = count_stores(d, code, n, addr);
	/* as the scan's (MCA_MAX_INSN): not a loop that calls, nor a long one */
	if (cpu && !calls && in.loop[0].ninsn <= MCA_MAX_INSN &&
	    mca_run(llvm_mca, cpu, p->arch, &in, &m, &ignored) == 0)
		mca_steady(llvm_mca, cpu, &in, (const bool[]){ true }, &m);
	out->dispatch = cpu && !p->issue_width ?
			(double)(in.loop[0].ninsn - ncond) / larger(1, mca_dispatch_width(llvm_mca, cpu, p->arch)) : 0;
	combine(p, in.loop[0].ninsn, &m, out);
	mca_input_free(&in);
	return 0;
}

/* ---- a whole scan ---- */

/* A hazard the cost model prices: a straddle, or a branch's. */
static bool priced_hazard(const struct scan_result *r, const struct loop_report *l)
{
	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++)
		if (r->hazard[h].rule == RULE_LOOP_STRADDLES || is_branch_rule(r->hazard[h].rule))
			return true;
	return false;
}

struct pricing {
	const struct scan_opts *o;
	struct scan_result *r;
	struct mca_input in;
	size_t *input;                  /* per loop: its index in `in`, SIZE_MAX none */
	bool *divides;                  /* per input loop */
	size_t divides_cap;
	unsigned width[32];             /* per profile: its model's dispatch width, 0 none */
	const char *cpu[32];            /* per profile: its model's -mcpu, NULL none */
	struct mca_region *region[32];  /* per profile: per input loop, NULL none */
	bool *drop;                     /* per hazard: hidden by the back end */
	size_t dropped;
};

static size_t profile_index(const struct scan_result *r, const struct profile *p)
{
	for (size_t k = 0; k < r->nprofile; k++)
		if (r->profile[k] == p)
			return k;
	return 0;
}

static void back_end_of(const struct pricing *c, size_t loop, size_t k, struct back_end *b)
{
	const struct loop_report *l = &c->r->loop[loop];
	size_t in = c->input[loop];

	memset(b, 0, sizeof *b);
	b->nstore = l->nstore;
	b->divides = in != SIZE_MAX && c->divides[in];
	if (c->width[k] && !c->r->profile[k]->issue_width)
		b->dispatch = (double)(l->ninsn - (l->ninsn > l->ncond ? l->ncond : 0)) / c->width[k];
	combine(c->r->profile[k], l->ninsn, in != SIZE_MAX && c->region[k] ? &c->region[k][in] : NULL,
		b);
}

#define MCA_NEGLIGIBLE 0.1

/* Does a straddle hazard of the loop need llvm-mca's simulation? Not
 * where the model's dispatch width alone hides it: its cycles are never
 * fewer, and simulating costs ~2.5 us an instruction and iteration
 * (libLLVM-14's 2,801 loops without calls took 17 s at 100 iterations).
 * Nor, in a whole-file scan, where at that width the straddle can cost at
 * most MCA_NEGLIGIBLE: the slowdown given is then that bound ("<=1.05x",
 * slowdown_at_most, source "llvm-mca-width"; 5% here cost libLLVM-14's
 * scan 1.6x its time without llvm-mca, 10% 1.3x; at 2% goldencove's
 * 0.05-cycle window sent 10,567 of its loops to llvm-mca, 8.3x, and a
 * vmlinux scan ran llvm-mca for 15 minutes). A bound is not a
 * prediction, and prove judges predictions: o->cost_exact (prove's few
 * hot files) simulates every loop a straddle could cost anything, or
 * goldencove's chain and divide loops of tests/place/bounds.c read
 * "<=1.05x", a cost at prove's 3%, where llvm-mca hides each.
 * A measured profile believes its own width, so only the model's chains
 * and divides could hide a straddle it kept: those are simulated. Nor,
 * in a whole-file scan, where the profile measured what a window costs:
 * its width's bound is then that measurement ("<=1.35x" on goldencove);
 * simulating sent 19,915 of libLLVM-14's loops to llvm-mca under
 * goldencove's 0.35-cycle line, 13x the scan without it. */
static bool needs_simulation(const struct pricing *c, const struct loop_report *l)
{
	const struct scan_result *r = c->r;

	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++) {
		const struct hazard *z = &r->hazard[h];
		size_t k = profile_index(r, z->profile);
		struct back_end b;

		if (!c->cpu[k] || (z->rule != RULE_LOOP_STRADDLES && !is_branch_rule(z->rule)))
			continue;
		/* a straddle's bound; an outer loop's straddle is priced at 1 */
		if (z->rule == RULE_LOOP_STRADDLES &&
		    ((!c->o->cost_exact && z->profile->window_cycles > 0) || !l->innermost))
			continue;
		back_end_of(c, (size_t)(l - r->loop), k, &b);
		/* A bubble (0.8 cycle then) is above the 10% shortcut on most
		 * loops: a whole-file scan that simulated for it took 3.0x its
		 * time without llvm-mca on libLLVM-14 (make bench-scan,
		 * goldencove; 1.08x without). There its price is the width's bound ("<="); prove's
		 * few hot files (cost_exact) are simulated. */
		if (is_branch_rule(z->rule)) {
			/* the simulation's cycles are never fewer: it can only hide */
			if (c->o->cost_exact &&
			    branch_ratio(z->profile, r, l, &b, 0, branch_penalty(r, l, z->profile)) > 1)
				return true;
			continue;
		}
		double best = windows_best(l->bytes, z->window);
		double more = iteration_cycles(z->profile, best, best + 1, &b);
		double base = larger(best, b.cycles), ratio = more / base;

		/* the ratio only falls as the back end's cycles rise, but a
		 * chain the simulation finds keeps latency_window_cycles */
		ratio = larger(ratio, (base + z->profile->latency_window_cycles) / base);
		if (ratio > 1 && (!b.dispatch || ratio > 1 + (c->o->cost_exact ? 0 : MCA_NEGLIGIBLE)))
			return true;
	}
	return false;
}

/* A region whose text an earlier one has (the same loop in another
 * function: templates, inlined copies) is that one: open addressing over
 * FNV-1a hashes of the text, the table twice the loops or more. Branch
 * targets' labels (".Lb-24": decode_asm_text) do not count: llvm-mca
 * follows no branch and reads "jz .Lb48" as the same instruction whatever
 * the label, so loops that differ only in where they exit to are one
 * region (libLLVM-14 under icelake: 473 regions for 485 texts, each pair's
 * cycles and throughput the same when both were simulated). */
struct same_text {
	size_t *slot;                   /* region + 1, 0 empty */
	size_t mask;
};

/* The end of the label at s[i] (".Lb" and its signed number), else i. */
static size_t label_end(const char *s, size_t i, size_t n)
{
	size_t k = i + 3;

	if (n - i < 4 || memcmp(s + i, ".Lb", 3) != 0)
		return i;
	k += s[k] == '-';
	while (k < n && s[k] >= '0' && s[k] <= '9')
		k++;
	return k;
}

static uint64_t text_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		size_t k = label_end(s, i, n);
		uint8_t c = k > i ? 0xff : (uint8_t)s[i];       /* every label alike */

		h = (h ^ c) * 1099511628211ull;
		i = k > i ? k - 1 : i;
	}
	return h;
}

static bool same_but_labels(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		size_t ka = label_end(a, i, na), kb = label_end(b, j, nb);

		if ((ka > i) != (kb > j))
			return false;
		if (ka > i) {
			i = ka, j = kb;
			continue;
		}
		if (a[i++] != b[j++])
			return false;
	}
	return i == na && j == nb;
}

/* The earlier region with the text of the last one, else SIZE_MAX (and
 * the last one is entered). */
static size_t same_text_find(struct same_text *t, const struct mca_input *in)
{
	const struct mca_loop *last = &in->loop[in->nloop - 1];
	size_t len = last->text_end - last->text;
	const char *s = in->text.s + last->text;

	for (size_t i = text_hash(s, len) & t->mask;; i = (i + 1) & t->mask) {
		const struct mca_loop *o;

		if (!t->slot[i]) {
			t->slot[i] = in->nloop;
			return SIZE_MAX;
		}
		o = &in->loop[t->slot[i] - 1];
		if (same_but_labels(in->text.s + o->text, o->text_end - o->text, s, len))
			return t->slot[i] - 1;
	}
}

/* The loops that straddle become regions of the one llvm-mca input, but
 * for those the model's dispatch width already decides. */
static void gather(struct pricing *c, const struct elf_image *img)
{
	struct scan_result *r = c->r;
	struct decoder *d = decoder_new(img->arch);
	struct same_text same = { 0 };

	for (same.mask = 1023; same.mask < 2 * r->nloop; same.mask = 2 * same.mask + 1)
		;
	same.slot = xcalloc(same.mask + 1, sizeof *same.slot);
	for (size_t f = 0; d && f < r->nfunc; f++) {
		const struct elf_func *fn = &r->funcs.v[r->func[f].func];
		const uint8_t *bytes = elf_func_bytes(img, fn);

		for (uint32_t k = r->func[f].loop; bytes && k < r->func[f].loop + r->func[f].nloop; k++) {
			struct loop_report *l = &r->loop[k];
			const struct loop_piece *pc = r->piece + l->piece;
			size_t earlier;
			bool div;

			if (!priced_hazard(r, l))
				continue;
			if (l->ninsn > MCA_MAX_INSN || l->has_call || !needs_simulation(c, l) ||
			    !add_loop(&c->in, d, bytes, fn->addr, pc, l->npiece, &div))
				continue;
			if (l->nstore < 0)
				for (uint32_t i = (l->nstore = 0); i < l->npiece; i++)
					l->nstore += count_stores(d, bytes + (pc[i].start - fn->addr),
								  pc[i].end - pc[i].start, pc[i].start);
			if ((earlier = same_text_find(&same, &c->in)) != SIZE_MAX) {
				c->in.text.len = c->in.loop[--c->in.nloop].text;
				c->input[k] = earlier;
				continue;
			}
			c->input[k] = c->in.nloop - 1;
			GROW(c->divides, c->divides_cap, c->in.nloop);
			c->divides[c->in.nloop - 1] = div;
		}
	}
	free(same.slot);
	decoder_free(d);
}

/* Might the loop's price under p turn on its back end's last fifth? A
 * straddle it makes, and cycles above the best placement's windows (at or
 * below them the back end does not enter the ratio, and the filling only
 * adds) and below 1.3 times the windows it touches: the pipeline's
 * filling adds up to ~25% to a fast loop's (mca.c). */
static bool steady_state_matters(const struct scan_result *r, const struct loop_report *l,
				 const struct profile *p, double cycles)
{
	unsigned ws[3];
	size_t n = profile_straddle_windows(p, ws);
	double penalty = branch_penalty(r, l, p);

	/* a branch's bubble hidden or not by a back end near the front end's
	 * cycles plus the bubble */
	if (penalty > 0 && cycles < 1.3 * (windows_best(l->bytes, p->line) + penalty))
		return true;

	for (size_t i = 0; i < n; i++) {
		double t = loop_touched(r, l, ws[i]), b = windows_best(l->bytes, ws[i]);

		if (t > b && cycles > b && cycles < 1.3 * t)
			return true;
	}
	return false;
}

static void steady_states(struct pricing *c, size_t k)
{
	const struct scan_result *r = c->r;
	bool *select = xcalloc(c->in.nloop + 1, sizeof *select);

	for (size_t i = 0; i < r->nloop; i++) {
		size_t in = c->input[i];

		if (in != SIZE_MAX && c->region[k][in].ok &&
		    steady_state_matters(r, &r->loop[i], r->profile[k], c->region[k][in].cycles))
			select[in] = true;
	}
	mca_steady(c->o->llvm_mca, c->cpu[k], &c->in, select, c->region[k]);
	free(select);
}

/* One llvm-mca process per CPU model: profiles sharing a model share its
 * answer. r->back_end says, per profile, what priced its loops. */
static void run_models(struct pricing *c)
{
	struct scan_result *r = c->r;
	const char **cpu = c->cpu;

	for (size_t k = 0; k < r->nprofile; k++) {
		const struct profile *p = r->profile[k];
		struct err e = { "" };

		snprintf(r->back_end[k], sizeof r->back_end[k], "%s",
			 p->issue_width ? "profile" : "none");
		for (size_t j = 0; cpu[k] && c->in.nloop && j < k; j++)
			if (cpu[j] && strcmp(cpu[j], cpu[k]) == 0 && c->region[j]) {
				c->region[k] = c->region[j];
				break;
			}
		if (cpu[k] && c->in.nloop && !c->region[k]) {
			c->region[k] = xcalloc(c->in.nloop, sizeof *c->region[k]);
			if (mca_run(c->o->llvm_mca, cpu[k], p->arch, &c->in, c->region[k], &e)) {
				free(c->region[k]);
				c->region[k] = NULL;
				snprintf(r->back_end[k], sizeof r->back_end[k], "%.47s",
					 p->issue_width ? "profile (llvm-mca failed)" : "none (llvm-mca failed)");
				cpu[k] = NULL;
			} else {
				steady_states(c, k);
			}
		}
		if (cpu[k])
			snprintf(r->back_end[k], sizeof r->back_end[k], "llvm-mca %.12s -mcpu=%.19s",
				 mca_version(c->o->llvm_mca), cpu[k]);
	}
}

/* in_loop_buffer (rules.c) from what the report keeps of the geometry. */
static bool in_loop_buffer_report(const struct profile *p, const struct loop_report *l)
{
	return p->loop_buffer && l->innermost && !l->has_call && l->ninsn <= p->loop_buffer;
}

/* A loop with loops nested in it spends its time in them, and they carry
 * their own hazards and prices: its own bytes run once an iteration of
 * its own. Priced per iteration of its span, sum's fread loop (coreutils
 * 9.1 0x28fc, its 32 KiB summing loop inside) read 1.07x for a fourth
 * line; moving it measured 0.994x and 1.002x (doc/prove.md). Its row
 * stays, at 1x, as an outer loop's own branch does (outer_only). */
static double outer_straddle_price(const struct loop_report *l, double ratio)
{
	return l->innermost ? ratio : 1;
}

/* The loop's cost under each profile; the highest is its own. */
static void price_loop(struct pricing *c, size_t i)
{
	struct scan_result *r = c->r;
	struct loop_report *l = &r->loop[i];

	l->cost = (struct loop_cost){ 0 };
	for (size_t k = 0; k < r->nprofile; k++) {
		const struct profile *p = r->profile[k];
		struct back_end b;
		unsigned w;
		double ratio, penalty, chain;
		struct loop_cost lc;

		back_end_of(c, i, k, &b);
		ratio = outer_straddle_price(l, loop_ratio(r, l, p, &b, &w));
		penalty = branch_penalty(r, l, p);
		if (penalty > 0)
			ratio = larger(ratio, branch_ratio(p, r, l, &b, w, penalty));
		lc = (struct loop_cost){ .slowdown = (float)ratio, .back_end = (float)b.cycles,
					 .window = (uint16_t)w, .source = b.source, .profile = (uint8_t)k,
					 .branch = (float)penalty };
		lc.front_end = w ? (float)loop_touched(r, l, w) : 0;
		lc.front_end_best = w ? (float)windows_best(l->bytes, w) : 0;
		/* a slowdown no more than the windows' part a chain keeps is
		 * the chain's: bounds.c's chain reads 1.067x latency */
		chain = w ? chain_cycles(p, lc.front_end_best, lc.front_end, &b) /
			    larger(lc.front_end_best, b.cycles) : 1;
		lc.bound = in_loop_buffer_report(p, l) ? COST_LOOP_BUFFER :
			   !w && !penalty ? COST_AT_BEST :
			   ratio > chain + 1e-9 ? COST_FRONT_END : cost_bound_of(&b, lc.front_end);
		if (lc.bound == COST_LOOP_BUFFER)
			lc.slowdown = 1;
		if (k == 0 || lc.slowdown > l->cost.slowdown)
			l->cost = lc;
	}
}

static void drop_hidden(struct pricing *c, struct loop_report *l, uint32_t h)
{
	c->drop[h] = true;
	c->dropped++;
	l->back_end_bound = true;
}

/* A branch hazard costs its bubble (branch_ratio) alone; none when the
 * back end's own cycles hide it: then it is no hazard. */
static void price_branch(struct pricing *c, size_t i, uint32_t h)
{
	struct scan_result *r = c->r;
	struct loop_report *l = &r->loop[i];
	struct hazard *z = &r->hazard[h];
	struct back_end b;

	if (z->outer_only) {    /* the rule's verdict stands; its cost is the inner loops' */
		z->slowdown = 1;
		return;
	}
	back_end_of(c, i, profile_index(r, z->profile), &b);
	z->slowdown = (float)branch_ratio(z->profile, r, l, &b, 0, hazard_branch_price(z));
	z->slowdown_at_most = b.source == COST_SOURCE_MCA_WIDTH;
	if (z->slowdown <= 1)
		drop_hidden(c, l, h);
}

/* A straddle costs what one window more than the best adds to an
 * iteration (iteration_cycles) where it is hazardous; none when the back
 * end hides it all (best + 1 cycles or more, and a profile whose back end
 * hides its windows): then it is no hazard. */
static void price_hazards(struct pricing *c, size_t i)
{
	struct scan_result *r = c->r;
	struct loop_report *l = &r->loop[i];

	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++) {
		struct hazard *z = &r->hazard[h];
		struct back_end b;
		double best, more;

		if (is_branch_rule(z->rule)) {
			price_branch(c, i, h);
			continue;
		}
		if (z->rule != RULE_LOOP_STRADDLES)
			continue;
		back_end_of(c, i, profile_index(r, z->profile), &b);
		best = windows_best(l->bytes, z->window);
		more = iteration_cycles(z->profile, best, best + 1, &b);
		z->slowdown = (float)outer_straddle_price(l, more / larger(best, b.cycles));
		z->slowdown_at_most = b.source == COST_SOURCE_MCA_WIDTH && l->innermost;
		if (more <= larger(best, b.cycles))
			drop_hidden(c, l, h);
	}
}

/* The hazards the back end hides leave the result; without keep_all, so
 * do the loops left with none and the functions left with nothing. The
 * arrays are rebuilt in function order (a scan's workers wrote theirs in
 * their own order: scan.c, merge). */
static void remove_hidden(struct pricing *c)
{
	struct scan_result *r = c->r;
	bool keep = c->o->keep_all;
	struct func_report *func = big_realloc(NULL, (r->nfunc + 1) * sizeof *func);
	struct loop_report *loop = big_realloc(NULL, (r->nloop + 1) * sizeof *loop);
	struct hazard *hazard = big_realloc(NULL, (r->nhazard + 1) * sizeof *hazard);
	size_t nf = 0, nl = 0, nh = 0;

	for (size_t f = 0; f < r->nfunc; f++) {
		struct func_report fr = r->func[f];

		fr.loop = (uint32_t)nl;
		for (uint32_t k = r->func[f].loop; k < r->func[f].loop + r->func[f].nloop; k++) {
			struct loop_report lr = r->loop[k];

			lr.hazard = (uint32_t)nh;
			for (uint32_t h = r->loop[k].hazard; h < r->loop[k].hazard + r->loop[k].nhazard; h++)
				if (!c->drop[h])
					hazard[nh++] = r->hazard[h];
			lr.nhazard = (uint32_t)(nh - lr.hazard);
			if (lr.nhazard || keep)
				loop[nl++] = lr;
		}
		fr.nloop = (uint32_t)(nl - fr.loop);
		fr.hazard = (uint32_t)nh;
		for (uint32_t h = r->func[f].hazard; h < r->func[f].hazard + r->func[f].nhazard; h++)
			hazard[nh++] = r->hazard[h];
		if (fr.nloop || fr.nhazard || fr.nirr || keep)
			func[nf++] = fr;
	}
	big_free(r->func);
	big_free(r->loop);
	big_free(r->hazard);
	r->func = func;
	r->loop = loop;
	r->hazard = hazard;
	r->nfunc = nf;
	r->nloop = nl;
	r->nhazard = nh;
}

void scan_costs(const struct elf_image *img, const struct scan_opts *o, struct scan_result *r)
{
	struct pricing c = { .o = o, .r = r, .in = { .arch = img->arch } };
	bool modelled = false;

	for (size_t k = 0; k < r->nprofile; k++) {
		c.cpu[k] = mca_cpu(o->llvm_mca, r->profile[k]);
		c.width[k] = c.cpu[k] ? mca_dispatch_width(o->llvm_mca, c.cpu[k], r->profile[k]->arch) : 0;
		modelled |= c.cpu[k] != NULL;
	}
	c.input = xmalloc((r->nloop + 1) * sizeof *c.input);
	for (size_t i = 0; i < r->nloop; i++)
		c.input[i] = SIZE_MAX;
	if (modelled)
		gather(&c, img);
	run_models(&c);
	c.drop = xcalloc(r->nhazard + 1, sizeof *c.drop);
	for (size_t i = 0; i < r->nloop; i++) {
		price_hazards(&c, i);
		price_loop(&c, i);
	}
	if (c.dropped)
		remove_hidden(&c);
	for (size_t k = 0; k < r->nprofile; k++) {
		bool shared = false;

		for (size_t j = 0; j < k; j++)
			shared |= c.region[j] == c.region[k];
		if (!shared)
			free(c.region[k]);
	}
	free(c.drop);
	free(c.input);
	free(c.divides);
	mca_input_free(&c.in);
}
