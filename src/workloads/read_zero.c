/* read-zero: libMicro's read_z1k, read_z10k and read_z100k (seed 000's
 * other table rows). As libMicro's read.c: the fd and buffer belong to the
 * task (opened at its first batch), benchmark_initbatch seeks the fd to 0
 * before every batch, outside the timed part, and the batch is read(fd,
 * buf, size) again and again; read_zw100k adds libMicro's -w, a byte
 * stored to each page of the buffer after each call. */
#include "workloads.h"

#include <unistd.h>

static void seek_start(void *ctx)
{
	lseek(((struct zero_var *)ctx)->fd, 0, SEEK_SET);
}

static void read_batch(void *ctx, uint64_t n)
{
	struct zero_var *z = ctx;

	for (uint64_t i = 0; i < n; i++) {
		if (read(z->fd, z->buf, z->size) != (ssize_t)z->size)
			z->errors++;
		if (z->touch_pages)
			zero_touch(z);
	}
}

static const struct zero_kind kind = {
	&wl_read_zero, { "read_z1k", "read_z10k", "read_z100k", "read_zw100k" }, "libMicro read.c",
	"lseek(fd, 0) per batch, then read(fd, buf, size)",
	"read-zero: read_z1k, read_z10k, read_z100k, read_zw100k", read_batch, seek_start, false,
};

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	return zero_run(&kind, o, r, e);
}

const struct workload wl_read_zero = {
	"read-zero", "libMicro read_z1k/z10k/z100k/zw100k, /dev/zero, ns per call (seed 000)",
	2.0, run,
};
