/* Loops for place --replay (tests/cmd/t_replay.sh), one a mode, each in a
 * function of its own with one loop:
 *
 *   replay sum N          sum_loop over an array, N calls: replayed
 *   replay syscall N      syscall_loop calls getppid() every iteration:
 *                         refused (a system call), named
 *   replay stdio FILE N   stdio_loop puts characters into FILE through a
 *                         1 MiB stdio buffer, flushed at exit: replayed,
 *                         and FILE holds the program's bytes alone
 *   replay spin N         spin_loop waits for a flag another thread sets:
 *                         a replay (one thread) never leaves it, killed
 *   replay fork N         the loop runs in a child the program forks
 *   replay thread N       the loop runs in a second thread
 *   replay once N         once_loop, one iteration a call: its replays
 *                         all alike
 *   replay refused N      goto_loop (a computed goto: its function cannot
 *                         be copied) and callfirst_loop (a call in its
 *                         header's first bytes: no counter there)
 *   replay outer N        outer_loop: N rounds of a 2000-iteration inner
 *                         loop and a getppid(), as a filter's read loop
 *                         around its scan of a buffer: the outer loop
 *                         refused, its inner loop replayed (t_prove)
 *   replay abort N        abort_loop, whose error path calls abort()
 *                         and falls into code that jumps back to the
 *                         header: replayed, abort never returning (were
 *                         it to, the loop would be irreducible)
 *   replay irr N          irr_loop, a cycle of two blocks entered at
 *                         either (odd calls at the second): irreducible,
 *                         replayed from its header, at most 200
 *                         iterations a replay
 *
 * Each prints a checksum every run prints alike. Built without vector
 * loops: each function has the one loop its name says. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LEN 2048

static long data[LEN];

__attribute__((noinline)) long sum_loop(const long *a, long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += a[i] ^ (s >> 3);
	return s;
}

__attribute__((noinline)) long syscall_loop(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++) {
		s = s * 0x5bd1e995 + (i ^ 0x7fffffff);
		s ^= getppid() & 1;
	}
	return s;
}

__attribute__((noinline)) long stdio_loop(FILE *f, long n)
{
	for (long i = 0; i < n; i++)
		putc('a' + (int)(i % 26), f);
	return n;
}

__attribute__((noinline)) long goto_loop(long n)
{
	static void *const next[] = { &&again, &&done };
	long s = 0;
again:
	s += n;
	goto *next[--n <= 0];
done:
	return s;
}

__attribute__((noinline)) long callfirst_loop(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += getppid();
	return s;
}

/* Its loop runs once each call (k below 256): every replay is one
 * iteration, its own cost as large as the loop's. */
__attribute__((noinline)) long once_loop(const long *p, unsigned long k)
{
	long s = 0;

	do {
		s += p[k & 7];
		k >>= 8;
	} while (k);
	return s;
}

/* The outer loop's header at 50 of its line, its 45 bytes across two
 * lines where one would do; the inner loop [64, 75) whole in the second:
 * at its best. The outer loop makes a system call every round. */
long outer_loop(long n);
__asm__(".text\n"
	".p2align 6\n"
	".globl outer_loop\n"
	".type outer_loop, @function\n"
	"outer_loop:\n"
	"	push %rbx\n"                   /* 0: 1 byte */
	"	mov %rdi, %rbx\n"              /* 1: 3 */
	"	xor %r8d, %r8d\n"              /* 4: 3 */
	"	.nops 43\n"                    /* 7..50 */
	"1:	mov $2000, %ecx\n"             /* 50: the outer header, 5 */
	"	.nops 9\n"                     /* 55..64 */
	"2:	add %rcx, %r8\n"               /* 64: the inner loop, 3 */
	"	imul $3, %r8, %r8\n"           /* 67: 4 */
	"	dec %ecx\n"                    /* 71: 2 */
	"	jnz 2b\n"                      /* 73: 2 */
	"	mov $110, %eax\n"              /* 75: getppid */
	"	syscall\n"
	"	and $1, %eax\n"
	"	add %rax, %r8\n"
	"	dec %rbx\n"
	"	jnz 1b\n"
	"	mov %r8, %rax\n"
	"	pop %rbx\n"
	"	ret\n"
	".size outer_loop, .-outer_loop\n");

/* A 2000-iteration loop with an error path the program never takes: at
 * counter -1 it calls abort, and the code after the call, also where a
 * set flag enters from the top, jumps back to the header. Were the call
 * to return, the loop would be a cycle entered at its header and at that
 * code (irreducible); abort never returns, so the loop is the natural one
 * [1b, ret): 2: is its only exit besides the count. */
