/* straddle calibrate's fit: which layout rules the measurements of
 * calibrate_run.c support. The fit reads only the recorded samples and
 * the loops' geometry, so it is tested on recorded runs
 * (tests/unit/test_calibrate.c) with exact rules out.
 *
 * The fit compares placements, never CPUs' manuals: for a rule, the
 * placements where it applies against matched ones where nothing applies,
 * as ratios of point floors (each normalised by its experiment's
 * baseline; a floor is a point's 10th percentile, stats/floor.c). A rule
 * is claimed only when that ratio is significant (U test, p < alpha) and material (>= 1 + material, sweep's thresholds) over
 * the whole run and in each half of it (the first and the second half of
 * every point's samples): a neighbour's load that comes and goes on a
 * shared machine rarely fakes an effect twice. */
#include "calibrate.h"
#include "../model/geometry.h"
#include "../model/rules.h"
#include "../stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOOT_RESAMPLES 1000
#define MIN_UNITS 3                     /* placements on each side of a comparison */

/* ---- the geometry of a placement ---- */

unsigned calib_smallest_window(unsigned mask)
{
	return mask ? model_windows[__builtin_ctz(mask)] : 0;
}

/* The largest model window (model_windows) for which `pred` holds, 0 none. */
struct features {
	unsigned straddle;      /* the loop (or function) touches more windows than it must */
	unsigned cross;         /* the fused pair (or branch) spans a window boundary */
	unsigned ends;          /* the branch's last byte is a window's last byte */
};

static struct features features_at(const struct calib_experiment *x, uint32_t pos)
{
	struct features f = { 0, 0, 0 };

	for (size_t i = 0; i < MODEL_NWINDOWS; i++) {
		unsigned w = model_windows[i];

		if (windows_touched(pos, pos + x->bytes, w) > windows_best(x->bytes, w))
			f.straddle = w;
		if (x->entry)
			continue;
		if ((pos + x->pair) / w != (pos + x->end - 1) / w)
			f.cross = w;
		if ((pos + x->end) % w == 0)
			f.ends = w;
	}
	return f;
}

/* Does profile p (the calibrated one) predict a hazard for x at pos? The
 * synthetic loop has one branch, its back edge. */
bool calib_predicted(const struct profile *p, const struct calib_experiment *x, uint32_t pos)
{
	struct hazard h[8];
	struct loop_branch br = { .pair = x->pair, .branch = x->branch, .end = x->end,
				  .kind = BR_COND, .back = true };
	struct loop_geometry g = { .bytes = x->bytes, .branch = &br, .nbranch = 1,
				   .ninsn = x->ninsn, .nstore = (int32_t)x->nstore,
				   .fits_loop_buffer_shape = true };

	if (x->entry)
		return entry_hazards(p, pos, x->bytes, 4096, h, 8) > 0;
	return loop_hazards(p, &g, pos, 4096, h, 8) > 0;
}

/* ---- the fit ---- */

/* A point's floor (stats/floor.c: why not its median) over the whole run
 * (half -1), its first (0) or second (1) half of samples. */
static double point_floor(const struct calib_point *p, int half)
{
	size_t lo = half == 1 ? p->n / 2 : 0, hi = half == 0 ? p->n / 2 : p->n;
	double *c, m;

	if (hi <= lo)
		return NAN;
	c = xmalloc((hi - lo) * sizeof *c);
	memcpy(c, p->samples + lo, (hi - lo) * sizeof *c);
	stats_sort(c, hi - lo);
	m = stats_quantile_sorted(c, hi - lo, STATS_FLOOR_Q);
	free(c);
	return m;
}

struct pool {
	double *v;
	size_t n, cap;
};

static void pool_add(struct pool *p, double x)
{
	if (!isfinite(x))
		return;
	GROW(p->v, p->cap, p->n + 1);
	p->v[p->n++] = x;
}

/* What one rule compares in one experiment: placements "with" and their
 * matched placements "without". */
