/* straddle ab's experiment: two builds of a program run side by side,
 * each through place's experiment (its arms, plans and runs), their arms
 * interleaved in one new random order every round, so that the machine's
 * drift falls on both builds alike; then whether B's change over A is the
 * code's or the layout's. The kernel test robot's maintainers rebuilt
 * with CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B to tell "many strange
 * performance changes" apart (seed 004); the aligned arms do that without
 * a rebuild, and the random layouts measure the spread it guards against
 * (Mytkowicz et al., ASPLOS 2009). */
#include "ab.h"
#include "clock.h"
#include "../arena/arena.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the verdict ---- */

static const char *const verdict_names[] = {
	[AB_NONE] = "none", [AB_REAL] = "real", [AB_LAYOUT] = "layout",
	[AB_INCONCLUSIVE] = "inconclusive",
};

const char *ab_verdict_name(enum ab_verdict v)
{
	return v <= AB_INCONCLUSIVE ? verdict_names[v] : "?";
}

static const char *const reason_texts[] = {
	[AB_NO_CHANGE] = "no change",
	[AB_BELOW_MATERIAL] = "a change below --material",
	[AB_TOO_NOISY] = "not significant, and too noisy to rule out a change",
	[AB_BEYOND_LAYOUT] = "beyond layout noise",
	[AB_WITHIN_LAYOUT] = "within layout noise",
	[AB_SURVIVES_ALIGNED] = "the change is the code: it survives alignment",
	[AB_VANISHES_ALIGNED] = "the change was layout: aligned, it vanishes",
	[AB_ALIGNED_UNCLEAR] = "aligned, neither gone nor the same",
	[AB_NO_LAYOUT] = "no layout arm: nothing tells layout from code",
};

const char *ab_reason_text(enum ab_reason r)
{
	return r <= AB_NO_LAYOUT ? reason_texts[r] : "?";
}

static bool within_material(const struct paired *p, double material)
{
	return p->lo >= 1 - material && p->hi <= 1 + material;
}

/* A's band says where B over A lands were B's code A's, moved; B's band
 * says where A over B would, so inverted it says the same from B's side.
 * Either can hold the change: a B whose layout is worse than most of A's
 * is, from B's side, one of its own lucky layouts. */
static void union_band(struct ab_judgement *j)
{
	const struct layout_band *a = &j->band[0], *b = &j->band[1];
	bool ha = a->n >= AB_BAND_MIN_ROUNDS, hb = b->n >= AB_BAND_MIN_ROUNDS;

	j->has_band = ha || hb;
	j->lo = ha ? a->lo : 1 / b->hi;
	j->hi = ha ? a->hi : 1 / b->lo;
	if (ha && hb) {
		j->lo = fmin(j->lo, 1 / b->hi);
		j->hi = fmax(j->hi, 1 / b->lo);
	}
}

/* Aligned, the change keeps its sign and stays beyond --material: the
 * code. Its CI within --material, or no longer significant (or below
 * --material) and significantly smaller than unaligned (the rounds'
 * change over their aligned change: a CI within --material needs a
 * quieter machine than a change gone does): the layout. Else no word
 * from alignment. */
static bool judge_aligned(struct ab_judgement *j)
{
	const struct paired *c = &j->change, *a = &j->aligned, *s = &j->shrink;
	bool small = a->p >= j->alpha || fabs(a->ratio - 1) <= j->material;
	bool shrank = s->n >= 2 && s->p < j->alpha && (s->ratio - 1) * (c->ratio - 1) > 0;

	if (a->n < 2)
		return false;
	if (!small && (a->ratio - 1) * (c->ratio - 1) > 0) {
		j->verdict = AB_REAL, j->reason = AB_SURVIVES_ALIGNED;
		return true;
	}
	if (within_material(a, j->material) || (small && shrank)) {
		j->verdict = AB_LAYOUT, j->reason = AB_VANISHES_ALIGNED;
		return true;
	}
	return false;
}

