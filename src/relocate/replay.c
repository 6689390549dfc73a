/* The replay of one loop in the running program (plan.h, "a loop replayed
 * from the program's own state"): snapshots of the program's registers
 * at the loop's header, each run again in a child at every offset under
 * test, timed, side by side.
 *
 * Snapshots. A timer of the process's CPU time (a real-time signal no
 * one handles) arms an int3 on the header of the running copy, written
 * through /proc/self/mem as a debugger's breakpoint is; the next thread
 * to arrive there traps, the byte is put back, and the thread goes on in
 * the skip copy, which counts arrivals down from a random number below
 * the most iterations a replay has seen: its int3 fires at a random
 * iteration of the loop, so that what a replay leaves of the loop (and
 * with it what a replay's fixed costs weigh) varies. Between snapshots
 * the header runs unmodified: a trap on every arrival would cost a
 * signal an iteration. At the skip copy's int3 the thread's registers are
 * those at the header; it forks:
 *
 * - the probe, in the probe copy, whose header trampoline counts the
 *   iterations; every private page of the process but the stacks is made
 *   inaccessible first, and each first touch (SIGSEGV, its error code
 *   saying read or write) is recorded and let through: the pages the
 *   replay reads and writes. Its seccomp filter traps any system call
 *   (SIGSYS): a loop that makes one is refused, named;
 * - one child per timed copy, in a new random order each snapshot, that
 *   first touches those pages (a write to each written one, so fork's
 *   copy-on-write is paid before the clock starts, and each page's TLB
 *   entry is made: a guest's first walk of a new address space costs
 *   ~800 TSC cycles a page on this project's EMR guest), then under a
 *   filter allowing only its pipe's write and exit returns from the
 *   signal into replay_enter: the TSC (lfence; rdtsc) and a jump into its
 *   copy, where the loop runs until an exit's jump to its stub, which
 *   leaves to replay_leave (rdtscp; lfence). The cycles, the exit taken
 *   and a hash of the registers there go to the parent, which checks
 *   them against the probe's (a replay that went elsewhere diverged).
 *
 * No child writes anything but its pipe: the filter allows nothing else,
 * stores to shared mappings are refused (the probe) or fault (the timed
 * children), and a child ends with exit_group, never exit(), so no stdio
 * buffer of the program's is flushed twice. Children are clone()d with no
 * exit signal (the program's SIGCHLD handler and wait() never see them),
 * die with the thread that made them (PR_SET_PDEATHSIG), and are waited
 * for before the handler returns: killed past a bound, never a zombie.
 * Only the trapping thread is in the child. Everything the parent does in
 * the handler is async-signal-safe: raw system calls, no allocation. */
#include "replay.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__)

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define PAGE 4096u
#define MAX_MAPS 8192
#define MAX_PAGES 65536
#define CHILD_STACK 65536
#define MAX_TRAPS 4096
#define MAX_REPEATS 9
#define DOWN_NEVER (1ull << 62)
/* a timed child's bound: this many times the probe's time, at least */
#define TIMED_BOUND_FACTOR 20
#define TIMED_BOUND_MIN_NS 1000000000ull

static __thread uint64_t slot[PLAN_SLOTS] __attribute__((tls_model("initial-exec")));

static uint64_t thread_pointer(void)
{
	uint64_t tp;

	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}

int64_t replay_slot_offset(uint64_t s)
{
	return s < PLAN_SLOTS ? (int64_t)((uint64_t)(uintptr_t)&slot[s] - thread_pointer()) : 0;
}

/* ---- what a child runs between the signal's return and its end ---- */

/* The registers at the exit and the clock's two readings: replay_enter
 * and replay_leave below name these offsets. */
struct replay_regs {
	uint64_t rax, rdx, rcx, t0, t1, target, rbx, rsi, rdi, rbp, rsp;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15, rsp_save;
};
_Static_assert(offsetof(struct replay_regs, target) == 40 &&
	       offsetof(struct replay_regs, rsp) == 80 && offsetof(struct replay_regs, r15) == 144 &&
	       offsetof(struct replay_regs, rsp_save) == 152, "replay_regs as the assembly reads it");

__attribute__((visibility("hidden"))) struct replay_regs replay_r;
__attribute__((visibility("hidden"), aligned(64))) uint8_t replay_stack[CHILD_STACK];
void replay_enter_tsc(void), replay_enter_clock(void), replay_leave_tsc(void);
void replay_leave_plain(void);

/* The clock starts after every register the loop had is back but the
 * three rdtsc takes, and stops first thing at the exit: lfence before
 * rdtsc and after rdtscp keep the loop's instructions on their side
 * (Intel SDM 2B, RDTSC/RDTSCP). clock_gettime where the TSC cannot be
 * used, from a stack of its own. */
__asm__(".text\n"
	".globl replay_enter_tsc\n.hidden replay_enter_tsc\n"
	"replay_enter_tsc:\n"
	"	mov %rax, replay_r+0(%rip)\n"
	"	mov %rdx, replay_r+8(%rip)\n"
	"	mov %rcx, replay_r+16(%rip)\n"
	"	lfence\n"
	"	rdtsc\n"
	"	lfence\n"
	"	mov %eax, replay_r+24(%rip)\n"
	"	mov %edx, replay_r+28(%rip)\n"
	"	mov replay_r+0(%rip), %rax\n"
	"	mov replay_r+8(%rip), %rdx\n"
	"	mov replay_r+16(%rip), %rcx\n"
	"	jmp *replay_r+40(%rip)\n"
	".globl replay_enter_clock\n.hidden replay_enter_clock\n"
	"replay_enter_clock:\n"
	"	mov %rsp, replay_r+152(%rip)\n"
	"	lea replay_stack+65536(%rip), %rsp\n"
	"	pushfq\n"
	"	push %rax\n push %rcx\n push %rdx\n push %rsi\n push %rdi\n"
	"	push %r8\n push %r9\n push %r10\n push %r11\n"
	"	call replay_clock_start\n"
	"	pop %r11\n pop %r10\n pop %r9\n pop %r8\n"
	"	pop %rdi\n pop %rsi\n pop %rdx\n pop %rcx\n pop %rax\n"
	"	popfq\n"
	"	mov replay_r+152(%rip), %rsp\n"
	"	jmp *replay_r+40(%rip)\n"
	".globl replay_leave_tsc\n.hidden replay_leave_tsc\n"
	"replay_leave_tsc:\n"
	"	mov %rax, replay_r+0(%rip)\n"
	"	mov %rdx, replay_r+8(%rip)\n"
	"	mov %rcx, replay_r+16(%rip)\n"
	"	rdtscp\n"
	"	lfence\n"
	"	mov %eax, replay_r+32(%rip)\n"
	"	mov %edx, replay_r+36(%rip)\n"
	"	jmp 1f\n"
	".globl replay_leave_plain\n.hidden replay_leave_plain\n"
	"replay_leave_plain:\n"
	"	mov %rax, replay_r+0(%rip)\n"
	"	mov %rdx, replay_r+8(%rip)\n"
	"	mov %rcx, replay_r+16(%rip)\n"
	"1:	mov %rbx, replay_r+48(%rip)\n"
	"	mov %rsi, replay_r+56(%rip)\n"
	"	mov %rdi, replay_r+64(%rip)\n"
	"	mov %rbp, replay_r+72(%rip)\n"
	"	mov %rsp, replay_r+80(%rip)\n"
	"	mov %r8, replay_r+88(%rip)\n"
	"	mov %r9, replay_r+96(%rip)\n"
	"	mov %r10, replay_r+104(%rip)\n"
	"	mov %r11, replay_r+112(%rip)\n"
	"	mov %r12, replay_r+120(%rip)\n"
	"	mov %r13, replay_r+128(%rip)\n"
	"	mov %r14, replay_r+136(%rip)\n"
	"	mov %r15, replay_r+144(%rip)\n"
	"	lea replay_stack+65536(%rip), %rsp\n"
	"	call replay_child_left\n"
	"	ud2\n");

