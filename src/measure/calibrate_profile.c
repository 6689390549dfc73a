/* The profile calibrate's fit supports (calibrate_fit.c): the built-in's
 * windows (manuals), the measured rules, and evidence quoting every ratio;
 * and the whole conclusion of a run, marks to profile. */
#include "calibrate.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the profile the fit supports ---- */

static void append(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t n, const char *fmt, ...)
{
	size_t at = strlen(buf);
	va_list ap;

	if (at >= n - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, n - at, fmt, ap);
	va_end(ap);
}

static void rule_evidence(const struct calib_rule *r, char *buf, size_t n)
{
	if (!r->tested)
		return;
	if (r->claimed)
		append(buf, n, "; %s %u: %.2fx [%.2f, %.2f] (%s)", calib_effect_name(r->effect),
		       r->window, r->ratio, r->lo, r->hi, r->experiment);
	else
		append(buf, n, "; %s %u: no effect measured, %.2fx [%.2f, %.2f]",
		       calib_effect_name(r->effect), r->window, r->ratio, r->lo, r->hi);
}

void calib_profile(const struct calib_fit *f, const struct profile *base, const char *cpu,
		   struct calib_profile_text *st, struct profile *out)
{
	unsigned nw = 0, cross = calib_smallest_window(f->cross_mask);
	unsigned ends = calib_smallest_window(f->ends_mask);

	snprintf(st->name, sizeof st->name, "calibrated");
	snprintf(st->cpus, sizeof st->cpus, "%s", cpu);
	*out = (struct profile){ .name = st->name, .arch = base->arch, .cpus = st->cpus,
		.fetch = base->fetch, .uop_window = base->uop_window, .line = base->line,
		.evidence = st->evidence, .straddle_measured = true,
		.loop_buffer = f->loop_buffer_claimed ? f->loop_buffer : 0,
		.issue_width = f->issue_width, .stores_per_cycle = f->stores_per_cycle,
		.window_cycles = f->window_cycles, .latency_window_cycles = f->latency_window_cycles,
		.base = base->name };
	profile_prices_from_base(out);
	for (size_t i = 0; i < MODEL_NWINDOWS; i++)
		if (f->straddle_mask & (1u << i))
			out->straddle_windows[nw++] = model_windows[i];
	/* A pair crossing a window of the smallest claimed size covers the
	 * larger ones: their boundaries are its boundaries too. */
	if (cross && ends) {
		out->branch_rule = BRANCH_RULE_JCC_ERRATUM;
		out->branch_window = cross < ends ? cross : ends;
	} else if (cross) {
		out->branch_rule = BRANCH_RULE_PAIR_CROSSES;
		out->branch_window = cross;
	}
	snprintf(st->evidence, sizeof st->evidence, "measured by straddle calibrate on %s", cpu);
	for (size_t i = 0; i < f->nrule; i++)
		rule_evidence(&f->rule[i], st->evidence, sizeof st->evidence);
	if (ends && !cross)
		append(st->evidence, sizeof st->evidence, "; a branch ending on a window costs, "
		       "crossing one does not: no profile rule says that, not modelled");
	append(st->evidence, sizeof st->evidence, "; back end hides a straddle: %s",
	       f->back_end_why);
	append(st->evidence, sizeof st->evidence, "; a line more: %s", f->window_why);
	append(st->evidence, sizeof st->evidence, "; loop buffer: %s; fetch %u, uop window %u, "
	       "line %u: the %s profile's (manuals)", f->loop_buffer_why, base->fetch,
	       base->uop_window, base->line, base->name);
	append(st->evidence, sizeof st->evidence, "; a branch's bubble and a store to its load: "
	       "the %s profile's", base->name);
}

void calib_conclude(struct calib_experiment *x, size_t n, struct calib_opts *o,
		    const struct host *h, struct calib_fit *f, struct calib_profile_text *st,
		    struct profile *out)
{
	const struct profile *base = h->profile;
	char cpu[160];

	for (size_t i = 0; i < n; i++)
		calib_mark(&x[i], o);
	calib_fit(x, n, o, f);
	if (!base || base->arch != o->arch)
		base = profile_named(o->arch == ARCH_AARCH64 ? "generic-arm64" : "generic-x86");
	o->arch = base->arch;
	snprintf(cpu, sizeof cpu, "%s (%s family 0x%x model 0x%x stepping 0x%x)",
		 *h->model_name ? h->model_name : "?", h->vendor, h->family, h->model,
		 h->stepping);
	calib_profile(f, base, cpu, st, out);
}
