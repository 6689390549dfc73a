/* The CPU-bound program of bench-record: N rounds of a multiply-add chain, nothing else, then its own
 * wall and CPU time in ns on standard output, so that the cost of being
 * sampled is measured inside the program, without straddle record's own
 * start-up and scan. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000000ul;
	volatile unsigned long sink;
	unsigned long x = 1;
	double w0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_PROCESS_CPUTIME_ID);

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
	(void)sink;
	printf("%.0f %.0f\n", ns(CLOCK_MONOTONIC) - w0, ns(CLOCK_PROCESS_CPUTIME_ID) - c0);
	return 0;
}