struct test {
	enum calib_effect effect;
	unsigned window;
	unsigned base_mask;     /* straddle: windows whose straddling counts as baseline */
	unsigned excluded_cross, excluded_ends;   /* branch windows claimed: never baseline */
	const struct profile *bound;    /* straddle: the back-end bound found, NULL none */
	bool chains;                    /* the imul-chain experiments, which no rule pools */
};

/* Does the back-end bound (the fit's so far) hide x's straddles of w? */
static bool hidden_by_back_end(const struct profile *bound, const struct calib_experiment *x,
			       unsigned w)
{
	struct loop_geometry g = { .bytes = x->bytes, .ninsn = x->ninsn,
				   .nstore = (int32_t)x->nstore };

	return bound && !x->entry && back_end_hides(bound, &g, w);
}

static bool window_in(unsigned mask, unsigned w)
{
	for (size_t i = 0; i < MODEL_NWINDOWS; i++)
		if (model_windows[i] == w)
			return mask & (1u << i);
	return w == 0;
}

static unsigned window_bit(unsigned w)
{
	for (size_t i = 0; i < MODEL_NWINDOWS; i++)
		if (model_windows[i] == w)
			return 1u << i;
	return 0;
}

/* Branch-rule points that must not serve as anyone's baseline. */
static bool branch_clean(const struct test *t, const struct features *f)
{
	return !(f->cross && (t->excluded_cross & window_bit(f->cross))) &&
	       !(f->ends && (t->excluded_ends & window_bit(f->ends)));
}

/* Classify a point: 1 with the rule, 0 its baseline, -1 neither. For the
 * branch rules the baseline is matched on straddling (`sigma`). */
static int classify(const struct test *t, const struct features *f, unsigned sigma)
{
	switch (t->effect) {
	case EFFECT_STRADDLE:
	case EFFECT_ENTRY:
		if (!branch_clean(t, f))
			return -1;
		if (f->straddle == t->window)
			return 1;
		return window_in(t->base_mask, f->straddle) ? 0 : -1;
	case EFFECT_CROSS:
		if (f->straddle != sigma || f->ends)
			return -1;
		return f->cross == t->window ? 1 : f->cross == 0 ? 0 : -1;
	case EFFECT_ENDS:
		if (f->straddle != sigma || f->cross)
			return -1;
		return f->ends == t->window ? 1 : f->ends == 0 ? 0 : -1;
	}
	return -1;
}

/* Add experiment x's units for test t (one sigma group) to the pools. */
static void add_group(const struct test *t, const struct calib_experiment *x, unsigned sigma,
		      int half, struct pool *with, struct pool *without, double *ratio)
{
	double m[CALIB_SPAN];
	int cls[CALIB_SPAN];
	size_t nw = 0, nb = 0;
	struct pool base = { 0 };

	for (size_t i = 0; i < x->npt; i++) {
		struct features f = features_at(x, x->pt[i].pos);

		cls[i] = classify(t, &f, sigma);
		m[i] = cls[i] >= 0 ? point_floor(&x->pt[i], half) : NAN;
		nw += cls[i] == 1;
		nb += cls[i] == 0;
		if (cls[i] == 0)
			pool_add(&base, m[i]);
	}
	if (nw >= 1 && nb >= 2 && base.n >= 2) {
		double norm = stats_median_select(base.v, base.n);
		struct pool mine = { 0 };

		for (size_t i = 0; i < x->npt; i++) {
			if (cls[i] == 1) {
				pool_add(with, m[i] / norm);
				pool_add(&mine, m[i] / norm);
			} else if (cls[i] == 0) {
				pool_add(without, m[i] / norm);
			}
		}
		if (ratio && mine.n) {
			double r = stats_median_select(mine.v, mine.n);

			if (r > *ratio)
				*ratio = r;
		}
		free(mine.v);
	}
	free(base.v);
}

