/* Every loop of a scan priced (scan_costs): its back end under each
 * profile (back_end.c), then what each of its hazards costs (cost.c); a
 * hazard the back end hides all of leaves the result, and the loop says
 * which bound hid it. In process, every loop with a hazard the model
 * prices is modelled, exactly as one is alone; with llvm-mca the program
 * (the reference, --llvm-mca PROGRAM), a whole-file scan simulates only
 * the loops whose price the simulation could change, as its time is
 * seconds a thousand loops (needs_simulation). */
#include "profile.h"
#include "rules.h"
#include "cost.h"
#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double larger(double a, double b)
{
	return a > b ? a : b;
}

/* A hazard the cost model prices: a straddle, or a branch's. */
static bool priced_hazard(const struct scan_result *r, const struct loop_report *l)
{
	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++)
		if (is_priced_rule(r->hazard[h].rule))
			return true;
	return false;
}

struct pricing {
	const struct scan_opts *o;
	struct scan_result *r;
	bool in_process;                /* LLVM's model in process, else llvm-mca the program */
	/* per profile (MODEL_MAX_PROFILES of them): */
	struct sched_cpu *model[MODEL_MAX_PROFILES];    /* in process: NULL none */
	struct modelled_loop *modelled[MODEL_MAX_PROFILES];     /* per loop, in process */
	struct mca_input in;
	size_t *input;                  /* per loop: its index in `in`, SIZE_MAX none */
	bool *divides;                  /* per input loop */
	size_t divides_cap;
	unsigned width[MODEL_MAX_PROFILES];     /* its model's dispatch width, 0 none */
	const char *cpu[MODEL_MAX_PROFILES];    /* its model's -mcpu, NULL none */
	struct mca_region *region[MODEL_MAX_PROFILES];  /* per input loop, NULL none */
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
	struct modelled_loop m, *mp = NULL;

	memset(b, 0, sizeof *b);
	b->nstore = l->nstore;
	if (!c->r->profile[k]->issue_width)
		b->dispatch = model_dispatch_cycles(l->ninsn, l->ncond, c->width[k]);
	if (c->in_process && c->modelled[k]) {
		mp = &c->modelled[k][loop];
	} else if (!c->in_process && in != SIZE_MAX) {
		b->divides = c->divides[in];
		if (c->region[k])
			modelled_from_mca(&c->region[k][in], b->divides, mp = &m);
	}
	back_end_combine(c->r->profile[k], l->ninsn, mp, b);
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
 * its width's bound is then that measurement (goldencove's line);
 * simulating sent 19,915 of libLLVM-14's loops to llvm-mca under
 * goldencove, 13x the scan without it. */
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
			    cost_branch_ratio(z->profile, r, l, &b, 0, cost_branch_penalty(r, l, z->profile)) > 1)
				return true;
			continue;
		}
		double best = windows_best(l->bytes, z->window);
		double more = cost_iteration_cycles(z->profile, best, best + 1, &b);
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
static void gather_for_mca(struct pricing *c, const struct elf_image *img)
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
			    !mca_add_loop(&c->in, d, bytes, fn->addr, pc, l->npiece, &div))
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
	double penalty = cost_branch_penalty(r, l, p);

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

/* ---- in process ---- */

/* Each profile's CPU as LLVM models it; profiles sharing a model share
 * their loops' figures. r->back_end says what priced each profile's
 * loops, r->cost_note why a profile's are only bounded. */
static bool open_models(struct pricing *c)
{
	struct scan_result *r = c->r;
	bool any = false;

	for (size_t k = 0; k < r->nprofile; k++) {
		const struct profile *p = r->profile[k];
		const char *mcpu;

		c->model[k] = model_cpu(p, &mcpu);
		c->width[k] = model_dispatch_width(c->model[k]);
		char name[128];

		/* "LLVM 19.1.7 alderlake, in process" (llvm-mca's simulation
		 * with cost_exact) */
		snprintf(name, sizeof name, "%s %s %s, in process", c->o->cost_exact ? "llvm-mca" : "LLVM",
			 c->model[k] ? model_version() + 5 : "", mcpu ? mcpu : "");
		if (c->model[k])
			snprintf(r->back_end[k], sizeof r->back_end[k], "%.47s", name);
		else
			snprintf(r->back_end[k], sizeof r->back_end[k], "%s",
				 p->issue_width ? "profile" : "none");
		if (!c->model[k] && !r->cost_note[0])
			snprintf(r->cost_note, sizeof r->cost_note, model_unavailable() ?
				 "LLVM's scheduling models are not loaded (%.120s): loops are priced by their bounds" :
				 "LLVM knows none of %.40s's CPUs: its loops are priced by their bounds",
				 model_unavailable() ? model_unavailable() : p->name);
		any |= c->model[k] != NULL;
	}
	return any;
}

