/* The workloads against the definitions of the suites they mirror:
 * read1 reads 4096 bytes a call and wraps at 1 MiB, poll2 polls 128
 * files that are all writable, seed 001's probe moves 66 bytes and leaves
 * 64, temporary files never have a name left in their directory, and a
 * will-it-scale run, finished or interrupted, leaves no file descriptor,
 * task or file behind. Never timing: counts, offsets and names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/state.h"
#include "workloads/workloads.h"

static char dir[64];

static size_t entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

static size_t open_fds(void)
{
	return entries("/proc/self/fd");
}

static int make_dir(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/straddle-wl.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	return rmdir(dir);
}

static void assert_unlinked(int fd)
{
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_nlink, 0);
}

static void tmpfile_has_no_name(void **state)
{
	const char *how = NULL;
	struct err e;
	int fd = wl_tmpfile(dir, &how, &e);

	assert_true(fd >= 0);
	assert_non_null(how);
	assert_unlinked(fd);
	assert_int_equal(entries(dir), 0);
	close(fd);
	assert_int_equal(wl_tmpfile("/nonexistent-dir", NULL, &e), -1);
	assert_non_null(strstr(e.msg, "/nonexistent-dir"));
}

/* 256 reads of 4096 bytes, each moving the offset by 4096; the 257th
 * reads 0 at the end of 1 MiB and seeks back to 0; then it starts over. */
static void read1_reads_4096_and_wraps(void **state)
{
	struct read1_task t;
	struct err e;
	size_t fds = open_fds();
	struct stat st;

	assert_int_equal(read1_open(dir, &t, &e), 0);
	assert_unlinked(t.fd);
	assert_int_equal(fstat(t.fd, &st), 0);
	assert_int_equal(st.st_size, READ1_FILESIZE);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(lseek(t.fd, 0, SEEK_CUR), 0);
	for (long k = 1; k <= READ1_FILESIZE / READ1_BUFLEN; k++) {
		memset(t.buf, 0xff, READ1_BUFLEN);
		assert_int_equal(read1_step(&t), 4096);
		assert_int_equal(lseek(t.fd, 0, SEEK_CUR), 4096 * k);
		for (int i = 0; i < READ1_BUFLEN; i++)
			assert_int_equal(t.buf[i], 0);
	}
	assert_int_equal(read1_step(&t), 0);
	assert_int_equal(lseek(t.fd, 0, SEEK_CUR), 0);
	assert_int_equal(read1_step(&t), 4096);
	assert_int_equal(lseek(t.fd, 0, SEEK_CUR), 4096);
	read1_close(&t);
	assert_int_equal(open_fds(), fds);
}

/* 128 distinct unlinked files, and one poll reports all 128 writable with
 * exactly the POLLOUT asked for. */
static void poll2_polls_128_files(void **state)
{
	struct poll2_task *t = calloc(1, sizeof *t);
	struct err e;
	size_t fds = open_fds();

	assert_int_equal(poll2_open(dir, t, &e), 0);
	assert_int_equal(open_fds(), fds + 128);
	assert_int_equal(entries(dir), 0);
	for (int i = 0; i < POLL2_NR_FILES; i++) {
		assert_unlinked(t->fds[i]);
		for (int k = 0; k < i; k++)
			assert_int_not_equal(t->fds[i], t->fds[k]);
	}
	for (int round = 0; round < 2; round++) {
		assert_int_equal(poll2_step(t), 128);
		for (int i = 0; i < POLL2_NR_FILES; i++) {
			assert_int_equal(t->pfd[i].fd, t->fds[i]);
			assert_int_equal(t->pfd[i].events, POLLOUT);
			assert_int_equal(t->pfd[i].revents, POLLOUT);
		}
	}
	poll2_close(t);
	assert_int_equal(open_fds(), fds);
	free(t);
}

/* Seed 001: write(fd, &buf[4096 - 66], 130) -> 66, 64 left; read too. */
static void fault_probe_counts(void **state)
{
	struct fault_probe p[2];
	struct err e;
	size_t fds = open_fds();

	assert_int_equal(fault_probe_run(dir, p, &e), 0);
	assert_string_equal(p[0].call, "write");
	assert_string_equal(p[1].call, "read");
	for (int i = 0; i < 2; i++) {
		assert_int_equal(p[i].mapped, 66);
		assert_int_equal(p[i].len, 130);
		assert_int_equal(p[i].returned, 66);
		assert_int_equal(p[i].len - p[i].returned, 64);
		assert_true(p[i].content_ok);
		assert_true(p[i].pass);
	}
	assert_int_equal(open_fds(), fds);
	assert_int_equal(entries(dir), 0);
}

static void metrics_and_mode(void **state)
{
	struct wl_result r = { 0 };
	struct wl_metric *a = wl_metric(&r, "w", "a", "ns", true);
	struct wl_metric *b = wl_metric(&r, "w", "b", "ops/s", false);
	double v[] = { 5, 3, 5, 3, 9, 3 }, tie[] = { 4, 2, 4, 2 };

	assert_ptr_equal(wl_metric(&r, "w", "a", "ns", true), a);
	wl_sample(a, 1);
	wl_sample(a, 2);
	assert_int_equal(r.n, 2);
	assert_int_equal(a->n, 2);
	assert_int_equal(b->n, 0);
	assert_true(wl_mode(v, 6) == 3);
	assert_true(wl_mode(tie, 4) == 2);         /* the smallest of equals */
	wl_result_free(&r);
}

/* read1 at 1 and 2 tasks, processes and threads: the exact metrics, one
 * sample per measured interval, and nothing left open or running. */