/* A straddle test of window W takes only subjects of at most W bytes: for
 * them straddling W is crossing one of its boundaries, and the windows
 * they straddle nest (a 64 B boundary is a 32 and a 16 B one), so "the
 * largest window straddled" says it all. A larger loop straddles windows
 * independently of each other and is left to the branch rules. */
static bool applies(const struct test *t, const struct calib_experiment *x, unsigned min_ninsn)
{
	if ((x->chain != 0) != t->chains)
		return false;
	if (t->effect == EFFECT_ENTRY)
		return x->entry && x->bytes <= t->window;
	if (x->entry)
		return false;
	return t->effect != EFFECT_STRADDLE ||
	       (x->ninsn > min_ninsn && x->bytes <= t->window &&
		!hidden_by_back_end(t->bound, x, t->window));
}

struct verdict {
	double ratio, p;
	size_t nwith, nwithout;
};

static double ratio_of(struct pool *with, struct pool *without)
{
	double *a = xmalloc(with->n * sizeof *a), *b = xmalloc(without->n * sizeof *b), r;

	memcpy(a, with->v, with->n * sizeof *a);
	memcpy(b, without->v, without->n * sizeof *b);
	r = stats_median_select(a, with->n) / stats_median_select(b, without->n);
	free(a);
	free(b);
	return r;
}

/* Percentile bootstrap of the ratio of medians. */
static void ratio_ci(const struct pool *with, const struct pool *without, uint64_t seed,
		     double *lo, double *hi)
{
	double *r = xmalloc(BOOT_RESAMPLES * sizeof *r);
	double *a = xmalloc(with->n * sizeof *a), *b = xmalloc(without->n * sizeof *b);
	uint64_t rng = seed;

	for (unsigned k = 0; k < BOOT_RESAMPLES; k++) {
		for (size_t i = 0; i < with->n; i++)
			a[i] = with->v[rng_below(&rng, with->n)];
		for (size_t i = 0; i < without->n; i++)
			b[i] = without->v[rng_below(&rng, without->n)];
		r[k] = stats_median_select(a, with->n) / stats_median_select(b, without->n);
	}
	stats_sort(r, BOOT_RESAMPLES);
	*lo = r[(size_t)(0.025 * BOOT_RESAMPLES)];
	*hi = r[(size_t)(0.975 * BOOT_RESAMPLES) - 1];
	free(r);
	free(a);
	free(b);
}

/* The test over experiments xs (those it applies to), one half or all. */
static void evaluate(const struct test *t, const struct calib_experiment *xs, size_t nx,
		     unsigned min_ninsn, int half, struct verdict *v, struct pool *with,
		     struct pool *without, char *best_name, size_t best_len)
{
	double best = 0;

	with->n = without->n = 0;
	for (size_t i = 0; i < nx; i++) {
		double r = 0;

		if (!applies(t, &xs[i], min_ninsn))
			continue;
		if (t->effect == EFFECT_CROSS || t->effect == EFFECT_ENDS) {
			add_group(t, &xs[i], 0, half, with, without, &r);
			for (size_t k = 0; k < MODEL_NWINDOWS; k++)
				add_group(t, &xs[i], model_windows[k], half, with, without, &r);
		} else {
			add_group(t, &xs[i], 0, half, with, without, &r);
		}
		if (best_name && r > best) {
			best = r;
			snprintf(best_name, best_len, "%s", xs[i].name);
		}
	}
	v->nwith = with->n;
	v->nwithout = without->n;
	v->ratio = v->p = NAN;
	if (with->n < MIN_UNITS || without->n < MIN_UNITS)
		return;
	struct mann_whitney mw;

	stats_mann_whitney(with->v, with->n, without->v, without->n, &mw);
	v->ratio = ratio_of(with, without);
	v->p = mw.p;
}

static bool holds(const struct verdict *v, const struct calib_opts *o)
{
	return isfinite(v->ratio) && v->p < o->alpha && v->ratio >= 1 + o->material;
}