/* Back to the snapshot's registers and FP state from a copy of the
 * signal's frame (rdi: its ucontext): rt_sigreturn, as a handler's
 * return would. */
void replay_resume(uint64_t uc) __attribute__((noreturn));
__asm__(".text\n.globl replay_resume\n.hidden replay_resume\n"
	"replay_resume:\n"
	"	mov %rdi, %rsp\n"
	"	mov $15, %eax\n"
	"	syscall\n"
	"	ud2\n");

/* ---- raw system calls: nothing of libc while pages are out of reach ---- */

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			 "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

#define sys3(nr, a, b, c) sys6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* The probe's mprotect, from the one instruction its filter lets make it
 * (seccomp_data.instruction_pointer: the address after the syscall). */
long replay_mprotect(void *addr, size_t len, int prot);
extern const char replay_mprotect_ret[];
__asm__(".text\n.globl replay_mprotect\n.hidden replay_mprotect\n"
	".globl replay_mprotect_ret\n.hidden replay_mprotect_ret\n"
	"replay_mprotect:\n"
	"	mov $10, %eax\n"
	"	syscall\n"
	"replay_mprotect_ret:\n"
	"	ret\n");

static __attribute__((noreturn)) void sys_exit(int code)
{
	for (;;)
		sys3(SYS_exit_group, code, 0, 0);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- the state ---- */

struct map {
	uint64_t lo, hi;
	int prot;
	bool shared, tracked;
};

/* What a child tells its parent: this, then the probe's pages. */
enum replay_status { LEFT, SYSCALL, SIGNALLED, SHARED_WRITE };

struct replay_record {
	uint32_t status;                /* enum replay_status */
	uint32_t detail;                /* SYSCALL: its number; SIGNALLED: the signal */
	uint64_t addr;                  /* SIGNALLED: the address; SYSCALL: where */
	uint32_t exit, npages;
	uint64_t ticks, count, hash;
	uint32_t overflow, trapped;     /* pages not recorded; left through an int3 */
};

enum child_kind { PROBE, TIMED };

static struct {
	struct replay_plan p;
	uint64_t arena, arena_size, bias;
	uint64_t run_hdr, skip_hdr, skip_trap;
	uint64_t func, run, skip, fsize;        /* runtime addresses of the function's first byte */
	uint8_t hdr_byte;
	int report_fd, mem_fd, tick_sig;
	pid_t pid, mem_pid;
	uint64_t tick_ns, bound_ns, rng;
	uint64_t deadline_ns;                   /* CLOCK_MONOTONIC: no snapshot after; 0 none */
	unsigned max, clock, repeats;
	atomic_int armed;
	unsigned snapshots, fired, arms, children, reaped;
	uint64_t most;                          /* the most iterations a replay ran: the skip's range */
	bool started, stopped, fork_said;
	timer_t timer;
	uint64_t lib_lo, lib_hi;                /* this library's own mappings */
	struct sigaction previous;
	/* the snapshot being taken */
	struct map map[MAX_MAPS];
	size_t nmap;
	uint64_t page[MAX_PAGES];               /* bit 0: written */
	uint32_t npage;
	uint64_t rsp;
	uint64_t probe_count, probe_ns, warm_iters;
	/* in a child */
	enum child_kind kind;
	unsigned copy;
	int fd;
	struct replay_record rec;
	struct sock_filter filter[24];
} rs = { .report_fd = -1, .mem_fd = -1 };

/* ---- lines to straddle: formatted by hand (no stdio in a handler) ---- */

struct line {
	char s[16384];
	size_t n;
};

static void put_str(struct line *l, const char *s)
{
	while (*s && l->n < sizeof l->s - 1)
		l->s[l->n++] = *s++;
}

static void put_num(struct line *l, int64_t v)
{
	char d[24];
	size_t n = 0;
	uint64_t u = v < 0 ? (uint64_t)-v : (uint64_t)v;

	put_str(l, " ");
	if (v < 0)
		put_str(l, "-");
	do
		d[n++] = (char)('0' + u % 10);
	while ((u /= 10) && n < sizeof d);
	while (n && l->n < sizeof l->s - 1)
		l->s[l->n++] = d[--n];
}

static void send_line(struct line *l)
{
	size_t at = 0;

	l->s[l->n++] = '\n';
	while (at < l->n) {
		long w = sys3(SYS_write, rs.report_fd, l->s + at, l->n - at);

		if (w <= 0)
			return;
		at += (size_t)w;
	}
}

static void start_line(struct line *l, const char *what)
{
	l->n = 0;
	put_str(l, what);
	put_num(l, rs.pid);
}

/* ---- the header's byte ---- */

static int mem_fd(void)
{
	pid_t pid = (pid_t)sys3(SYS_getpid, 0, 0, 0);

	/* /proc/self/mem opened by another process writes that process's
	 * memory: a child of the program's fork opens its own */
	if (rs.mem_fd < 0 || rs.mem_pid != pid) {
		if (rs.mem_fd >= 0 && rs.mem_pid != pid)
			sys3(SYS_close, rs.mem_fd, 0, 0);
		rs.mem_fd = (int)sys3(SYS_open, "/proc/self/mem", O_RDWR | O_CLOEXEC, 0);
		rs.mem_pid = pid;
	}
	return rs.mem_fd;
}

static bool poke_byte(uint64_t at, uint8_t b)
{
	int fd = mem_fd();

	return fd >= 0 && sys6(SYS_pwrite64, fd, (long)&b, 1, (long)at, 0, 0) == 1;
}

static void arm(void)
{
	if (atomic_load(&rs.armed) || rs.stopped)
		return;
	if (poke_byte(rs.run_hdr, 0xcc)) {
		atomic_store(&rs.armed, 1);
		rs.arms++;
	}
}

static uint64_t next_random(void)
{
	rs.rng ^= rs.rng << 13, rs.rng ^= rs.rng >> 7, rs.rng ^= rs.rng << 17;
	return rs.rng;
}

/* ---- the process's mappings, read at each snapshot ---- */

static uint64_t hex(const char **p)
{
	uint64_t v = 0;

	for (;; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0)
			return v;
		v = v << 4 | (uint64_t)d;
	}
}

