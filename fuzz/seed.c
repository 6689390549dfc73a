/* Seed program for the fuzz corpus (fuzz/make_corpus.sh): a few loops of
 * the shapes the scan cares about, built as an executable with DWARF, a
 * stripped one (functions only from .eh_frame) and a relocatable object,
 * for x86-64 and, when the cross compiler is there, AArch64. */
#include <stddef.h>

long sum(const long *v, size_t n)
{
	long s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

void clear(long *v, size_t n)
{
	while (n--)
		*v++ = 0;
}

long nested(const long *m, size_t rows, size_t cols)
{
	long s = 0;

	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			s += m[r * cols + c] * (long)c;
	return s;
}

/* Two entries into one cycle: irreducible. */
long irreducible(long a, long b)
{
	if (a & 1)
		goto second;
first:
	a += b;
	if (a > 1000)
		return a;
second:
	b ^= a;
	if (b & 4)
		goto first;
	a--;
	if (a > 0)
		goto first;
	return a + b;
}

int tiny(int x)
{
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	long v[16] = { 0 };

	(void)argv;
	clear(v, (size_t)argc);
	return (int)(sum(v, 16) + nested(v, 4, 4) + irreducible(argc, 3) + tiny(argc));
}
