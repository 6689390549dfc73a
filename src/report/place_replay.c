/* place --replay's text: the loop's own cycles an iteration at each
 * offset, replayed from the program's state at its header (measure/
 * replay.c, relocate/replay.c), and what the runs said of replays that
 * failed. The arms' rounds are groups of snapshots, every arm timed on
 * the same ones. */
#include "internal.h"
#include "../measure/replay.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static const char *unit(const struct replay_data *r)
{
	return r->clock_gettime ? "ns" : "cycles";
}

static void say_clock(FILE *out, const struct replay_data *r)
{
	if (r->cpu >= 0)
		fprintf(out, "cpu: every run and its replays on CPU %d (straddle's)\n", r->cpu);
	else
		fprintf(out, "cpu: the runs unpinned (the CPU could not be kept): its replays' children "
		       "can run slow as a whole\n");
	if (r->clock_gettime)
		fprintf(out, "clock: clock_gettime, not the TSC: %s\n", r->clock_why);
	else
		fprintf(out, "clock: the TSC (%.2f GHz), lfence; rdtsc at entry and rdtscp; lfence at the "
		       "exit: its cycles, not the core's\n", 1 / r->ns_per_tick);
}

/* What the fit used and left out, and every replay that failed, by kind. */
static void say_replays(FILE *out, const struct place_experiment *x)
{
	const struct replay_data *r = x->replay;
	const struct replay_counts *n = &r->n;
	size_t complete = 0, disturbed = 0;
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < r->ns; i++)
		complete += r->s[i].complete, disturbed += r->s[i].complete && r->s[i].disturbed;
	for (size_t k = 0; k < r->ncopies; k++)
		lo = fmin(lo, r->fixed[k]), hi = fmax(hi, r->fixed[k]);
	fprintf(out, "snapshots: %zu of %zu replayed at every offset alike, %zu of them with a replay "
	       "far off its line (outvoted: a copy's round is the median of its replays); %" PRIu64
	       "..%" PRIu64 " iterations a replay; ",
	       complete, r->ns, disturbed, r->iter_min, r->iter_max);
	if (r->fixed_known)
		fprintf(out, "a replay's fixed cost, %.0f..%.0f %s, taken out; the %zu of %" PRIu64 " "
		       "iterations or more (the longer half: a replay's first iterations are not the "
		       "loop's steady state) in %u rounds of %zu\n", lo, hi, unit(r), r->used,
		       r->iter_floor, x->rounds, r->per_round);
	else
		fprintf(out, "the iterations did not vary: a replay's fixed cost is in its %s; %u rounds of "
		       "%zu\n", unit(r), x->rounds, r->per_round);
	if (r->copies > 1) {
		struct copies_spread sp;

		replay_spread(x, false, &sp);
		fprintf(out, "copies: each offset timed at %u copies of the code, at %u addresses; a copy's "
		       "cycles spread %.2f%% (sd, %.0f degrees of freedom) around its offset's mean, and "
		       "every interval against today's counts it\n", r->copies, r->copies,
		       100 * sqrt(sp.var), sp.df);
	}
	if (n->probe_late || n->probe_killed || n->probe_signal)
		fprintf(out, "snapshots lost: %u whose loop had not left after %.3g s (killed), %u whose probe "
		       "was killed, %u whose loop faulted in the replay\n", n->probe_late, r->bound_s,
		       n->probe_killed, n->probe_signal);
	if (n->timed_late || n->timed_diverged || n->timed_signalled || n->timed_filtered)
		fprintf(out, "timed replays failed: %u past their bound (killed), %u diverged (another exit "
		       "or other registers than the probe's), %u killed by a signal, %u by the filter\n",
		       n->timed_late, n->timed_diverged, n->timed_signalled, n->timed_filtered);
	if (n->trapped)
		fprintf(out, "%u snapshots left the loop where no jump fits (an int3): the kernel's time is "
		       "in their span, the same at every offset\n", n->trapped);
	if (n->overflow)
		fprintf(out, "%u snapshots touched more pages than were kept: the rest were first touched "
		       "within the timed span\n", n->overflow);
}

static const struct place_arm *control_of(const struct place_experiment *x)
{
	for (size_t i = 0; i < x->narms; i++)
		if (x->arm[i].kind == PLACE_CONTROL)
			return &x->arm[i];
	return NULL;
}