/* The kernel's mappings, and the main thread's stack (the loop's own
 * stack is pre-touched around its pointer instead: a stack's growth
 * below its mapping would meet a page taken away). */
static bool kernels(const char *name)
{
	static const char *const names[] = { "[stack]", "[vvar", "[vdso]", "[vsyscall]", "[uprobes]" };

	for (size_t i = 0; name && i < sizeof names / sizeof *names; i++)
		if (strncmp(name, names[i], strlen(names[i])) == 0)
			return true;
	return false;
}

static bool overlaps(const struct map *m, uint64_t lo, uint64_t hi)
{
	return m->lo < hi && lo < m->hi;
}

/* A page the probe may take away and give back: private data, not a
 * stack (the handler's, the loop's own is pre-touched instead), not this
 * library's nor the arena's, not where the thread pointer is (the
 * slots), not the kernel's. */
static void add_map(const char *line, uint64_t sp)
{
	const char *p = line, *name;
	struct map m;
	uint64_t tp = thread_pointer(), slots = (uint64_t)(uintptr_t)slot;

	if (rs.nmap == MAX_MAPS)
		return;
	m.lo = hex(&p), p++, m.hi = hex(&p), p++;
	m.prot = (p[0] == 'r' ? PROT_READ : 0) | (p[1] == 'w' ? PROT_WRITE : 0) |
		 (p[2] == 'x' ? PROT_EXEC : 0);
	m.shared = p[3] == 's';
	name = strchr(p, '[');
	m.tracked = m.prot && !(m.prot & PROT_EXEC) && !kernels(name) &&
		    !overlaps(&m, rs.lib_lo, rs.lib_hi) && !overlaps(&m, rs.arena, rs.arena + rs.arena_size) &&
		    !overlaps(&m, sp, sp + 1) && !overlaps(&m, tp, tp + 1) &&
		    !overlaps(&m, slots, slots + sizeof slot) && !overlaps(&m, rs.rsp, rs.rsp + 1);
	rs.map[rs.nmap++] = m;
}

static void read_maps(void)
{
	static char buf[65536];
	char line[512];
	size_t used = 0;
	int fd = (int)sys3(SYS_open, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	uint64_t sp = (uint64_t)(uintptr_t)&line;
	long got;

	rs.nmap = 0;
	if (fd < 0)
		return;
	while ((got = sys3(SYS_read, fd, buf, sizeof buf)) > 0)
		for (long i = 0; i < got; i++) {
			if (buf[i] != '\n') {
				if (used < sizeof line - 1)
					line[used++] = buf[i];
				continue;
			}
			line[used] = 0;
			add_map(line, sp);
			used = 0;
		}
	sys3(SYS_close, fd, 0, 0);
}

static const struct map *map_of(uint64_t a)
{
	for (size_t i = 0; i < rs.nmap; i++)
		if (a >= rs.map[i].lo && a < rs.map[i].hi)
			return &rs.map[i];
	return NULL;
}

/* ---- in a child ---- */

static uint64_t hash_mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		h = (h ^ (v >> (8 * i) & 0xff)) * 0x100000001b3ull;
	return h;
}

/* A register's value as the same in every copy: an address in one of
 * them as its distance from its function's first byte. */
static uint64_t as_in_any_copy(uint64_t v)
{
	uint64_t base[3] = { rs.run, rs.skip, rs.func };

	for (uint32_t k = 0; k < rs.p.r->ncopies; k++)
		if (v >= rs.arena + rs.p.copy[k].at && v < rs.arena + rs.p.copy[k].at + rs.fsize)
			return (v - (rs.arena + rs.p.copy[k].at)) | 1ull << 63;
	if (v >= rs.arena + rs.p.r->probe && v < rs.arena + rs.p.r->probe + rs.fsize)
		return (v - (rs.arena + rs.p.r->probe)) | 1ull << 63;
	for (int i = 0; i < 3; i++)
		if (v >= base[i] && v < base[i] + rs.fsize)
			return (v - base[i]) | 1ull << 63;
	return v;
}

static uint64_t hash_regs(const uint64_t *v, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = hash_mix(h, as_in_any_copy(v[i]));
	return h;
}

static __attribute__((noreturn)) void child_send(void)
{
	uint64_t n = rs.kind == PROBE ? rs.rec.npages = rs.npage : 0;
	const char *at = (const char *)&rs.rec;
	size_t left = sizeof rs.rec;

	for (int part = 0; part < 2; part++) {
		while (left) {
			long w = sys3(SYS_write, rs.fd, at, left);

			if (w <= 0)
				sys_exit(1);
			at += w, left -= (size_t)w;
		}
		at = (const char *)rs.page, left = n * sizeof *rs.page;
	}
	sys_exit(0);
}

static int64_t median_of(int64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)         /* a few: insertion */
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int64_t t = v[j];

			v[j] = v[j - 1], v[j - 1] = t;
		}
	return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : -3;
}

/* ---- warm-ups: the same replay again first, from the same state ----
 *
 * A loop runs in a fresh process as it does not in a warm one: seed 000's
 * store loop across its line, forked and run at once, took 1.60 TSC
 * cycles an iteration, and 1.70 after a few thousand iterations in that
 * process, as in the program (this project's EMR guest); a cold branch
 * predictor mispredicts what the program's has learnt. So a timed child
 * first replays its snapshot until it has run warm_iters iterations, each
 * time putting back what the run wrote (the pages the probe saw written,
 * the stack around the loop's pointer) and the registers (a copy of the
 * signal's frame, returned from again), then the timed replay. */
#define WARM_MAX_RUNS 64
#define TIMED_BUDGET_NS 5000000ull     /* a child's timed replays, at the probe's pace */
#define SAVE_MAX (64ull << 20)
#define STACK_WINDOW (16u << 10)
#define FP_XSTATE_MAGIC 0x46505853u

static struct {
	uint8_t frame[32768] __attribute__((aligned(64)));
	uint64_t uc;                    /* the copy's ucontext, in frame */
	uint8_t *save;
	uint64_t stack_lo, stack_hi;
	unsigned left;
	/* the timed replays after: each the same snapshot again */
	unsigned timed_left, ntimed;
	int64_t timed[MAX_REPEATS];
	uint32_t exit;
	uint64_t hash;
	bool diverged;
} warm;

