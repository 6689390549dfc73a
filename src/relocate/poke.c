/* Writing the object's code while other threads may run it: a library
 * loaded late (glibc's own dlopen of an NSS or iconv module, a dlmopen)
 * is moved at the next dlopen, when the program may have threads in it.
 * Before main, and with one thread, preload.c writes the pages while they
 * are read+write and not executable; here no page of the object ever
 * stops being executable, since another thread may be running it.
 *
 * As Linux's text_poke_bp (arch/x86/kernel/alternative.c): an int3 over
 * the first byte of every instruction to change, every thread serialized
 * (membarrier's SYNC_CORE: each running thread takes an interrupt, whose
 * return serializes it, Intel SDM 3A 9.1.3 "Handling Self- and Cross-
 * Modifying Code"); then the rest of each instruction; then each first
 * byte, serialized again. A thread that reaches an int3 meanwhile traps
 * to the SIGTRAP handler here: at an entry it goes on in the copy (its
 * code is complete before the first int3 is written), at a redirected
 * branch it comes back to the int3 until the instruction is whole.
 *
 * The entry's jump is 5 bytes and may overwrite more than one instruction
 * (push %rbp is one byte): after the int3s no thread can start there, and
 * before the rest is written every thread is asked where it is (a queued
 * real-time signal it answers from a handler; not a SIGTRAP: one pending
 * swallows another, and an int3's swallowed leaves its thread after the
 * int3, inside the instruction); while one is between those bytes the
 * others wait. A function whose own branch or call's return lands in
 * those bytes is not written at all (PLAN_PATCH_INNER_TARGET). The writes
 * go through /proc/self/mem, as a debugger's do. */
#include "plan.h"
#include "poke.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define INT3 0xcc

long poke_threads(void)
{
	char buf[1024], *p;
	long n = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	if (got <= 0)
		return 0;
	buf[got] = 0;
	/* after the command's name (which may hold anything): state is field
	 * 3, num_threads field 20 (proc(5)) */
	if (!(p = strrchr(buf, ')')))
		return 0;
	for (int field = 2; field < 20 && p; field++)
		p = strchr(p + 1, ' ');
	if (p)
		n = strtol(p + 1, NULL, 10);
	return n;
}

#if defined(__x86_64__)

/* Every table of pokes ever written: a thread that trapped at an int3 may
 * be handled after its poke is over. Prepended, never freed. */
struct poke_table {
	const struct poke *p;
	size_t n;
	struct poke_table *next;
};

static struct poke_table *_Atomic tables;
static struct sigaction previous;
static int question_signal;     /* a real-time signal no one handles, while asking */
/* the threads that answered the question, in order */
#define MAX_ANSWERS 4096
static _Atomic pid_t answered[MAX_ANSWERS];
static atomic_int answers, caught_between;
static int question;            /* its address marks the question's signal */

static const struct poke *poke_at(uint64_t addr)
{
	for (struct poke_table *t = atomic_load(&tables); t; t = t->next) {
		size_t lo = 0, hi = t->n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->p[mid].addr < addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < t->n && t->p[lo].addr == addr)
			return &t->p[lo];
	}
	return NULL;
}

/* pc lies after an entry's first byte, within the bytes its jump takes. */
static bool between(uint64_t pc)
{
	for (struct poke_table *t = atomic_load(&tables); t; t = t->next)
		for (size_t i = 0; i < t->n; i++)
			if (t->p[i].kind == PLAN_PATCH_ENTRY && pc > t->p[i].addr &&
			    pc < t->p[i].addr + t->p[i].len)
				return true;
	return false;
}

/* Not ours: what the program had asked for SIGTRAP. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction)
		previous.sa_sigaction(sig, si, uc);
	else if (previous.sa_handler == SIG_IGN)
		return;
	else if (previous.sa_handler != SIG_DFL)
		previous.sa_handler(sig);
	else {
		/* default: the process ends, as it would have; the signal is
		 * blocked in here, so it lands when this returns */
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* The question: is this thread between an entry's bytes? */
static void on_question(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	int i;

	(void)sig;
	if (si->si_code != SI_QUEUE || si->si_value.sival_ptr != &question)
		return;
	i = atomic_fetch_add(&answers, 1);
	if (between((uint64_t)uc->uc_mcontext.gregs[REG_RIP]))
		atomic_store(&caught_between, 1);
	if (i < MAX_ANSWERS)
		atomic_store(&answered[i], (pid_t)syscall(SYS_gettid));
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *pc = &uc->uc_mcontext.gregs[REG_RIP];
	const struct poke *p;

	if (si->si_code == SI_KERNEL && (p = poke_at((uint64_t)*pc - 1))) {
		if (p->kind == PLAN_PATCH_ENTRY) {
			*pc = (greg_t)p->resume;
		} else {
			sched_yield();
			*pc -= 1;       /* the int3 again, until the instruction is whole */
		}
		return;
	}
	pass_on(sig, si, ucv);
}

