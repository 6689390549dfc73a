/* will-it-scale's harness (main.c and runtest.py), for read1 and poll2:
 * tasks as processes and as threads, task i pinned to CPU i mod ncpus, each
 * counting its iterations in its own 128-byte slot of a shared mapping
 * (will-it-scale's CACHELINE_SIZE), all released at once through a pipe,
 * and the counts read once a second with the first intervals discarded as
 * warm-up. runtest.py runs processes then threads at each task count;
 * LKP's per_process_ops is the ops/s of one task.
 *
 * Differences, each for a reason: tasks report when set up and the clock
 * starts after (will-it-scale starts it at once and lets the warm-up absorb
 * the set-up); a task stops when a shared flag says so (will-it-scale kills
 * it) so that threads close their files; ops/s divides by the interval's
 * measured length, not an assumed second; the warm-up is o->warmup
 * intervals (will-it-scale's is 6: WARMUP_ITERATIONS 5 and a '>'). */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS 1024
#define LINE 128

struct wis_slot {
	_Alignas(LINE) _Atomic uint64_t count;
};

struct wis_shared {
	_Alignas(LINE) atomic_int stop;
	atomic_int ready, claimed, failed;
	char error[288];                /* "task N: " and an err message */
	struct wis_slot slot[];
};

struct wis_job {
	const struct wis_test *t;
	const struct wl_options *o;
	struct wis_shared *sh;
	size_t sh_len;
	bool threads;
	unsigned ntasks;
	int gate[2];                    /* tasks wait for EOF on gate[0] */
	const int *cpus;
	size_t ncpus;
	pid_t *pids;
	pthread_t *tids;
	unsigned started;
};

size_t wl_cpus(int *cpus, size_t max)
{
	cpu_set_t set;
	size_t n = 0;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* ---- in the task ---- */

/* The first failing task's message, for the parent to print. */
static void task_failed(struct wis_shared *sh, unsigned i, const struct err *e)
{
	if (atomic_exchange(&sh->claimed, 1) == 0) {
		snprintf(sh->error, sizeof sh->error, "task %u: %s", i, e->msg);
		atomic_store_explicit(&sh->failed, 1, memory_order_release);
	}
}

static int task_body(struct wis_job *j, unsigned i)
{
	void *task = xcalloc(1, j->t->task_size);
	struct err e = { "" };
	char c;

	if (j->t->open(j->o->dir, task, &e)) {
		task_failed(j->sh, i, &e);
		free(task);
		return -1;
	}
	atomic_fetch_add(&j->sh->ready, 1);
	while (read(j->gate[0], &c, 1) < 0 && errno == EINTR)
		;
	if (!atomic_load(&j->sh->stop))
		j->t->loop(task, &j->sh->slot[i].count, &j->sh->stop);
	j->t->close(task);
	free(task);
	return 0;
}

static void cpu_mask(const struct wis_job *j, unsigned i, cpu_set_t *set)
{
	CPU_ZERO(set);
	CPU_SET(j->cpus[i % j->ncpus], set);
}

/* A forked task: dies with the parent (PR_SET_PDEATHSIG, in place of
 * will-it-scale's watchdog), takes the default action on the terminating
 * signals (the parent sends SIGTERM when interrupted; tmpfile.c holds them
 * off while a name exists), never runs the parent's exit handlers. */
static void child(struct wis_job *j, unsigned i, pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	cpu_set_t set;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		signal(sigs[k], SIG_DFL);
	close(j->gate[1]);
	cpu_mask(j, i, &set);
	sched_setaffinity(0, sizeof set, &set);
	_exit(task_body(j, i) ? 1 : 0);
}

struct thread_arg {
	struct wis_job *j;
	unsigned i;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;

	task_body(a->j, a->i);
	return NULL;
}

/* ---- in the parent ---- */

static int start_thread(struct wis_job *j, unsigned i, struct thread_arg *arg, struct err *e)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	cpu_mask(j, i, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof set, &set);
	*arg = (struct thread_arg){ j, i };
	rc = pthread_create(&j->tids[i], &attr, thread_main, arg);
	pthread_attr_destroy(&attr);
	if (rc)
		return err_set(e, "cannot start thread %u: %s", i, strerror(rc));
	return 0;
}