/* The signal's frame copied: its ucontext after an 8-byte return
 * address (where rt_sigreturn looks), its FP state after, aligned. */
static bool keep_frame(const ucontext_t *uc)
{
	const uint8_t *fp = (const uint8_t *)uc->uc_mcontext.fpregs;
	uint32_t magic, size = 512;
	size_t fp_at = (8 + sizeof *uc + 63) & ~(size_t)63;
	ucontext_t *copy = (ucontext_t *)(warm.frame + 8);

	if (!fp)
		return false;
	memcpy(&magic, fp + 464, 4);
	if (magic == FP_XSTATE_MAGIC)
		memcpy(&size, fp + 468, 4);
	if (fp_at + size > sizeof warm.frame)
		return false;
	memcpy(copy, uc, sizeof *uc);
	memcpy(warm.frame + fp_at, fp, size);
	copy->uc_mcontext.fpregs = (fpregset_t)(warm.frame + fp_at);
	warm.uc = (uint64_t)(uintptr_t)copy;
	return true;
}

/* What a replay writes: the pages the probe saw written, and the stack
 * around its pointer (untracked: the handler's own is there). */
static void save_or_restore(bool restore)
{
	uint8_t *at = warm.save;

	for (uint32_t i = 0; i < rs.npage; i++)
		if (rs.page[i] & 1) {
			uint8_t *page = (uint8_t *)(uintptr_t)(rs.page[i] & ~(uint64_t)1);

			memcpy(restore ? page : at, restore ? at : page, PAGE);
			at += PAGE;
		}
	if (warm.stack_hi > warm.stack_lo)
		memcpy(restore ? (uint8_t *)(uintptr_t)warm.stack_lo : at,
		       restore ? at : (uint8_t *)(uintptr_t)warm.stack_lo, warm.stack_hi - warm.stack_lo);
}

/* The warm-ups a timed child runs: enough iterations, within half its
 * bound at the probe's pace; then its timed replays (rs.repeats), within
 * a quarter more. Neither when its writes are too many to keep. */
static void prepare_warm(const ucontext_t *uc, uint64_t bound)
{
	const struct map *stack = map_of(rs.rsp);
	uint64_t written = 0, runs, timed = rs.repeats;
	long p;

	warm.left = warm.timed_left = warm.ntimed = 0, warm.diverged = false;
	if ((!rs.warm_iters && rs.repeats < 2) || !keep_frame(uc))
		return;
	for (uint32_t i = 0; i < rs.npage; i++)
		written += rs.page[i] & 1;
	warm.stack_lo = warm.stack_hi = 0;
	if (stack && (stack->prot & PROT_WRITE)) {
		warm.stack_lo = rs.rsp - STACK_WINDOW > stack->lo ? rs.rsp - STACK_WINDOW : stack->lo;
		warm.stack_hi = rs.rsp + STACK_WINDOW < stack->hi ? rs.rsp + STACK_WINDOW : stack->hi;
	}
	if (written * PAGE > SAVE_MAX)
		return;
	p = sys6(SYS_mmap, 0, (long)(written * PAGE + 2 * STACK_WINDOW), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p < 0 && p > -4096)
		return;
	warm.save = (uint8_t *)p;
	save_or_restore(false);
	runs = (rs.warm_iters + rs.probe_count - 1) / (rs.probe_count ? rs.probe_count : 1);
	if (rs.probe_ns && runs > bound / 2 / rs.probe_ns)
		runs = bound / 2 / rs.probe_ns;
	warm.left = (unsigned)(runs < WARM_MAX_RUNS ? runs : WARM_MAX_RUNS);
	if (rs.probe_ns && timed > bound / 4 / rs.probe_ns)
		timed = bound / 4 / rs.probe_ns;
	/* a replay of milliseconds is not moved by what lengthens one short
	 * replay, and each repeat of it costs as much again in every child
	 * (lz4 -9's block loop: 100 ms a replay, one run of 24 copies took
	 * 130 s of a 25 s replay) */
	if (rs.probe_ns && timed > TIMED_BUDGET_NS / rs.probe_ns)
		timed = TIMED_BUDGET_NS / rs.probe_ns;
	warm.timed_left = timed > 1 ? (unsigned)timed - 1 : 0;
}

/* The replay's writes undone, the snapshot's registers again: its
 * next run. */
static __attribute__((noreturn)) void run_again(void)
{
	save_or_restore(true);
	replay_resume(warm.uc);
}

/* A warm-up ended: the next run. */
static void warm_again(void)
{
	if (rs.kind != TIMED || !warm.left)
		return;
	warm.left--;
	run_again();
}

/* A timed replay ended (rs.rec): the snapshot's state again while more
 * are asked, else rs.rec's ticks their median, and its registers a
 * divergence's where one replay left elsewhere. The same state replayed
 * in one warm child: a replay that an interruption or a miss of the
 * host's lengthened (sha3's keccak loop: one in ten of its replays, by
 * 25 to 700 cycles over 300) does not move the median. */
static void time_again(void)
{
	if (rs.kind != TIMED || (!warm.timed_left && !warm.ntimed))
		return;
	if (!warm.ntimed)
		warm.exit = rs.rec.exit, warm.hash = rs.rec.hash;
	warm.diverged |= rs.rec.exit != warm.exit || rs.rec.hash != warm.hash;
	warm.timed[warm.ntimed++] = (int64_t)rs.rec.ticks;
	if (warm.timed_left) {
		warm.timed_left--;
		run_again();
	}
	rs.rec.ticks = (uint64_t)median_of(warm.timed, warm.ntimed);
	if (warm.diverged)
		rs.rec.hash = ~warm.hash;
}

static uint64_t clock_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((visibility("hidden"))) void replay_clock_start(void)
{
	replay_r.t0 = clock_now();
}

__attribute__((visibility("hidden"))) void replay_child_left(void)
{
	const struct replay_regs *r = &replay_r;
	uint64_t v[] = { r->rax, r->rbx, r->rcx, r->rdx, r->rsi, r->rdi, r->rbp, r->rsp, r->r8,
			 r->r9, r->r10, r->r11, r->r12, r->r13, r->r14, r->r15 };

	warm_again();
	if (rs.kind == TIMED && rs.clock)
		replay_r.t1 = clock_now();
	rs.rec.status = LEFT;
	rs.rec.exit = (uint32_t)slot[PLAN_SLOT_EXIT];
	rs.rec.ticks = r->t1 - r->t0;
	rs.rec.count = slot[PLAN_SLOT_COUNT];
	rs.rec.hash = hash_regs(v, sizeof v / sizeof *v);
	time_again();
	child_send();
}

/* An exit with no room for a jump: its int3, the kernel's time in the
 * span (the same at every offset). */
