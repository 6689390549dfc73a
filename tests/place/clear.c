/* The bundled program of `make run`: seed 000's `__clear_user` loop (the
 * 15-byte 8-byte store loop with immediate operands) in a user program,
 * laid out as the seed found it: across a 64-byte line. It clears a 4 KiB
 * buffer again and again and prints a checksum every run must print
 * alike. `straddle place --func clear_loop` moves it and measures what the
 * placement costs the whole program. */
#include <stdio.h>
#include <stdlib.h>

unsigned long clear_loop(void *dst, unsigned long len);

/* The function starts a line; 49 bytes of prologue put the loop at 49..63
 * of it, so its last bytes fall in the next line. */
__asm__(".text\n"
	".p2align 6\n"
	".globl clear_loop\n"
	".type clear_loop, @function\n"
	"clear_loop:\n"
	"	movq %rsi, %rcx\n"
	"	shrq $3, %rcx\n"
	"	testq %rcx, %rcx\n"
	"	jz 2f\n"
	"	.nops 38\n"
	"1:	movq $0, (%rdi)\n"
	"	addq $8, %rdi\n"
	"	decl %ecx\n"
	"	jnz 1b\n"
	"2:	xorl %eax, %eax\n"
	"	ret\n"
	".size clear_loop, .-clear_loop\n");

int main(int argc, char **argv)
{
	static unsigned long buf[512];
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000, sum = 0;

	for (unsigned long r = 0; r < rounds; r++) {
		buf[r % 512] = r;
		clear_loop(buf, sizeof buf);
		sum += buf[(r * 7) % 512] + r;
	}
	printf("%lu\n", sum);
	return 0;
}
