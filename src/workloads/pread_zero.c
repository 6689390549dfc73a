/* pread-zero: libMicro's pread_z1k, pread_z10k and pread_z100k (seed 000:
 * the __clear_user loop that straddled a line cost Zen 1 40% here). As
 * libMicro's pread.c: one fd on /dev/zero opened once per run, and the
 * batch is pread(fd, buf, size, 0) again and again; pread_zw100k (seed
 * 000's own table row) is libMicro's -w: after each call a byte stored at
 * every page-size step of the buffer, inside the timed batch. */
#include "workloads.h"

#include <unistd.h>

static void pread_batch(void *ctx, uint64_t n)
{
	struct zero_var *z = ctx;

	for (uint64_t i = 0; i < n; i++) {
		if (pread(z->fd, z->buf, z->size, 0) != (ssize_t)z->size)
			z->errors++;
		if (z->touch_pages)
			zero_touch(z);
	}
}

static const struct zero_kind kind = {
	&wl_pread_zero, { "pread_z1k", "pread_z10k", "pread_z100k", "pread_zw100k" }, "libMicro pread.c",
	"pread(fd, buf, size, 0)", "pread-zero: pread_z1k, pread_z10k, pread_z100k, pread_zw100k",
	pread_batch, NULL, true,
};

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	return zero_run(&kind, o, r, e);
}

const struct workload wl_pread_zero = {
	"pread-zero", "libMicro pread_z1k/z10k/z100k/zw100k, /dev/zero, ns per call (seed 000)",
	2.0, run,
};
