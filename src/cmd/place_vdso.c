/* straddle place --file vdso [--func NAME]: seed 003 on this machine's
 * kernel. A function of this process's vDSO (default __vdso_clock_gettime)
 * moved to chosen offsets of a line (measure/vdso_move.c), and bench's
 * gettime, hot and cold, run against each placement: every round runs
 * each arm once in a new random order (the vDSO unmoved, the control: a
 * copy at the function's own offset, reached through the same entry jump,
 * and each offset), and each arm is held against the control round by
 * round. Every arm's clock_gettime is checked against the system call's. */
#include "cmd.h"
#include "../measure/vdso_move.h"
#include "../stats/stats.h"
#include "../workloads/workloads.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARMS 66

struct vdso_cmd {
	const char *file, *func, *offsets;
	unsigned runs;
	double seconds;
	uint64_t seed;
};

struct arm {
	char name[16];
	int offset;                     /* -1: the vDSO unmoved */
	double hot[64], cold[64];       /* a run's median each round: ns, TSC ticks */
	size_t n;
	bool intact;
};

static int cmd_place_vdso(int argc, char **argv);

#define F(field) offsetof(struct vdso_cmd, field)

static const struct cmd_option vdso_options[] = {
	{ .name = "file", .value = "vdso", .kind = OPT_STRING, .field = F(file),
	  .help = "vdso: this process's vDSO" },
	{ .name = "func", .value = "NAME", .kind = OPT_STRING, .field = F(func),
	  .help = "the vDSO function to move (default __vdso_clock_gettime)" },
	{ .name = "offsets", .value = "LIST", .kind = OPT_STRING, .field = F(offsets),
	  .help = "its entry's offsets of a line: N or A..B[:STEP], comma\n"
		  "separated (default 0..48:16)" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(runs), .min = 2, .max = 64,
	  .help = "rounds, every arm once each (default 8)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(seconds),
	  .help = "gettime's seconds a clock, hot and cold, an arm a round\n(default 0.2)" },
	{ .name = "seed", .value = "N", .kind = OPT_U64, .field = F(seed), .max = ULONG_MAX,
	  .help = "seed of the random order (default 1)" },
	{ 0 }
};

static const struct command vdso_command = {
	.name = "place",
	.run = cmd_place_vdso,
	.summary = "move a vDSO function in this process and measure bench gettime",
	.args = "--file vdso [--func NAME] [--offsets LIST] [--runs N] [--time S]",
	.about = "Seed 003 on this kernel: the vDSO function is copied near the vDSO with its\n"
		 "fix-ups (relocate/), and its entry becomes a jump to the copy, written through\n"
		 "/proc/self/mem (the kernel refuses mprotect of [vdso]; the page becomes this\n"
		 "process's own copy, as under a debugger). Each round runs bench's gettime, hot\n"
		 "(ns a call) and cold (TSC ticks a call after every line of the vDSO, the\n"
		 "vvar pages and the copy is flushed), for each arm in a new random order: the\n"
		 "vDSO unmoved, the control (a copy at the function's own offset of a line,\n"
		 "behind the same jump) and each offset; each is held against the control\n"
		 "round by round (the geometric mean of the rounds' ratios, its 95% CI). Every\n"
		 "arm's CLOCK_MONOTONIC and CLOCK_REALTIME are checked to lie between two\n"
		 "system calls'. The vDSO's bytes are put back before it ends.\n",
	.options = vdso_options,
	.notes = "Exit status: 0 done, 1 a placement's clock_gettime disagreed with the system\n"
		 "call's, 2 bad usage or a function that cannot be moved.\n",
};

bool place_vdso_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--file=vdso") ||
		    (!strcmp(argv[i], "--file") && i + 1 < argc && !strcmp(argv[i + 1], "vdso")))
			return true;
	return false;
}

int place_vdso(int argc, char **argv)
{
	return cmd_place_vdso(argc, argv);
}

/* "0..48:16,60": the arms after the unmoved vDSO and the control. */
static int parse_arms(const char *spec, struct arm *a, size_t *n)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof buf, "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned lo, hi, step = 1;
		char tail;
		int k = sscanf(tok, "%u..%u:%u%c", &lo, &hi, &step, &tail);

		if (k == 1 && strchr(tok, '.') == NULL && sscanf(tok, "%u%c", &lo, &tail) == 1)
			hi = lo;
		else if (k != 2 && k != 3)
			goto bad;
		if (lo > hi || hi > 63 || !step)
			goto bad;
		for (unsigned o = lo; o <= hi; o += step) {
			if (*n == MAX_ARMS)
				goto bad;
			a[*n] = (struct arm){ .offset = (int)o };
			snprintf(a[*n].name, sizeof a[*n].name, "%u", o);
			(*n)++;
		}
	}
	return 0;
bad:
	complain("--offsets", "'%s' is not a list of N or A..B[:STEP] within 0..63", spec);
	return -1;
}

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The vDSO's clock_gettime (what bench's gettime calls, through the
 * moved function when it is that one) lies between two system calls, for
 * the clocks that do not stand still (MONOTONIC, REALTIME). */