/* Fit one rule: the whole run and both halves. */
static void fit_rule(const struct test *t, const struct calib_experiment *xs, size_t nx,
		     unsigned min_ninsn, const struct calib_opts *o, struct calib_rule *r)
{
	struct pool with = { 0 }, without = { 0 };
	struct verdict all, h[2];

	memset(r, 0, sizeof *r);
	r->effect = t->effect;
	r->window = t->window;
	evaluate(t, xs, nx, min_ninsn, -1, &all, &with, &without, r->experiment,
		 sizeof r->experiment);
	r->n_with = (unsigned)all.nwith;
	r->n_without = (unsigned)all.nwithout;
	r->ratio = all.ratio;
	r->p = all.p;
	r->tested = isfinite(all.ratio);
	if (r->tested)
		ratio_ci(&with, &without, o->seed + t->window * 7 + t->effect, &r->lo, &r->hi);
	for (int k = 0; k < 2; k++) {
		evaluate(t, xs, nx, min_ninsn, k, &h[k], &with, &without, NULL, 0);
		r->half_ratio[k] = h[k].ratio;
		r->half_p[k] = h[k].p;
	}
	r->claimed = r->tested && holds(&all, o) && holds(&h[0], o) && holds(&h[1], o);
	if (!r->tested)
		r->experiment[0] = 0;
	for (size_t i = 0; i < nx && r->experiment[0]; i++)
		if (strcmp(xs[i].name, r->experiment) == 0 && xs[i].has_state) {
			r->state = xs[i].state;
			r->has_state = true;
		}
	free(with.v);
	free(without.v);
}

/* What loop experiment x alone shows of a straddle (any window, whole
 * run and both halves). PAID: a claim. FREE: no claim, and less than half
 * the material cost. PARTIAL: in between (on Zen 5 the 11-instruction
 * loop paid 1.04x in one run and 1.08x in another): neither, or the
 * limits would move with the load. FASTER: across a line it ran
 * materially faster than inside one, another effect (on Zen 5, 14 to 20
 * two-byte nops in one line ran up to 1.75x slower than split over two),
 * which says nothing of what hides a straddle. */
enum straddle_shown { SHOWN_UNTESTED, SHOWN_PAID, SHOWN_FREE, SHOWN_PARTIAL, SHOWN_FASTER };

static enum straddle_shown shows_straddle(const struct calib_experiment *x,
					  const struct test *base, const struct calib_opts *o)
{
	bool tested = false;
	double line_ratio = NAN;

	for (size_t i = 0; i < MODEL_NWINDOWS; i++) {
		struct test t = *base;
		struct calib_rule r;

		/* as in calib_fit, a smaller window not seen to cost (a claim
		 * returns) joins the baseline: a 32-byte loop straddles 16 B
		 * almost everywhere */
		t.window = model_windows[i];
		t.base_mask = (1u << i) - 1;
		fit_rule(&t, x, 1, 0, o, &r);
		tested |= r.tested;
		if (r.tested)
			line_ratio = r.ratio;   /* the largest window tested: windows ascend */
		if (r.claimed)
			return SHOWN_PAID;
	}
	if (!tested)
		return SHOWN_UNTESTED;
	if (line_ratio < 1 / (1 + o->material))
		return SHOWN_FASTER;
	return line_ratio < 1 + o->material / 2 ? SHOWN_FREE : SHOWN_PARTIAL;
}

/* The loop buffer: the largest instruction count up to which no loop
 * shows a straddle cost while every larger one does. */
