/* pread-zero: libMicro's pread_z1k, pread_z10k and pread_z100k (seed 000:
 * the __clear_user loop that straddled a line cost Zen 1 40% here). As
 * libMicro's pread.c: one fd on /dev/zero opened once per run, a malloc'd
 * buffer of the size (1k = 1024 bytes, sizetoll's k), and the batch is
 * pread(fd, buf, size, 0) again and again; a call that returns less than
 * the size is an error, counted. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct zero_var {
	int fd;
	char *buf;
	size_t size;
	uint64_t errors;
};

static const struct { const char *name; size_t size; } sizes[] = {
	{ "pread_z1k", 1024 }, { "pread_z10k", 10 * 1024 }, { "pread_z100k", 100 * 1024 },
};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void pread_batch(void *ctx, uint64_t n)
{
	struct zero_var *z = ctx;

	for (uint64_t i = 0; i < n; i++)
		if (pread(z->fd, z->buf, z->size, 0) != (ssize_t)z->size)
			z->errors++;
}

/* Short calls of the earlier runs (--runs), kept in their details. */
static json_int_t earlier_errors(json_t *prev, size_t i)
{
	json_t *sz = json_array_get(json_object_get(prev, "sizes"), i);

	return json_integer_value(json_object_get(sz, "errors"));
}

static json_t *details(const struct zero_var *z, const struct wl_timed *t,
		       const struct clock *c, int cpu, double seconds, json_t *prev)
{
	json_t *d = json_pack("{s:s, s:s, s:s, s:f, s:i, s:{s:s, s:f}, s:o}", "suite",
		"libMicro pread.c", "call", "pread(fd, buf, size, 0)", "file", "/dev/zero",
		"seconds_per_size", seconds, "cpu", cpu, "clock", "source", c->source,
		"ns_per_tick", c->ns_per_tick, "sizes", json_array());
	json_t *arr = json_object_get(d, "sizes");

	for (size_t i = 0; i < NSIZES; i++)
		json_array_append_new(arr, json_pack("{s:s, s:I, s:I, s:I}", "name", sizes[i].name,
			"bytes", (json_int_t)z[i].size, "calls_per_sample", (json_int_t)t[i].iters,
			"errors", (json_int_t)(z[i].errors + earlier_errors(prev, i))));
	return d;
}

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	struct zero_var z[NSIZES];
	struct wl_timed t[NSIZES];
	double seconds = wl_duration(o, &wl_pread_zero);
	struct clock c;
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC), cpu = -1, rc;

	if (fd < 0)
		return err_set(e, "cannot open /dev/zero: %s", strerror(errno));
	wl_progress(o, "pread-zero: pread_z1k, pread_z10k, pread_z100k");
	for (size_t i = 0; i < NSIZES; i++) {
		z[i] = (struct zero_var){ fd, xmalloc(sizes[i].size), sizes[i].size, 0 };
		t[i] = (struct wl_timed){ pread_batch, NULL, &z[i],
			wl_metric(r, "pread-zero", sizes[i].name, "ns", true), 0 };
	}
	rc = wl_measure_batches(t, NSIZES, seconds, o, &c, &cpu, e);
	if (rc == 0) {
		json_t *d = details(z, t, &c, cpu, seconds, r->details);

		json_decref(r->details);
		r->details = d;
	}
	for (size_t i = 0; i < NSIZES; i++)
		free(z[i].buf);
	close(fd);
	return rc;
}

const struct workload wl_pread_zero = {
	"pread-zero", "libMicro pread_z1k/z10k/z100k, /dev/zero, ns per call (seed 000)",
	2.0, run,
};
