/* straddle place's experiment: the arms, their plans, the rounds and what
 * they say. Each round runs every arm once in a new random order, so drift
 * hits them alike; the unmoved program's output is what every run must give. */
#include "clock.h"
#include "command.h"
#include "experiment.h"
#include "replay.h"
#include "../model/geometry.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT_MAX (1u << 20)      /* output kept for --metric */

int experiment_add_arm(struct place_experiment *x, enum place_arm_kind k, uint32_t offset,
		  const char *name, struct err *e)
{
	struct place_arm *a;

	for (size_t i = 0; i < x->narms; i++)
		if (x->arm[i].kind == k && (k != PLACE_OFFSET || x->arm[i].offset == offset))
			return 0;
	if (k == PLACE_OFFSET && offset == x->current && x->subject)
		return 0;       /* the control is that placement */
	if (x->narms == PLACE_MAX_ARMS)
		return err_set(e, "at most %d placements at once", PLACE_MAX_ARMS - 2);
	a = &x->arm[x->narms++];
	*a = (struct place_arm){ .kind = k, .offset = offset, .plan_fd = -1 };
	snprintf(a->name, sizeof a->name, "%s", name);
	return 0;
}

int experiment_add_aa(struct place_experiment *x, struct err *e)
{
	if (x->narms == PLACE_MAX_ARMS)
		return err_set(e, "at most %d placements at once", PLACE_MAX_ARMS - 2);
	x->arm[x->narms++] = (struct place_arm){ .kind = PLACE_OFFSET, .offset = x->current,
		.plan_fd = -1, .name = "aa" };
	return 0;
}

int experiment_replay_copies(struct place_experiment *x, unsigned copies, struct err *e)
{
	size_t timed = 0;

	x->replay->copies = copies;
	if (copies == 1 && experiment_add_aa(x, e))
		return -1;
	for (size_t i = 0; i < x->narms; i++)
		timed += x->arm[i].kind == PLACE_CONTROL || x->arm[i].kind == PLACE_OFFSET;
	if (timed * copies > PLACE_MAX_ARMS)
		return err_set(e, "%zu placements at %u copies each: at most %d timed copies at once",
			       timed, copies, PLACE_MAX_ARMS);
	return 0;
}

const char *experiment_arm_label(const struct place_arm *a, char *buf, size_t n)
{
	if (a->kind != PLACE_OFFSET)
		snprintf(buf, n, "%s", a->name);
	else if (isdigit((unsigned char)a->name[0]))
		snprintf(buf, n, "offset %u", a->offset);
	else
		snprintf(buf, n, "%s (offset %u)", a->name, a->offset);
	return buf;
}

/* ---- what the model says ---- */

/* How far the subject's bytes move for its loop to start at `offset`
 * (mod align): the placement the model is asked about. */
static uint64_t placed_delta(const struct place_experiment *x, uint32_t offset)
{
	return (offset + x->align - x->loop_start % x->align) % x->align;
}

unsigned experiment_predict(const struct place_experiment *x, uint32_t offset, struct hazard *h,
		       size_t *nh)
{
	const struct reloc_func *f = x->subject;
	uint64_t delta = placed_delta(x, offset);
	uint64_t s = x->loop_start + delta, e = x->loop_end + delta;
	unsigned score = 0;

	*nh = code_loop_hazards(x->profile, f->code, f->size, f->addr + delta, s, h, 8);
	for (size_t i = 0; i < *nh; i++)
		score += 1000u * h[i].severity;
	return score + 10 * windows_touched(s, e, 64) + windows_touched(s, e, x->profile->fetch);
}

void experiment_best_and_worst(const struct place_experiment *x, uint32_t *best, uint32_t *worst)
{
	unsigned lo = UINT32_MAX, hi = 0;
	struct hazard h[8];
	size_t nh;

	*best = *worst = x->current;
	for (uint32_t o = 0; o < x->align; o++) {
		unsigned s = experiment_predict(x, o, h, &nh);

		if (s < lo || (s == lo && o == x->current))
			lo = s, *best = o;
		if (s > hi)
			hi = s, *worst = o;
	}
}

/* ---- plans ---- */

