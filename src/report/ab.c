/* straddle ab's text: each build and what of it moved, how the runs
 * went, every arm's row, B's change over A against the layouts' band and
 * aligned, the verdict. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static const char *unit(const struct ab_experiment *t)
{
	return t->metric_text ? "" : "s";
}

static void print_build(FILE *out, const struct ab_build *b)
{
	fprintf(out, "%c:", b->name);
	for (size_t i = 0; b->argv[i]; i++)
		fprintf(out, " %s", b->argv[i]);
	fputc('\n', out);
	if (!b->movable) {
		fprintf(out, "   runs unmoved only: %s\n", b->why_not);
		return;
	}
	fprintf(out, "   %s%s: %zu function%s moved", b->files[0],
		b->nfiles > 1 ? " and more" : "", b->refused[RELOC_OK],
		b->refused[RELOC_OK] == 1 ? "" : "s");
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (b->refused[r])
			fprintf(out, ", %zu refused (%s)", b->refused[r], reloc_refusal_name(r));
	fputc('\n', out);
}

static void print_table(FILE *out, const struct ab_experiment *t)
{
	static const char *const cols[] = { "arm", ">runs", ">median", ">95% CI", ">cv" };
	struct table tb;

	table_init(&tb, 5, cols);
	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < t->build[b].x.narms; i++) {
			const struct place_arm *a = &t->build[b].x.arm[i];
			char name[48], runs[16], med[32], ci[64], cv[16];

			if (a->kind == PLACE_UNMOVED)
				snprintf(name, sizeof name, "%c", t->build[b].name);
			else if (a->align)
				snprintf(name, sizeof name, "%c %s%u", t->build[b].name, a->name, a->align);
			else
				snprintf(name, sizeof name, "%c %s", t->build[b].name, a->name);
			snprintf(runs, sizeof runs, "%zu", a->n);
			snprintf(med, sizeof med, "%.4f%s", a->sum.median, unit(t));
			snprintf(ci, sizeof ci, "[%.4f, %.4f]", a->sum.ci_lo, a->sum.ci_hi);
			snprintf(cv, sizeof cv, "%.2f%%", 100 * a->sum.cv);
			table_row(&tb, name, runs, med, ci, cv);
		}
	table_print(&tb, out);
	table_free(&tb);
}

static void change_text(const struct paired *p, char *buf, size_t n)
{
	snprintf(buf, n, "%+.1f%% [%+.1f, %+.1f]", 100 * (p->ratio - 1), 100 * (p->lo - 1),
		 100 * (p->hi - 1));
}

/* slower/faster of a time, worse/better of a metric: B's side of 1. */
static const char *direction_word(const struct ab_experiment *t, double ratio)
{
	bool up = ratio > 1, worse = t->higher ? !up : up;

	if (ratio == 1)
		return "the same";
	if (!t->metric_text)
		return up ? "slower" : "faster";
	return worse ? "worse" : "better";
}

static void print_band(FILE *out, const struct ab_experiment *t)
{
	const struct ab_judgement *j = &t->j;
	char sides[160] = "";
	size_t at = 0;

	if (!j->has_band) {
		bool ran = ab_arm_of(t, 0, AB_RANDOM) || ab_arm_of(t, 1, AB_RANDOM);

		if (ran)
			fprintf(out, "layout noise: %u rounds are too few for a band (%d or "
				"more)\n", t->rounds, AB_BAND_MIN_ROUNDS);
		return;
	}
	for (int b = 0; b < 2; b++)
		if (j->band[b].n >= AB_BAND_MIN_ROUNDS)
			at += (size_t)snprintf(sides + at, sizeof sides - at, "%s%c's %+.1f..%+.1f",
					       at ? ", " : "; ", t->build[b].name,
					       100 * (j->band[b].lo - 1), 100 * (j->band[b].hi - 1));
	fprintf(out, "moving the builds' functions alone moves B over A by %+.1f%% to %+.1f%% "
		"(95%%%s): %s\n", 100 * (j->lo - 1), 100 * (j->hi - 1), sides,
		j->change.lo > j->hi || j->change.hi < j->lo ? "beyond layout noise" :
		"within layout noise");
}

static void print_answer(FILE *out, const struct ab_experiment *t)
{
	const struct ab_judgement *j = &t->j;
	char line[96];

	change_text(&j->change, line, sizeof line);
	fprintf(out, "\nB is %s against A (p %.2g): %s; the noise: B over A varies by %.2f%% "
		"from round to round\n", line, j->change.p, direction_word(t, j->change.ratio),
		100 * t->round_sd);
	print_band(out, t);
	if (j->aligned.n) {
		change_text(&j->aligned, line, sizeof line);
		fprintf(out, "aligned (every function at offset 0 of a %u-byte block), B is %s "
			"(p %.2g); the change unaligned over aligned %+.1f%% (p %.2g)\n",
			t->align_all, line, j->aligned.p, 100 * (j->shrink.ratio - 1), j->shrink.p);
	}
	fprintf(out, "verdict: %s (%s)\n", ab_verdict_name(j->verdict), ab_reason_text(j->reason));
}

void report_ab_text(FILE *out, const struct ab_experiment *t)
{
	unsigned runs = 0, identical = 0;

	print_build(out, &t->build[0]);
	print_build(out, &t->build[1]);
	for (int b = 0; b < 2; b++)
		runs += t->build[b].x.checked - 1, identical += t->build[b].x.identical;
	fprintf(out, "measured: %s; stopped by %s after %u rounds (%.1f s); ",
		t->metric_text ? t->metric_text : t->wall ? "wall time" : "CPU time (user + system)",
		t->stopped_by, t->rounds, t->elapsed_s);
	if (t->no_output_check)
		fputs("output not checked\n", out);
	else
		fprintf(out, "output identical in %u of %u runs, A's and B's the same\n", identical,
			runs);
	print_table(out, t);
	print_answer(out, t);
}

