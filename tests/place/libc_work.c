/* A program that works the C library over a known input, for moving the
 * library's code under it (tests/cmd/t_place_arm64.sh: the cross libc,
 * every function it accepts at a random offset): the lines of stdin
 * sorted (qsort, strcmp), numbers parsed and printed (strtol, strtod,
 * printf's %g and %x), strings searched and copied (strstr, strchr,
 * memcpy, memmove, memset, strlen), memory taken and given back (malloc,
 * realloc, free), a hash of it all; and sysconf and pathconf, whose
 * switches are jump tables. Its output is the same on every run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char **line = NULL, buf[4096];
	size_t n = 0, cap = 0;
	unsigned long hash = 5381;
	double sum = 0;

	while (fgets(buf, sizeof buf, stdin)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			line = realloc(line, cap * sizeof *line);
		}
		line[n] = malloc(strlen(buf) + 1);
		memcpy(line[n], buf, strlen(buf) + 1);
		n++;
	}
	qsort(line, n, sizeof *line, by_string);
	for (size_t i = 0; i < n; i++) {
		char *nl = strchr(line[i], '\n'), tmp[4096];
		size_t len = strlen(line[i]);

		if (nl)
			*nl = 0;
		memset(tmp, 0, sizeof tmp);
		memmove(tmp, line[i], len);
		for (const char *p = tmp; *p; p++)
			hash = hash * 33 + (unsigned char)*p;
		sum += strtod(tmp, NULL) + (double)strtol(tmp, NULL, 16);
		if (i % 97 == 0 || strstr(tmp, "abc"))
			printf("%zu %s %g %lx\n", i, tmp, sum, hash);
		free(line[i]);
	}
	free(line);
	printf("%zu lines, sum %.6e, hash %lx\n", n, sum, hash);
	printf("page %ld, name max %ld\n", sysconf(_SC_PAGESIZE), pathconf("/", _PC_NAME_MAX));
	return 0;
}