static bool intact(void)
{
	static const clockid_t ids[] = { CLOCK_MONOTONIC, CLOCK_REALTIME };
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
	gettime_fn fn = h ? (gettime_fn)dlsym(h, "__vdso_clock_gettime") : NULL;

	if (!fn)
		return false;

	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		struct timespec a, v, b;

		if (syscall(SYS_clock_gettime, ids[i], &a) || fn(ids[i], &v) ||
		    syscall(SYS_clock_gettime, ids[i], &b) || ns_of(&v) < ns_of(&a) ||
		    ns_of(&v) > ns_of(&b))
			return false;
	}
	return true;
}

static double median_of(const struct wl_result *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->m[i]->name, name) && r->m[i]->n) {
			double *v = xmalloc(r->m[i]->n * sizeof *v), x;

			memcpy(v, r->m[i]->samples, r->m[i]->n * sizeof *v);
			x = stats_median_select(v, r->m[i]->n);
			free(v);
			return x;
		}
	return 0;
}

/* One arm once: placed (or put back), checked, and gettime run on it. */
static int run_arm(struct vdso_move *m, struct arm *a, double seconds, struct err *e)
{
	const struct workload *w = workload_named("gettime");
	struct wl_options o = { .duration_s = seconds };
	struct wl_result r = { 0 };
	int rc = a->offset < 0 ? vdso_move_back(m, e) : vdso_move_to(m, (uint32_t)a->offset, e);

	if (rc)
		return -1;
	a->intact = (a->n ? a->intact : true) && intact();
	if (w->run(&o, &r, e)) {
		wl_result_free(&r);
		return -1;
	}
	a->hot[a->n] = median_of(&r, "gettime.hot.monotonic");
	a->cold[a->n] = median_of(&r, "gettime.cold.monotonic");
	a->n++;
	wl_result_free(&r);
	return 0;
}

static int rounds(const struct vdso_cmd *c, struct vdso_move *m, struct arm *a, size_t n,
		  struct err *e)
{
	uint64_t rng = c->seed ? c->seed : 1;
	size_t order[MAX_ARMS + 2];

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (unsigned r = 0; r < c->runs; r++) {
		for (size_t i = n; i > 1; i--) {
			size_t j = rng_below(&rng, i), t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\rround %u of %u", r + 1, c->runs);
		for (size_t i = 0; i < n; i++)
			if (run_arm(m, &a[order[i]], c->seconds, e))
				return -1;
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\n");
	return vdso_move_back(m, e);
}

static void print_vs(const double *control, const double *v, size_t n)
{
	struct paired p;

	stats_paired_ratio(control, v, n, 0.05, &p);
	printf("  %+6.1f%% [%+.1f, %+.1f]", 100 * (p.ratio - 1), 100 * (p.lo - 1), 100 * (p.hi - 1));
}

static void print_table(const struct vdso_move *m, const struct arm *a, size_t n)
{
	uint32_t own = (uint32_t)((m->base + m->f->addr) % 64);
	double hot[64], cold[64];

	printf("[vdso] %s: %llu bytes at +%#llx, its entry at %u of a line; moved by a jump at "
	       "its entry written through /proc/self/mem\n", m->f->name,
	       (unsigned long long)m->f->size, (unsigned long long)m->f->addr, own);
	printf("arm       entry@64  hot ns  vs control                cold ticks  vs control"
	       "                clock_gettime\n");
	for (size_t i = 0; i < n; i++) {
		memcpy(hot, a[i].hot, a[i].n * sizeof *hot);
		memcpy(cold, a[i].cold, a[i].n * sizeof *cold);
		printf("%-8s  %8u  %6.1f", a[i].name, a[i].offset < 0 ? own : (uint32_t)a[i].offset,
		       stats_median_select(hot, a[i].n));
		print_vs(a[1].hot, a[i].hot, a[i].n);
		printf("  %10.0f", stats_median_select(cold, a[i].n));
		print_vs(a[1].cold, a[i].cold, a[i].n);
		printf("  %s\n", a[i].intact ? "intact" : "WRONG");
	}
}

static int cmd_place_vdso(int argc, char **argv)
{
	struct vdso_cmd c = { .func = "__vdso_clock_gettime", .offsets = "0..48:16", .runs = 8,
			      .seconds = 0.2, .seed = 1 };
	struct arm *a = xcalloc(MAX_ARMS + 2, sizeof *a);
	struct vdso_move m = { .mem = -1 };
	struct err e = { "" };
	size_t n = 2;
	int rc = EXIT_USAGE;

	if (parse_command_line(&vdso_command, &c, argc, argv))
		goto out;
	if (optind < argc || !c.file || strcmp(c.file, "vdso")) {
		complain("place", "--file vdso moves a function of straddle's own vDSO and runs "
			 "bench's gettime: no command, no other --file");
		goto out;
	}
	if (parse_arms(c.offsets, a, &n))
		goto out;
	if (vdso_move_open(&m, c.func, &e)) {
		complain("place", "%s", e.msg);
		goto out;
	}
	a[0] = (struct arm){ .name = "unmoved", .offset = -1 };
	a[1] = (struct arm){ .name = "control", .offset = (int)((m.base + m.f->addr) % 64) };
	if (rounds(&c, &m, a, n, &e)) {
		complain("place", "%s", e.msg);
		goto out;
	}
	print_table(&m, a, n);
	rc = EXIT_OK;
	for (size_t i = 0; i < n; i++)
		if (!a[i].intact)
			rc = EXIT_GATE;
out:
	vdso_move_close(&m);
	free(a);
	return rc;
}
