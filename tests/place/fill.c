/* The bundled program of `make run` and the place tests: a store loop
 * (front-end bound: one store and a few ALU ops an iteration) that runs
 * long enough to be measured, and a checksum every run must print alike. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

__attribute__((noinline)) void fill(unsigned *dst, unsigned n, unsigned seed)
{
	for (unsigned i = 0; i < n; i++)
		dst[i] = seed + i * 7;
}

int main(int argc, char **argv)
{
	static unsigned buf[N];
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000;
	unsigned long sum = 0;

	for (unsigned r = 0; r < rounds; r++) {
		fill(buf, N, r);
		sum += buf[r % N];
	}
	printf("%lu\n", sum);
	return 0;
}
