/* What a hot loop's placement cost its program, against the cost model's
 * prediction (straddle prove). The program is what is measured, the loop is
 * what is predicted: one is turned into the other through the loop's share of
 * the samples. */
#include "proof.h"
#include <inttypes.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *proof_verdict_name(enum proof_verdict v)
{
	static const char *const names[] = { "nothing", "costs", "inconclusive", "slower at best" };

	return v <= PROOF_SLOWER_AT_BEST ? names[v] : "?";
}

/* The loop's slowdown that would make the program's ratio m (best over
 * today): the loop's time share*T becomes share*T/R at its best. */
static double loop_slowdown(double share, double m)
{
	double saved = 1 - m;

	if (saved >= share)
		return INFINITY;
	return 1 / (1 - saved / share);
}

/* The program's change the window made: the best's over the layout
 * controls' geometric mean, today's copy (log 0) one of them. The best
 * arm is one more draw of the layout noise, so its interval adds, to each
 * side of the paired CI (in logs), t(k-1) * sd * sqrt(1 + 1/k) for k
 * layouts of spread sd (a prediction interval), the two in quadrature.
 * Without controls it is the paired ratio as measured. */
static void window_change(struct loop_proof *p)
{
	double k = (double)p->nlayout + 1, mean = 0, ss, h, band, c;

	p->window = p->program.ratio, p->window_lo = p->program.lo;
	p->window_hi = p->program.hi, p->layout_sd = 0;
	if (!p->nlayout || p->each_control)
		return;
	for (size_t i = 0; i < p->nlayout; i++)
		mean += log(p->layout[i].ratio) / k;
	ss = mean * mean;
	for (size_t i = 0; i < p->nlayout; i++)
		ss += (log(p->layout[i].ratio) - mean) * (log(p->layout[i].ratio) - mean);
	p->layout_sd = sqrt(ss / (k - 1));
	band = stats_t_critical(p->alpha, k - 1) * p->layout_sd * sqrt(1 + 1 / k);
	c = log(p->program.ratio) - mean;
	h = log(p->program.ratio) - log(p->program.lo);
	p->window = exp(c), p->window_lo = exp(c - sqrt(h * h + band * band));
	h = log(p->program.hi) - log(p->program.ratio);
	p->window_hi = exp(c + sqrt(h * h + band * band));
}

/* R's interval over the corners of the share's and the program's: R
 * falls with the share where the best ran faster and rises with it where
 * it ran slower, so the extremes are at the corners. */
static void widest(struct loop_proof *p)
{
	double s[2] = { p->share, p->share }, m[2] = { p->window_lo, p->window_hi };

	if (p->share_hi > 0)
		s[0] = p->share_lo, s[1] = p->share_hi;
	p->loop_lo = INFINITY, p->loop_hi = 0;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++) {
			double r = s[i] > 0 ? loop_slowdown(s[i], m[k]) : INFINITY;

			p->loop_lo = fmin(p->loop_lo, r);
			p->loop_hi = fmax(p->loop_hi, r);
		}
}

/* R's verdict, its interval [lo, hi] taken as significant or not. */
static enum proof_verdict verdict_of(double lo, double hi, double material, bool significant)
{
	if (lo >= 1 + material && significant)
		return PROOF_COSTS;
	if (hi <= 1 - material && significant)
		return PROOF_SLOWER_AT_BEST;    /* expand's loop: 0.960x [0.952, 0.968] */
	if (hi < 1 + material && lo > 1 - material)
		return PROOF_NOTHING;
	return PROOF_INCONCLUSIVE;
}

/* A copy held against today's, which the model prices alike: today's
 * cycles over the copy's (the paired ratio is the copy's over today's),
 * missed when surely the material mark or more apart. */
static struct control_verdict against_today(const struct paired *c, double material)
{
	struct control_verdict v = { PROOF_INCONCLUSIVE, false };

	if (c->n >= 2)
		v.seen = verdict_of(1 / c->hi, 1 / c->lo, material, true);
	v.missed = v.seen == PROOF_COSTS || v.seen == PROOF_SLOWER_AT_BEST;
	return v;
}