void ab_judge(struct ab_judgement *j)
{
	const struct paired *c = &j->change;

	union_band(j);
	if (c->p >= j->alpha) {
		bool narrow = c->n >= 2 && within_material(c, j->material);

		j->verdict = narrow ? AB_NONE : AB_INCONCLUSIVE;
		j->reason = narrow ? AB_NO_CHANGE : AB_TOO_NOISY;
		return;
	}
	if (fabs(c->ratio - 1) <= j->material) {
		j->verdict = AB_NONE, j->reason = AB_BELOW_MATERIAL;
		return;
	}
	if (judge_aligned(j))
		return;
	if (j->has_band) {
		bool beyond = c->lo > j->hi || c->hi < j->lo;

		j->verdict = beyond ? AB_REAL : AB_INCONCLUSIVE;
		j->reason = beyond ? AB_BEYOND_LAYOUT : AB_WITHIN_LAYOUT;
		return;
	}
	j->verdict = AB_INCONCLUSIVE;
	j->reason = j->aligned.n >= 2 ? AB_ALIGNED_UNCLEAR : AB_NO_LAYOUT;
}

/* ---- the builds ---- */

/* The command's own executable when no file is named. */
static int find_files(struct ab_build *b, struct err *e)
{
	char buf[PATH_MAX];
	const char *exe;

	if (b->nfiles)
		return 0;
	if (!(exe = spawn_find(b->argv[0], buf, sizeof buf)))
		return err_set(e, "%s: no such command in PATH", b->argv[0]);
	b->files[b->nfiles++] = b->exe = xstrdup(exe);
	return 0;
}

/* Its files opened, every function analysed. A file that cannot move
 * takes the layout arms away (said in why_not); named, it is an error. */
static int open_build(struct ab_build *b, struct err *e)
{
	struct err why;

	for (size_t i = 0; i < b->nfiles; i++) {
		struct reloc_file *rf = &b->rf[b->x.nrf];
		int rc = reloc_open(rf, b->files[i], &why);

		if (rc == 0 && rf->img.arch != arena_host_arch()) {
			rc = err_set(&why, "%s: %s code: only the host's (%s) runs moved", b->files[i],
				     arch_name(rf->img.arch), arch_name(arena_host_arch()));
			reloc_close(rf);
		}
		if (rc == 0) {
			b->x.nrf++;
			continue;
		}
		if (b->named)
			return err_set(e, "%s", why.msg);
		snprintf(b->why_not, sizeof b->why_not, "%s", why.msg);
		return 0;
	}
	for (size_t i = 0; i < b->x.nrf; i++) {
		reloc_choose(&b->rf[i], NULL);
		for (size_t k = 0; k < b->rf[i].nfn; k++)
			b->refused[b->rf[i].fn[k].refused]++;
	}
	if (!b->refused[RELOC_OK])
		snprintf(b->why_not, sizeof b->why_not, "%s: none of its functions can be moved",
			 b->files[0]);
	return 0;
}

static int add_arm(struct ab_build *b, enum ab_arm k, uint32_t align, struct err *e)
{
	static const enum place_arm_kind kinds[AB_NARMS] = { PLACE_UNMOVED, PLACE_CONTROL,
		PLACE_RANDOM, PLACE_OFFSET };
	static const char *const names[AB_NARMS] = { "unmoved", "control", "random", "aligned" };

	if (experiment_add_arm(&b->x, kinds[k], 0, names[k], e))
		return -1;
	b->arm[k] = (int)b->x.narms - 1;
	b->x.arm[b->arm[k]].align = align;
	return 0;
}

/* What every run of the build shares with the other's. */
static void settings(const struct ab_experiment *t, struct ab_build *b, uint64_t seed)
{
	struct place_experiment *x = &b->x;

	x->rf = b->rf, x->argv = b->argv, x->preload = t->preload, x->input = t->input;
	x->align = 64, x->runs = t->runs, x->budget_s = t->budget_s, x->alpha = t->alpha;
	x->material = t->material, x->wall = t->wall, x->no_output_check = t->no_output_check;
	x->higher = t->higher, x->metric = t->metric, x->metric_text = t->metric_text;
	x->seed = seed, x->rng = seed ? seed : 1;
	for (int k = 0; k < AB_NARMS; k++)
		b->arm[k] = -1;
}