static bool trapped_exit(ucontext_t *uc)
{
	uint64_t t1 = rs.clock ? clock_now() : __builtin_ia32_rdtsc();
	greg_t *g = uc->uc_mcontext.gregs;
	uint64_t at = (uint64_t)g[REG_RIP] - 1;
	uint32_t copy = rs.kind == PROBE ? rs.p.r->ncopies : rs.copy;

	for (uint32_t i = 0; i < rs.p.r->ntrap; i++) {
		const struct plan_replay_trap *t = &rs.p.trap[i];
		uint64_t v[] = { (uint64_t)g[REG_RAX], (uint64_t)g[REG_RBX], (uint64_t)g[REG_RCX],
			(uint64_t)g[REG_RDX], (uint64_t)g[REG_RSI], (uint64_t)g[REG_RDI],
			(uint64_t)g[REG_RBP], (uint64_t)g[REG_RSP], (uint64_t)g[REG_R8],
			(uint64_t)g[REG_R9], (uint64_t)g[REG_R10], (uint64_t)g[REG_R11],
			(uint64_t)g[REG_R12], (uint64_t)g[REG_R13], (uint64_t)g[REG_R14],
			(uint64_t)g[REG_R15] };

		if (t->copy != copy || rs.arena + t->at != at)
			continue;
		rs.rec = (struct replay_record){ .status = LEFT, .exit = t->exit, .trapped = 1,
			.ticks = t1 - replay_r.t0, .count = slot[PLAN_SLOT_COUNT],
			.hash = hash_regs(v, sizeof v / sizeof *v) };
		return true;
	}
	return false;
}

/* The probe's first touch of a page it took away: recorded, given back
 * (read: readable only, so that a write after is seen too). */
static bool first_touch(siginfo_t *si, ucontext_t *uc)
{
	uint64_t a = (uint64_t)(uintptr_t)si->si_addr, page = a & ~(uint64_t)(PAGE - 1);
	bool write = uc->uc_mcontext.gregs[REG_ERR] & 2;
	const struct map *m = map_of(a);
	static uint64_t last = 1;

	/* an instruction fetched there (error code bit 4), or the same access
	 * again after the page was given back: a fault of the loop's own */
	if (rs.kind != PROBE || !m || !m->tracked || si->si_code != SEGV_ACCERR ||
	    (uc->uc_mcontext.gregs[REG_ERR] & 16) || last == (page | write))
		return false;
	last = page | write;
	if (write && m->shared) {
		rs.rec = (struct replay_record){ .status = SHARED_WRITE, .addr = a };
		child_send();
	}
	if (write && !(m->prot & PROT_WRITE))
		return false;
	if (rs.npage < MAX_PAGES)
		rs.page[rs.npage++] = page | write;
	else
		rs.rec.overflow++;
	return replay_mprotect((void *)page, PAGE, write ? m->prot : m->prot & ~PROT_WRITE) == 0;
}

static void on_child_signal(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	if (sig == SIGSEGV && first_touch(si, uc))
		return;
	if (sig == SIGTRAP && trapped_exit(uc)) {
		warm_again();
		time_again();
		child_send();
	}
	if (sig == SIGSYS) {
		rs.rec = (struct replay_record){ .status = SYSCALL, .detail = (uint32_t)si->si_syscall,
			.addr = (uint64_t)(uintptr_t)si->si_call_addr };
		child_send();
	}
	rs.rec = (struct replay_record){ .status = SIGNALLED, .detail = (uint32_t)sig,
		.addr = (uint64_t)(uintptr_t)si->si_addr };
	child_send();
}

static const int child_signals[] = { SIGSEGV, SIGBUS, SIGSYS, SIGTRAP, SIGILL, SIGFPE };

static void child_handlers(void)
{
	static stack_t alt = { .ss_sp = replay_stack, .ss_size = CHILD_STACK };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_child_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	sigaltstack(&alt, NULL);
	for (size_t i = 0; i < sizeof child_signals / sizeof *child_signals; i++)
		sigaction(child_signals[i], &sa, NULL);
}

#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define IS(k, t, f) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))

/* Only the pipe's write, the ends, the signal's return; the probe also
 * its own mprotect, a clock a system call where the vDSO has none. Any
 * other system call: the probe is told (SIGSYS), a timed child killed. */
