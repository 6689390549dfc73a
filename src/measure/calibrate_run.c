/* straddle calibrate's measuring (calibrate_fit.c fits, calibrate_profile.c
 * makes the profile): synthetic loops (kernels/synth.c) placed at every
 * offset of a line and measured by the sweep (interleaved rounds, the
 * stopping rule, every raw sample kept), and each point marked against
 * its experiment's best as sweep marks offsets. */
#include "state.h"
#include "sweep.h"
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the experiments: the same table shape for every architecture ---- */

#define LOOP(n, b, st, im, fu, fi) { .name = n, .bytes = b, .store = st, .imm = im, \
				     .fused = fu, .fill = fi }

static const struct synth_spec x86_specs[] = {
	LOOP("store-imm-15", 15, true, true, true, 0),          /* seed 000, after */
	LOOP("store-reg-10", 10, true, false, true, 0),         /* seed 000, before */
	LOOP("store-imm-16-unfused", 16, true, true, false, 0),
	/* stores the back end must retire: 2, 4 and 8 an iteration */
	{ .name = "store-x2-24", .bytes = 24, .store = true, .stores = 2, .fused = true },
	{ .name = "store-x4-24", .bytes = 24, .store = true, .stores = 4, .fused = true },
	{ .name = "store-x8-32", .bytes = 32, .store = true, .stores = 8, .fused = true },
	LOOP("nop-4", 4, false, false, true, 0),
	LOOP("nop-8", 8, false, false, true, 4),
	LOOP("nop-24", 24, false, false, true, 8),
	LOOP("nop-24-unfused", 24, false, false, false, 8),
	LOOP("nop-40", 40, false, false, true, 8),
	LOOP("nop-40x4", 40, false, false, true, 4),
	/* 14, 16 and 18 instructions: where the back end starts to hide a
	 * line (2-byte nops: 3-byte and 1-byte ones ran faster across a line
	 * than inside one on Zen 5, another effect) */
	LOOP("nop-28x2", 28, false, false, true, 2),
	LOOP("nop-32x2", 32, false, false, true, 2),
	LOOP("nop-36x2", 36, false, false, true, 2),
	LOOP("nop-40x2", 40, false, false, true, 2),
	LOOP("nop-40x1", 40, false, false, true, 1),
	/* a 3-cycle imul chain and nops: does a chain hide a line? (bounds.c's
	 * chain paid 0.2 cycle for one on goldencove's EMR guest) */
	{ .name = "chain-imul-36", .bytes = 36, .fused = true, .fill = 8, .chain = 1 },
	LOOP("nop-56", 56, false, false, true, 8),
	LOOP("nop-96", 96, false, false, true, 8),
	LOOP("nop-120", 120, false, false, true, 8),
	{ .name = "call-24", .bytes = 9, .fused = true, .fill = 8, .func_bytes = 24 }, /* seed 003 */
};

static const struct synth_spec a64_specs[] = {
	LOOP("store-12", 12, true, false, true, 0),             /* seed 002's str xzr loop */
	LOOP("store-16-unfused", 16, true, false, false, 0),
	{ .name = "store-x2-16", .bytes = 16, .store = true, .stores = 2, .fused = true },
	{ .name = "store-x4-24", .bytes = 24, .store = true, .stores = 4, .fused = true },
	{ .name = "store-x8-40", .bytes = 40, .store = true, .stores = 8, .fused = true },
	LOOP("nop-8", 8, false, false, true, 0),
	LOOP("nop-24", 24, false, false, true, 0),
	LOOP("nop-40", 40, false, false, true, 0),
	LOOP("nop-96", 96, false, false, true, 0),
	LOOP("nop-120", 120, false, false, true, 0),
	{ .name = "call-16", .bytes = 12, .fused = true, .func_bytes = 16 },
};

size_t calib_specs(enum arch a, const struct synth_spec **out)
{
	if (a == ARCH_X86_64) {
		*out = x86_specs;
		return sizeof x86_specs / sizeof x86_specs[0];
	}
	if (a == ARCH_AARCH64) {
		*out = a64_specs;
		return sizeof a64_specs / sizeof a64_specs[0];
	}
	*out = NULL;
	return 0;
}

/* ---- running ---- */

static void describe(struct calib_experiment *x, const struct synth_spec *sp,
		     const struct synth_kernel *s)
{
	snprintf(x->name, sizeof x->name, "%s", sp->name);
	x->entry = sp->func_bytes != 0;
	x->bytes = x->entry ? s->func_bytes : s->bytes;
	x->ninsn = s->ninsn;
	x->nstore = s->nstore;
	x->chain = s->nchain;
	x->pair = s->pair;
	x->branch = s->branch;
	x->end = s->bytes;
	if (x->entry)
		snprintf(x->what, sizeof x->what, "a %u-byte function called from a %u-byte loop, "
			 "its entry at each offset of a line", s->func_bytes, s->bytes);
	else {
		char work[32] = "";

		if (s->nstore > 1)
			snprintf(work, sizeof work, "%u stores, ", s->nstore);
		else if (sp->store)
			snprintf(work, sizeof work, "%s store, ", sp->imm ? "immediate" : "register");
		if (s->nchain)
			snprintf(work, sizeof work, "a %u-cycle imul chain, ",
				 SYNTH_CHAIN_LINK_CYCLES * s->nchain);
		snprintf(x->what, sizeof x->what, "%u-byte loop, %u instructions, %s%s", s->bytes,
			 s->ninsn, work, sp->fused ? "fused back edge" : "count and branch apart");
	}
}