/* Each control of a replay, its interval already at alpha / k
 * (proof_of_replay). */
static void judge_controls(struct loop_proof *p)
{
	for (size_t i = 0; i < p->nlayout; i++)
		p->control[i] = against_today(&p->layout[i], p->material);
}

size_t proof_controls_missed(const struct loop_proof *p)
{
	size_t n = 0;

	for (size_t i = 0; p->each_control && i < p->nlayout; i++)
		n += p->control[i].missed;
	return n;
}

bool proof_conclusive(const struct loop_proof *p)
{
	return p->seen != PROOF_INCONCLUSIVE || proof_controls_missed(p);
}

bool proof_is_bound(const struct loop_proof *p)
{
	return p->at_most && p->said == PROOF_COSTS;
}

bool proof_agrees(const struct loop_proof *p)
{
	if (p->seen == PROOF_INCONCLUSIVE || proof_controls_missed(p))
		return false;
	/* lz4 -9's 0x190b0, a call in it: "<=1.056x", measured 1.000x */
	if (proof_is_bound(p))
		return p->seen == PROOF_NOTHING || (p->seen == PROOF_COSTS && p->loop_lo <= p->predicted);
	return p->seen == p->said;
}

void proof_judge(struct loop_proof *p)
{
	double costs = 1 + p->material;
	bool significant;

	p->said = p->predicted >= costs ? PROOF_COSTS : PROOF_NOTHING;
	window_change(p);
	if (p->each_control)
		judge_controls(p);
	if (p->share <= 0 || p->program.n < 2) {
		p->loop = p->loop_lo = p->loop_hi = NAN;
		p->seen = PROOF_INCONCLUSIVE;
		return;
	}
	p->loop = loop_slowdown(p->share, p->window);
	widest(p);
	/* the paired test's p, where the interval is the paired CI alone */
	significant = (p->nlayout && !p->each_control) || p->program.p < p->alpha;
	if (isinf(p->loop))
		p->seen = PROOF_INCONCLUSIVE;   /* more than the loop's time: not the loop */
	else
		p->seen = verdict_of(p->loop_lo, p->loop_hi, p->material, significant);
}

/* The half-width (log) of the program's change that tells the loop's
 * verdict: the distance between the change the model predicts and the
 * change at the material loop slowdown (share * (1 - 1/R) either way),
 * at least a quarter of the latter (nearer is no verdict to wait for). */
static double half_needed(const struct loop_proof *p)
{
	double c = 1 - 1 / (1 + p->material), cp = 1 - 1 / fmax(p->predicted, 1);

	return p->share * fmax(fabs(cp - c), c / 4);
}

unsigned proof_rounds_needed(const struct loop_proof *p, double sd, double *need)
{
	double k = (double)p->nlayout + 1, band = 0, room, n = 4;

	*need = half_needed(p);
	if (p->nlayout)
		band = stats_t_critical(p->alpha, k - 1) * p->layout_sd * sqrt(1 + 1 / k);
	room = *need * *need - band * band;
	if (room <= 0 || !(sd >= 0))
		return 0;
	if (sd == 0)
		return 2;
	/* t depends on the rounds: twice round, from the normal's 1.96 */
	for (int i = 0; i < 3; i++) {
		double t = n > 2 ? stats_t_critical(p->alpha, n - 1) : 12.7;

		n = fmax(2, ceil(t * t * sd * sd / room));
	}
	return n > 1e6 ? 0 : (unsigned)n;
}

/* ---- the loops worth moving ---- */

/* The loop's first byte: place places a loop by it (its span's start),
 * where the scan names a loop by its header (paste's 0x2921, a header
 * 33 bytes into a span from 0x2900: the offsets asked were the header's,
 * place took them for the span's). */
static uint64_t first_byte(const struct scan_result *r, const struct loop_report *l)
{
	return l->npiece ? r->piece[l->piece].start : l->start;
}