static void seal(void)
{
	uint64_t ip = (uint64_t)(uintptr_t)replay_mprotect_ret;
	uint32_t fail = rs.kind == PROBE ? SECCOMP_RET_TRAP : SECCOMP_RET_KILL_PROCESS;
	struct sock_filter f[] = {
		/* 0 */ LD(offsetof(struct seccomp_data, arch)),
		/* 1 */ IS(AUDIT_ARCH_X86_64, 1, 0),
		/* 2 */ RET(SECCOMP_RET_KILL_PROCESS),
		/* 3 */ LD(offsetof(struct seccomp_data, nr)),
		/* 4 */ IS(SYS_rt_sigreturn, 13, 0),                    /* 18 */
		/* 5 */ IS(SYS_exit_group, 12, 0),
		/* 6 */ IS(SYS_exit, 11, 0),
		/* 7 */ IS(SYS_clock_gettime, rs.clock ? 10 : 11, 0),   /* 18 or 19 */
		/* 8 */ IS(SYS_write, 3, 0),                            /* 12 */
		/* 9 */ IS(SYS_mprotect, rs.kind == PROBE ? 4 : 9, 0),  /* 14 or 19 */
		/* 10 */ RET(fail),
		/* 11 */ RET(fail),
		/* 12 */ LD(offsetof(struct seccomp_data, args[0])),
		/* 13 */ IS((uint32_t)rs.fd, 4, 5),                     /* 18, 19 */
		/* 14 */ LD(offsetof(struct seccomp_data, instruction_pointer)),
		/* 15 */ IS((uint32_t)ip, 0, 3),                        /* 16, 19 */
		/* 16 */ LD(offsetof(struct seccomp_data, instruction_pointer) + 4),
		/* 17 */ IS((uint32_t)(ip >> 32), 0, 1),                /* 18, 19 */
		/* 18 */ RET(SECCOMP_RET_ALLOW),
		/* 19 */ RET(fail),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof f / sizeof *f), rs.filter };

	memcpy(rs.filter, f, sizeof f);
	sys3(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0);
	if (sys3(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog) &&
	    sys3(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		sys_exit(3);
}

/* Touch the pages the probe touched (a write to each written one: fork's
 * copies made now), the loop's stack around its pointer, and the copy's
 * own code; shared writable pages made read-only. */
static void prepare_timed(uint64_t copy)
{
	const struct map *stack = map_of(rs.rsp);

	for (uint32_t i = 0; i < rs.npage; i++) {
		volatile uint8_t *q = (volatile uint8_t *)(uintptr_t)(rs.page[i] & ~(uint64_t)1);
		uint8_t v = *q;

		if (rs.page[i] & 1)
			*q = v;
	}
	for (uint64_t a = (rs.rsp & ~(uint64_t)(PAGE - 1)) - 2 * PAGE; stack && a <= rs.rsp; a += PAGE)
		if (a >= stack->lo && a < stack->hi && (stack->prot & PROT_WRITE)) {
			volatile uint8_t *q = (volatile uint8_t *)(uintptr_t)a;
			uint8_t v = *q;

			*q = v;
		}
	for (uint64_t a = copy & ~(uint64_t)(PAGE - 1); a < copy + rs.fsize + 4096; a += PAGE)
		(void)*(volatile uint8_t *)(uintptr_t)a;
	(void)*(volatile uint8_t *)(uintptr_t)replay_enter_tsc;
	for (size_t i = 0; i < rs.nmap; i++)
		if (rs.map[i].shared && (rs.map[i].prot & PROT_WRITE))
			sys3(SYS_mprotect, rs.map[i].lo, rs.map[i].hi - rs.map[i].lo,
			     rs.map[i].prot & ~PROT_WRITE);
}

static void hide_tracked(void)
{
	for (size_t i = 0; i < rs.nmap; i++)
		if (rs.map[i].tracked)
			sys3(SYS_mprotect, rs.map[i].lo, rs.map[i].hi - rs.map[i].lo, PROT_NONE);
}

/* An address in the function (original, running or skip copy) as the
 * same place in the copy at `to`. */
static uint64_t into(uint64_t v, uint64_t to)
{
	uint64_t base[3] = { rs.func, rs.run, rs.skip };

	for (int i = 0; i < 3; i++)
		if (v >= base[i] && v < base[i] + rs.fsize)
			return to + (v - base[i]);
	return v;
}

static const int gpr[] = { REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP,
			   REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15 };

/* In the child: its pipe, handlers, the thread-local slots, the
 * registers in its copy, pages prepared, the filter; the signal's return
 * starts the replay. */
static void child_enter(ucontext_t *uc, enum child_kind kind, unsigned k, int fd, int cpu,
			uint64_t bound)
{
	greg_t *g = uc->uc_mcontext.gregs;
	uint64_t to = rs.arena + (kind == PROBE ? rs.p.r->probe : rs.p.copy[k].at);

	rs.kind = kind, rs.copy = k, rs.fd = fd, rs.rec = (struct replay_record){ 0 };
	sys3(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0);
	if (kind == TIMED && cpu >= 0) {
		uint64_t set[16] = { 0 };

		if (cpu < 1024) {
			set[cpu / 64] = 1ull << (cpu % 64);
			sys3(SYS_sched_setaffinity, 0, sizeof set, set);
		}
	}
	child_handlers();
	slot[PLAN_SLOT_COUNT] = 0, slot[PLAN_SLOT_DOWN] = DOWN_NEVER, slot[PLAN_SLOT_EXIT] = ~0u;
	slot[PLAN_SLOT_LEAVE] = (uint64_t)(uintptr_t)(kind == PROBE || rs.clock ? replay_leave_plain :
						       replay_leave_tsc);
	for (size_t i = 0; i < sizeof gpr / sizeof *gpr; i++)
		g[gpr[i]] = (greg_t)into((uint64_t)g[gpr[i]], to);
	replay_r.target = to + (rs.p.r->header - rs.p.r->func);
	g[REG_RIP] = (greg_t)(kind == PROBE ? replay_r.target : rs.clock ?
			      (uint64_t)(uintptr_t)replay_enter_clock : (uint64_t)(uintptr_t)replay_enter_tsc);
	sigfillset(&uc->uc_sigmask);
	for (size_t i = 0; i < sizeof child_signals / sizeof *child_signals; i++)
		sigdelset(&uc->uc_sigmask, child_signals[i]);
	/* the signal's return sets the alternate stack from the frame: ours,
	 * not the program's (its memory may be a page the probe takes away) */
	uc->uc_stack = (stack_t){ .ss_sp = replay_stack, .ss_size = CHILD_STACK };
	if (kind == PROBE) {
		hide_tracked();
	} else {
		prepare_timed(to);
		prepare_warm(uc, bound);
	}
	seal();
}

/* ---- in the parent: a child made, heard and waited for ---- */

/* All of n bytes from fd by the deadline; false on the end, an error or
 * time out (*late). */
static bool read_all(int fd, void *buf, size_t n, uint64_t deadline, bool *late)
{
	char *p = buf;

	while (n) {
		uint64_t t = now_ns();
		struct pollfd pf = { fd, POLLIN, 0 };
		long r;

		if (t >= deadline) {
			*late = true;
			return false;
		}
		r = sys3(SYS_poll, &pf, 1, (deadline - t) / 1000000 + 1);
		if (r < 0 && r != -EINTR)
			return false;
		if (r <= 0)
			continue;
		r = sys3(SYS_read, fd, p, n);
		if (r <= 0)
			return false;
		p += r, n -= (size_t)r;
	}
	return true;
}

enum { CHILD_IS_ME = -100 };

/* A child of kind/k: 0 with *rec, or why not (-1 late, -3 a signal
 * (*sig), -4 the filter's kill); in the child, CHILD_IS_ME. */
static int run_child(ucontext_t *uc, enum child_kind kind, unsigned k, uint64_t bound_ns,
		     struct replay_record *rec, int *sig, uint64_t *took_ns)
{
	int p[2], st = 0, cpu = -1;
	unsigned c = 0;
	uint64_t t0 = now_ns();
	bool late = false, got;
	long pid, w;

	if (sys3(SYS_pipe2, p, O_CLOEXEC, 0))
		return -3;
	if (sys3(SYS_getcpu, &c, NULL, NULL) == 0)
		cpu = (int)c;
	pid = sys6(SYS_clone, 0, 0, 0, 0, 0, 0);
	rs.children += pid > 0;
	if (pid == 0) {
		sys3(SYS_close, p[0], 0, 0);
		child_enter(uc, kind, k, p[1], cpu, bound_ns);
		return CHILD_IS_ME;
	}
	sys3(SYS_close, p[1], 0, 0);
	if (pid < 0) {
		sys3(SYS_close, p[0], 0, 0);
		return -3;
	}
	got = read_all(p[0], rec, sizeof *rec, t0 + bound_ns, &late);
	if (got && kind == PROBE && rec->npages <= MAX_PAGES)
		got = read_all(p[0], rs.page, rec->npages * sizeof *rs.page, t0 + bound_ns, &late);
	rs.npage = got && kind == PROBE ? rec->npages : rs.npage;
	if (!got)
		sys3(SYS_kill, pid, SIGKILL, 0);
	while ((w = sys6(SYS_wait4, pid, (long)&st, __WALL, 0, 0, 0)) == -EINTR)
		;
	rs.reaped += w == pid;
	sys3(SYS_close, p[0], 0, 0);
	*took_ns = now_ns() - t0;
	*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	if (got)
		return 0;
	return late ? -1 : *sig == SIGSYS ? -4 : -3;
}

/* ---- a snapshot ---- */

static void say_probe_failure(unsigned seq, int why, const struct replay_record *r, int sig,
			      uint64_t took)
{
	static struct line l;

	start_line(&l, "replay");
	put_num(&l, seq);
	if (why == -1) {
		put_str(&l, " timeout"), put_num(&l, (int64_t)(took / 1000000));
	} else if (why < 0) {
		put_str(&l, " killed"), put_num(&l, sig);
	} else if (r->status == SYSCALL) {
		put_str(&l, " syscall"), put_num(&l, r->detail), put_num(&l, (int64_t)r->addr);
		rs.stopped = true;              /* refused: the loop makes a system call */
	} else if (r->status == SHARED_WRITE) {
		put_str(&l, " shared"), put_num(&l, (int64_t)r->addr);
		rs.stopped = true;
	} else {
		put_str(&l, " signal"), put_num(&l, r->detail), put_num(&l, (int64_t)r->addr);
	}
	send_line(&l);
}

/* 0 in the parent when done, CHILD_IS_ME in a child. */
static int snapshot(ucontext_t *uc)
{
	/* static: a handler may run on a small alternate stack */
	static struct replay_record probe, rec;
	static int64_t ticks[PLAN_REPLAY_MAX_COPIES];
	static unsigned order[PLAN_REPLAY_MAX_COPIES];
	static struct line l;
	unsigned n = rs.p.r->ncopies, seq = ++rs.snapshots;
	uint64_t took, bound;
	int sig, why;

	rs.rsp = (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
	read_maps();
	rs.npage = 0;
	why = run_child(uc, PROBE, 0, rs.bound_ns, &probe, &sig, &took);
	if (why == CHILD_IS_ME)
		return CHILD_IS_ME;
	if (why || probe.status != LEFT) {
		say_probe_failure(seq, why, &probe, sig, took);
		return 0;
	}
	if (probe.count > rs.most)
		rs.most = probe.count;
	rs.probe_count = probe.count, rs.probe_ns = took;
	bound = took * TIMED_BOUND_FACTOR > TIMED_BOUND_MIN_NS ? took * TIMED_BOUND_FACTOR :
		TIMED_BOUND_MIN_NS;
	/* each copy once, in a random order (each child times its copy
	 * `repeats` times: time_again) */
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(next_random() % i), t = order[i - 1];

		order[i - 1] = order[j], order[j] = t;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned k = order[i];
		uint64_t t;

		why = run_child(uc, TIMED, k, bound, &rec, &sig, &t);
		if (why == CHILD_IS_ME)
			return CHILD_IS_ME;
		ticks[k] = why ? why : rec.status != LEFT ? -3 :
			   rec.exit != probe.exit || rec.hash != probe.hash ? -2 : (int64_t)rec.ticks;
	}
	start_line(&l, "replay");
	put_num(&l, seq);
	put_str(&l, " ok");
	put_num(&l, (int64_t)probe.count), put_num(&l, probe.exit), put_num(&l, probe.npages);
	put_num(&l, probe.overflow), put_num(&l, (int64_t)(took / 1000)), put_num(&l, probe.trapped);
	for (unsigned k = 0; k < n; k++)
		put_num(&l, ticks[k]);
	send_line(&l);
	return 0;
}

/* ---- the traps and the ticks, in the program ---- */

static void pass_on(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *p = &rs.previous;

	if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction)
		p->sa_sigaction(sig, si, uc);
	else if (p->sa_handler == SIG_IGN)
		return;
	else if (p->sa_handler != SIG_DFL)
		p->sa_handler(sig);
	else {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* Registers in one copy of the function moved to the same place in
 * another. */
static void move_to(ucontext_t *uc, uint64_t to)
{
	greg_t *g = uc->uc_mcontext.gregs;

	for (size_t i = 0; i < sizeof gpr / sizeof *gpr; i++)
		g[gpr[i]] = (greg_t)into((uint64_t)g[gpr[i]], to);
}

/* At the running copy's header: the byte put back, and the thread sent
 * through the skip copy's countdown. In a process the program forked
 * (the int3 came with its memory) no snapshot is taken: said once. */
static void at_header(ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;

	if ((pid_t)sys3(SYS_getpid, 0, 0, 0) != rs.pid) {
		poke_byte(rs.run_hdr, rs.hdr_byte);
		g[REG_RIP] = (greg_t)rs.run_hdr;
		if (!rs.fork_said) {
			struct line l;

			rs.fork_said = true;
			start_line(&l, "replay-fork");
			put_num(&l, sys3(SYS_getpid, 0, 0, 0));
			send_line(&l);
		}
		rs.stopped = true;
		return;
	}
	g[REG_RIP] = (greg_t)rs.run_hdr;
	if (!atomic_exchange(&rs.armed, 0))
		return;                 /* another thread put the byte back: again */
	poke_byte(rs.run_hdr, rs.hdr_byte);
	rs.fired++;
	/* place's time is up: the run goes on as the program, untouched */
	if (rs.deadline_ns && now_ns() > rs.deadline_ns)
		rs.stopped = true;
	if (rs.stopped || rs.snapshots >= rs.max)
		return;
	slot[PLAN_SLOT_DOWN] = rs.most > 1 ? next_random() % rs.most : 0;
	move_to(uc, rs.skip);
	g[REG_RIP] = (greg_t)rs.skip_hdr;
}

/* At the skip copy's int3: the registers are the header's. */
static int at_skip_trap(ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;

	g[REG_RIP] = (greg_t)rs.skip_hdr;
	slot[PLAN_SLOT_DOWN] = DOWN_NEVER;
	if ((pid_t)sys3(SYS_getpid, 0, 0, 0) == rs.pid && !rs.stopped && rs.snapshots < rs.max &&
	    snapshot(uc) == CHILD_IS_ME)
		return CHILD_IS_ME;
	move_to(uc, rs.run);
	g[REG_RIP] = (greg_t)rs.run_hdr;
	return 0;
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uint64_t at = (uint64_t)uc->uc_mcontext.gregs[REG_RIP] - 1;
	int saved = errno;

	if (si->si_code == SI_KERNEL && at == rs.run_hdr)
		at_header(uc);
	else if (si->si_code == SI_KERNEL && at == rs.skip_trap)
		at_skip_trap(uc);
	else
		pass_on(sig, si, ucv);
	errno = saved;
}

static void on_tick(int sig)
{
	int saved = errno;

	(void)sig;
	if ((pid_t)sys3(SYS_getpid, 0, 0, 0) == rs.pid && rs.snapshots < rs.max)
		arm();
	errno = saved;
}

/* ---- starting, ending ---- */

static int lib_range(struct dl_phdr_info *info, size_t size, void *ctx)
{
	uint64_t me = (uint64_t)(uintptr_t)ctx;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type == PT_LOAD && me >= lo && me < hi) {
			rs.lib_lo = UINT64_MAX, rs.lib_hi = 0;
			for (int k = 0; k < info->dlpi_phnum; k++)
				if (info->dlpi_phdr[k].p_type == PT_LOAD) {
					uint64_t a = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr;

					rs.lib_lo = a < rs.lib_lo ? a : rs.lib_lo;
					a += info->dlpi_phdr[k].p_memsz;
					rs.lib_hi = a > rs.lib_hi ? a : rs.lib_hi;
				}
			rs.lib_lo &= ~(uint64_t)(PAGE - 1);
			rs.lib_hi = (rs.lib_hi + PAGE - 1) & ~(uint64_t)(PAGE - 1);
			return 1;
		}
	}
	return 0;
}