void experiment_collect(struct place_experiment *x)
{
	for (size_t i = 0; i < x->nrf; i++) {
		x->place[i] = xcalloc(x->rf[i].nfn + 1, sizeof *x->place[i]);
		for (size_t k = 0; k < x->rf[i].nfn; k++)
			if (x->rf[i].fn[k].refused == RELOC_OK)
				x->place[i][x->nplace[i]++].f = &x->rf[i].fn[k];
	}
	if (x->subject)
		x->current = (uint32_t)(x->loop_start % x->align);
}

/* The plan of one arm into a fresh memfd: every movable function, its
 * anchor (the subject's loop, else the entry) at the arm's offset; the
 * control's at its own; a random arm's each at its own random one. */
static int make_plan(struct place_experiment *x, struct place_arm *a, struct err *e)
{
	struct reloc_plan_part part[PLACE_MAX_FILES];
	size_t np = 0;
	FILE *f;
	int fd = memfd_create("straddle-plan", 0), rc = 0;

	if (fd < 0 || !(f = fdopen(dup(fd), "w"))) {
		if (fd >= 0)
			close(fd);
		return err_set(e, "cannot make a plan: %s", strerror(errno));
	}
	for (size_t i = 0; i < x->nrf; i++) {
		struct reloc_place *p = x->place[i];

		for (size_t k = 0; k < x->nplace[i]; k++) {
			uint64_t anchor = p[k].f == x->subject ? x->loop_start : p[k].f->addr;
			uint32_t align = a->align ? a->align : x->align;

			p[k].anchor = anchor, p[k].align = align;
			p[k].offset = a->kind == PLACE_RANDOM ? (uint32_t)rng_below(&x->rng, align) :
				      a->kind == PLACE_CONTROL || a->kind == PLACE_REPLAY ?
				      (uint32_t)(anchor % align) : a->offset;
		}
		if (x->nplace[i])
			part[np++] = (struct reloc_plan_part){ &x->rf[i], p, x->nplace[i] };
	}
	if (a->kind == PLACE_REPLAY) {
		/* moved as the control is, and a timed copy at each arm's offset */
		uint32_t off[PLACE_MAX_ARMS];
		struct reloc_replay rp = { x->subject, x->loop_start, x->loop_end, off, 0, x->align };

		/* each arm's copies a round apart: arm by arm, then again */
		for (unsigned c = 0; c < x->replay->copies; c++)
			for (size_t i = 0; i < x->narms; i++)
				if ((x->arm[i].kind == PLACE_CONTROL || x->arm[i].kind == PLACE_OFFSET) &&
				    rp.noffset < PLACE_MAX_ARMS) {      /* experiment_replay_copies */
					x->replay->arm[rp.noffset] = i;
					off[rp.noffset++] = x->arm[i].offset;
				}
		x->replay->ncopies = rp.noffset;
		rc = reloc_plan_write_replay(part, np, &rp, f, e);
	} else {
		rc = reloc_plan_write(part, np, f, e);
	}
	fclose(f);
	if (a->plan_fd >= 0)
		close(a->plan_fd);
	a->plan_fd = rc ? (close(fd), -1) : fd;
	return rc;
}

int experiment_make_plans(struct place_experiment *x, struct err *e)
{
	for (size_t i = 0; i < x->narms; i++)
		if ((x->arm[i].kind == PLACE_OFFSET || x->arm[i].kind == PLACE_CONTROL ||
		     x->arm[i].kind == PLACE_REPLAY) && make_plan(x, &x->arm[i], e))
			return -1;
	return 0;
}

/* ---- one run ---- */

static volatile sig_atomic_t interrupted;

void experiment_interrupt(int sig)
{
	interrupted = sig;
	spawn_signal(SIGKILL);
}

/* Why the experiment stops at this run: kept for the result file (the
 * run's status and last lines of standard error) and said in e. */
static int failed(struct place_experiment *x, const struct place_arm *a,
		  const struct command_run *r, struct err *e, int rc, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static int failed(struct place_experiment *x, const struct place_arm *a,
		  const struct command_run *r, struct err *e, int rc, const char *fmt, ...)
{
	struct place_failure *f = &x->failure;
	va_list ap;

	*f = (struct place_failure){ .failed = true, .has_status = r != NULL,
				     .status = r ? r->status : 0 };
	experiment_arm_label(a, f->arm, sizeof f->arm);
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof f->why, fmt, ap);
	va_end(ap);
	if (r)
		command_err_lines(r, 4, f->stderr_lines, sizeof f->stderr_lines);
	/* the unmoved program's own failures name the program, not an arm */
	if (a->kind == PLACE_UNMOVED)
		err_set(e, "%s", f->why);
	else
		err_set(e, "%s: %s", f->arm, f->why);
	return rc;
}