/* The most branches at fault a loop's placement model holds. */
#define PROOF_MAX_BRANCHES 16

/* The loop's placements as its profile prices them (model/rules.c): its
 * pieces' windows of the one deciding its cost (the line when a branch
 * alone does) and the branches at fault today under that profile that
 * it prices (not an outer loop's own: once an outer iteration); b holds
 * them. */
static struct loop_moves moves_of(const struct scan_result *r, const struct loop_report *l,
				  struct placed_branch b[PROOF_MAX_BRANCHES])
{
	const struct profile *p = r->profile[l->cost.profile];
	struct loop_moves m = { .piece = r->piece + l->piece, .npiece = l->npiece,
		.start = first_byte(r, l), .align = 64,
		.window = l->cost.window ? l->cost.window : p->line,
		.window_price = p->window_cycles > 0 ? p->window_cycles : 1, .branch = b,
		.branch_window = p->branch_window, .branch_price = profile_branch_price(p, false),
		.split_price = profile_branch_price(p, true) };

	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++) {
		const struct hazard *z = &r->hazard[h];

		if (z->profile == p && z->branch_end && !z->outer_only &&
		    m.nbranch < PROOF_MAX_BRANCHES)
			b[m.nbranch++] = (struct placed_branch){ z->pair, z->branch, z->branch_end };
	}
	return m;
}

/* The offsets of its line prove measures a loop at: the best for its
 * pieces and branches (place's own "best" places the span as one piece,
 * which for lz4's, bzip2's and expand's loops fit today as well as
 * anywhere) and the layout controls. */
static void offsets_of(const struct scan_result *r, const struct loop_report *l,
		       struct loop_trial *t)
{
	struct placed_branch b[PROOF_MAX_BRANCHES];
	struct loop_moves m = moves_of(r, l, b);

	t->current = (uint32_t)(m.start % 64);
	t->best = loop_moves_best(&m);
	t->nlayout = loop_moves_controls(&m, t->best, t->layout, PROOF_LAYOUT_MAX);
}

/* No offset lowers the loop's priced front end (pieces with gaps:
 * windows_best counts their bytes as one run). */
static bool at_its_best(const struct scan_result *r, const struct loop_report *l)
{
	struct placed_branch b[PROOF_MAX_BRANCHES];
	struct loop_moves m = moves_of(r, l, b);

	return loop_moves_best(&m) == m.start % 64;
}

/* The loop of l's function inside l's span with the most samples, at
 * least half of l's (of equal samples the smaller span: the iteration a
 * replay can end without the outer loop's system call); a natural one:
 * an irreducible cycle there is entered from the outer loop's other
 * paths and holds them (tac's 0x306f, its lseek with it, where the
 * natural 0x3180 scans the buffer). */
static void inner_loop(const struct scan_result *r, const struct func_report *fr,
		       const struct loop_report *l, struct loop_trial *t)
{
	for (uint32_t j = fr->loop; j < fr->loop + fr->nloop; j++) {
		const struct loop_report *in = &r->loop[j];

		if (in->start < l->start || in->end > l->end ||
		    (in->start == l->start && in->end == l->end) || 2 * in->samples < l->samples ||
		    in->irreducible)
			continue;
		if (in->samples > t->inner_samples || (in->samples == t->inner_samples &&
		    in->end - in->start < t->inner_end - t->inner_start))
			t->inner_start = in->start, t->inner_end = in->end, t->inner_samples = in->samples;
	}
}

