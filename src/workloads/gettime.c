/* gettime: the timens selftests' gettime_perf and gettime_perf_cold (seed
 * 003: the vDSO functions lost their 64-byte alignment and cold
 * clock_gettime got 88% slower). The function is the vDSO's own, found as
 * gettime_perf finds it: dlopen("linux-vdso.so.1", RTLD_NOLOAD) and
 * dlsym("__vdso_clock_gettime") (AArch64: "__kernel_clock_gettime").
 *  hot:  MONOTONIC, REALTIME and BOOTTIME called back to back, ns per call
 *        (gettime_perf counts calls in 3 s; a time per call is the same
 *        figure upside down and fits the batch timing of pread-zero);
 *  cold: x86 only. Before each call every 64-byte line of the vDSO, and of
 *        the vvar pages that can be read, is flushed with clflush; then one
 *        call between two rdtscp reads, in TSC ticks, 10,000 times per clock
 *        as gettime_perf_cold does (or fewer when the time is up). */
#include "workloads.h"
#include "../stats/stats.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define COLD_CALLS 10000                /* gettime_perf_cold: 10K iterations */

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static const struct { const char *name; clockid_t id; } clocks[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "realtime", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
};
#define NCLOCKS (sizeof clocks / sizeof clocks[0])

#if defined(__aarch64__)
#define VDSO_SYM "__kernel_clock_gettime"
#else
#define VDSO_SYM "__vdso_clock_gettime"
#endif

static gettime_fn find_vdso(const char **name)
{
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
	void *f = h ? dlsym(h, VDSO_SYM) : NULL;

	if (f) {
		*name = VDSO_SYM;
		return (gettime_fn)f;
	}
	*name = "clock_gettime (the C library's: no " VDSO_SYM " in a vDSO)";
	return clock_gettime;
}

struct hot_var {
	gettime_fn fn;
	clockid_t id;
	struct timespec ts;
};

static void hot_batch(void *ctx, uint64_t n)
{
	struct hot_var *h = ctx;

	for (uint64_t i = 0; i < n; i++)
		h->fn(h->id, &h->ts);
}

static int hot(gettime_fn fn, const struct wl_options *o, double seconds,
	       struct wl_result *r, json_t *d, struct err *e)
{
	struct hot_var h[NCLOCKS];
	struct wl_timed t[NCLOCKS];
	json_t *calls = json_object();
	struct clock c;
	int cpu;

	wl_progress(o, "gettime: hot");
	for (size_t i = 0; i < NCLOCKS; i++) {
		char name[64];

		snprintf(name, sizeof name, "gettime.hot.%s", clocks[i].name);
		h[i] = (struct hot_var){ fn, clocks[i].id, { 0, 0 } };
		t[i] = (struct wl_timed){ hot_batch, NULL, &h[i],
			wl_metric(r, "gettime", name, "ns", true), 0 };
	}
	if (wl_measure_batches(t, NCLOCKS, seconds, o, &c, &cpu, e)) {
		json_decref(calls);
		return -1;
	}
	for (size_t i = 0; i < NCLOCKS; i++)
		json_object_set_new(calls, clocks[i].name, json_integer((json_int_t)t[i].iters));
	json_object_set_new(d, "hot_calls_per_sample", calls);
	json_object_set_new(d, "hot_cpu", json_integer(cpu));
	json_object_set_new(d, "clock", json_pack("{s:s, s:f}", "source", c.source,
						  "ns_per_tick", c.ns_per_tick));
	return 0;
}

#if defined(__x86_64__)

/* The lines to flush: [lo, hi) ranges, 64-byte aligned. */
struct lines {
	uintptr_t lo[16], hi[16];
	size_t n;
};

/* Whether the kernel can read a page of ours: a write(2) from it to a pipe
 * fails with EFAULT where a load would take SIGBUS (a vvar page with no
 * clock behind it). */
static bool page_readable(int pipefd[2], uintptr_t page)
{
	char sink[1];
	bool ok = write(pipefd[1], (const void *)page, 1) == 1;

	if (ok)
		(void)!read(pipefd[0], sink, 1);
	return ok;
}

static void add_range(struct lines *l, uintptr_t lo, uintptr_t hi)
{
	if (l->n && l->hi[l->n - 1] == lo) {
		l->hi[l->n - 1] = hi;
		return;
	}
	if (l->n < 16) {
		l->lo[l->n] = lo;
		l->hi[l->n++] = hi;
	}
}

static json_t *map_json(const char *name, uintptr_t lo, uintptr_t hi, size_t readable)
{
	char a[20];

	return json_pack("{s:s, s:s, s:I, s:I, s:I}", "name", name, "address", hex_addr(a, lo),
			 "bytes", (json_int_t)(hi - lo), "pages", (json_int_t)((hi - lo) / 4096),
			 "readable_pages", (json_int_t)readable);
}

/* [vdso] whole; [vvar] and [vvar_vclock] page by page where readable. */
static void add_mapping(struct lines *l, const char *name, uintptr_t lo, uintptr_t hi,
			int pipefd[2], json_t *maps)
{
	size_t readable = 0;

	for (uintptr_t p = lo; p < hi; p += 4096) {
		if (strncmp(name, "[vvar", 5) == 0 && !page_readable(pipefd, p))
			continue;
		add_range(l, p, p + 4096);
		readable++;
	}
	json_array_append_new(maps, map_json(name, lo, hi, readable));
}