int ab_prepare(struct ab_experiment *t, struct err *e)
{
	for (int i = 0; i < 2; i++) {
		struct ab_build *b = &t->build[i];

		settings(t, b, t->seed + (uint64_t)i);
		if (find_files(b, e) || open_build(b, e))
			return -1;
		if (!b->why_not[0] && !t->preload)
			snprintf(b->why_not, sizeof b->why_not, "libstraddle-place.so is not beside "
				 "straddle nor in ../libexec/straddle (set STRADDLE_PRELOAD)");
		b->movable = !b->why_not[0];
		if (add_arm(b, AB_UNMOVED, 0, e))
			return -1;
	}
	for (int i = 0; i < 2; i++) {
		struct ab_build *b = &t->build[i];

		if (!b->movable)
			continue;
		experiment_collect(&b->x);
		if ((t->layout && (add_arm(b, AB_CONTROL, 0, e) || add_arm(b, AB_RANDOM, 0, e))) ||
		    (t->align_all && t->build[!i].movable && add_arm(b, AB_ALIGNED, t->align_all, e)) ||
		    experiment_make_plans(&b->x, e))
			return -1;
	}
	t->rng = t->seed ? t->seed : 1;
	return 0;
}

/* ---- the rounds ---- */

/* A build's first runs: it must succeed, and give the same output each
 * time (run_arm checks the second against the first). */
static int warm_up(struct ab_build *b, struct command_run *r, struct err *e)
{
	char st[48];
	int rc = experiment_run_arm(&b->x, 0, r, e);

	/* it ran (its output was taken), and failed: that, not what --metric
	 * found in the output of a failure */
	if ((rc == 0 || rc == 2) && b->x.checked &&
	    !(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0)) {
		spawn_status_text(r->status, st, sizeof st);
		return err_set(e, "%c: '%s' ends with %s (stderr: %.*s): ab measures commands that "
			       "succeed", b->name, b->argv[0], st, (int)strcspn(r->err_head, "\n"),
			       r->err_head), 2;
	}
	if (!rc)
		rc = experiment_run_arm(&b->x, 0, r, e);
	b->x.arm[0].n = 0;
	return rc;
}

/* A's output is what B's must be: the builds do the same work. */
static int same_work(const struct ab_experiment *t, struct err *e)
{
	const struct place_experiment *a = &t->build[0].x, *b = &t->build[1].x;

	if (t->no_output_check || a->base_hash == b->base_hash)
		return 0;
	return err_set(e, "B's output differs from A's: the builds do not do the same work "
		       "(--no-output-check when their output may differ)"), 1;
}

/* The change's CI (and the aligned one's) within --precision. */
static bool precise(const struct ab_experiment *t)
{
	const int pairs[2] = { AB_UNMOVED, AB_ALIGNED };

	for (int k = 0; k < 2; k++) {
		const struct place_arm *a = ab_arm_of(t, 0, pairs[k]), *b = ab_arm_of(t, 1, pairs[k]);
		struct paired p;

		if (!a || !b)
			continue;
		stats_paired_ratio(a->v, b->v, t->rounds, t->alpha, &p);
		if ((p.hi - p.lo) / 2 > t->precision)
			return false;
	}
	return true;
}

static void progress(const struct ab_experiment *t, double t0)
{
	if (isatty(2))
		fprintf(stderr, "\r\033[Kab: round %u of at most %u, %.0f s of at most %.0f",
			t->rounds, t->runs, monotonic_s() - t0, t->budget_s);
}

/* Every arm of both builds once, in a new random order. */
static int one_round(struct ab_experiment *t, struct command_run *r, struct err *e)
{
	struct ab_turn { int b; size_t arm; } order[2 * AB_NARMS];
	size_t n = 0;
	int rc = 0;

	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < t->build[b].x.narms; i++)
			order[n++] = (struct ab_turn){ b, i };
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(&t->rng, i);
		struct ab_turn s = order[i - 1];

		order[i - 1] = order[j], order[j] = s;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = experiment_run_arm(&t->build[order[i].b].x, order[i].arm, r, e);
	return rc;
}

int ab_run(struct ab_experiment *t, struct err *e)
{
	struct command_run r = { 0 };
	double t0 = monotonic_s();
	int rc;

	t->stopped_by = "runs";
	rc = warm_up(&t->build[0], &r, e);
	if (!rc)
		rc = warm_up(&t->build[1], &r, e);
	if (!rc)
		rc = same_work(t, e);
	while (!rc && t->rounds < t->runs) {
		rc = one_round(t, &r, e);
		if (rc)
			break;
		t->rounds++;
		progress(t, t0);
		if (monotonic_s() - t0 > t->budget_s && t->rounds >= 2) {
			t->stopped_by = "time";
			break;
		}
		if (t->precision && t->rounds >= 5 && precise(t)) {
			t->stopped_by = "precision";
			break;
		}
	}
	if (isatty(2))
		fprintf(stderr, "\r\033[K");
	t->elapsed_s = monotonic_s() - t0;
	command_run_free(&r);
	return rc;
}