static void fit_loop_buffer(const struct calib_experiment *xs, size_t nx, const struct test *base,
			    const struct calib_opts *o, struct calib_fit *f)
{
	unsigned max_free = 0, min_paid = ~0u, npaid = 0, nfree = 0;
	bool mixed = false;

	for (size_t i = 0; i < nx; i++) {
		enum straddle_shown s;

		if (xs[i].entry || hidden_by_back_end(base->bound, &xs[i], model_windows[MODEL_NWINDOWS - 1]))
			continue;
		s = shows_straddle(&xs[i], base, o);
		if (s != SHOWN_PAID && s != SHOWN_FREE)
			continue;
		if (s == SHOWN_PAID) {
			npaid++;
			if (xs[i].ninsn < min_paid)
				min_paid = xs[i].ninsn;
		} else {
			nfree++;
			if (xs[i].ninsn > max_free)
				max_free = xs[i].ninsn;
		}
	}
	mixed = npaid && nfree && max_free >= min_paid;
	f->loop_buffer = 0;
	f->loop_buffer_claimed = false;
	if (!npaid)
		snprintf(f->loop_buffer_why, sizeof f->loop_buffer_why,
			 "no loop showed a straddle cost on its own (%u tested)", nfree);
	else if (mixed)
		snprintf(f->loop_buffer_why, sizeof f->loop_buffer_why,
			 "no consistent limit: loops of %u instructions paid, of %u did not", min_paid,
			 max_free);
	else if (!nfree)
		snprintf(f->loop_buffer_why, sizeof f->loop_buffer_why,
			 "none hides a straddle: every loop tested paid (%u, the smallest from %u "
			 "instructions)", npaid, min_paid);
	else {
		f->loop_buffer = max_free;
		f->loop_buffer_claimed = true;
		snprintf(f->loop_buffer_why, sizeof f->loop_buffer_why,
			 "loops of up to %u instructions paid nothing (%u loops), from %u on they "
			 "paid (%u loops)", max_free, nfree, min_paid, npaid);
	}
}

/* The back-end bound: which loops pay nothing for a straddle because their
 * own work takes longer than fetching one line more (model/rules.c,
 * back_end_hides). Every loop experiment fetches at most f = best + 1
 * lines when it straddles; one that paid needs fewer cycles than that, so
 * issue width W > ninsn / f and stores a cycle S > nstore / f; a loop of
 * no stores that paid nothing has W <= ninsn / f; a store loop that paid
 * nothing while its instructions alone cannot hide it, S <= nstore / f.
 * The bound taken is the largest whole W (and S) inside those limits:
 * it hides the fewest loops the measurements allow. A loop buffer makes
 * the small loops free and the large ones pay, the other way round: the
 * limits then cross and no bound is claimed. */
struct limits {
	double lo, hi;          /* lo < x <= hi */
	unsigned n_lo, n_hi;    /* loops that set them */
};

static void limits_paid(struct limits *l, double v)
{
	l->lo = v > l->lo ? v : l->lo;
	l->n_lo++;
}

static void limits_free(struct limits *l, double v)
{
	l->hi = v < l->hi ? v : l->hi;
	l->n_hi++;
}

/* The largest whole number in (lo, hi], 0 when there is none, or when no
 * loop paid: a bound is seen only between a loop that paid and one that
 * did not (where nothing costs, nothing is hidden). */
static unsigned limits_pick(const struct limits *l)
{
	double x = floor(l->hi);

	return l->n_lo && l->n_hi && isfinite(x) && x > l->lo ? (unsigned)x : 0;
}

/* The least whole number in (lo, hi] when limits_pick found one, else 0:
 * the range a measurement near its threshold leaves open. */
static unsigned limits_least(const struct limits *l)
{
	unsigned top = limits_pick(l);
	double x = floor(l->lo) + 1;

	return top ? (x < top ? (unsigned)x : top) : 0;
}

/* "4" or "2 to 4" */
static void range_text(char *buf, size_t n, unsigned least, unsigned taken)
{
	if (least && least < taken)
		snprintf(buf, n, "%u to %u", least, taken);
	else
		snprintf(buf, n, "%u", taken);
}

/* What the experiments showed the bound to be, in one line; a range when
 * the loops that paid and those that did not leave several whole numbers
 * between them, the profile taking the largest (it hides the fewest
 * loops). */
