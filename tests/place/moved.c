/* The place fixture: one function, `work`, with every shape the relocator
 * fixes up: a loop, a switch dense enough for a jump table, a call out, a
 * RIP-relative load of a global, a recursive call and a tail call. Built
 * as a PIE, a fixed-address executable, and a shared object (WORK_LIB).
 * `work` logs to $FIXTURE_LOG whether the code running it is the file's
 * own (dladdr knows it) or a copy (an anonymous mapping), so a test can
 * count exactly which runs ran the copy; standard output is the same
 * either way, unless $FIXTURE_PC asks it to print where in its line that
 * code is (pc mod 64: a number that moves with the layout), or
 * $FIXTURE_ABORT_MOVED asks a copy to die (a placement that crashes). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

__attribute__((noinline)) int out_of_line(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int tail(int x)
{
	return x ^ 0x55;
}

static void log_where(void)
{
	const char *path = getenv("FIXTURE_LOG");
	void *pc;
	Dl_info info;
	FILE *f;

#if defined(__aarch64__)
	__asm__ volatile("adr %0, ." : "=r"(pc));
#else
	__asm__ volatile("lea 0(%%rip), %0" : "=r"(pc));
#endif
	if (getenv("FIXTURE_PC"))
		printf("pc %lu\n", (unsigned long)((uintptr_t)pc & 63));
	if (getenv("FIXTURE_ABORT_MOVED") && !dladdr(pc, &info)) {
		fprintf(stderr, "moved: a copy ran, and dies as asked\n");
		/* not abort(): a noreturn call last in `work` would make its copy
		 * end with a jump the assembler's build of it has not */
		raise(SIGABRT);
	}
	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s\n", dladdr(pc, &info) ? "in place" : "moved");
	fclose(f);
}

__attribute__((noinline)) int work(int n, int depth)
{
	int sum = 0;

	if (depth == 0)
		log_where();
	for (int i = 0; i < n; i++) {
		switch ((i + depth) % 7) {
		case 0: sum += table[i & 7]; break;
		case 1: sum -= i; break;
		case 2: sum ^= out_of_line(i); break;
		case 3: sum += i * i; break;
		case 4: sum = sum * 5 + 1; break;
		case 5: sum -= table[(i >> 1) & 7]; break;
		default: sum += 11; break;
		}
	}
	if (depth < 3)
		sum += work(n / 2, depth + 1);
	return tail(sum);
}

/* A function that runs off its end into the next, as glibc's
 * __memmove_chk_* run into __memmove_*: its copy must end with a jump to
 * where the original's end leads (not where its branch out leads). */
int fall_in(int x);
#if defined(__aarch64__)
__asm__(".text\n"
	".globl fall_in\n"
	".type fall_in, %function\n"
	"fall_in:\n"
	"	add w0, w0, #1\n"
	"	cmp w0, #100\n"
	"	b.gt 1f\n"
	"	add w0, w0, w0\n"
	".size fall_in, .-fall_in\n"
	"fall_on:\n"
	"	add w0, w0, #2\n"
	"1:	ret\n");
#else
__asm__(".text\n"
	".globl fall_in\n"
	".type fall_in, @function\n"
	"fall_in:\n"
	"	leal 1(%rdi), %eax\n"
	"	cmpl $100, %eax\n"
	"	jg 1f\n"
	"	addl %eax, %eax\n"
	".size fall_in, .-fall_in\n"
	"fall_on:\n"
	"	addl $2, %eax\n"
	"1:	ret\n");
#endif

#ifndef WORK_LIB
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	printf("%d %d %d\n", work(n, 0), fall_in(n), fall_in(20));
	return 0;
}
#endif
