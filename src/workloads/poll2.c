/* poll2: will-it-scale's tests/poll2.c, "poll of 128 fds" (seed 004: the
 * kernel test robot's -5.8% per_thread_ops and -7.3% per_process_ops when
 * __put_user went out of line, the revents write-back in do_sys_poll).
 * Per task 128 temporary files, unlinked; each iteration fills a fresh
 * array of 128 pollfds with POLLOUT and calls poll(pfd, 128, 0). A regular
 * file is always writable, so every call writes back 128 revents. */
#include "workloads.h"

#include <string.h>
#include <unistd.h>

int poll2_open(const char *dir, void *task, struct err *e)
{
	struct poll2_task *t = task;

	for (int i = 0; i < POLL2_NR_FILES; i++)
		t->fds[i] = -1;
	for (int i = 0; i < POLL2_NR_FILES; i++) {
		t->fds[i] = wl_tmpfile(dir, NULL, e);
		if (t->fds[i] < 0) {
			poll2_close(t);
			return -1;
		}
	}
	return 0;
}

int poll2_step(struct poll2_task *t)
{
	memset(t->pfd, 0, sizeof t->pfd);
	for (int i = 0; i < POLL2_NR_FILES; i++) {
		t->pfd[i].fd = t->fds[i];
		t->pfd[i].events = POLLOUT;
	}
	return poll(t->pfd, POLL2_NR_FILES, 0);
}

static void loop(void *task, _Atomic uint64_t *count, atomic_int *stop)
{
	struct poll2_task *t = task;
	uint64_t n = 0;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		if (poll2_step(t) < 0)
			return;
		atomic_store_explicit(count, ++n, memory_order_relaxed);
	}
}

void poll2_close(void *task)
{
	struct poll2_task *t = task;

	for (int i = 0; i < POLL2_NR_FILES; i++) {
		if (t->fds[i] >= 0)
			close(t->fds[i]);
		t->fds[i] = -1;
	}
}

static const struct wis_test test = {
	"poll2", sizeof(struct poll2_task), POLL2_NR_FILES, poll2_open, loop, poll2_close,
};

static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	if (wis_run(&test, o, wl_duration(o, &wl_poll2), r, e))
		return -1;
	json_object_set_new(r->details, "call", json_string("poll(pfd, 128, 0), POLLOUT"));
	json_object_set_new(r->details, "files_per_task", json_integer(POLL2_NR_FILES));
	return 0;
}

const struct workload wl_poll2 = {
	"poll2", "will-it-scale poll2: poll of 128 files per task, ops/s (seed 004)",
	10.0, run,
};