/* The variants of one experiment: a loop at every offset, or (entry) one
 * kernel per callee offset, each placed at the start of its mapping. */
static int make_variants(const struct synth_spec *sp, struct synth_kernel *ks,
			 struct variant *v, size_t *n, struct err *e)
{
	unsigned step = sp->arch == ARCH_AARCH64 ? 4 : 1;

	*n = 0;
	for (unsigned off = 0; off < CALIB_SPAN; off += step) {
		struct synth_spec one = *sp;

		if (sp->func_bytes)
			one.func_offset = off;
		if ((sp->func_bytes || off == 0) && synth_build(&one, &ks[*n], e))
			return -1;
		v[*n] = (struct variant){ .k = &ks[sp->func_bytes ? *n : 0].k,
					  .offset = sp->func_bytes ? 0 : off };
		(*n)++;
	}
	return 0;
}

static int by_pos(const void *a, const void *b)
{
	const struct calib_point *x = a, *y = b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

static int run_one(const struct calib_opts *o, const struct synth_spec *sp, double budget,
		   struct calib_experiment *x, struct err *e)
{
	struct synth_kernel *ks = xcalloc(CALIB_SPAN, sizeof *ks);
	struct variant *v = xcalloc(CALIB_SPAN, sizeof *v);
	struct sweep s = { .v = v, .size = o->size, .precision = o->precision, .budget_s = budget,
			   .min_rounds = SWEEP_MIN_ROUNDS, .min_place_s = SWEEP_MIN_PLACE_S, .seed = o->seed, .alpha = o->alpha,
			   .material = o->material };
	int rc = make_variants(sp, ks, v, &s.n, e);
	struct state_snapshot at;

	if (rc == 0)
		rc = sweep_prepare(&s, e) ? -1 : 0;
	state_begin(&at);
	if (rc == 0)
		rc = sweep_run(&s, e);
	if (rc == 0) {
		state_end(&at, &x->state);
		x->has_state = true;
		describe(x, sp, &ks[0]);
		x->rounds = s.rounds;
		x->elapsed_s = s.elapsed_s;
		snprintf(x->stopped_by, sizeof x->stopped_by, "%s", s.stopped_by);
		x->npt = s.n;
		for (size_t i = 0; i < s.n; i++) {
			const struct synth_kernel *k = (const struct synth_kernel *)v[i].k;

			x->pt[i].pos = sp->func_bytes ? k->func_start % CALIB_SPAN :
				(v[i].offset + k->k.loop_start) % CALIB_SPAN;
			x->pt[i].samples = v[i].samples;        /* taken over */
			x->pt[i].n = v[i].n;
			v[i].samples = NULL;
		}
		qsort(x->pt, x->npt, sizeof x->pt[0], by_pos);
	}
	sweep_free(&s);
	free(v);
	free(ks);
	return rc;
}

int calib_run(const struct calib_opts *o, struct calib_experiment **out, size_t *n,
	      struct err *e)
{
	const struct synth_spec *specs;
	size_t ns = calib_specs(o->arch, &specs);

	*out = xcalloc(ns ? ns : 1, sizeof **out);
	*n = 0;
	if (!ns)
		return err_set(e, "no experiments for %s", arch_name(o->arch));
	for (size_t i = 0; i < ns; i++) {
		struct synth_spec sp = specs[i];

		sp.arch = o->arch;
		if (o->progress)
			o->progress(o->progress_ctx, i, ns, sp.name);
		if (run_one(o, &sp, o->budget_s / (double)ns, &(*out)[i], e))
			return -1;
		*n = i + 1;
	}
	return 0;
}

void calib_free(struct calib_experiment *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < x[i].npt; k++)
			free(x[i].pt[k].samples);
	free(x);
}

/* ---- each point against its experiment's best, as sweep marks them ---- */

void calib_mark(struct calib_experiment *x, const struct calib_opts *o)
{
	const struct calib_point *best = NULL;

	for (size_t i = 0; i < x->npt; i++) {
		struct calib_point *p = &x->pt[i];
		struct summary s;

		stats_summarize(p->samples, p->n, o->seed + i, true, &s);
		p->median = s.median;
		p->ci_lo = s.ci_lo;
		p->ci_hi = s.ci_hi;
		p->floor = s.floor;
		p->floor_lo = s.floor_lo;
		p->floor_hi = s.floor_hi;
		if (!best || p->floor < best->floor)
			best = p;
	}
	for (size_t i = 0; i < x->npt; i++) {
		struct calib_point *p = &x->pt[i];
		struct floor_mark m;

		stats_floor_mark(p->samples, p->n, p->floor, best->samples, best->n, best->floor,
				 o->alpha, o->material, &m);
		p->ratio = m.ratio;
		p->p = m.p;
		p->slow = m.slow;
	}
}
