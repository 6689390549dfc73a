/* The builds of straddle ab's fixtures: one program, built twice with a
 * known difference between the builds.
 *
 * PAD: the bytes of `pad`, the function laid out in front of `hot`: it
 * moves `hot` and its loop (seed 000's 15-byte store loop) along the line
 * and nothing else. WORK: the work `chain` does, in % of the base's (its
 * loop is a chain of multiplies, which no placement speeds up or slows
 * down: the change is the code's).
 *
 *     twin clear N    N passes of hot over a 4 KiB buffer; prints a checksum
 *     twin chain N    N x WORK/100 steps of the multiply chain; prints the
 *                     chain's result from N after 1000 steps (the same
 *                     whatever WORK is)
 *     twin clear-at   "metric M": M = 110 when hot's loop starts in the
 *                     second half of its 64-byte line where the program
 *                     runs, else 100 (a number made by the layout alone)
 *     twin chain-at   "metric M": M = WORK (made by the code alone)
 *
 * The -at forms make straddle ab's verdicts exact in a test: the metric
 * depends on the layout or the code alone, never on the machine. With
 * $TWIN_LOG set, clear and clear-at append a line to that file: "in
 * place" when the loop that ran is the file's own, "moved" when it is a
 * copy (no file holds it), so a test counts the runs that moved exactly. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PAD
#define PAD 8
#endif
#ifndef WORK
#define WORK 100
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

unsigned long hot(void *dst, unsigned long len, uintptr_t *loop_at);
uint64_t chain(uint64_t x, unsigned long steps);

/* pad is PAD bytes; hot starts right after it (both in one section that
 * starts a line), its loop 19 bytes after its entry: at 27 of its line
 * with PAD 8, at 51 with PAD 32. */
__asm__(".text\n"
	".p2align 6\n"
	".globl pad\n"
	".type pad, @function\n"
	"pad:\n"
	"	.nops " STR(PAD) " - 1\n"
	"	ret\n"
	".size pad, .-pad\n"
	".globl hot\n"
	".type hot, @function\n"
	"hot:\n"
	"	leaq 1f(%rip), %rax\n"          /* 7 bytes: where the loop runs */
	"	movq %rax, (%rdx)\n"            /* 3 */
	"	movq %rsi, %rcx\n"              /* 3 */
	"	shrq $3, %rcx\n"                /* 4 */
	"	jz 2f\n"                        /* 2 */
	"1:	movq $0, (%rdi)\n"
	"	addq $8, %rdi\n"
	"	decl %ecx\n"
	"	jnz 1b\n"
	"2:	xorl %eax, %eax\n"
	"	ret\n"
	".size hot, .-hot\n"
	".globl chain\n"
	".type chain, @function\n"
	"chain:\n"
	"	movq %rdi, %rax\n"
	"	testq %rsi, %rsi\n"
	"	jz 4f\n"
	"	movabsq $0x5851f42d4c957f2d, %rdx\n"
	"3:	imulq %rdx, %rax\n"
	"	imulq %rdx, %rax\n"
	"	imulq %rdx, %rax\n"
	"	imulq %rdx, %rax\n"
	"	addq $1, %rax\n"
	"	decq %rsi\n"
	"	jnz 3b\n"
	"4:	ret\n"
	".size chain, .-chain\n");

/* (the static build has no loader to ask, nor anything moved) */
static void log_where(uintptr_t at)
{
#ifndef TWIN_STATIC
	const char *path = getenv("TWIN_LOG");
	Dl_info info;
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s\n", dladdr((void *)at, &info) ? "in place" : "moved");
	fclose(f);
#else
	(void)at;
#endif
}

int main(int argc, char **argv)
{
	static unsigned long buf[512];
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1, sum = 0;
	const char *mode = argc > 1 ? argv[1] : "";
	uintptr_t at = 0;

	if (strcmp(mode, "clear") == 0 || strcmp(mode, "clear-at") == 0) {
		for (unsigned long r = 0; r < n; r++) {
			buf[r % 512] = r;
			hot(buf, sizeof buf, &at);
			sum += buf[(r * 7) % 512] + r;
		}
		log_where(at);
		if (mode[5])
			printf("metric %d\n", (at & 63) >= 32 ? 110 : 100);
		else
			printf("%lu\n", sum);
		return 0;
	}
	if (strcmp(mode, "chain") == 0) {
		chain(n, n * WORK / 100);
		printf("%lu\n", (unsigned long)chain(n, 1000));
		return 0;
	}
	if (strcmp(mode, "chain-at") == 0) {
		printf("metric %d\n", WORK);
		return 0;
	}
	fprintf(stderr, "usage: twin clear|chain|clear-at|chain-at [N]\n");
	return 2;
}