static int start_tasks(struct wis_job *j, struct thread_arg *args, struct err *e)
{
	sigset_t all, old;
	int rc = 0;

	/* threads inherit this mask: signals go to the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned i = 0; i < j->ntasks && rc == 0 && !wl_stopped(j->o); i++) {
		if (j->threads) {
			rc = start_thread(j, i, &args[i], e);
		} else {
			pid_t parent = getpid(), pid = fork();

			if (pid == 0) {
				pthread_sigmask(SIG_SETMASK, &old, NULL);
				child(j, i, parent);
			}
			if (pid < 0)
				rc = err_set(e, "cannot fork task %u: %s", i, strerror(errno));
			j->pids[i] = pid;
		}
		if (rc == 0)
			j->started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* A forked task that has exited before it was told to (a crash). */
static bool child_died(struct wis_job *j)
{
	for (unsigned i = 0; i < j->started && !j->threads; i++)
		if (j->pids[i] > 0 && waitpid(j->pids[i], NULL, WNOHANG) == j->pids[i]) {
			j->pids[i] = 0;
			return true;
		}
	return false;
}

static int check_tasks(struct wis_job *j, struct err *e)
{
	if (atomic_load_explicit(&j->sh->failed, memory_order_acquire))
		return err_set(e, "%s", j->sh->error);
	if (wl_stopped(j->o))
		return err_set(e, "interrupted");
	if (child_died(j))
		return err_set(e, "a task process died");
	return 0;
}

static int wait_ready(struct wis_job *j, struct err *e)
{
	const struct timespec ms = { 0, 1000000 };

	while ((unsigned)atomic_load(&j->sh->ready) < j->ntasks) {
		if (check_tasks(j, e))
			return -1;
		nanosleep(&ms, NULL);
	}
	return check_tasks(j, e);
}

/* Sleeps to an absolute time so that intervals do not drift; -1 when
 * interrupted. */
static int sleep_until(struct wis_job *j, uint64_t when)
{
	struct timespec ts = { (time_t)(when / 1000000000ull), (long)(when % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		if (wl_stopped(j->o))
			return -1;
	return wl_stopped(j->o) ? -1 : 0;
}

static uint64_t total_count(const struct wis_job *j)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < j->ntasks; i++)
		sum += atomic_load_explicit(&j->sh->slot[i].count, memory_order_relaxed);
	return sum;
}

/* warmup + n intervals of `interval` ns; out[k] the ops/s of measured
 * interval k. */
static int intervals(struct wis_job *j, uint64_t interval, unsigned n, double *out,
		     struct err *e)
{
	uint64_t start = mono_ns(), t_prev = start, c_prev = total_count(j);

	for (unsigned k = 0; k < j->o->warmup + n; k++) {
		uint64_t t, c;

		if (sleep_until(j, start + (k + 1) * interval))
			return err_set(e, "interrupted");
		if (check_tasks(j, e))
			return -1;
		c = total_count(j);
		t = mono_ns();
		if (k >= j->o->warmup)
			out[k - j->o->warmup] = (double)(c - c_prev) * 1e9 / (double)(t - t_prev);
		c_prev = c;
		t_prev = t;
	}
	return 0;
}

/* Tells every task to stop, opens the gate for those still waiting at it,
 * and reaps them all; forked tasks are killed first when interrupted. */
static void stop_tasks(struct wis_job *j)
{
	atomic_store(&j->sh->stop, 1);
	if (j->gate[1] >= 0)
		close(j->gate[1]);
	j->gate[1] = -1;
	for (unsigned i = 0; i < j->started; i++) {
		if (j->threads) {
			pthread_join(j->tids[i], NULL);
			continue;
		}
		if (j->pids[i] <= 0)
			continue;
		if (wl_stopped(j->o))
			kill(j->pids[i], SIGTERM);
		while (waitpid(j->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	}
	j->started = 0;
}

static int job_init(struct wis_job *j, struct err *e)
{
	j->sh_len = sizeof *j->sh + j->ntasks * sizeof j->sh->slot[0];
	j->sh = mmap(NULL, j->sh_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (j->sh == MAP_FAILED) {
		j->sh = NULL;
		return err_set(e, "cannot map the tasks' counters: %s", strerror(errno));
	}
	if (pipe2(j->gate, O_CLOEXEC) != 0) {
		j->gate[0] = j->gate[1] = -1;
		return err_set(e, "cannot make a pipe: %s", strerror(errno));
	}
	j->pids = xcalloc(j->ntasks, sizeof *j->pids);
	j->tids = xcalloc(j->ntasks, sizeof *j->tids);
	return 0;
}

static void job_free(struct wis_job *j)
{
	if (j->gate[0] >= 0)
		close(j->gate[0]);
	if (j->sh)
		munmap(j->sh, j->sh_len);
	free(j->pids);
	free(j->tids);
}

/* One will-it-scale run: ntasks tasks of one mode, n measured intervals. */
static int run_one(struct wis_job *j, uint64_t interval, unsigned n, double *out,
		   struct err *e)
{
	struct thread_arg *args = xcalloc(j->ntasks, sizeof *args);
	int rc = job_init(j, e);

	if (rc == 0)
		rc = start_tasks(j, args, e);
	if (rc == 0)
		rc = wait_ready(j, e);
	if (rc == 0) {
		close(j->gate[1]);      /* EOF: every task starts */
		j->gate[1] = -1;
		rc = intervals(j, interval, n, out, e);
	}
	if (j->sh)
		stop_tasks(j);
	job_free(j);
	free(args);
	return rc;
}

/* will-it-scale's poll2 sets RLIMIT_NOFILE to (NR_FILES + 10) * nr_procs;
 * threads share one table, so that many, plus room for our own files.
 * Only ever raised; the old limits come back afterwards. */
static int raise_nofile(const struct wis_test *t, unsigned maxtasks, struct rlimit *old,
			rlim_t *now, struct err *e)
{
	rlim_t need = (rlim_t)(t->fds_per_task + 10) * maxtasks + 64;
	struct rlimit nl;

	if (getrlimit(RLIMIT_NOFILE, old) != 0)
		return err_set(e, "cannot read RLIMIT_NOFILE: %s", strerror(errno));
	*now = old->rlim_cur;
	if (old->rlim_cur >= need)
		return 0;
	nl.rlim_cur = need;
	nl.rlim_max = old->rlim_max >= need ? old->rlim_max : need;
	if (setrlimit(RLIMIT_NOFILE, &nl) != 0)
		return err_set(e, "%u tasks need %lu open files; RLIMIT_NOFILE allows %lu and"
			       " cannot be raised: %s", maxtasks, (unsigned long)need,
			       (unsigned long)old->rlim_max, strerror(errno));
	*now = need;
	return 0;
}

struct wis_plan {
	unsigned modes;                 /* WIS_PROCESSES | WIS_THREADS */
	const unsigned *tasks;
	size_t ntasks;
	int cpus[CPU_SETSIZE];
	size_t ncpus;
	uint64_t interval;              /* ns */
	unsigned n;                     /* measured intervals per run */
};

static const char *const modes[] = { "processes", "threads" };

/* The mean over task counts of ops/s per task, interval by interval. */
static void per_task(const struct wis_test *t, const struct wis_plan *p, const double *ops,
		     struct wl_result *r)
{
	for (int m = 0; m < 2; m++) {
		char name[96];
		struct wl_metric *x;

		if (!(p->modes & (1u << m)))
			continue;
		snprintf(name, sizeof name, "%s.per_%s_ops", t->name, m ? "thread" : "process");
		x = wl_metric(r, t->name, name, "ops/s", false);
		for (unsigned k = 0; k < p->n; k++) {
			double sum = 0;

			for (size_t ti = 0; ti < p->ntasks; ti++)
				sum += ops[(ti * 2 + m) * p->n + k] / p->tasks[ti];
			wl_sample(x, sum / (double)p->ntasks);
		}
	}
}

static int run_all(const struct wis_test *t, const struct wl_options *o,
		   const struct wis_plan *p, double *ops, struct wl_result *r, struct err *e)
{
	for (size_t ti = 0; ti < p->ntasks; ti++)
		for (int m = 0; m < 2; m++) {
			struct wis_job j = { .t = t, .o = o, .threads = m == 1,
				.ntasks = p->tasks[ti], .gate = { -1, -1 }, .cpus = p->cpus,
				.ncpus = p->ncpus };
			double *out = &ops[(ti * 2 + m) * p->n];
			char name[96];
			struct wl_metric *x;

			if (!(p->modes & (1u << m)))
				continue;
			wl_progress(o, "%s: %s, %u tasks", t->name, modes[m], p->tasks[ti]);
			if (run_one(&j, p->interval, p->n, out, e))
				return -1;
			snprintf(name, sizeof name, "%s.%s.ops_per_sec.tasks=%u", t->name, modes[m],
				 p->tasks[ti]);
			x = wl_metric(r, t->name, name, "ops/s", false);
			for (unsigned k = 0; k < p->n; k++)
				wl_sample(x, out[k]);
		}
	return 0;
}

static json_t *plan_json(const struct wis_test *t, const struct wl_options *o,
			 const struct wis_plan *p, rlim_t nofile)
{
	json_t *tasks = json_array(), *cpus = json_array(), *m = json_array();

	for (int k = 0; k < 2; k++)
		if (p->modes & (1u << k))
			json_array_append_new(m, json_string(modes[k]));
	for (size_t i = 0; i < p->ntasks; i++)
		json_array_append_new(tasks, json_integer(p->tasks[i]));
	for (size_t i = 0; i < p->ncpus; i++)
		json_array_append_new(cpus, json_integer(p->cpus[i]));
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:f, s:i, s:i, s:s, s:I}",
		"suite", "will-it-scale", "test", t->name, "modes", m,
		"tasks", tasks, "cpus", cpus, "pinning", "task i on cpus[i mod ncpus]",
		"interval_s", (double)p->interval / 1e9, "warmup_intervals", (int)o->warmup,
		"measured_intervals", (int)p->n, "dir", o->dir, "rlimit_nofile",
		(json_int_t)nofile);
}

static void plan(const struct wl_options *o, double seconds, struct wis_plan *p,
		 unsigned *defaults)
{
	double interval = seconds < 1 ? seconds : 1;

	p->modes = o->modes ? o->modes : WIS_PROCESSES | WIS_THREADS;
	p->ncpus = wl_cpus(p->cpus, CPU_SETSIZE);
	if (p->ncpus == 0)
		p->cpus[p->ncpus++] = 0;
	if (o->ntasks) {
		p->tasks = o->tasks;
		p->ntasks = o->ntasks;
	} else {
		for (size_t i = 0; i < p->ncpus && i < MAX_TASKS; i++)
			defaults[i] = (unsigned)i + 1;
		p->tasks = defaults;
		p->ntasks = p->ncpus < MAX_TASKS ? p->ncpus : MAX_TASKS;
	}
	p->interval = (uint64_t)(interval * 1e9);
	p->n = (unsigned)lround(seconds / interval);
	if (p->n == 0)
		p->n = 1;
}

int wis_run(const struct wis_test *t, const struct wl_options *o, double seconds,
	    struct wl_result *r, struct err *e)
{
	static unsigned defaults[MAX_TASKS];
	struct wis_plan p;
	struct rlimit old;
	rlim_t nofile = 0;
	double *ops;
	const char *how;
	int rc, fd = wl_tmpfile(o->dir, &how, e);  /* the directory works, before forking */

	if (fd < 0)
		return -1;
	close(fd);
	plan(o, seconds, &p, defaults);
	if (p.tasks[p.ntasks - 1] > MAX_TASKS)
		return err_set(e, "at most %d tasks", MAX_TASKS);
	if (raise_nofile(t, p.tasks[p.ntasks - 1], &old, &nofile, e))
		return -1;
	ops = xcalloc(p.ntasks * 2 * p.n, sizeof *ops);
	rc = run_all(t, o, &p, ops, r, e);
	/* one task: ops/s per task is the tasks=1 metric itself, and one
	 * metric is printed once */
	if (rc == 0 && !(p.ntasks == 1 && p.tasks[0] == 1))
		per_task(t, &p, ops, r);
	if (rc == 0) {
		json_decref(r->details);
		r->details = plan_json(t, o, &p, nofile);
		json_object_set_new(r->details, "tmpfile", json_string(how));
	}
	setrlimit(RLIMIT_NOFILE, &old);
	free(ops);
	return rc;
}