void proof_add_loops(struct proof_candidates *out, const char *path, const struct scan_result *r,
		     double min_share, double material, double alpha)
{
	for (size_t f = 0; f < r->nfunc; f++) {
		const struct func_report *fr = &r->func[f];

		for (uint32_t i = fr->loop; i < fr->loop + fr->nloop; i++) {
			const struct loop_report *l = &r->loop[i];
			struct loop_trial *t;

			if (hot_share(r, l->samples) < min_share)
				continue;
			if (at_its_best(r, l)) {
				out->at_best++;
				continue;
			}
			GROW(out->v, out->cap, out->n + 1);
			t = &out->v[out->n++];
			*t = (struct loop_trial){ .file = xstrdup(path),
				.func = xstrdup(r->funcs.v[fr->func].shown), .start = l->start,
				.end = l->end, .samples = l->samples, .run_samples = r->run_samples,
				.cost = l->cost };
			offsets_of(r, l, t);
			inner_loop(r, fr, l, t);
			t->proof = (struct loop_proof){ .share = hot_share(r, l->samples),
				.predicted = l->cost.slowdown, .at_most = l->cost.at_most,
				.material = material, .alpha = alpha };
			stats_share_ci(l->samples, r->run_samples, &t->proof.share_lo,
				       &t->proof.share_hi);
			proof_judge(&t->proof);         /* the model's verdict; nothing seen yet */
			if (l->span_uncertain)
				snprintf(t->why_not, sizeof t->why_not, "span uncertain (%u indirect "
					 "jump%s unresolved in its function)", fr->unresolved,
					 fr->unresolved == 1 ? "" : "s");
		}
	}
}