/* The loop's pieces as the model reads them. */
static size_t loop_pieces(const struct scan_result *r, const struct loop_report *l,
			  const uint8_t *bytes, uint64_t faddr, struct sched_piece *out, size_t max)
{
	size_t n = 0;

	for (uint32_t i = 0; i < l->npiece && n < max; i++) {
		const struct loop_piece *p = &r->piece[l->piece + i];

		out[n++] = (struct sched_piece){ bytes + (p->start - faddr), p->end - p->start, p->start };
	}
	return n;
}

#define MAX_PIECES 64

/* Every innermost loop with a hazard the model prices, under every
 * profile's model (each model once): what an iteration needs. A loop
 * that calls keeps the width's bound (the callee's time is not in its
 * bytes), and so does a loop with loops in it (its time is theirs: its
 * straddles are priced at nothing, outer_straddle_price). */
static void model_loops(struct pricing *c, const struct elf_image *img)
{
	struct scan_result *r = c->r;
	struct sched_piece pc[MAX_PIECES];
	struct err e;

	for (size_t k = 0; k < r->nprofile; k++) {
		for (size_t j = 0; c->model[k] && j < k && !c->modelled[k]; j++)
			if (c->model[j] == c->model[k] && r->profile[j]->store_load_cycles ==
			    r->profile[k]->store_load_cycles &&
			    r->profile[j]->store_load_measured == r->profile[k]->store_load_measured)
				c->modelled[k] = c->modelled[j];
		if (c->model[k] && !c->modelled[k])
			c->modelled[k] = xcalloc(r->nloop + 1, sizeof *c->modelled[k]);
	}
	for (size_t f = 0; f < r->nfunc; f++) {
		const struct elf_func *fn = &r->funcs.v[r->func[f].func];
		const uint8_t *bytes = elf_func_bytes(img, fn);

		for (uint32_t i = r->func[f].loop; bytes && i < r->func[f].loop + r->func[f].nloop; i++) {
			struct loop_report *l = &r->loop[i];
			size_t np;

			if (!priced_hazard(r, l) || !l->innermost || l->has_call || l->npiece > MAX_PIECES)
				continue;
			np = loop_pieces(r, l, bytes, fn->addr, pc, MAX_PIECES);
			for (size_t k = 0; k < r->nprofile; k++) {
				bool shared = false;

				for (size_t j = 0; j < k; j++)
					shared |= c->modelled[j] == c->modelled[k];
				if (!c->modelled[k] || shared)
					continue;
				model_loop(r->profile[k], c->model[k], pc, np, c->o->cost_exact,
					   &c->modelled[k][i], &e);
				if (l->nstore < 0)
					l->nstore = c->modelled[k][i].nstore;
			}
		}
	}
}

/* A price, not a bound: the back end's cycles were modelled. A profile's
 * measured issue width alone, or the model's dispatch width, is a floor
 * of them, so the slowdown it gives is a ceiling. */
static bool back_end_modelled(const struct back_end *b)
{
	return b->source == COST_SOURCE_MCA || b->source == COST_SOURCE_MODEL;
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
		ratio = outer_straddle_price(l, cost_loop_ratio(r, l, p, &b, &w));
		penalty = cost_branch_penalty(r, l, p);
		if (penalty > 0)
			ratio = larger(ratio, cost_branch_ratio(p, r, l, &b, w, penalty));
		lc = (struct loop_cost){ .slowdown = (float)ratio, .back_end = (float)b.cycles,
					 .window = (uint16_t)w, .source = b.source, .profile = (uint8_t)k,
					 .branch = (float)penalty,
					 .at_most = ratio > 1 && !back_end_modelled(&b) };
		lc.front_end = w ? (float)loop_touched(r, l, w) : 0;
		lc.front_end_best = w ? (float)windows_best(l->bytes, w) : 0;
		/* a slowdown no more than the windows' part a chain keeps is
		 * the chain's: bounds.c's chain reads 1.067x latency */
		chain = w ? cost_chain_cycles(p, lc.front_end_best, lc.front_end, &b) /
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
	z->slowdown = (float)cost_branch_ratio(z->profile, r, l, &b, 0, hazard_branch_price(z));
	z->slowdown_at_most = z->slowdown > 1 && !back_end_modelled(&b);
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
		more = cost_iteration_cycles(z->profile, best, best + 1, &b);
		z->slowdown = (float)outer_straddle_price(l, more / larger(best, b.cycles));
		z->slowdown_at_most = z->slowdown > 1 && !back_end_modelled(&b);
		if (more <= larger(best, b.cycles))
			drop_hidden(c, l, h);
	}
}

