/* Reads its standard input and counts the lines holding a byte, `rounds`
 * times over (its time grows with its input). As GNU grep -c does, it
 * stops at the first match when its standard output is /dev/null: nothing
 * it prints would be read. A profile taken with its output there is of
 * a run that did no work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int to_null(void)
{
	struct stat out, null;

	return fstat(1, &out) == 0 && stat("/dev/null", &null) == 0 && out.st_dev == null.st_dev &&
	       out.st_ino == null.st_ino;
}

__attribute__((noinline)) static long count_lines(const char *buf, size_t n, char want,
						  int first_only)
{
	long lines = 0;
	int seen = 0;

	for (size_t i = 0; i < n; i++) {
		if (buf[i] == want)
			seen = 1;
		if (buf[i] == '\n') {
			lines += seen;
			if (seen && first_only)
				return lines;
			seen = 0;
		}
	}
	return lines;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1, total = 0;
	char want = argc > 2 ? argv[2][0] : 'a';
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	size_t got;

	while (buf && (got = fread(buf + n, 1, cap - n, stdin)) > 0)
		if ((n += got) == cap)
			buf = realloc(buf, cap *= 2);
	if (!buf)
		return 2;
	for (long r = 0; r < rounds; r++)
		total += count_lines(buf, n, want, to_null());
	printf("%ld\n", total / (rounds ? rounds : 1));
	return total ? 0 : 1;
}
