/* A program that spends its time in code it made at run time (an
 * anonymous mapping, as a JIT's): the samples of a record of it fall in
 * no file, which prove must say rather than give an all-clear. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	/* long f(long n): counts n down (x86-64: mov %rdi,%rax; 1: sub $1,%rax; jnz 1b; ret) */
	static const uint8_t code[] = { 0x48, 0x89, 0xf8, 0x48, 0x83, 0xe8, 0x01, 0x75, 0xfa, 0xc3 };
	long n = argc > 1 ? atol(argv[1]) : 1000000000L;
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long (*f)(long);

	if (p == MAP_FAILED)
		return 1;
	memcpy(p, code, sizeof code);
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return 1;
	f = (long (*)(long))(void *)p;
	printf("%ld\n", f(n));
	return 0;
}