static void table(FILE *out, const struct place_experiment *x)
{
	static const char *const cols[] = { "arm", ">offset", ">rounds", ">per iter", ">95% CI",
		">ratio", ">p", "slow", ">vs today", ">model", "predicted" };
	const struct place_arm *ctl = control_of(x);
	struct table t;

	table_init(&t, 11, cols);
	for (size_t i = 0; i < x->narms; i++) {
		const struct place_arm *a = &x->arm[i];
		char off[16], rounds[16], med[32], ci[64], ratio[16], p[16], pred[128], model[16];
		char today[48];
		struct measured_point m;
		struct paired pr;

		if (a->kind != PLACE_CONTROL && a->kind != PLACE_OFFSET)
			continue;
		replay_ratio(x, ctl, a, false, &pr);
		snprintf(off, sizeof off, "%u", a->offset);
		snprintf(rounds, sizeof rounds, "%zu", a->n);
		snprintf(med, sizeof med, "%.3f", a->sum.median);
		snprintf(ci, sizeof ci, "[%.3f, %.3f]", a->sum.ci_lo, a->sum.ci_hi);
		snprintf(ratio, sizeof ratio, "%.3f", a->ratio);
		snprintf(p, sizeof p, a->mark.n ? "%.3g" : "-", a->p);
		snprintf(today, sizeof today, a == ctl ? "1" : "%.3f [%.3f, %.3f]", pr.ratio, pr.lo,
			 pr.hi);
		place_point(a, &m);
		format_predicted(m.predicted, m.npredicted, ",", pred, sizeof pred);
		snprintf(model, sizeof model, a->predicted_slowdown ? "%.3f" : "-", a->predicted_slowdown);
		table_row(&t, a->name, off, rounds, med, ci, ratio, p, a->slow ? "slow" : "", today,
			  model, pred);
	}
	table_print(&t, out);
	table_free(&t);
}

/* Each offset against today's, the rounds paired; with more than four
 * offsets the fastest and slowest of the even rounds, on the odd ones. */
static void moves(FILE *out, const struct place_experiment *x)
{
	const struct place_arm *ctl = control_of(x), *lo, *hi;
	bool split = x->rounds >= STATS_PLACEMENT_MIN_ROUNDS;
	size_t n = place_offset_extremes(x, split, &lo, &hi);

	for (size_t i = 0; i < x->narms; i++) {
		const struct place_arm *a = &x->arm[i];
		bool chosen = n > 4 && split;
		char named[48];
		struct paired pr;

		if (!place_move_named(a, n, lo, hi, named, sizeof named))
			continue;
		replay_ratio(x, ctl, a, chosen, &pr);
		fprintf(out, "moving %s's loop from %u to %u of its %u-byte line%s: %+.1f%% [%+.1f, %+.1f] "
		       "(p %.2g%s) of its %s an iteration%s\n", x->subject->name, x->current, a->offset,
		       x->align, named, 100 * (pr.ratio - 1), 100 * (pr.lo - 1), 100 * (pr.hi - 1), pr.p,
		       pr.p >= x->alpha ? ": inconclusive" : fabs(pr.ratio - 1) <= x->material ?
		       ": below --material" : "", unit(x->replay), chosen ? " on the odd rounds" : "");
	}
}

static void agreement(FILE *out, const struct place_experiment *x)
{
	size_t agree = 0, total = 0, open = 0;

	for (size_t i = 0; i < x->narms; i++) {
		const struct place_arm *a = &x->arm[i];

		if (a->kind != PLACE_OFFSET && a->kind != PLACE_CONTROL)
			continue;
		if (!a->mark.slow && !a->mark.fast) {
			open++;
			continue;
		}
		total++, agree += a->mark.slow == (a->predicted_slowdown > 1 + x->material);
	}
	fprintf(out, "model (%s; back end %.2f cycles an iteration, %s) and measurement agree on %zu of "
	       "%zu placements measured surely (model: costs more than %.0f%%); %zu neither slow nor "
	       "surely not\n", x->profile->name, x->back_end.cycles,
	       cost_source_name(x->back_end.source), agree, total, 100 * x->material, open);
}

void report_place_replay_head(FILE *out, const struct place_view *v)
{
	const struct place_experiment *x = v->x;
	char a[20], b[20];

	fprintf(out, "%s: %zu function%s moved\n", v->file, v->refused[RELOC_OK],
		v->refused[RELOC_OK] == 1 ? "" : "s");
	fprintf(out, "%s: loop %s..%s, %" PRIu64 " bytes, at offset %u of its %u-byte block today\n",
		x->subject->name, hex_addr(a, x->loop_start), hex_addr(b, x->loop_end),
		x->loop_end - x->loop_start, x->current, x->align);
	fprintf(out, "measured: the loop, replayed from the program's state at its header at every "
		"offset; stopped by %s after %u runs (%.1f s); output identical in %u of %u runs\n",
		x->stopped_by, x->replay->n.runs, x->elapsed_s, x->identical,
		x->checked ? x->checked - 1 : 0);
}

void report_place_replay_text(FILE *out, const struct place_view *v)
{
	const struct place_experiment *x = v->x;
	const struct replay_data *r = x->replay;

	say_clock(out, r);
	say_replays(out, x);
	table(out, x);
	if (x->rounds < STATS_PLACEMENT_MIN_ROUNDS)
		fprintf(out, "ratio: of medians to the best; no slow mark under %d rounds\n",
			STATS_PLACEMENT_MIN_ROUNDS);
	else
		fprintf(out, "per iter: %s an iteration, the median of the rounds; ratio, p: each arm "
			"against the best of the even rounds on the odd ones, p adjusted for the %zu "
			"arms tested (Holm); slow: p < %g and ratio > %g; vs today: over today's "
			"placement, %s\n", unit(r), r->ncopies / (r->copies > 1 ? r->copies : 1) - 1,
			x->alpha, 1 + x->material, r->copies > 1 ? "its copies' mean against their "
			"spread" : "every round paired");
	fputc('\n', out);
	moves(out, x);
	agreement(out, x);
}