static void describe_back_end(struct calib_fit *f, const struct limits *w,
			      const struct limits *st, unsigned faster, unsigned partial,
			      const struct calib_opts *o)
{
	char stores[160] = "stores: no store loop was bounded by its stores", wr[32], sr[32];
	size_t at;

	range_text(wr, sizeof wr, f->issue_width_least, f->issue_width);
	range_text(sr, sizeof sr, f->stores_least, f->stores_per_cycle);
	if (f->stores_per_cycle)
		snprintf(stores, sizeof stores, "%s stores a cycle%s (paid up to %.2f per line "
			 "fetched, %u loops; free from %.2f, %u)", sr,
			 f->stores_least < f->stores_per_cycle ? ", taken: the largest" : "", st->lo,
			 st->n_lo, st->hi, st->n_hi);
	if (!w->n_lo)
		snprintf(f->back_end_why, sizeof f->back_end_why,
			 "none: no loop paid for a straddle (%u tested)", w->n_hi);
	else if (!w->n_hi)
		snprintf(f->back_end_why, sizeof f->back_end_why,
			 "none: no loop without stores hid a straddle (%u paid)", w->n_lo);
	else if (!f->issue_width)
		snprintf(f->back_end_why, sizeof f->back_end_why,
			 "none: the loops that paid and those that did not overlap (instructions "
			 "per line fetched: paid up to %.2f, free from %.2f)", w->lo, w->hi);
	else
		snprintf(f->back_end_why, sizeof f->back_end_why,
			 "%s instructions a cycle%s (paid up to %.2f per line fetched, %u loops; free "
			 "from %.2f, %u); %s", wr,
			 f->issue_width_least < f->issue_width ? ", taken: the largest" : "", w->lo,
			 w->n_lo, w->hi, w->n_hi, stores);
	at = strlen(f->back_end_why);
	if (faster || partial)
		snprintf(f->back_end_why + at, sizeof f->back_end_why - at,
			 "; left out: %u loops faster across a line, %u paying %.1f%% to %.0f%%",
			 faster, partial, 100 * o->material / 2, 100 * o->material);
}

static void fit_back_end(const struct calib_experiment *xs, size_t nx, const struct test *base,
			 const struct calib_opts *o, struct calib_fit *f)
{
	unsigned line = model_windows[MODEL_NWINDOWS - 1];
	struct limits w = { 0, INFINITY, 0, 0 }, st = { 0, INFINITY, 0, 0 };
	enum straddle_shown *shown = xcalloc(nx ? nx : 1, sizeof *shown);
	unsigned faster = 0, partial = 0;

	for (size_t i = 0; i < nx; i++) {
		double fetch = windows_best(xs[i].bytes, line) + 1;

		shown[i] = xs[i].entry ? SHOWN_UNTESTED : shows_straddle(&xs[i], base, o);
		faster += shown[i] == SHOWN_FASTER;
		partial += shown[i] == SHOWN_PARTIAL;
		if (shown[i] == SHOWN_PAID) {
			limits_paid(&w, xs[i].ninsn / fetch);
			if (xs[i].nstore)
				limits_paid(&st, xs[i].nstore / fetch);
		} else if (shown[i] == SHOWN_FREE && !xs[i].nstore) {
			limits_free(&w, xs[i].ninsn / fetch);
		}
	}
	f->issue_width = limits_pick(&w);
	f->issue_width_least = limits_least(&w);
	/* a free store loop bounds stores only where its instructions could
	 * not have hidden the line themselves */
	for (size_t i = 0; i < nx && f->issue_width; i++) {
		double fetch = windows_best(xs[i].bytes, line) + 1;

		if (shown[i] == SHOWN_FREE && xs[i].nstore && xs[i].ninsn < fetch * f->issue_width)
			limits_free(&st, xs[i].nstore / fetch);
	}
	f->stores_per_cycle = f->issue_width ? limits_pick(&st) : 0;
	f->stores_least = f->issue_width ? limits_least(&st) : 0;
	free(shown);
	describe_back_end(f, &w, &st, faster, partial, o);
}