/* ---- what they say ---- */

const struct place_arm *ab_arm_of(const struct ab_experiment *t, int b, enum ab_arm k)
{
	int i = t->build[b].arm[k];

	return i < 0 ? NULL : &t->build[b].x.arm[i];
}

/* The runs' noise: pairs of fixed layouts in the same rounds (A against
 * B, each control against its build, the aligned builds), pooled. */
static void noise(struct ab_experiment *t)
{
	static const int pairs[][4] = {
		{ 0, AB_UNMOVED, 1, AB_UNMOVED }, { 0, AB_UNMOVED, 0, AB_CONTROL },
		{ 1, AB_UNMOVED, 1, AB_CONTROL }, { 0, AB_ALIGNED, 1, AB_ALIGNED },
	};
	const double *a[4], *b[4];
	size_t n = 0;

	for (size_t k = 0; k < 4; k++) {
		const struct place_arm *x = ab_arm_of(t, pairs[k][0], pairs[k][1]);
		const struct place_arm *y = ab_arm_of(t, pairs[k][2], pairs[k][3]);

		if (x && y)
			a[n] = x->v, b[n++] = y->v;
	}
	t->noise_var = stats_log_ratio_var(a, b, n, t->rounds, &t->noise_df);
	t->round_sd = sqrt(stats_log_ratio_var(a, b, 1, t->rounds, &(size_t){ 0 }));
}

/* The aligned change, and the change over it round by round: with
 * x = A B' and y = B A' (' aligned), y / x is B/A over B'/A'. */
static void aligned(struct ab_experiment *t)
{
	const double *a = ab_arm_of(t, 0, AB_UNMOVED)->v, *b = ab_arm_of(t, 1, AB_UNMOVED)->v;
	const double *a1 = ab_arm_of(t, 0, AB_ALIGNED)->v, *b1 = ab_arm_of(t, 1, AB_ALIGNED)->v;
	double *x = xcalloc(t->rounds + 1, sizeof *x), *y = xcalloc(t->rounds + 1, sizeof *y);

	stats_paired_ratio(a1, b1, t->rounds, t->alpha, &t->j.aligned);
	for (size_t r = 0; r < t->rounds; r++)
		x[r] = a[r] * b1[r], y[r] = b[r] * a1[r];
	stats_paired_ratio(x, y, t->rounds, t->alpha, &t->j.shrink);
	free(x);
	free(y);
}

void ab_analyse(struct ab_experiment *t)
{
	struct ab_judgement *j = &t->j;

	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < t->build[b].x.narms; i++) {
			struct place_arm *a = &t->build[b].x.arm[i];

			stats_summarize(a->v, a->n, t->seed, !t->higher, &a->sum);
		}
	noise(t);
	*j = (struct ab_judgement){ .alpha = t->alpha, .material = t->material };
	stats_paired_ratio(ab_arm_of(t, 0, AB_UNMOVED)->v, ab_arm_of(t, 1, AB_UNMOVED)->v,
			   t->rounds, t->alpha, &j->change);
	for (int b = 0; b < 2; b++) {
		const struct place_arm *r = ab_arm_of(t, b, AB_RANDOM), *c = ab_arm_of(t, b, AB_CONTROL);

		if (r && c)
			stats_layout_band(r->v, c->v, t->rounds, t->noise_var, &j->band[b]);
	}
	if (ab_arm_of(t, 0, AB_ALIGNED) && ab_arm_of(t, 1, AB_ALIGNED))
		aligned(t);
	ab_judge(j);
}

void ab_free(struct ab_experiment *t)
{
	for (int b = 0; b < 2; b++) {
		experiment_free(&t->build[b].x);
		for (size_t i = 0; i < t->build[b].x.nrf; i++)
			reloc_close(&t->build[b].rf[i]);
		free(t->build[b].exe);
	}
}
