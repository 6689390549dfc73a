/* Four loops in a program, as a user's own C would hold them:
 * each loop starts at 56 of its line (56..89: 2 lines where 1 would do),
 * the bytes of tests/fixtures/x86/cost.S with caller-saved registers, and
 * only their work differs: fe (three immediates, nothing to wait on: the
 * front end decides), chain (a 3-cycle imul chain), divide (a 64-bit
 * div), stores (8 stores). `straddle prove -- bounds KIND N` measures
 * what the model predicts of each: fe costs, the others hide it. pair
 * and pairchain: a branch across the line (below). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long loop_fn(unsigned long *buf, unsigned long iterations);
loop_fn fe, chain, divide, stores, wide, pair, pairchain;

/* A function at the start of a line, its prologue padded to `at`. */
#define FUNC_AT(at, name, prologue, body, epilogue)                             \
	__asm__(".text\n.p2align 6\n.globl " #name "\n.type " #name ", @function\n" \
		#name ":\n" prologue ".nops " #at " - (. - " #name ")\n"        \
		"1:\n" body "decl %ecx\njnz 1b\n" epilogue "ret\n"                \
		".size " #name ", .-" #name "\n")
#define FUNC(name, prologue, body, epilogue) FUNC_AT(56, name, prologue, body, epilogue)

FUNC(fe, "movl %esi, %ecx\n",
     "movabsq $1, %rax\nmovabsq $2, %r9\nmovabsq $3, %r10\n", "");
FUNC(chain, "movl %esi, %ecx\nmovl $3, %edx\n",
     "imulq %rdx, %rdx\nmovabsq $2, %r9\nmovabsq $3, %r10\n"
     ".byte 0x66,0x0f,0x1f,0x44,0x00,0x00\n.byte 0x90\n", "movq %rdx, %rax\n");
/* rdx stays below r8 after the first divide: no overflow */
FUNC(divide, "movl %esi, %ecx\nmovl $1000003, %eax\nxorl %edx, %edx\n"
     "movabsq $0x4000000000000001, %r8\n",
     "divq %r8\nmovabsq $2, %r9\nmovabsq $3, %r10\n"
     ".byte 0x0f,0x1f,0x80,0x00,0x00,0x00,0x00\n.byte 0x66,0x0f,0x1f,0x44,0x00,0x00\n",
     "addq %rdx, %rax\n");
FUNC(stores, "movl %esi, %ecx\nmovq %rsi, %rax\n",
     "movq %rax, 8(%rdi)\nmovq %rax, 16(%rdi)\nmovq %rax, 24(%rdi)\nmovq %rax, 32(%rdi)\n"
     "movq %rax, 40(%rdi)\nmovq %rax, 48(%rdi)\nmovq %rax, 56(%rdi)\nmovq %rax, 64(%rdi)\n", "");

/* The branch rule's two loops: fe's and chain's bodies placed
 * so that their decl starts at 63 of the line and crosses it, the fused
 * decl/jnz pair with it. pair's 1-cycle loop pays the front end's bubble,
 * pairchain's 3-cycle imul chain hides it. */
FUNC_AT(33, pair, "movl %esi, %ecx\n",
	"movabsq $1, %rax\nmovabsq $2, %r9\nmovabsq $3, %r10\n", "");
FUNC_AT(32, pairchain, "movl %esi, %ecx\nmovl $3, %edx\n",
	"imulq %rdx, %rdx\nmovabsq $2, %r9\nmovabsq $3, %r10\n"
	".byte 0x66,0x0f,0x1f,0x44,0x00,0x00\n.byte 0x90\n", "movq %rdx, %rax\n");

/* wide: fe's work twenty times, 204 B from 56 of its line: 5 lines where
 * 4 would do, and 8 32-byte windows where 7 would (the loop too large for
 * the one-line-at-0.05-cycle goldencove measured on seed 000's 4
 * instructions: does it pay a 32 B window a cycle, as cut's 186 B loop
 * did? doc/prove.md) */
#define WIDE4 "movabsq $1, %rax\nmovabsq $2, %r9\nmovabsq $3, %r10\nmovabsq $4, %r11\n"
FUNC(wide, "movl %esi, %ecx\n", WIDE4 WIDE4 WIDE4 WIDE4 WIDE4, "");

int main(int argc, char **argv)
{
	static const struct { const char *name; loop_fn *fn; } kinds[] = {
		{ "fe", fe }, { "chain", chain }, { "divide", divide }, { "stores", stores },
		{ "wide", wide }, { "pair", pair }, { "pairchain", pairchain } };
	static unsigned long buf[16];
	unsigned long calls = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000, sum = 0;
	loop_fn *fn = NULL;

	for (size_t i = 0; argc > 1 && i < sizeof kinds / sizeof *kinds; i++)
		if (strcmp(argv[1], kinds[i].name) == 0)
			fn = kinds[i].fn;
	if (!fn) {
		fprintf(stderr, "usage: bounds fe|chain|divide|stores|wide|pair|pairchain [CALLS]\n");
		return 2;
	}
	for (unsigned long c = 0; c < calls; c++)
		sum += fn(buf, 1000) + buf[c % 16];
	printf("%lu\n", sum);
	return 0;
}