/* ---- what a line more costs an iteration, in cycles ---- Time is all
 * calibrate measures, so the imul chain is the ruler: its iteration is 3
 * cycles a link wherever the front end keeps up (R_CHAIN, kernels/synth.c),
 * and every experiment runs as many iterations a call, so a loop's cycles at
 * its fastest placement are its floor over the chain's, times the chain's
 * cycles (the call's own few cycles counted in both). A loop that paid for
 * the line paid (ratio - 1) times those cycles; the chain's own ratio says
 * what a line costs behind a chain. */
static double fastest_floor(const struct calib_experiment *x)
{
	double best = INFINITY;

	for (size_t i = 0; i < x->npt; i++) {
		double v = point_floor(&x->pt[i], -1);

		best = v < best ? v : best;
	}
	return best;
}

/* x's placements across the line against those inside it (smaller
 * windows in the baseline, a claimed branch rule's placements left out). */
static void line_rule(const struct calib_experiment *x, const struct calib_fit *f,
		      const struct calib_opts *o, struct calib_rule *r)
{
	unsigned i = MODEL_NWINDOWS - 1;
	struct test t = { .effect = EFFECT_STRADDLE, .window = model_windows[i],
			  .base_mask = (1u << i) - 1, .excluded_cross = f->cross_mask,
			  .excluded_ends = f->ends_mask, .chains = x->chain != 0 };

	fit_rule(&t, x, 1, 0, o, r);
}

/* Slower across the line beyond chance, the whole run and each half:
 * a cost too small to claim a rule still has a size. */
static bool significant(const struct calib_rule *r, const struct calib_opts *o)
{
	return r->tested && r->lo > 1 && r->p < o->alpha && r->half_p[0] < o->alpha &&
	       r->half_p[1] < o->alpha;
}

static void fit_window_cycles(const struct calib_experiment *xs, size_t nx,
			      const struct calib_opts *o, struct calib_fit *f)
{
	const struct calib_experiment *ruler = NULL;
	double *paid = xmalloc((nx ? nx : 1) * sizeof *paid), cycles;
	struct calib_rule r, rc;
	size_t n = 0;

	for (size_t i = 0; i < nx && !ruler; i++)
		ruler = xs[i].chain && !xs[i].entry ? &xs[i] : NULL;
	if (!ruler) {
		snprintf(f->window_why, sizeof f->window_why, "not measured (no imul chain)");
		free(paid);
		return;
	}
	cycles = SYNTH_CHAIN_LINK_CYCLES * ruler->chain;
	for (size_t i = 0; i < nx; i++) {
		if (xs[i].entry || xs[i].chain)
			continue;
		line_rule(&xs[i], f, o, &r);
		if (r.claimed)
			paid[n++] = (r.ratio - 1) * cycles * fastest_floor(&xs[i]) /
				    fastest_floor(ruler);
	}
	f->window_cycles = n ? stats_median_select(paid, n) : 0;
	line_rule(ruler, f, o, &rc);
	f->latency_window_cycles = significant(&rc, o) ? (rc.ratio - 1) * cycles : 0;
	snprintf(f->window_why, sizeof f->window_why, "%.2f cycle an iteration (the median of %zu "
		 "loops that paid, in %u-cycle imul chains); behind the chain %.2f (%s: %.3fx "
		 "[%.3f, %.3f])", f->window_cycles, n, (unsigned)cycles, f->latency_window_cycles,
		 ruler->name, rc.ratio, rc.lo, rc.hi);
	free(paid);
}

void calib_fit(const struct calib_experiment *xs, size_t nx, const struct calib_opts *o,
	       struct calib_fit *f)
{
	struct test t = { 0 };
	unsigned straddle_mask = 0;

