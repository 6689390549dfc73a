/* read-zero: libMicro's read_z1k, read_z10k and read_z100k (seed 000's
 * other table rows). As libMicro's read.c: the fd and buffer belong to the
 * task (opened at its first batch), benchmark_initbatch seeks the fd to 0
 * before every batch, outside the timed part, and the batch is read(fd,
 * buf, size) again and again; a short read is an error, counted. */
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
	{ "read_z1k", 1024 }, { "read_z10k", 10 * 1024 }, { "read_z100k", 100 * 1024 },
};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void seek_start(void *ctx)
{
	lseek(((struct zero_var *)ctx)->fd, 0, SEEK_SET);
}

static void read_batch(void *ctx, uint64_t n)
{
	struct zero_var *z = ctx;

	for (uint64_t i = 0; i < n; i++)
		if (read(z->fd, z->buf, z->size) != (ssize_t)z->size)
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
		"libMicro read.c", "call", "lseek(fd, 0) per batch, then read(fd, buf, size)",
		"file", "/dev/zero", "seconds_per_size", seconds, "cpu", cpu, "clock", "source",
		c->source, "ns_per_tick", c->ns_per_tick, "sizes", json_array());
	json_t *arr = json_object_get(d, "sizes");

	for (size_t i = 0; i < NSIZES; i++)
		json_array_append_new(arr, json_pack("{s:s, s:I, s:I, s:I}", "name", sizes[i].name,
			"bytes", (json_int_t)z[i].size, "calls_per_sample", (json_int_t)t[i].iters,
			"errors", (json_int_t)(z[i].errors + earlier_errors(prev, i))));
	return d;
}

static void close_all(struct zero_var *z, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		close(z[i].fd);
		free(z[i].buf);
	}
}

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	struct zero_var z[NSIZES];
	struct wl_timed t[NSIZES];
	double seconds = wl_duration(o, &wl_read_zero);
	struct clock c;
	int cpu = -1, rc;

	wl_progress(o, "read-zero: read_z1k, read_z10k, read_z100k");
	for (size_t i = 0; i < NSIZES; i++) {
		int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			close_all(z, i);
			return err_set(e, "cannot open /dev/zero: %s", strerror(errno));
		}
		z[i] = (struct zero_var){ fd, xmalloc(sizes[i].size), sizes[i].size, 0 };
		t[i] = (struct wl_timed){ read_batch, seek_start, &z[i],
			wl_metric(r, "read-zero", sizes[i].name, "ns", true), 0 };
	}
	rc = wl_measure_batches(t, NSIZES, seconds, o, &c, &cpu, e);
	if (rc == 0) {
		json_t *d = details(z, t, &c, cpu, seconds, r->details);

		json_decref(r->details);
		r->details = d;
	}
	close_all(z, NSIZES);
	return rc;
}

const struct workload wl_read_zero = {
	"read-zero", "libMicro read_z1k/z10k/z100k, /dev/zero, ns per call (seed 000)",
	2.0, run,
};