static int install_handler(char *why, size_t n)
{
	static bool installed;
	struct sigaction sa;

	if (installed)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, &previous)) {
		snprintf(why, n, "cannot catch SIGTRAP: %s", strerror(errno));
		return -1;
	}
	installed = true;
	return 0;
}

static int serialize(void)
{
	return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
}

/* ---- the other threads ---- */

/* The signals thread tid blocks (its SigBlk in /proc), bit sig - 1; a
 * thread that blocks SIGTRAP and meets an int3 is killed by it (the
 * kernel forces the signal), one that blocks the question never answers. */
static uint64_t blocked_by(pid_t tid)
{
	char path[64], buf[2048], *p;
	int fd;
	ssize_t got;

	snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;               /* gone */
	got = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = 0;
	p = strstr(buf, "SigBlk:");
	return p ? strtoull(p + 7, NULL, 16) : 0;
}

/* Each other thread, by id; *n of them. */
static pid_t *other_threads(size_t *n)
{
	DIR *d = opendir("/proc/self/task");
	pid_t self = (pid_t)syscall(SYS_gettid), *v = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	while (d && (e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0 || tid == self)
			continue;
		if (*n == cap) {
			pid_t *w = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);

			if (!w)
				break;
			v = w;
		}
		v[(*n)++] = tid;
	}
	if (d)
		closedir(d);
	return v;
}

static void pause_us(long us)
{
	struct timespec t = { 0, us * 1000 };

	nanosleep(&t, NULL);
}

/* No thread blocks SIGTRAP or the question (some do for a moment: a new
 * thread starts with every signal blocked); checked before the first int3. */
static int none_blocks(char *why, size_t n)
{
	uint64_t both = 1ull << (SIGTRAP - 1) | 1ull << (question_signal - 1);

	for (int tries = 0; tries < 500; tries++) {
		size_t k;
		pid_t *t = other_threads(&k), blocked = 0;

		for (size_t i = 0; i < k && !blocked; i++)
			if (blocked_by(t[i]) & both)
				blocked = t[i];
		free(t);
		if (!blocked)
			return 0;
		if (tries == 499)
			snprintf(why, n, "thread %d blocks SIGTRAP or signal %d: the code it may run "
				 "cannot be changed under it", (int)blocked, question_signal);
		pause_us(1000);
	}
	return -1;
}

/* A real-time signal the program leaves at its default, to ask with:
 * from the top, as glibc keeps the lowest for itself. */
static int take_question_signal(struct sigaction *old, char *why, size_t n)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_question;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (int sig = SIGRTMAX; sig >= SIGRTMIN; sig--)
		if (sigaction(sig, NULL, old) == 0 && old->sa_handler == SIG_DFL &&
		    !(old->sa_flags & SA_SIGINFO) && sigaction(sig, &sa, NULL) == 0) {
			question_signal = sig;
			return 0;
		}
	snprintf(why, n, "every real-time signal has a handler: none to ask the threads with");
	return -1;
}

/* How many of the threads asked (t[i]; 0 when it was not) have not
 * answered, not counting those that ended (when `ended` is asked: one
 * that ends before it answers never will). */
static int unanswered(const pid_t *t, size_t k, bool ended)
{
	int got = atomic_load(&answers), left = 0;
	char path[64];

	for (size_t i = 0; i < k && got <= MAX_ANSWERS; i++) {
		bool seen = !t[i];

		for (int a = 0; a < got && !seen; a++)
			seen = atomic_load(&answered[a]) == t[i];
		snprintf(path, sizeof path, "/proc/self/task/%d", (int)t[i]);
		left += !seen && (!ended || access(path, F_OK) == 0);
	}
	return left;
}

/* Every other thread asked where it is (the question's signal queued to
 * it, answered from on_question); all answered, or -1 after 2 s. */