/* The preload library's "applied" lines (plan.h): how long each took, and
 * the perf maps the run left, removed now that it is over (also after a
 * signal: the run was killed, its map would outlive it). */
static size_t take_reports(struct place_experiment *x, const struct command_run *r)
{
	size_t applied = 0;

	for (const char *p = r->report; (p = strstr(p, "applied ")); p++) {
		unsigned long long ns = 0;
		int pid = 0, map = 0;
		char path[64];

		applied++;
		if (sscanf(p, "applied %*u %*u %*x %llu %d %d", &ns, &pid, &map) != 3)
			continue;
		GROW(x->apply_ns, x->apply_cap, x->napply + 1);
		x->apply_ns[x->napply++] = (double)ns;
		x->no_map += !map;
		snprintf(path, sizeof path, "/tmp/perf-%d.map", pid);
		if (map)
			unlink(path);
	}
	return applied;
}

/* An error the preload library reported stops everything; each file's
 * plan must have been applied by some process of the command. */
static int check_report(struct place_experiment *x, const struct place_arm *a,
			const struct command_run *r, size_t applied, struct err *e)
{
	const char *err = strstr(r->report, "error ");
	size_t want = 0;
	char st[48];

	if (err)
		return failed(x, a, r, e, 2, "the preload library failed: %.*s",
			      (int)strcspn(err + 6, "\n"), err + 6);
	for (size_t i = 0; i < x->nrf; i++)
		want += x->nplace[i] > 0;
	spawn_status_text(r->status, st, sizeof st);
	if (applied < want)
		return failed(x, a, r, e, 2, "the plan of %s was not applied: no process of '%s' "
			      "loaded it (or the build-id differs); it ended with %s%s%s",
			      x->rf[0].img.path, x->argv[0], st, r->err_tail[0] ? ": " : "",
			      r->err_tail[0] ? command_err_lines(r, 2, (char[200]){ 0 }, 200) : "");
	return 0;
}

static int metric_of(struct place_experiment *x, const struct place_arm *a,
		     const struct command_run *r, double *v, struct err *e)
{
	regmatch_t m[2];
	char num[64], *end;
	size_t k;

	if (!x->metric) {
		*v = x->wall ? r->wall_s : r->cpu_s;
		return 0;
	}
	if (regexec(x->metric, r->out, 2, m, 0) != 0)
		return failed(x, a, r, e, 2, "--metric: '%s' matches nothing in the output of '%s'",
			      x->metric_text, x->argv[0]);
	k = m[1].rm_so >= 0 ? 1 : 0;
	snprintf(num, sizeof num, "%.*s", (int)(m[k].rm_eo - m[k].rm_so), r->out + m[k].rm_so);
	*v = strtod(num, &end);
	if (end == num)
		return failed(x, a, r, e, 2, "--metric: '%s' is not a number", num);
	return 0;
}

/* The program must not notice: the same status as unmoved (how it
 * exited, or the signal that killed it), and the same output unless
 * --no-output-check. A program killed by a signal unmoved is no program
 * to measure; one that exits non-zero is said once, and measured. */
static int same_output(struct place_experiment *x, const struct place_arm *a,
		       const struct command_run *r, struct err *e)
{
	char want[48], got[48];
	bool status = r->status == x->base_status, out = r->out_hash == x->base_hash;

	if (!x->checked++) {
		x->base_hash = r->out_hash, x->base_status = r->status;
		spawn_status_text(r->status, got, sizeof got);
		if (WIFSIGNALED(r->status))
			return failed(x, a, r, e, 2, "the program itself was %s, not moved: nothing to "
				      "measure", got);
		if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
			snprintf(x->base_note, sizeof x->base_note, "ends with %s unmoved (standard "
				 "error: %s): every run is of a program that ends so", got,
				 command_err_lines(r, 2, (char[200]){ 0 }, 200));
		return 0;
	}
	x->same_status += status;
	x->identical += status && out && !x->no_output_check;
	if (status && (out || x->no_output_check))
		return 0;
	if (a->kind == PLACE_UNMOVED)
		return failed(x, a, r, e, 1, "%s: the program's own %s differs from run to run, "
			      "unmoved: nothing to compare a placement's with%s", x->argv[0],
			      status ? "output" : "status", status ? " (--no-output-check)" : "");
	spawn_status_text(x->base_status, want, sizeof want);
	spawn_status_text(r->status, got, sizeof got);
	return failed(x, a, r, e, 1, "the program noticed: %s (%s) where unmoved it gave %s",
		      !status ? "its status differs" : "its output differs", got, want);
}