static int by_samples(const void *a, const void *b)
{
	const struct loop_trial *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static bool chosen(const struct loop_trial *trial, size_t n, const struct loop_trial *t)
{
	for (size_t i = 0; i < n; i++)
		if (trial[i].start == t->start && strcmp(trial[i].file, t->file) == 0)
			return true;
	return false;
}

size_t proof_choose(struct proof_candidates *all, struct loop_trial *trial, size_t max,
		    unsigned top)
{
	size_t measurable = 0, n = 0;

	if (all->n)
		qsort(all->v, all->n, sizeof *all->v, by_samples);
	for (size_t i = 0; i < all->n && n < max && measurable < top; i++) {
		if (chosen(trial, n, &all->v[i]))
			continue;       /* nested loops of one header: place moves them as one */
		trial[n++] = all->v[i];
		all->v[i].file = all->v[i].func = NULL;         /* moved */
		measurable += !trial[n - 1].why_not[0];
	}
	return n;
}

void proof_candidates_free(struct proof_candidates *all)
{
	for (size_t i = 0; i < all->n; i++)
		free(all->v[i].file), free(all->v[i].func);
	free(all->v);
}

/* ---- place's arms judged ---- */

static void paired(const struct proof_arm *a, const struct proof_arm *b, double alpha,
		   struct paired *out)
{
	stats_paired_ratio(a->v, b->v, a->n < b->n ? a->n : b->n, alpha, out);
}

void proof_of_arms(struct loop_trial *t, const struct proof_arms *a, double alpha)
{
	if (!a->unmoved.v || !a->control.v) {
		snprintf(t->why_not, sizeof t->why_not, "place's result has no control arm");
		return;
	}
	if (a->control.offset != t->current) {
		/* paste's irreducible loop at 0x2921: place's span from 0x2900 */
		snprintf(t->why_not, sizeof t->why_not, "place's loop there has another span (its "
			 "first byte at %u of its line, the scan's at %u)", a->control.offset, t->current);
		return;
	}
	if (!a->best.v) {
		snprintf(t->why_not, sizeof t->why_not, "place's result has no arm at offset %u",
			 t->best);
		return;
	}
	t->place_predicted = (float)a->control.predicted;
	t->rounds = (unsigned)(a->control.n < a->best.n ? a->control.n : a->best.n);
	paired(&a->unmoved, &a->control, alpha, &t->control);
	paired(&a->control, &a->best, alpha, &t->proof.program);
	t->proof.nlayout = 0;
	for (size_t i = 0; i < t->nlayout; i++)
		if (a->layout[i].v)
			paired(&a->control, &a->layout[i], alpha,
			       &t->proof.layout[t->proof.nlayout++]);
	proof_judge(&t->proof);
}

/* Two copies of one placement can differ by as much as the A/A's
 * interval reaches from 1 (the farther end, in logs): every replayed
 * comparison is of two copies, so each interval is widened by that
 * band in quadrature (lz4 -dc's 0xcfe7: its A/A 1.069x [1.057, 1.082],
 * where the best had read 1.109x; xz's 0x15d58 read 0.97-1.10x over six
 * runs of 60 snapshots, each interval +-3%). */
static double aa_band(const struct paired *aa)
{
	return aa->n < 2 ? 0 : fmax(fabs(log(aa->lo)), fabs(log(aa->hi)));
}

static void widen(struct paired *p, double band)
{
	double c = log(p->ratio), lo = c - log(p->lo), hi = log(p->hi) - c;

	p->lo = exp(c - sqrt(lo * lo + band * band));
	p->hi = exp(c + sqrt(hi * hi + band * band));
}

static struct copies copies_of(const struct proof_arm *a, const double **rows)
{
	for (size_t c = 0; c < a->ncopies; c++)
		rows[c] = a->copy + c * a->n;
	return (struct copies){ rows, a->ncopies };
}

/* A replay of several copies a placement: best's and each control's
 * interval against today's from their copies' means and the spread of
 * every placement's copies (no A/A arm: today's copies are one). false
 * with one copy each. */
static bool replay_by_copies(struct loop_trial *t, const struct proof_arms *a, double alpha)
{
	const struct proof_arm *arm[PROOF_LAYOUT_MAX + 2] = { &a->control, &a->best };
	const double *rows[(PROOF_LAYOUT_MAX + 2) * PROOF_COPIES_MAX];
	struct copies c[PROOF_LAYOUT_MAX + 2] = { { 0 } };
	size_t narm = 2, at = 0, n = a->control.n;
	struct loop_proof *p = &t->replay;

	if (a->control.ncopies < 2 || a->best.ncopies < 2)
		return false;
	for (size_t i = 0; i < t->nlayout; i++)
		if (a->layout[i].v && a->layout[i].ncopies >= 2)
			arm[narm++] = &a->layout[i];
	for (size_t i = 0; i < narm; i++) {
		if (arm[i]->n != n || arm[i]->ncopies > PROOF_COPIES_MAX)
			return false;
		c[i] = copies_of(arm[i], rows + at), at += arm[i]->ncopies;
	}
	p->copies = (unsigned)a->control.ncopies;
	p->spread.var = stats_copies_variance(c, narm, n, false, &p->spread.df);
	stats_copies_ratio(&c[0], &c[1], n, false, &p->spread, alpha, &p->program);
	for (size_t i = 2; i < narm; i++)
		stats_copies_ratio(&c[0], &c[i], n, false, &p->spread, alpha / (double)(narm - 2),
				   &p->layout[p->nlayout++]);
	return true;
}

void proof_of_replay(struct loop_trial *t, const struct proof_arms *a, double material,
		     double alpha)
{
	t->replay = (struct loop_proof){ .share = 1, .predicted = t->proof.predicted,
		.at_most = t->proof.at_most,
		.material = material, .alpha = alpha };
	if (!a->control.v) {
		snprintf(t->replay_why, sizeof t->replay_why, "place --replay's result has no "
			 "control arm");
		return;
	}
	if (a->control.offset != t->current || !a->best.v) {
		snprintf(t->replay_why, sizeof t->replay_why, "place --replay's loop there has "
			 "another span (its first byte at %u of its line, the scan's at %u)",
			 a->control.offset, t->current);
		return;
	}
	paired(&a->control, &a->best, alpha, &t->replay.program);
	if (t->replay.program.n < 2) {
		/* bzip2 -9's 0x34fc: 5 snapshots of ~1e8 cycles, one round */
		snprintf(t->replay_why, sizeof t->replay_why, "its replay held %zu round%s of "
			 "snapshots: no interval to judge by", t->replay.program.n,
			 t->replay.program.n == 1 ? "" : "s");
		return;
	}
	t->replay.each_control = true;
	if (replay_by_copies(t, a, alpha)) {
		proof_judge(&t->replay);
		t->replayed = true;
		return;
	}
	for (size_t i = 0; i < t->nlayout; i++)
		if (a->layout[i].v)
			paired(&a->control, &a->layout[i], alpha / (double)t->nlayout,
			       &t->replay.layout[t->replay.nlayout++]);
	if (a->aa.v) {
		paired(&a->control, &a->aa, alpha, &t->replay.aa);
		t->replay.aa_band = aa_band(&t->replay.aa);
		widen(&t->replay.program, t->replay.aa_band);
		for (size_t i = 0; i < t->replay.nlayout; i++)
			widen(&t->replay.layout[i], t->replay.aa_band);
	}
	proof_judge(&t->replay);
	/* the A/A's two copies of today's placement surely apart */
	if (a->aa.v && against_today(&t->replay.aa, material).missed) {
		snprintf(t->replay_why, sizeof t->replay_why, "its A/A, a second copy at today's "
			 "offset, ran %.3fx [%.3f, %.3f] of today's cycles: two copies of one placement "
			 "differ by the material mark", t->replay.aa.ratio, t->replay.aa.lo,
			 t->replay.aa.hi);
		return;
	}
	t->replayed = true;
}

const struct loop_proof *proof_of_trial(const struct loop_trial *t)
{
	return t->replayed ? &t->replay : &t->proof;
}

struct proof_tally proof_tally(const struct loop_trial *t, size_t n)
{
	struct proof_tally c = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct loop_proof *v = proof_of_trial(&t[i]);

		if (t[i].why_not[0])
			continue;
		if (!proof_conclusive(v)) {
			c.inconclusive++;
			continue;
		}
		c.conclusive++;
		c.agree += proof_agrees(v);
		c.bounds += proof_is_bound(v);
		c.bounds_held += proof_is_bound(v) && proof_agrees(v);
		c.replayed += t[i].replayed;
	}
	return c;
}

