/* What libMicro's pread_z* and read_z* share (seed 000's two tables): a
 * buffer per size (1k = 1024 bytes, sizetoll's k), and 100k again with
 * libMicro's -w (a byte stored to each page after every call), read from /dev/zero in
 * 1 ms batches, sizes in a new random order every round, a short call an
 * error, counted; the details of the run. The files pread_zero.c and
 * read_zero.c say only how a batch calls and what comes before it. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const size_t zero_sizes[ZERO_NSIZES] = { 1024, 10 * 1024, 100 * 1024, 100 * 1024 };
static const bool zero_touches[ZERO_NSIZES] = { false, false, false, true };

void zero_touch(struct zero_var *z)
{
	long page = sysconf(_SC_PAGESIZE);

	for (size_t j = 0; j < z->size; j += (size_t)page)
		((volatile char *)z->buf)[j] = 0;
}

/* A page-aligned allocation with the buffer --align bytes into it: where the
 * buffer starts in its page moved pread_z100k by 4% on Zen 4, so it is chosen
 * and recorded, never left to malloc. */
static char *aligned_buffer(size_t size, unsigned align, char **buf)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size + align + page - 1) / page * page;
	char *mem = aligned_alloc(page, len);

	if (!mem)
		abort();
	memset(mem, 0, len);
	*buf = mem + align;
	return mem;
}

/* Short calls of the earlier runs (--runs), kept in their details. */
static json_int_t earlier_errors(json_t *prev, size_t i)
{
	json_t *sz = json_array_get(json_object_get(prev, "sizes"), i);

	return json_integer_value(json_object_get(sz, "errors"));
}

static json_t *details(const struct zero_kind *k, const struct zero_var *z,
		       const struct wl_timed *t, const struct clock *c, int cpu,
		       double seconds, json_t *prev)
{
	json_t *d = json_pack("{s:s, s:s, s:s, s:f, s:i, s:{s:s, s:f}, s:o}", "suite",
		k->suite, "call", k->call, "file", "/dev/zero", "seconds_per_size", seconds,
		"cpu", cpu, "clock", "source", c->source, "ns_per_tick", c->ns_per_tick,
		"sizes", json_array());
	json_t *arr = json_object_get(d, "sizes");

	for (size_t i = 0; i < ZERO_NSIZES; i++)
		json_array_append_new(arr, json_pack("{s:s, s:I, s:b, s:I, s:I, s:I}", "name",
			k->names[i], "bytes", (json_int_t)z[i].size, "store_each_page",
			z[i].touch_pages, "buffer_page_offset",
			(json_int_t)((uintptr_t)z[i].buf % (uintptr_t)sysconf(_SC_PAGESIZE)),
			"calls_per_sample", (json_int_t)t[i].iters,
			"errors", (json_int_t)(z[i].errors + earlier_errors(prev, i))));
	return d;
}

static void close_all(struct zero_var *z, size_t n, bool shared_fd)
{
	for (size_t i = 0; i < n; i++) {
		if (!shared_fd || i == 0)
			close(z[i].fd);
		free(z[i].mem);
	}
}

int zero_run(const struct zero_kind *k, const struct wl_options *o, struct wl_result *r,
	     struct err *e)
{
	struct zero_var z[ZERO_NSIZES];
	struct wl_timed t[ZERO_NSIZES];
	double seconds = wl_duration(o, k->workload);
	struct clock c;
	int cpu = -1, rc, fd = -1;

	wl_progress(o, k->progress);
	for (size_t i = 0; i < ZERO_NSIZES; i++) {
		if (!k->shared_fd || i == 0)
			fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			close_all(z, i, k->shared_fd);
			return err_set(e, "cannot open /dev/zero: %s", strerror(errno));
		}
		z[i] = (struct zero_var){ .fd = fd, .size = zero_sizes[i],
					  .touch_pages = zero_touches[i] };
		z[i].mem = aligned_buffer(zero_sizes[i], o->align, &z[i].buf);
		t[i] = (struct wl_timed){ k->batch, k->before, &z[i],
			wl_metric(r, k->workload->name, k->names[i], "ns", true), 0 };
	}
	rc = wl_measure_batches(t, ZERO_NSIZES, seconds, o, &c, &cpu, e);
	if (rc == 0) {
		json_t *d = details(k, z, t, &c, cpu, seconds, r->details);

		json_decref(r->details);
		r->details = d;
	}
	close_all(z, ZERO_NSIZES, k->shared_fd);
	return rc;
}