long abort_loop(long n, long flag);
__asm__(".text\n"
	".p2align 6\n"
	".globl abort_loop\n"
	".type abort_loop, @function\n"
	"abort_loop:\n"
	"	xor %eax, %eax\n"
	"	test %rsi, %rsi\n"
	"	jne 3f\n"
	"1:	add %rdi, %rax\n"             /* the header */
	"	imul $3, %rax, %rax\n"
	"	cmp $-1, %rdi\n"
	"	je 2f\n"
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	"2:	call abort@PLT\n"
	"3:	mov $1, %edi\n"
	"	jmp 1b\n"
	".size abort_loop, .-abort_loop\n");

/* Two blocks in a cycle, each entered from the function's first block:
 * no block dominates the other, so the cycle has two entries. n - 1 or
 * n trips through 1 (the block the retreating edge enters, its header). */
long irr_loop(long n, long second);
__asm__(".text\n"
	".p2align 6\n"
	".globl irr_loop\n"
	".type irr_loop, @function\n"
	"irr_loop:\n"
	"	xor %eax, %eax\n"
	"	test %rsi, %rsi\n"
	"	jne 2f\n"
	"1:	add %rdi, %rax\n"
	"	imul $3, %rax, %rax\n"
	"2:	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".size irr_loop, .-irr_loop\n");

static volatile int flag;

__attribute__((noinline)) long spin_loop(volatile int *f)
{
	long n = 0;

	while (!*f)
		n++;
	return n;
}

static void *set_flag(void *arg)
{
	volatile long w = 0;

	for (long i = 0; i < 200000; i++)
		w += i;
	flag = 1;
	return arg;
}

static long sums(long calls)
{
	long s = 0;

	for (long c = 0; c < calls; c++) {
		data[c % LEN] = c;
		s += sum_loop(data, LEN);
	}
	return s;
}

static void *sums_thread(void *arg)
{
	*(long *)arg = sums(*(long *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? strtol(argv[argc - 1], NULL, 10) : 1000, s = 0;

	for (long i = 0; i < LEN; i++)
		data[i] = i * 7919;
	if (!strcmp(mode, "sum")) {
		s = sums(n);
	} else if (!strcmp(mode, "syscall")) {
		for (long c = 0; c < n; c++)
			s += syscall_loop(64);
	} else if (!strcmp(mode, "stdio") && argc == 4) {
		static char buf[1 << 20];
		FILE *f = fopen(argv[2], "w");

		if (!f || setvbuf(f, buf, _IOFBF, sizeof buf))
			return 2;
		for (long c = 0; c < n; c++)
			s += stdio_loop(f, 20);
		s += sums(n * 20);
		if (fclose(f))
			return 2;
	} else if (!strcmp(mode, "spin")) {
		/* odd rounds wait for the thread (a replay never sees it set the
		 * flag), even ones find it set */
		for (long c = 0; c < n; c++) {
			pthread_t t;

			flag = 0;
			pthread_create(&t, NULL, set_flag, NULL);
			if (c % 2 == 0)
				pthread_join(t, NULL);
			spin_loop(&flag);
			if (c % 2)
				pthread_join(t, NULL);
			s++;
		}
	} else if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		int st;

		if (pid == 0)
			_exit(sums(n) == 42);
		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			return 2;
		s = WEXITSTATUS(st);
	} else if (!strcmp(mode, "once")) {
		for (long c = 0; c < n; c++)
			s += once_loop(data, (unsigned long)c & 255);
	} else if (!strcmp(mode, "refused")) {
		s = goto_loop(n) + callfirst_loop(n);
	} else if (!strcmp(mode, "outer")) {
		s = outer_loop(n);
	} else if (!strcmp(mode, "abort")) {
		for (long c = 0; c < n; c++)
			s += abort_loop(2000, 0);
	} else if (!strcmp(mode, "irr")) {
		for (long c = 0; c < n; c++)
			s += irr_loop(200, c & 1);
	} else if (!strcmp(mode, "thread")) {
		pthread_t t;

		s = n;
		pthread_create(&t, NULL, sums_thread, &s);
		pthread_join(t, NULL);
	} else {
		fprintf(stderr, "usage: replay sum|syscall|spin|fork|thread|refused|once|outer|abort|irr N | stdio FILE N\n");
		return 2;
	}
	printf("%ld\n", s);
	return 0;
}
