/* bench-place's power case: a program of about a second whose hot loop
 * runs 2% longer when its code sits at offset 32..63 of a line, by
 * construction (it reads its own program counter), so the size of the
 * effect place must find is known on any CPU. Its output does not depend
 * on where it runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) uint64_t spin(uint64_t n)
{
	void *pc;
	uint64_t x = 1;

	__asm__ volatile("lea 0(%%rip), %0" : "=r"(pc));
	if (((uintptr_t)pc & 63) >= 32)
		n += n / 50;            /* the known effect: 2% more iterations */
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x & 1;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000000ull;

	printf("%llu\n", (unsigned long long)spin(n) * 0);
	return 0;
}
