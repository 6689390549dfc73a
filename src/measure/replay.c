/* place --replay: the loop measured by itself, from the program's own
 * state at its header, at every offset under test (relocate/replay.c
 * takes the snapshots and runs them; this runs the program, reads what
 * its runs said and fits it).
 *
 * A replay's ticks are its fixed cost (the exit's stub, the clock's
 * reads, a jump mispredicted to enter, first touches of the copy's lines)
 * plus the iterations' own: c = a + n b. Snapshots fall at random
 * iterations of the loop (the skip copy's countdown), so n varies and
 * Theil-Sen's line through (n, c) gives each copy's fixed cost a; what
 * is left, summed over a round of snapshots and divided by their
 * iterations, is the copy's cycles an iteration for that round. Every
 * copy replays the same snapshots, so the rounds pair the arms as place's
 * rounds of runs do, and its slow mark (stats_placement_marks) judges
 * them the same way. */
#include "replay.h"
#include "clock.h"
#include "command.h"

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* A snapshot every so much of the program's CPU time: at least this many
 * a run, more where the runs the time allows would not hold the snapshots
 * asked (zstd -19 of 4 MB, 6 s a run: 4 runs in prove's 25 s gave 125
 * snapshots of the 600 asked at 24 a run); a tick of at least 1 ms. */
#define SNAPSHOTS_A_RUN 24
#define TICK_MIN_NS 1000000.0
/* A replay this far off its copy's line (in its residuals' MADs) was
 * disturbed: counted, and outvoted in its round (take_round). */
#define DISTURBED_MADS 8
#define MAD_FLOOR 0.005
/* Rounds to make of the snapshots, at most, and the fewest snapshots a
 * round holds (its copies' medians outvote one slow child in three). */
#define ROUNDS_WANTED 20
#define ROUND_MIN 3
/* The fixed cost is told only when the iterations span this much. */
#define SPAN_FOR_FIXED 1.5

void replay_clock(struct replay_data *r)
{
	struct clock c;
	struct err e;

	r->clock_gettime = true;
#if defined(__x86_64__)
	unsigned a, b, cx, d;

	if (!__get_cpuid(0x80000001, &a, &b, &cx, &d) || !(d & (1u << 27))) {
		snprintf(r->clock_why, sizeof r->clock_why, "this CPU has no rdtscp");
		return;
	}
	if (clock_init(&c, &e)) {
		snprintf(r->clock_why, sizeof r->clock_why, "%s", e.msg);
		return;
	}
	r->ns_per_tick = c.ns_per_tick;
#ifdef STRADDLE_TEST_HOOKS
	if (test_hook("TRAPPED_TSC_NS"))
		c.resolution_ns = atof(test_hook("TRAPPED_TSC_NS"));
#endif
	/* a read the host intercepts takes a microsecond, a CPU's tens of
	 * nanoseconds: the smallest step between two reads shows it */
	if (c.resolution_ns > 100) {
		snprintf(r->clock_why, sizeof r->clock_why, "rdtsc traps here: a read takes %.0f ns "
			 "(measured)", c.resolution_ns);
		return;
	}
	r->clock_gettime = false;
#else
	(void)c, (void)e;
	snprintf(r->clock_why, sizeof r->clock_why, "replay times x86-64 code only");
#endif
}

/* ---- the runs' lines ---- */

static const char *const syscall_names[] = { [0] = "read", [1] = "write", [2] = "open",
	[3] = "close", [4] = "stat", [5] = "fstat", [7] = "poll", [8] = "lseek", [9] = "mmap",
	[10] = "mprotect", [11] = "munmap", [12] = "brk", [13] = "rt_sigaction",
	[14] = "rt_sigprocmask", [16] = "ioctl", [17] = "pread64", [18] = "pwrite64",
	[19] = "readv", [20] = "writev", [23] = "select", [24] = "sched_yield", [25] = "mremap",
	[28] = "madvise", [35] = "nanosleep", [39] = "getpid", [56] = "clone", [57] = "fork",
	[59] = "execve", [60] = "exit", [62] = "kill", [72] = "fcntl", [96] = "gettimeofday", [102] = "getuid", [104] = "getgid", [107] = "geteuid", [110] = "getppid",
	[186] = "gettid", [202] = "futex", [228] = "clock_gettime", [230] = "clock_nanosleep",
	[231] = "exit_group", [232] = "epoll_wait", [257] = "openat", [262] = "newfstatat",
	[270] = "pselect6", [271] = "ppoll", [281] = "epoll_pwait", [318] = "getrandom" };