/* STRADDLE_REPLAY=TICK_NS,BOUND_NS,MAX,SEED,CLOCK,MOST,REPEATS,WARM[,DEADLINE]
 * (place --replay; MOST: the most iterations an earlier run's replay saw;
 * REPEATS: timed replays of each copy a snapshot; WARM: the iterations a
 * timed child runs first; DEADLINE: CLOCK_MONOTONIC ns after which no
 * snapshot is taken, place's time) */
static bool parse_env(void)
{
	const char *e = getenv("STRADDLE_REPLAY");
	unsigned long long v[9] = { 0 };
	char *end = NULL;
	int n = 0;

	if (!e || !*e)
		return false;
	while (n < 9) {
		v[n++] = strtoull(e, &end, 10);
		if (end == e || (*end && *end != ','))
			return false;
		if (!*end)
			break;
		e = end + 1;
	}
	if (n < 8 || *end)
		return false;
	rs.deadline_ns = v[8];
	rs.warm_iters = v[7];
	rs.tick_ns = v[0], rs.bound_ns = v[1], rs.max = (unsigned)v[2];
	rs.rng = v[3] ? v[3] : 1, rs.clock = (unsigned)v[4], rs.most = v[5];
	rs.repeats = v[6] < 1 ? 1 : v[6] > MAX_REPEATS ? MAX_REPEATS : (unsigned)v[6];
	return rs.tick_ns && rs.bound_ns;
}

