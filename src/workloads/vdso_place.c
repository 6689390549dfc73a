/* place --file vdso: seed 003 on this machine's kernel. A function of
 * this process's vDSO moved to chosen offsets of a line
 * (measure/vdso_move.c), and bench's gettime, hot and cold, run against
 * each placement: every round runs each arm once in a new random order,
 * and every arm's clock_gettime is checked against the system call's. */
#include "workloads.h"
#include "../measure/vdso_move.h"
#include "../stats/stats.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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
static int run_arm(struct vdso_move *m, struct vdso_arm *a, double seconds, struct err *e)
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

int vdso_place_rounds(struct vdso_move *m, struct vdso_arm *a, size_t n, unsigned runs,
		      double seconds, uint64_t seed, struct err *e)
{
	uint64_t rng = seed ? seed : 1;
	size_t *order = xcalloc(n, sizeof *order);

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (unsigned r = 0; r < runs; r++) {
		for (size_t i = n; i > 1; i--) {
			size_t j = rng_below(&rng, i), t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\rround %u of %u", r + 1, runs);
		for (size_t i = 0; i < n; i++)
			if (run_arm(m, &a[order[i]], seconds, e)) {
				free(order);
				return -1;
			}
	}
	free(order);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\n");
	return vdso_move_back(m, e);
}