static int ask_all(char *why, size_t n)
{
	siginfo_t q;
	size_t k;
	pid_t *t = other_threads(&k);
	struct timespec t0, now;

	memset(&q, 0, sizeof q);
	q.si_signo = question_signal, q.si_code = SI_QUEUE, q.si_pid = getpid(), q.si_uid = getuid();
	q.si_value.sival_ptr = &question;
	atomic_store(&answers, 0), atomic_store(&caught_between, 0);
	for (size_t i = 0; i < MAX_ANSWERS; i++)
		atomic_store(&answered[i], 0);
	for (size_t i = 0; i < k; i++)
		if (syscall(SYS_rt_tgsigqueueinfo, getpid(), t[i], question_signal, &q) != 0)
			t[i] = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned spin = 1; unanswered(t, k, spin % 64 == 0); spin++) {
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 2) {
			snprintf(why, n, "%d of %zu threads did not say where they are",
				 unanswered(t, k, true), k);
			free(t);
			return -1;
		}
	}
	free(t);
	return 0;
}

/* Until no thread is between an entry's first byte and its jump's end. */
static int none_between(char *why, size_t n)
{
	for (int tries = 0; tries < 2000; tries++) {
		if (ask_all(why, n))
			return -1;
		if (!atomic_load(&caught_between))
			return 0;
		pause_us(100);
	}
	snprintf(why, n, "a thread stayed inside a function's first bytes");
	return -1;
}

/* ---- the writes ---- */

static int write_code(int mem, uint64_t addr, const uint8_t *b, size_t len, char *why, size_t n)
{
	if (pwrite(mem, b, len, (off_t)addr) != (ssize_t)len) {
		snprintf(why, n, "cannot write its code at %#llx through /proc/self/mem: %s",
			 (unsigned long long)addr, strerror(errno));
		return -1;
	}
	return 0;
}

static int publish(const struct poke *p, size_t n)
{
	struct poke_table *t = malloc(sizeof *t);
	struct poke *copy = malloc(n * sizeof *copy + 1);

	if (!t || !copy) {
		free(t), free(copy);
		return -1;
	}
	memcpy(copy, p, n * sizeof *copy);
	*t = (struct poke_table){ copy, n, atomic_load(&tables) };
	atomic_store(&tables, t);
	return 0;
}

/* The three steps; every thread serialized after each. */
static int three_steps(int mem, const struct poke *p, size_t n, char *why, size_t wn)
{
	static const uint8_t int3 = INT3;

	for (size_t i = 0; i < n; i++)
		if (write_code(mem, p[i].addr, &int3, 1, why, wn))
			return -1;
	if (serialize() || none_between(why, wn))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (p[i].len > 1 && write_code(mem, p[i].addr + 1, p[i].bytes + 1, p[i].len - 1U, why, wn))
			return -1;
	if (serialize())
		return -1;
	for (size_t i = 0; i < n; i++)
		if (write_code(mem, p[i].addr, p[i].bytes, 1, why, wn))
			return -1;
	return serialize();
}

int poke_live(const struct poke *p, size_t n, uint64_t bias, char *why, size_t wn)
{
	struct sigaction asked;
	int mem, rc;

	for (size_t i = 0; i < n; i++)
		if (p[i].flags & PLAN_PATCH_INNER_TARGET) {
			snprintf(why, wn, "the function at %#llx has a branch into the bytes its entry "
				 "jump takes: it cannot be moved while other threads run",
				 (unsigned long long)(p[i].addr - bias));
			return -1;
		}
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0)) {
		snprintf(why, wn, "membarrier SYNC_CORE (Linux 4.16): %s", strerror(errno));
		return -1;
	}
	if ((mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC)) < 0) {
		snprintf(why, wn, "/proc/self/mem: %s", strerror(errno));
		return -1;
	}
	if (install_handler(why, wn) || take_question_signal(&asked, why, wn)) {
		close(mem);
		return -1;
	}
	rc = none_blocks(why, wn) || publish(p, n) || three_steps(mem, p, n, why, wn) ? -1 : 0;
	/* every question was answered (or its thread ended): none is pending;
	 * after a failure one may be, and the process ends anyway */
	if (!rc)
		sigaction(question_signal, &asked, NULL);
	if (rc && !why[0])
		snprintf(why, wn, "%s", strerror(errno));
	close(mem);
	return rc;
}

#else

int poke_live(const struct poke *p, size_t n, uint64_t bias, char *why, size_t wn)
{
	(void)p, (void)n, (void)bias;
	snprintf(why, wn, "its code cannot be changed while other threads run (x86-64 only)");
	return -1;
}

#endif