static int run_arm(struct place_experiment *x, struct place_arm *a, struct command_run *r,
		   struct err *e)
{
	char plan_env[64], preload_env[4200], replay_env[192];
	const char *old = getenv("LD_PRELOAD");
	char *env[4] = { NULL };
	struct command_spec spec = { x->argv, env, "STRADDLE_PLACE_FD", OUT_MAX, x->input };
	double v = 0;
	size_t applied;
	int rc;

	if (interrupted)
		return 3;
	if (a->kind == PLACE_RANDOM && make_plan(x, a, e))
		return failed(x, a, NULL, e, 2, "%s", e->msg);
	if (a->kind != PLACE_UNMOVED) {
		snprintf(plan_env, sizeof plan_env, "STRADDLE_PLAN=/proc/self/fd/%d", a->plan_fd);
		snprintf(preload_env, sizeof preload_env, "LD_PRELOAD=%s%s%s", x->preload,
			 old && *old ? ":" : "", old ? old : "");
		env[0] = plan_env, env[1] = preload_env;
		if (a->kind == PLACE_REPLAY) {
			const struct replay_data *rd = x->replay;

			/* TICK_NS,BOUND_NS,MAX,SEED,CLOCK,MOST,REPEATS,WARM,DEADLINE
			 * (relocate/replay.c) */
			snprintf(replay_env, sizeof replay_env, "STRADDLE_REPLAY=%.0f,%.0f,%u,%llu,%d,"
				 "%llu,%u,%u,%.0f", rd->tick_ns, rd->bound_s * 1e9, rd->snapshots,
				 (unsigned long long)(x->seed + rd->n.runs * 7919u + 1), rd->clock_gettime,
				 (unsigned long long)rd->iter_max, rd->repeats, rd->warm,
				 rd->deadline_s * 1e9);
			env[2] = replay_env;
		}
	} else
		spec.report_env = NULL;
	if (command_run(&spec, r, e))
		return failed(x, a, NULL, e, 2, "%s", e->msg);
	applied = take_reports(x, r);
	if (interrupted)
		return 3;
	if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127 && a->kind == PLACE_UNMOVED &&
	    !x->checked)
		return failed(x, a, r, e, 2, "%s: cannot run: %s", x->argv[0],
			      command_err_lines(r, 2, (char[200]){ 0 }, 200));
	if (a->kind != PLACE_UNMOVED && (rc = check_report(x, a, r, applied, e)))
		return rc;
	if ((rc = same_output(x, a, r, e)))
		return rc;
	if (a->kind == PLACE_REPLAY)
		return 0;               /* its measure is in its report (replay_take) */
	if (metric_of(x, a, r, &v, e))
		return 2;
	GROW(a->v, a->cap, a->n + 1);
	a->v[a->n++] = v;
	return 0;
}

/* ---- the rounds ---- */

/* On a terminal: the round, and the time left at this pace (the budget's
 * end when that comes first). */
void experiment_progress(const struct place_experiment *x, double t0)
{
	double spent = monotonic_s() - t0, left;

	if (!isatty(2) || !x->rounds)
		return;
	left = spent / x->rounds * (x->runs - x->rounds);
	left = fmin(left, fmax(0, x->budget_s - spent));
	fprintf(stderr, "\r\033[Kplace: round %u of at most %u, %.0f s, ~%.0f s left", x->rounds,
		x->runs, spent, left);
}

/* Is every arm's median known within --precision (its bootstrap CI's
 * half-width)? */
static bool precise(const struct place_experiment *x)
{
	for (size_t i = 0; i < x->narms; i++) {
		const struct place_arm *a = &x->arm[i];
		double lo, hi, m, *v = xcalloc(a->n + 1, sizeof *v);

		memcpy(v, a->v, a->n * sizeof *v);
		m = stats_median_select(v, a->n);
		free(v);
		stats_bootstrap_median_ci(a->v, a->n, 1000, x->seed, &lo, &hi);
		if ((hi - lo) / 2 > x->precision * m)
			return false;
	}
	return true;
}