static int find_lines(struct lines *l, json_t *maps, struct err *e)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], name[64];
	int pipefd[2];
	bool vdso = false;

	if (!f)
		return err_set(e, "cannot read /proc/self/maps: %s", strerror(errno));
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		fclose(f);
		return err_set(e, "cannot make a pipe: %s", strerror(errno));
	}
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %63s", &lo, &hi, name) != 3)
			continue;
		/* [anon:straddle-vdso]: a vDSO function moved there (place
		 * --file vdso), cold like the rest of the vDSO's code */
		if (strcmp(name, "[vdso]") == 0 || strncmp(name, "[vvar", 5) == 0 ||
		    strcmp(name, "[anon:straddle-vdso]") == 0)
			add_mapping(l, name, lo, hi, pipefd, maps);
		vdso |= strcmp(name, "[vdso]") == 0 && lo == getauxval(AT_SYSINFO_EHDR);
	}
	fclose(f);
	close(pipefd[0]);
	close(pipefd[1]);
	if (!vdso)
		return err_set(e, "no [vdso] at AT_SYSINFO_EHDR in /proc/self/maps");
	return 0;
}

static void flush(const struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		for (uintptr_t p = l->lo[i]; p < l->hi[i]; p += 64)
			_mm_clflush((const void *)p);
	_mm_mfence();
}

static uint64_t cold_call(gettime_fn fn, clockid_t id, const struct lines *l)
{
	struct timespec ts;
	uint64_t t0, t1;

	flush(l);
	t0 = clock_ticks();
	fn(id, &ts);
	t1 = clock_ticks();
	return t1 - t0;
}

static size_t count_lines(const struct lines *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += (l->hi[i] - l->lo[i]) / 64;
	return n;
}

/* The clocks in a new random order every round: the first call after the
 * loop's own bookkeeping must not always be the same clock's. */
static void cold_rounds(gettime_fn fn, const struct lines *l, const struct wl_options *o,
			double seconds, struct wl_metric **m, const struct clock *c)
{
	uint64_t start = clock_ticks(), rng = 1;
	size_t order[NCLOCKS] = { 0, 1, 2 };
	unsigned k;

	for (k = 0; k < COLD_CALLS && !wl_stopped(o); k++) {
		for (size_t i = NCLOCKS; i > 1; i--) {
			size_t j = rng_below(&rng, i), t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		for (size_t i = 0; i < NCLOCKS; i++)
			wl_sample(m[order[i]], (double)cold_call(fn, clocks[order[i]].id, l));
		if ((double)(clock_ticks() - start) * c->ns_per_tick > seconds * 1e9 * NCLOCKS)
			break;
	}
}

static int cold(gettime_fn fn, const struct wl_options *o, double seconds,
		struct wl_result *r, json_t *d, struct err *e)
{
	struct lines l = { .n = 0 };
	struct wl_metric *m[NCLOCKS];
	json_t *maps = json_array();
	struct clock c;
	cpu_set_t saved;
	int cpu;
	size_t before;

	wl_progress(o, "gettime: cold");
	json_object_set_new(d, "mappings", maps);
	if (find_lines(&l, maps, e) || clock_init(&c, e) || wl_pin(&saved, &cpu, e))
		return -1;
	for (size_t i = 0; i < NCLOCKS; i++) {
		char name[64];

		snprintf(name, sizeof name, "gettime.cold.%s", clocks[i].name);
		m[i] = wl_metric(r, "gettime", name, "ticks", true);
		m[i]->want_mode = true;
	}
	before = m[0]->n;
	cold_rounds(fn, &l, o, seconds, m, &c);
	wl_unpin(&saved);
	if (wl_stopped(o))
		return err_set(e, "interrupted");
	json_object_set_new(d, "cold", json_string("clflush of every 64 B line, then one call"
						    " between lfence;rdtscp reads"));
	json_object_set_new(d, "cold_lines_flushed", json_integer((json_int_t)count_lines(&l)));
	json_object_set_new(d, "cold_calls_per_clock", json_integer((json_int_t)(m[0]->n - before)));
	json_object_set_new(d, "cold_cpu", json_integer(cpu));
	return 0;
}

#else

static int cold(gettime_fn fn, const struct wl_options *o, double seconds,
		struct wl_result *r, json_t *d, struct err *e)
{
	json_object_set_new(d, "cold", json_string("not supported on this architecture: the "
						    "vDSO is flushed with x86's clflush"));
	return 0;
}

#endif

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	const char *fname;
	gettime_fn fn = find_vdso(&fname);
	double seconds = wl_duration(o, &wl_gettime);
	json_t *d = json_pack("{s:s, s:s, s:f}", "suite",
		"timens selftests gettime_perf.c, gettime_perf_cold.c", "function", fname,
		"seconds_per_clock", seconds);

	if (hot(fn, o, seconds, r, d, e) || cold(fn, o, seconds, r, d, e)) {
		json_decref(d);
		return -1;
	}
	json_decref(r->details);
	r->details = d;
	return 0;
}

const struct workload wl_gettime = {
	"gettime", "vDSO clock_gettime: hot in ns, cold in TSC ticks (x86) (seed 003)",
	1.0, run,
};
