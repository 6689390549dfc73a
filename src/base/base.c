#include "base.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int err_set(struct err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* Out of memory is one line and exit 2 like any input too large for this
 * machine (issue 9: never an abort, no core dump); stdout's complete rows
 * of earlier files are flushed by exit. */
void out_of_memory(size_t n)
{
	fprintf(stderr, "straddle: out of memory (%zu bytes more)\n", n);
	exit(2);
}

static void *check(void *p, size_t n)
{
	if (!p && n)
		out_of_memory(n);
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1), n);
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1), n * size);
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1), n);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void grow_array(void **buf, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*buf = xrealloc(*buf, n * size);
	*cap = n;
}

const char *hex_addr(char buf[static 20], uint64_t addr)
{
	snprintf(buf, 20, "0x%" PRIx64, addr);
	return buf;
}

bool glob_match(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

const char *arch_name(enum arch a)
{
	switch (a) {
	case ARCH_X86_64: return "x86_64";
	case ARCH_AARCH64: return "aarch64";
	default: return "none";
	}
}