static void shuffle(struct place_experiment *x, size_t *order)
{
	for (size_t i = 0; i < x->narms; i++)
		order[i] = i;
	for (size_t i = x->narms; i > 1; i--) {
		size_t j = rng_below(&x->rng, i), t = order[i - 1];

		order[i - 1] = order[j], order[j] = t;
	}
}

/* A round cut short by a failure or a signal keeps none of its runs: a
 * round is one sample of every arm, or none. */
static void drop_partial_round(struct place_experiment *x)
{
	for (size_t i = 0; i < x->narms; i++)
		if (x->arm[i].n > x->rounds)
			x->arm[i].n = x->rounds;
}

/* Every round each arm once, in a new random order. */
static int rounds_run(struct place_experiment *x, struct err *e)
{
	struct command_run r = { 0 };
	size_t order[PLACE_MAX_ARMS];
	double t0 = monotonic_s();
	int rc;

	x->stopped_by = "runs";
	/* the unmoved program twice first: the output every run must match,
	 * and whether it is the same from run to run at all */
	rc = run_arm(x, &x->arm[0], &r, e);
	if (!rc)
		rc = run_arm(x, &x->arm[0], &r, e);
	x->arm[0].n = 0;
	while (!rc && x->rounds < x->runs) {
		shuffle(x, order);
		for (size_t i = 0; i < x->narms && !rc; i++)
			rc = run_arm(x, &x->arm[order[i]], &r, e);
		if (rc)
			break;
		x->rounds++;
		experiment_progress(x, t0);
		if (monotonic_s() - t0 > x->budget_s && x->rounds >= 2) {
			x->stopped_by = "time";
			break;
		}
		if (x->precision && x->rounds >= 5 && precise(x)) {
			x->stopped_by = "precision";
			break;
		}
	}
	if (isatty(2))
		fprintf(stderr, "\r\033[K");
	x->elapsed_s = monotonic_s() - t0;
	command_run_free(&r);
	return rc;
}

int experiment_run(struct place_experiment *x, struct err *e)
{
	int rc = x->replay ? replay_run(x, e) : rounds_run(x, e);

	if (interrupted)
		x->interrupted = interrupted, rc = 3;
	if (!x->replay)
		drop_partial_round(x);
	return rc;
}

/* ---- what they say ---- */

/* The cost model's ratio for the subject loop at each arm's offset, from one
 * back end of its bytes (what place holds its measurement against). */
/* The rules' verdict first, as the scan's: a loop they see no straddle
 * hazard in there (its loop buffer holds it) costs nothing there. */
static bool straddles(const struct place_arm *a)
{
	for (size_t i = 0; i < a->npredicted; i++)
		if (a->predicted[i].rule == RULE_LOOP_STRADDLES)
			return true;
	return false;
}

static void predict_costs(struct place_experiment *x)
{
	const struct reloc_func *f = x->subject;
	struct decoder *d = decoder_new(x->profile->arch);
	struct err e;

	if (!d || loop_back_end(x->llvm_mca, x->profile, d, f->code + (x->loop_start - f->addr),
				x->loop_end - x->loop_start, x->loop_start, &x->back_end, &e))
		x->back_end = (struct back_end){ 0 };
	decoder_free(d);
	for (size_t i = 0; i < x->narms; i++) {
		struct place_arm *a = &x->arm[i];
		uint64_t delta = placed_delta(x, a->offset);
		unsigned w;

		uint64_t bytes = x->loop_end - x->loop_start;

		if (a->kind != PLACE_OFFSET && a->kind != PLACE_CONTROL)
			continue;
		a->predicted_slowdown = straddles(a) ?
			cost_ratio_at(x->profile, x->loop_start + delta, bytes, &x->back_end, &w) : 1;
		a->predicted_slowdown = fmax(a->predicted_slowdown,
			cost_branch_ratio_at(x->profile, x->loop_start + delta, bytes, &x->back_end,
					     a->predicted, a->npredicted));
	}
}

/* The arms measured: every one, or under --replay the placements replayed. */
static bool measured(const struct place_experiment *x, const struct place_arm *a)
{
	return !x->replay || a->kind == PLACE_CONTROL || a->kind == PLACE_OFFSET;
}

