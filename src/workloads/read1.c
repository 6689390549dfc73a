/* read1: will-it-scale's tests/read1.c, "Separate file read" (seed 001:
 * the read1_processes figure that rep movsq lifted 14%). Per task a
 * temporary file, unlinked, with 1 MiB of zeros written to it; then
 * read(fd, buf, 4096) in a loop, every call one iteration, and lseek to 0
 * when a read returns 0 at the end of the file. The test's buffer is the
 * 1 MiB array it wrote from, on its stack; here it is page-aligned so that
 * the copy's alignment does not change from run to run. */
#include "workloads.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int read1_open(const char *dir, void *task, struct err *e)
{
	struct read1_task *t = task;
	ssize_t w;

	t->fd = wl_tmpfile(dir, NULL, e);
	if (t->fd < 0)
		return -1;
	t->buf = aligned_alloc(4096, READ1_FILESIZE);
	if (!t->buf) {
		close(t->fd);
		return err_set(e, "out of memory");
	}
	memset(t->buf, 0, READ1_FILESIZE);
	w = write(t->fd, t->buf, READ1_FILESIZE);
	if (w != READ1_FILESIZE || lseek(t->fd, 0, SEEK_SET) != 0) {
		err_set(e, "cannot write 1 MiB to a temporary file in %s: %s", dir,
			w < 0 ? strerror(errno) : "short write");
		read1_close(t);
		return -1;
	}
	return 0;
}

ssize_t read1_step(struct read1_task *t)
{
	ssize_t len = read(t->fd, t->buf, READ1_BUFLEN);

	if (len == 0)
		lseek(t->fd, 0, SEEK_SET);
	return len;
}

/* The loop of testcase(): every call counts, the one that hit the end of
 * the file too. A failed read ends the task (will-it-scale asserts). */
static void loop(void *task, _Atomic uint64_t *count, atomic_int *stop)
{
	struct read1_task *t = task;
	uint64_t n = 0;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		if (read1_step(t) < 0)
			return;
		atomic_store_explicit(count, ++n, memory_order_relaxed);
	}
}

void read1_close(void *task)
{
	struct read1_task *t = task;

	if (t->fd >= 0)
		close(t->fd);
	free(t->buf);
	t->fd = -1;
	t->buf = NULL;
}

static const struct wis_test test = {
	"read1", sizeof(struct read1_task), 1, read1_open, loop, read1_close,
};

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	if (wis_run(&test, o, wl_duration(o, &wl_read1), r, e))
		return -1;
	json_object_set_new(r->details, "call", json_string("read(fd, buf, 4096); lseek(fd, 0) at EOF"));
	json_object_set_new(r->details, "file_bytes", json_integer(READ1_FILESIZE));
	json_object_set_new(r->details, "read_bytes", json_integer(READ1_BUFLEN));
	return 0;
}

const struct workload wl_read1 = {
	"read1", "will-it-scale read1: 4 KiB reads per task, ops/s (seed 001)",
	10.0, run,
};