double proof_pilot_sd(const struct proof_arm *control, const struct proof_arm *best)
{
	size_t n = control->n < best->n ? control->n : best->n;
	double sum = 0, ss = 0;

	if (!control->v || !best->v)
		return -1;
	for (size_t i = 0; i < n; i++)
		sum += log(best->v[i] / control->v[i]);
	for (size_t i = 0; i < n; i++)
		ss += pow(log(best->v[i] / control->v[i]) - sum / (double)n, 2);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : -1;
}

size_t proof_program_layouts(const struct loop_trial *t)
{
	return t->nlayout < PROOF_PROGRAM_LAYOUTS ? t->nlayout : PROOF_PROGRAM_LAYOUTS;
}

/* The replay's refusal of a loop making a system call (measure/replay.c) */
#define REFUSED_SYSCALL "the loop makes a system call"

bool proof_inner_trial(const struct loop_trial *t, struct loop_trial *in)
{
	uint32_t d = (uint32_t)((t->inner_start - t->start) % 64);

	if (t->replayed || !t->inner_samples ||
	    strncmp(t->replay_why, REFUSED_SYSCALL, strlen(REFUSED_SYSCALL)) != 0)
		return false;
	*in = *t;
	in->start = t->inner_start, in->end = t->inner_end, in->samples = t->inner_samples;
	in->current = (t->current + d) % 64, in->best = (t->best + d) % 64;
	for (size_t i = 0; i < t->nlayout; i++)
		in->layout[i] = (t->layout[i] + d) % 64;
	in->replay_why[0] = 0;
	return true;
}

void proof_take_inner(struct loop_trial *t, const struct loop_trial *in)
{
	snprintf(t->inner_why, sizeof t->inner_why, "%s", t->replay_why);
	t->replay = in->replay, t->replayed = in->replayed, t->snapshots = in->snapshots;
	t->unmoved_s = fmax(t->unmoved_s, in->unmoved_s);
	snprintf(t->replay_why, sizeof t->replay_why, "%s", in->replay_why);
	if (in->replay_why[0])
		snprintf(t->replay_why, sizeof t->replay_why, "%.140s; its inner loop %#" PRIx64 ": %.120s",
			 t->inner_why, t->inner_start, in->replay_why);
}