	memset(f, 0, sizeof *f);
	/* 1. branch rules, matched on straddling so they need no straddle model */
	for (int e = EFFECT_CROSS; e <= EFFECT_ENDS; e++)
		for (size_t i = 0; i < MODEL_NWINDOWS; i++) {
			struct calib_rule *r = &f->rule[f->nrule++];

			t = (struct test){ .effect = (enum calib_effect)e, .window = model_windows[i] };
			fit_rule(&t, xs, nx, 0, o, r);
			if (r->claimed && e == EFFECT_CROSS)
				f->cross_mask |= 1u << i;
			if (r->claimed && e == EFFECT_ENDS)
				f->ends_mask |= 1u << i;
		}
	/* 2. the back-end bound, then the loop buffer over the loops it does
	 * not hide, each loop on its own, placements a claimed branch rule
	 * explains left out */
	t = (struct test){ .effect = EFFECT_STRADDLE, .excluded_cross = f->cross_mask,
			   .excluded_ends = f->ends_mask };
	fit_back_end(xs, nx, &t, o, f);
	struct profile bound = { .issue_width = f->issue_width,
				 .stores_per_cycle = f->stores_per_cycle };
	t.bound = f->issue_width ? &bound : NULL;
	fit_loop_buffer(xs, nx, &t, o, f);
	/* 3. straddles over the loops the buffer does not hide, smallest
	 * window first: a window not found to cost joins the baseline */
	for (size_t i = 0; i < MODEL_NWINDOWS; i++) {
		struct calib_rule *r = &f->rule[f->nrule++];

		t.window = model_windows[i];
		t.base_mask = ~straddle_mask & ((1u << i) - 1);
		fit_rule(&t, xs, nx, f->loop_buffer, o, r);
		if (r->claimed)
			straddle_mask |= 1u << i;
	}
	f->straddle_mask = straddle_mask;
	/* 4. a called function's entry across a window (hot: seed 003's cold
	 * cost is not what this measures) */
	unsigned entry_mask = 0;
	for (size_t i = 0; i < MODEL_NWINDOWS; i++) {
		struct calib_rule *r = &f->rule[f->nrule++];

		t = (struct test){ .effect = EFFECT_ENTRY, .window = model_windows[i],
				   .base_mask = ~entry_mask & ((1u << i) - 1) };
		fit_rule(&t, xs, nx, 0, o, r);
		if (r->claimed)
			entry_mask |= 1u << i;
	}
	/* 5. what a line costs, in cycles */
	fit_window_cycles(xs, nx, o, f);
}

const char *calib_effect_name(enum calib_effect e)
{
	switch (e) {
	case EFFECT_STRADDLE: return "loop-straddles-window";
	case EFFECT_CROSS: return "branch-crosses-window";
	case EFFECT_ENDS: return "branch-ends-window";
	case EFFECT_ENTRY: return "entry-straddles-window";
	}
	return "?";
}

void calib_rule_text(const struct calib_rule *r, char *buf, size_t n)
{
	if (!r->tested)
		snprintf(buf, n, "not tested: too few placements (%u with, %u without)", r->n_with,
			 r->n_without);
	else if (r->claimed && r->has_state)
		snprintf(buf, n, "%.2fx [%.2f, %.2f], halves %.2fx %.2fx, p %.2g (%s, measured at "
			 "load %.2f, steal %.1f%%, other tenants %.0f%%)", r->ratio, r->lo, r->hi,
			 r->half_ratio[0], r->half_ratio[1], r->p, r->experiment, r->state.load[0],
			 r->state.steal_pct, r->state.others_pct);
	else if (r->claimed)
		snprintf(buf, n, "%.2fx [%.2f, %.2f], halves %.2fx %.2fx, p %.2g (%s)", r->ratio,
			 r->lo, r->hi, r->half_ratio[0], r->half_ratio[1], r->p, r->experiment);
	else
		snprintf(buf, n, "no effect measured: %.2fx [%.2f, %.2f], halves %.2fx %.2fx, p %.2g",
			 r->ratio, r->lo, r->hi, r->half_ratio[0], r->half_ratio[1], r->p);
}