/* Are the arrays laid out in function order, each function's loops
 * (each loop's hazards) then its entry's hazards, one after the other?
 * A scan's merge makes them so; then removing is a copy down in place. */
static bool laid_in_order(const struct scan_result *r)
{
	size_t nl = 0, nh = 0;

	for (size_t f = 0; f < r->nfunc; f++) {
		if (r->func[f].loop != nl)
			return false;
		for (uint32_t k = r->func[f].loop; k < r->func[f].loop + r->func[f].nloop; k++) {
			if (r->loop[k].hazard != nh)
				return false;
			nh += r->loop[k].nhazard;
		}
		if (r->func[f].hazard != nh)
			return false;
		nl += r->func[f].nloop;
		nh += r->func[f].nhazard;
	}
	return nl == r->nloop && nh == r->nhazard;
}

/* The hazards the back end hides leave the result; without keep_all, so
 * do the loops left with none and the functions left with nothing. The
 * arrays are rebuilt in function order: in place when they are laid in
 * it (a copy of a libLLVM scan's loops was 20 MB more at its peak), else
 * into new ones (a scan's workers wrote theirs in their own order). */
static void remove_hidden(struct pricing *c)
{
	struct scan_result *r = c->r;
	bool keep = c->o->keep_all, in_place = laid_in_order(r);
	struct func_report *func = in_place ? r->func : big_realloc(NULL, (r->nfunc + 1) * sizeof *func);
	struct loop_report *loop = in_place ? r->loop : big_realloc(NULL, (r->nloop + 1) * sizeof *loop);
	struct hazard *hazard = in_place ? r->hazard : big_realloc(NULL, (r->nhazard + 1) * sizeof *hazard);
	size_t nf = 0, nl = 0, nh = 0;

	/* in place, every write lands at or below what it copies, in order */
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
	if (!in_place) {
		big_free(r->func);
		big_free(r->loop);
		big_free(r->hazard);
		r->func = func;
		r->loop = loop;
		r->hazard = hazard;
	}
	r->nfunc = nf;
	r->nloop = nl;
	r->nhazard = nh;
}

void scan_costs(const struct elf_image *img, const struct scan_opts *o, struct scan_result *r)
{
	struct pricing c = { .o = o, .r = r, .in = { .arch = img->arch } };
	bool modelled = false;

	c.in_process = !o->llvm_mca || strcmp(o->llvm_mca, MODEL_IN_PROCESS) == 0;
	c.input = xmalloc((r->nloop + 1) * sizeof *c.input);
	for (size_t i = 0; i < r->nloop; i++)
		c.input[i] = SIZE_MAX;
	if (c.in_process) {
		model_lock();
		if (open_models(&c))
			model_loops(&c, img);
		model_unlock();
	} else {
		for (size_t k = 0; k < r->nprofile; k++) {
			c.cpu[k] = mca_cpu(o->llvm_mca, r->profile[k]);
			c.width[k] = c.cpu[k] ? mca_dispatch_width(o->llvm_mca, c.cpu[k], r->profile[k]->arch) : 0;
			modelled |= c.cpu[k] != NULL;
		}
		if (modelled)
			gather_for_mca(&c, img);
		run_models(&c);
	}
	c.drop = xcalloc(r->nhazard + 1, sizeof *c.drop);
	for (size_t i = 0; i < r->nloop; i++) {
		price_hazards(&c, i);
		price_loop(&c, i);
	}
	if (c.dropped)
		remove_hidden(&c);
	for (size_t k = 0; k < r->nprofile; k++) {
		bool shared = false, shared_model = false;

		for (size_t j = 0; j < k; j++) {
			shared |= c.region[j] == c.region[k];
			shared_model |= c.modelled[j] == c.modelled[k];
		}
		if (!shared)
			free(c.region[k]);
		if (!shared_model)
			free(c.modelled[k]);
	}
	free(c.drop);
	free(c.input);
	free(c.divides);
	mca_input_free(&c.in);
}