/* Each run's samples, and the machine's shares of a run. */
static void runs_and_state(void **state)
{
	struct wl_result r = { 0 };
	struct wl_metric *m = wl_metric(&r, "w", "t", "ns", true);
	struct state_snapshot a = { .busy = 1000, .idle = 1000, .steal = 0, .own_s = 1.0, .at_s = 5 };
	struct state_snapshot b = { .busy = 1300, .idle = 1600, .steal = 100, .own_s = 2.0, .at_s = 10 };
	struct machine_state ms;
	const double *v;

	wl_sample(m, 1);
	wl_sample(m, 2);
	wl_end_run(&r);
	wl_sample(m, 3);
	wl_sample(m, 4);
	wl_sample(m, 5);
	wl_end_run(&r);
	assert_int_equal(m->nruns, 2);
	assert_int_equal(wl_run_samples(m, 0, &v), 2);
	assert_true(v[0] == 1 && v[1] == 2);
	assert_int_equal(wl_run_samples(m, 1, &v), 3);
	assert_true(v[0] == 3 && v[2] == 5);
	wl_result_free(&r);
	/* 1000 ticks in all: 100 stolen (10%), 300 busy (30%), of which 3 s at
	 * 100 Hz less our own 1 s is others': 2 s = 200 ticks, 20% */
	state_delta(&a, &b, 100, &ms);
	assert_true(ms.seconds == 5);
	assert_true(fabs(ms.steal_pct - 10) < 1e-12 && fabs(ms.busy_pct - 30) < 1e-12);
	assert_true(fabs(ms.others_pct - 20) < 1e-12);
}

/* libMicro's -w: a byte at every page-size step from the buffer's start,
 * wherever the buffer starts in its page (--align). */
static void touch_every_page(void **state)
{
	char *mem = aligned_alloc(4096, 26 * 4096);
	struct zero_var z = { .mem = mem, .buf = mem + 144, .size = 100 * 1024, .touch_pages = true };
	size_t zeros = 0;

	memset(mem, 0xff, 26 * 4096);
	zero_touch(&z);
	for (size_t i = 0; i < 26 * 4096; i++)
		if (mem[i] == 0) {
			assert_int_equal((i - 144) % 4096, 0);
			zeros++;
		}
	/* 0, 4096, ..., 98304: 25 stores in 102400 bytes */
	assert_int_equal(zeros, 25);
	free(mem);
}

static void read1_run_leaves_nothing(void **state)
{
	static const unsigned tasks[] = { 1, 2 };
	struct wl_options o = { .duration_s = 0.05, .warmup = 1, .tasks = tasks, .ntasks = 2,
				.dir = dir };
	struct wl_result r = { 0 };
	static const char *const names[] = {
		"read1.processes.ops_per_sec.tasks=1", "read1.threads.ops_per_sec.tasks=1",
		"read1.processes.ops_per_sec.tasks=2", "read1.threads.ops_per_sec.tasks=2",
		"read1.per_process_ops", "read1.per_thread_ops" };
	struct err e;
	size_t fds = open_fds();

	assert_int_equal(wl_read1.run(&o, &r, &e), 0);
	assert_int_equal(r.n, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(r.m[i]->name, names[i]);
		assert_string_equal(r.m[i]->unit, "ops/s");
		assert_false(r.m[i]->lower_is_better);
		assert_int_equal(r.m[i]->n, 1);
		/* >= 0, not > 0: on a loaded 2-CPU machine a task may not run at
		 * all in a 50 ms interval (seen at load 16); this test is about
		 * what the run leaves behind, rates are checked in t_bench. */
		assert_true(r.m[i]->samples[0] >= 0);
	}
	assert_int_equal(json_integer_value(json_object_get(r.details, "measured_intervals")), 1);
	wl_result_free(&r);
	assert_int_equal(open_fds(), fds);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static volatile sig_atomic_t stop_flag;

static void *stop_soon(void *p)
{
	usleep(*(unsigned *)p);
	stop_flag = 1;
	return NULL;
}

/* Interrupted while measuring (and, the second time, while the tasks are
 * still making their files): -1, "interrupted", every task reaped, every
 * file closed. */
static void interrupted_run_cleans_up(void **state)
{
	static const unsigned tasks[] = { 2 };
	static unsigned delays[] = { 300000, 1000 };
	const struct workload *w[] = { &wl_poll2, &wl_read1 };

	for (size_t k = 0; k < 2; k++) {
		struct wl_options o = { .duration_s = 30, .warmup = 0, .tasks = tasks, .ntasks = 1,
					.dir = dir, .stop = &stop_flag };
		struct wl_result r = { 0 };
		size_t fds = open_fds();
		pthread_t th;
		struct err e;

		stop_flag = 0;
		pthread_create(&th, NULL, stop_soon, &delays[k]);
		assert_int_equal(w[k]->run(&o, &r, &e), -1);
		pthread_join(th, NULL);
		assert_string_equal(e.msg, "interrupted");
		wl_result_free(&r);
		assert_int_equal(open_fds(), fds);
		assert_int_equal(entries(dir), 0);
		assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tmpfile_has_no_name),
		cmocka_unit_test(read1_reads_4096_and_wraps),
		cmocka_unit_test(poll2_polls_128_files),
		cmocka_unit_test(fault_probe_counts),
		cmocka_unit_test(metrics_and_mode),
		cmocka_unit_test(runs_and_state),
		cmocka_unit_test(touch_every_page),
		cmocka_unit_test(read1_run_leaves_nothing),
		cmocka_unit_test(interrupted_run_cleans_up),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