const char *replay_syscall_name(unsigned nr)
{
	return nr < sizeof syscall_names / sizeof *syscall_names ? syscall_names[nr] : NULL;
}

static void add_snapshot(struct replay_data *r, const long long *v, size_t nv, uint32_t run)
{
	struct replay_snapshot *s;

	if (nv != 6 + r->ncopies)
		return;         /* a line cut short: not this plan's */
	GROW(r->s, r->cap, r->ns + 1);
	r->c = xrealloc(r->c, (r->cap + 1) * (r->ncopies + 1) * sizeof *r->c);
	s = &r->s[r->ns];
	*s = (struct replay_snapshot){ .iterations = (uint64_t)v[0], .run = run, .complete = true };
	r->n.trapped += v[5] != 0;
	r->n.overflow += v[3] != 0;
	for (size_t k = 0; k < r->ncopies; k++) {
		long long c = v[6 + k];

		r->c[r->ns * r->ncopies + k] = c;
		s->complete &= c >= 0;
		r->n.timed_late += c == -1, r->n.timed_diverged += c == -2;
		r->n.timed_signalled += c == -3, r->n.timed_filtered += c == -4;
	}
	r->ns++;
}

/* "replay PID SEQ WHAT ...": a snapshot, or why its probe failed. */
static void take_line(struct replay_data *r, const char *line, uint32_t run)
{
	long long v[PLACE_MAX_ARMS + 8];
	char what[16];
	size_t nv = 0;
	int used = 0;
	const char *p;

	if (sscanf(line, "replay %*d %*u %15s%n", what, &used) != 1)
		return;
	for (p = line + used; nv < sizeof v / sizeof *v; nv++) {
		char *end;

		v[nv] = strtoll(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	if (strcmp(what, "ok") == 0) {
		add_snapshot(r, v, nv, run);
	} else if (strcmp(what, "syscall") == 0 && nv >= 1 && !r->refused[0]) {
		const char *name = replay_syscall_name((unsigned)v[0]);

		snprintf(r->refused, sizeof r->refused, "the loop makes a system call (%s%s%lld), "
			 "which a replay cannot repeat without its side effects", name ? name : "",
			 name ? ", " : "number ", v[0]);
	} else if (strcmp(what, "shared") == 0 && nv >= 1 && !r->refused[0]) {
		snprintf(r->refused, sizeof r->refused, "the loop writes memory it shares with a file "
			 "or another process (at %#llx): a replay would write it too", v[0]);
	} else if (strcmp(what, "timeout") == 0) {
		r->n.probe_late++;
	} else if (strcmp(what, "killed") == 0) {
		r->n.probe_killed++;
	} else if (strcmp(what, "signal") == 0) {
		r->n.probe_signal++;
	}
}

void replay_take(struct replay_data *r, const char *report, uint32_t run)
{
	bool started = false;

	r->n.runs++;
	for (const char *p = report; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned a, f, s, c, w;

		if (strncmp(p, "replay ", 7) == 0)
			take_line(r, p, run);
		else if (strncmp(p, "replay-start ", 13) == 0)
			started = true;
		else if (strncmp(p, "replay-fork ", 12) == 0)
			r->n.forks++;
		else if (sscanf(p, "replay-end %*d %u %u %u %u %u", &a, &f, &s, &c, &w) == 5)
			r->n.arms += a, r->n.fired += f, r->n.children += c, r->n.reaped += w;
	}
	r->n.runs_started += started;
	/* the skip copy's range in the next run: the most a replay ran */
	for (size_t i = 0; i < r->ns; i++)
		r->iter_max = r->s[i].complete && r->s[i].iterations > r->iter_max ?
			      r->s[i].iterations : r->iter_max;
}

static size_t complete(const struct replay_data *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ns; i++)
		n += r->s[i].complete;
	return n;
}

/* ---- the runs ---- */

static struct place_arm *replay_arm(struct place_experiment *x)
{
	for (size_t i = 0; i < x->narms; i++)
		if (x->arm[i].kind == PLACE_REPLAY)
			return &x->arm[i];
	return NULL;
}

/* Snapshots to take a run of cpu_s: the snapshots asked over the runs
 * that fit the time left, at least SNAPSHOTS_A_RUN. */
static double snapshots_a_run(const struct place_experiment *x, double cpu_s)
{
	double runs = floor(x->budget_s / fmax(cpu_s, 1e-3));

	return fmax(SNAPSHOTS_A_RUN, ceil((double)x->replay->snapshots / fmax(runs, 1)));
}

/* The runs on one CPU, straddle's own (its affinity the runs inherit):
 * a replay's children are timed on the CPU their program trapped on,
 * and with the program free to move between the two CPUs of this
 * project's EMR guest one timed child in four ran 1.3-2x slow as a whole
 * (sha3's keccak loop: 28% of children, the copies' spread 3.4%; pinned
 * to either CPU, 5-6% and 0.4-0.7%, three runs). -1 when the CPU cannot
 * be told or kept: the runs go on unpinned (said). */
static int pin_runs(struct replay_data *rd, cpu_set_t *was)
{
	struct err e;

	if (sched_getaffinity(0, sizeof *was, was) == 0 && pin_to_current_cpu(&rd->cpu, &e) == 0)
		return 0;
	rd->cpu = -1;
	return -1;
}

int replay_run(struct place_experiment *x, struct err *e)
{
	struct replay_data *rd = x->replay;
	struct place_arm *ra = replay_arm(x);
	struct command_run r = { 0 };
	double t0 = monotonic_s();
	cpu_set_t was;
	bool pinned = pin_runs(rd, &was) == 0;
	int rc;

	x->stopped_by = "runs";
	rd->deadline_s = t0 + x->budget_s;
	/* the unmoved program twice first, as place's rounds do: the output
	 * every run must match, and the CPU time the snapshots spread over */
	rc = experiment_run_arm(x, 0, &r, e);
	if (!rc)
		rc = experiment_run_arm(x, 0, &r, e);
	x->arm[0].n = 0;
	rd->unmoved_s = r.wall_s;
	rd->tick_ns = fmax(TICK_MIN_NS, r.cpu_s * 1e9 / snapshots_a_run(x, r.cpu_s));
	while (!rc && rd->n.runs < x->runs && ra) {
		rc = experiment_run_arm(x, (size_t)(ra - x->arm), &r, e);
		if (rc)
			break;
		replay_take(rd, r.report, rd->n.runs);
		x->rounds = rd->n.runs;
		experiment_progress(x, t0);
		if (rd->refused[0]) {
			x->stopped_by = "refusal";
			break;
		}
		if (rd->n.runs >= 3 && !rd->ns && !rd->n.fired) {
			x->stopped_by = "no snapshot";       /* the loop is not reached */
			break;
		}
		if (complete(rd) >= rd->snapshots) {
			x->stopped_by = "snapshots";
			break;
		}
		if (monotonic_s() - t0 > x->budget_s) {
			x->stopped_by = "time";
			break;
		}
	}
	if (isatty(2))
		fprintf(stderr, "\r\033[K");
	x->elapsed_s = monotonic_s() - t0;
	if (pinned)
		sched_setaffinity(0, sizeof was, &was);
	command_run_free(&r);
	return rc;
}

/* ---- the fit ---- */

static double mad_of(const double *res, size_t n)
{
	double *a = xcalloc(n + 1, sizeof *a), m;

	for (size_t i = 0; i < n; i++)
		a[i] = fabs(res[i]);
	m = n ? stats_median_select(a, n) : 0;
	free(a);
	return m;
}

/* Each copy's line through its complete snapshots of `floor` iterations
 * or more; a snapshot one of whose replays lies far off its copy's line
 * (relative to the line: the noise of a long replay is larger) is marked
 * disturbed. */
static void fit_lines(struct replay_data *r, uint64_t floor)
{
	size_t K = r->ncopies, n = 0;
	double *x = xcalloc(r->ns + 1, sizeof *x), *y = xcalloc(r->ns + 1, sizeof *y);
	size_t *at = xcalloc(r->ns + 1, sizeof *at);
	uint64_t lo = UINT64_MAX, hi = 0;

	r->iter_min = UINT64_MAX, r->iter_max = 0;
	for (size_t i = 0; i < r->ns; i++) {
		uint64_t it = r->s[i].iterations;

		r->s[i].disturbed = false;
		if (!r->s[i].complete)
			continue;
		r->iter_min = it < r->iter_min ? it : r->iter_min;
		r->iter_max = it > r->iter_max ? it : r->iter_max;
		if (it < floor)
			continue;
		at[n] = i, x[n++] = (double)it;
		lo = it < lo ? it : lo, hi = it > hi ? it : hi;
	}
	r->fixed_known = n >= 4 && (double)hi >= SPAN_FOR_FIXED * (double)lo;
	for (size_t k = 0; k < K; k++) {
		double slope = 0, icpt = 0, mad;

		for (size_t j = 0; j < n; j++)
			y[j] = (double)r->c[at[j] * K + k];
		if (!r->fixed_known || !stats_theil_sen(x, y, n, &slope, &icpt))
			icpt = 0, slope = 0;
		r->fixed[k] = r->fixed_known ? fmax(0, icpt) : 0;
		if (!r->fixed_known)
			continue;
		for (size_t j = 0; j < n; j++)
			y[j] = y[j] / fmax(icpt + slope * x[j], 1) - 1;
		mad = fmax(mad_of(y, n), MAD_FLOOR);
		for (size_t j = 0; j < n; j++)
			if (fabs(y[j]) > DISTURBED_MADS * mad)
				r->s[at[j]].disturbed = true;
	}
	free(x), free(y), free(at);
}

/* The median of the complete replays' iterations: the fewest the fit
 * and the rounds take. A replay's first iterations are not the loop's
 * steady state: seed 000's store loop at 0 of its line (512 iterations a
 * call), replayed from a random one of them, ran 0.86-0.89 TSC cycles an
 * iteration by the slope over all its replays and 0.77-0.78 by the slope
 * over those of 192 or more (the sweep's floor: 0.82). Fitted over all,
 * its ratio across the line came out 1.75-1.78x in three runs; over the
 * longer half, their own line fitted, 1.916x and 1.919x, the sweep of the
 * same bytes 1.919x in the same hour (the program's time: 1.97x). */
static uint64_t longer_half(const struct replay_data *r)
{
	double *v = xcalloc(r->ns + 1, sizeof *v), m;
	size_t n = 0;

	for (size_t i = 0; i < r->ns; i++)
		if (r->s[i].complete)
			v[n++] = (double)r->s[i].iterations;
	m = n ? stats_median_select(v, n) : 0;
	free(v);
	return (uint64_t)ceil(m);
}

/* Round `round`'s samples from snapshots use[from..to): each copy's
 * cycles an iteration, and each arm's, its copies' geometric mean. A
 * child of a replay can run slow as a whole (sha3's keccak loop on this
 * project's EMR guest: one child in six at 1.3-2x, each of its timed
 * replays alike: the host's, not the loop's), so a copy's round is not
 * its replays' sum: each replay is taken over its snapshot's median copy
 * (the snapshot's own cost out), the copy's round is the median of those
 * over the round times the round's median copy's cycles an iteration. A
 * slow child is outvoted, and no snapshot is lost with it. false when a
 * fixed cost all but fills a replay (no ratio). */
static bool take_round(struct place_experiment *x, const size_t *use, size_t from, size_t to,
		       size_t round)
{
	struct replay_data *r = x->replay;
	size_t K = r->ncopies, n = to - from;
	double *q = xcalloc(K * n + 1, sizeof *q), *c = xcalloc(K + 1, sizeof *c), rate = 0, iters = 0;
	double logs[PLACE_MAX_ARMS] = { 0 };
	unsigned na[PLACE_MAX_ARMS] = { 0 };
	bool ok = true;

	for (size_t j = 0; j < n; j++) {
		size_t i = use[from + j];
		double m;

		for (size_t k = 0; k < K; k++)
			c[k] = q[k * n + j] = (double)r->c[i * K + k] - r->fixed[k];
		m = stats_median_select(c, K);          /* reorders c, not q */
		ok &= m > 0;
		for (size_t k = 0; k < K && ok; k++)
			q[k * n + j] /= m;
		rate += m, iters += (double)r->s[i].iterations;
	}
	for (size_t k = 0; k < K && ok; k++) {
		double v = stats_median_select(q + k * n, n) * rate / iters;

		ok &= v > 0;
		r->copy_v[k * r->copy_stride + round] = v;
		if (ok)
			logs[r->arm[k]] += log(v), na[r->arm[k]]++;
	}
	for (size_t i = 0; i < x->narms && ok; i++) {
		struct place_arm *a = &x->arm[i];

		if (!na[i])
			continue;
		GROW(a->v, a->cap, a->n + 1);
		a->v[a->n++] = exp(logs[i] / na[i]);
	}
	free(q), free(c);
	return ok;
}

size_t replay_arm_copies(const struct replay_data *r, size_t arm, const double **rows)
{
	size_t n = 0;

	for (size_t k = 0; k < r->ncopies && r->copy_v; k++)
		if (r->arm[k] == arm)
			rows[n++] = r->copy_v + k * r->copy_stride;
	return n;
}

void replay_spread(const struct place_experiment *x, bool odd, struct copies_spread *s)
{
	const double *rows[PLACE_MAX_ARMS];
	struct copies arm[PLACE_MAX_ARMS];
	size_t na = 0, at = 0;

	for (size_t i = 0; i < x->narms; i++) {
		size_t k = replay_arm_copies(x->replay, i, rows + at);

		if (k)
			arm[na++] = (struct copies){ rows + at, k }, at += k;
	}
	s->var = stats_copies_variance(arm, na, x->rounds, odd, &s->df);
}

void replay_ratio(const struct place_experiment *x, const struct place_arm *a,
		  const struct place_arm *b, bool odd, struct paired *out)
{
	const double *ra[PLACE_MAX_ARMS], *rb[PLACE_MAX_ARMS];
	struct copies ca = { ra, replay_arm_copies(x->replay, (size_t)(a - x->arm), ra) };
	struct copies cb = { rb, replay_arm_copies(x->replay, (size_t)(b - x->arm), rb) };
	struct copies_spread s;
	size_t n = a->n < b->n ? a->n : b->n;

	if (x->replay->copies < 2) {
		if (odd)
			stats_paired_ratio_odd(a->v, b->v, n, x->alpha, out);
		else
			stats_paired_ratio(a->v, b->v, n, x->alpha, out);
		return;
	}
	replay_spread(x, odd, &s);
	stats_copies_ratio(&ca, &cb, x->rounds, odd, &s, x->alpha, out);
}

/* The arms' samples: rounds of consecutive snapshots holding about as
 * many iterations each (a round of short replays would be noisier than
 * one of long ones), every copy's ticks less its fixed cost over them. */
void replay_fit(struct place_experiment *x)
{
	struct replay_data *r = x->replay;
	size_t K = r->ncopies, *use = xcalloc(r->ns + 1, sizeof *use), rounds = 0, from = 0;
	double total = 0, iters = 0;

	/* the longer half, where its iterations vary enough for a line;
	 * else every complete replay */
	r->iter_floor = longer_half(r);
	fit_lines(r, r->iter_floor);
	if (!r->fixed_known && r->iter_floor)
		fit_lines(r, r->iter_floor = 0);
	r->used = 0;
	for (size_t i = 0; i < r->ns; i++)
		if (r->s[i].complete && r->s[i].iterations >= r->iter_floor) {
			use[r->used++] = i;
			total += (double)r->s[i].iterations;
		}
	for (size_t k = 0; k < K; k++)
		x->arm[r->arm[k]].n = 0;
	free(r->copy_v);
	r->copy_stride = r->used + 1;
	r->copy_v = xcalloc(K * r->copy_stride, sizeof *r->copy_v);
	r->per_round = 0;
	for (size_t q = 0; q < r->used; q++) {
		iters += (double)r->s[use[q]].iterations;
		if ((iters < total / ROUNDS_WANTED || q + 1 - from < ROUND_MIN) && q + 1 < r->used)
			continue;
		/* the last snapshots too few for a round of their own: the one before's */
		if (r->used - (q + 1) < ROUND_MIN && q + 1 < r->used)
			continue;
		rounds += take_round(x, use, from, q + 1, rounds);
		r->per_round = q + 1 - from > r->per_round ? q + 1 - from : r->per_round;
		from = q + 1, iters = 0;
	}
	x->rounds = (unsigned)rounds;
	free(use);
}

void replay_free(struct replay_data *r)
{
	if (!r)
		return;
	free(r->s), free(r->c), free(r->copy_v);
	free(r);
}