void experiment_analyse(struct place_experiment *x)
{
	const double *v[PLACE_MAX_ARMS];
	struct placement_mark m[PLACE_MAX_ARMS];
	size_t idx[PLACE_MAX_ARMS], n = 0;

	if (x->replay)
		replay_fit(x);
	for (size_t i = 0; i < x->narms; i++) {
		struct place_arm *a = &x->arm[i];

		if (!measured(x, a))
			continue;
		stats_summarize(a->v, a->n, x->seed, !x->higher, &a->sum);
		if (x->subject && (a->kind == PLACE_OFFSET || a->kind == PLACE_CONTROL))
			experiment_predict(x, a->offset, a->predicted, &a->npredicted);
		idx[n] = i, v[n++] = a->v;
	}
	/* every arm ran once a round: each against the best of the even
	 * rounds, on the odd ones, its p adjusted for the arms tested */
	stats_placement_marks(v, n, x->rounds, x->higher, x->alpha, x->material, m);
	for (size_t k = 0; k < n; k++) {
		struct place_arm *a = &x->arm[idx[k]];

		a->mark = m[k];
		a->ratio = m[k].ratio, a->p = m[k].p, a->slow = m[k].slow;
	}
	if (x->subject)
		predict_costs(x);
}

double experiment_apply_median_us(const struct place_experiment *x)
{
	double *v = xcalloc(x->napply + 1, sizeof *v), m;

	if (x->napply)
		memcpy(v, x->apply_ns, x->napply * sizeof *v);
	m = x->napply ? stats_median_select(v, x->napply) / 1000 : 0;
	free(v);
	return m;
}

double experiment_apply_max_us(const struct place_experiment *x)
{
	double m = 0;

	for (size_t i = 0; i < x->napply; i++)
		m = x->apply_ns[i] > m ? x->apply_ns[i] : m;
	return m / 1000;
}

void experiment_free(struct place_experiment *x)
{
	for (size_t i = 0; i < x->narms; i++) {
		free(x->arm[i].v);
		if (x->arm[i].plan_fd >= 0)
			close(x->arm[i].plan_fd);
	}
	for (size_t i = 0; i < x->nrf; i++)
		free(x->place[i]);
	free(x->apply_ns);
	replay_free(x->replay);
	x->replay = NULL;
}

/* ---- what is moved, and the arms ---- */

/* The loop a single moved function is placed by: --loop's, else its only
 * innermost loop; none: its entry. */
static int choose_loop(struct place_experiment *x, struct reloc_file *rf,
		       const struct reloc_func *f, const char *loop_text, uint64_t want, struct err *e)
{
	struct reloc_loop *l;
	size_t n = reloc_loops(rf, f, &l), inner = 0, pick = SIZE_MAX;
	bool asked = loop_text != NULL;
	char a[20];

	for (size_t i = 0; i < n; i++) {
		if (asked && (l[i].start == want || l[i].header == want) && pick == SIZE_MAX)
			pick = i;
		if (!asked && l[i].innermost)
			inner++, pick = i;
	}
	if (!asked && inner != 1)
		pick = SIZE_MAX;
	if (asked && pick == SIZE_MAX) {
		err_set(e, "%s: no loop of %s starts there (it has %zu loop%s%s%s)", loop_text,
			f->name, n, n == 1 ? "" : "s", n ? ", the first at " : "",
			n ? hex_addr(a, l[0].start) : "");
		free(l);
		return -1;
	}
	x->loop_start = pick == SIZE_MAX ? f->addr : l[pick].start;
	x->loop_end = pick == SIZE_MAX ? f->addr + f->size : l[pick].end;
	free(l);
	return 0;
}

static void count_refused(const struct reloc_file *rf, bool verbose,
			  size_t refused[RELOC_NREFUSALS])
{
	for (size_t i = 0; i < rf->nfn; i++) {
		const struct reloc_func *f = &rf->fn[i];
		char a[20];

		refused[f->refused]++;
		if (f->refused && verbose)
			fprintf(stderr, "straddle: %s: %s not moved: %s (at %s)\n", rf->img.path,
				f->name, reloc_refusal_name(f->refused), hex_addr(a, f->refused_at));
	}
}