static bool take_tick_signal(char *why, size_t n)
{
	struct sigaction sa, old;
	struct sigevent ev;

	for (int sig = SIGRTMAX - 1; sig >= SIGRTMIN; sig--)
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO)) {
			rs.tick_sig = sig;
			break;
		}
	if (!rs.tick_sig) {
		snprintf(why, n, "every real-time signal is taken: none left for the snapshots' timer");
		return false;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_tick;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = rs.tick_sig;
	if (sigaction(rs.tick_sig, &sa, NULL) ||
	    timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &rs.timer)) {
		snprintf(why, n, "no timer for the snapshots: %s", strerror(errno));
		return false;
	}
	return true;
}

bool replay_start(const struct replay_plan *p, uint64_t arena, uint64_t arena_size, uint64_t bias,
		  int report_fd, char *why, size_t n)
{
	struct sigaction sa;
	struct itimerspec its;

	if (!parse_env() || rs.started)
		return true;
	static struct plan_replay r;
	static struct plan_replay_copy copy[PLAN_REPLAY_MAX_COPIES];
	static struct plan_replay_trap trap[MAX_TRAPS];

	if (p->r->ncopies > PLAN_REPLAY_MAX_COPIES || p->r->ntrap > MAX_TRAPS) {
		snprintf(why, n, "at most %d copies and %d exits through a trap", PLAN_REPLAY_MAX_COPIES,
			 MAX_TRAPS);
		return false;
	}
	/* kept here: the plan is in the program's heap, which a probe takes
	 * away from under its own handlers */
	r = *p->r;
	memcpy(copy, p->copy, r.ncopies * sizeof *copy);
	memcpy(trap, p->trap, r.ntrap * sizeof *trap);
	rs.p = (struct replay_plan){ &r, copy, trap };
	p = &rs.p;
	rs.arena = arena, rs.arena_size = arena_size, rs.bias = bias, rs.report_fd = report_fd;
	rs.pid = (pid_t)sys3(SYS_getpid, 0, 0, 0);
	rs.func = bias + p->r->func, rs.fsize = p->r->func_size;
	rs.run = arena + p->r->run, rs.skip = arena + p->r->skip;
	rs.run_hdr = rs.run + (p->r->header - p->r->func);
	rs.skip_hdr = rs.skip + (p->r->header - p->r->func);
	rs.skip_trap = arena + p->r->skip_trap;
	rs.hdr_byte = *(const uint8_t *)(uintptr_t)rs.run_hdr;
	dl_iterate_phdr(lib_range, (void *)(uintptr_t)replay_start);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof child_signals / sizeof *child_signals; i++)
		sigdelset(&sa.sa_mask, child_signals[i]);
	if (sigaction(SIGTRAP, &sa, &rs.previous)) {
		snprintf(why, n, "cannot catch SIGTRAP: %s", strerror(errno));
		return false;
	}
	if (!take_tick_signal(why, n))
		return false;
	its.it_interval.tv_sec = its.it_value.tv_sec = (time_t)(rs.tick_ns / 1000000000u);
	its.it_interval.tv_nsec = its.it_value.tv_nsec = (long)(rs.tick_ns % 1000000000u);
	rs.started = true;
	arm();
	if (timer_settime(rs.timer, 0, &its, NULL)) {
		snprintf(why, n, "cannot start the snapshots' timer: %s", strerror(errno));
		return false;
	}
	struct line l;

	start_line(&l, "replay-start");
	put_num(&l, p->r->ncopies), put_num(&l, rs.clock), put_num(&l, rs.tick_sig);
	send_line(&l);
	return true;
}

__attribute__((destructor)) static void replay_end(void)
{
	struct line l;

	if (!rs.started || (pid_t)sys3(SYS_getpid, 0, 0, 0) != rs.pid)
		return;
	start_line(&l, "replay-end");
	put_num(&l, rs.arms), put_num(&l, rs.fired), put_num(&l, rs.snapshots);
	put_num(&l, rs.children), put_num(&l, rs.reaped);
	send_line(&l);
}

#else

int64_t replay_slot_offset(uint64_t s)
{
	(void)s;
	return 0;
}

bool replay_start(const struct replay_plan *p, uint64_t arena, uint64_t arena_size, uint64_t bias,
		  int report_fd, char *why, size_t n)
{
	(void)p, (void)arena, (void)arena_size, (void)bias, (void)report_fd;
	if (getenv("STRADDLE_REPLAY")) {
		snprintf(why, n, "replay runs x86-64 code only");
		return false;
	}
	return true;
}

#endif
