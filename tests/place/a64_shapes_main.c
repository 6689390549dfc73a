/* The program around a64_shapes.S: each function's results, the same
 * whether `shapes` runs its copy or not. */
#include <stdio.h>

long shapes(long x, long n);
long literal_out(void);
long computed(void);
void *own_address(void);
long short_source(long x);
long back_in(long x);
unsigned pool(void);

int main(void)
{
	for (long x = 0; x < 14; x++)
		printf("%ld ", shapes(x, 3));
	printf("\n%ld %ld %d %ld %ld %#x\n", literal_out(), computed(), own_address() != 0,
	       short_source(0), back_in(5), pool());
	return 0;
}