int experiment_choose(struct place_experiment *x, const char *file, const char *func,
		      const char *loop_text, bool verbose, size_t refused[RELOC_NREFUSALS],
		      struct err *e)
{
	uint64_t loop = 0;
	size_t total = 0;
	char a[20];

	if (loop_text) {
		char *end;

		loop = strtoull(loop_text, &end, 16);
		if (*end || end == loop_text)
			return err_set(e, "--loop: '%s' is not a hex address", loop_text);
		if (!reloc_choose_at(&x->rf[0], loop))
			return err_set(e, "%s: %s has no function there", loop_text, file);
		total = 1;
	}
	for (size_t i = 0; func && i < x->nrf; i++)
		total += reloc_choose(&x->rf[i], func);
	if (!total)
		return err_set(e, "%s: no function of %s matches", func, file);
	for (size_t i = 0; i < x->nrf; i++)
		count_refused(&x->rf[i], verbose, refused);
	if (total == 1) {
		struct reloc_file *rf = x->rf[0].nfn ? &x->rf[0] : NULL;

		for (size_t i = 0; !rf && i < x->nrf; i++)
			rf = x->rf[i].nfn ? &x->rf[i] : NULL;
		x->subject = &rf->fn[0];
		if (x->subject->refused)
			return err_set(e, "%s: cannot be moved: %s (at %s)", x->subject->name,
				       reloc_refusal_name(x->subject->refused),
				       hex_addr(a, x->subject->refused_at));
		if (choose_loop(x, rf, x->subject, loop_text, loop, e))
			return -1;
	}
	if (!refused[RELOC_OK])
		return err_set(e, "%s%snone of the %zu functions can be moved (--verbose says why)",
			       func ? func : "", func ? ": " : "", total);
	return 0;
}

/* An arm; -1 with "--offsets: why" in e. */
static int add_arm(struct place_experiment *x, enum place_arm_kind k, uint32_t offset,
		   const char *name, struct err *e)
{
	struct err why;

	if (experiment_add_arm(x, k, offset, name, &why))
		return err_set(e, "--offsets: %s", why.msg);
	return 0;
}

int experiment_arms(struct place_experiment *x, const char *offsets, struct err *e)
{
	char *spec = xstrdup(offsets), *save = NULL;
	uint32_t best = 0, worst = 0;
	int rc = 0;

	if (x->subject)
		experiment_best_and_worst(x, &best, &worst);
	add_arm(x, PLACE_UNMOVED, 0, "unmoved", e);
	add_arm(x, PLACE_CONTROL, x->current, "control", e);
	for (char *t = strtok_r(spec, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		unsigned long a, b, step = 1;
		int used = 0;
		char name[32];

		if (strcmp(t, "random") == 0)
			rc = add_arm(x, PLACE_RANDOM, 0, "random", e);
		else if (strcmp(t, "current") == 0)
			;
		else if ((strcmp(t, "best") == 0 || strcmp(t, "worst") == 0) && !x->subject) {
			rc = err_set(e, "--offsets: '%s' needs one loop: name one function or --loop", t);
		} else if (strcmp(t, "best") == 0 || strcmp(t, "worst") == 0) {
			snprintf(name, sizeof name, "%s", t);
			rc = add_arm(x, PLACE_OFFSET, *t == 'b' ? best : worst, name, e);
		} else if ((sscanf(t, "%lu..%lu:%lu%n", &a, &b, &step, &used) == 3 && !t[used]) ||
			   (sscanf(t, "%lu..%lu%n", &a, &b, &used) == 2 && !t[used]) ||
			   (sscanf(t, "%lu%n", &a, &used) == 1 && !t[used] && (b = a, 1))) {
			if (t[0] == '-' || b < a || b >= x->align || !step) {
				rc = err_set(e, "--offsets: '%s': need 0 <= A <= B < %u and STEP >= 1", t,
					     x->align);
			}
			for (unsigned long o = a; !rc && o <= b; o += step) {
				snprintf(name, sizeof name, "%lu", o);
				rc = add_arm(x, PLACE_OFFSET, (uint32_t)o, name, e);
			}
		} else {
			rc = err_set(e, "--offsets: '%s' is not A..B[:STEP], current, best, worst or "
				     "random", t);
		}
	}
	free(spec);
	return rc;
}

int experiment_run_arm(struct place_experiment *x, size_t i, struct command_run *r,
		       struct err *e)
{
	return run_arm(x, &x->arm[i], r, e);
}
