#include "base.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
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
 * machine (never an abort, no core dump); stdout's complete rows of earlier
 * files are flushed by exit. */
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

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory(strlen(fmt));
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/* The capacity that holds need elements of size bytes: cap doubled (from
 * 16) as often as it takes, so appending n elements costs O(n). */
static size_t doubled(size_t cap, size_t need, size_t size)
{
	size_t n = cap ? cap : 16;

	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return n;
}

void grow_array(void **buf, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	*cap = doubled(*cap, need, size);
	*buf = xrealloc(*buf, *cap * size);
}

/* A mapping's first bytes hold its length; the array starts BIG_HEAD bytes
 * in, aligned for any type. From 4 MiB up a mapping is a whole number of 2
 * MiB pages, so that the kernel can back all of it with huge pages. Why:
 * touching fresh memory a fault per 4 KiB page cost 15 us a fault on a Zen
 * 5 KVM guest (33 MB: 120-150 ms, against 6-14 ms with
 * MADV_HUGEPAGE), 5% of a libLLVM scan's CPU time and 7% more with --json.
 * (madvise on a part of a malloc'd block would split its mapping, and glibc's
 * realloc would then copy it: mremap fails across mappings.) */
#define BIG_HEAD 64
#define HUGE_PAGE ((size_t)2 << 20)

static size_t big_length(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), unit = n >= 2 * HUGE_PAGE ? HUGE_PAGE : page;

	if (n > SIZE_MAX - BIG_HEAD - unit)
		out_of_memory(n);
	return (n + BIG_HEAD + unit - 1) / unit * unit;
}

void *big_realloc(void *p, size_t n)
{
	char *head = p ? (char *)p - BIG_HEAD : NULL;
	size_t old = head ? *(size_t *)head : 0, len = big_length(n);
	void *m;

	if (len == old)
		return p;
	m = head ? mremap(head, old, len, MREMAP_MAYMOVE)
		 : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		out_of_memory(len - old);
	madvise(m, len, MADV_HUGEPAGE);        /* a no-op where THP is off */
	*(size_t *)m = len;
	return (char *)m + BIG_HEAD;
}

void big_free(void *p)
{
	if (p)
		munmap((char *)p - BIG_HEAD, *(size_t *)((char *)p - BIG_HEAD));
}

void grow_big_array(void **buf, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	*cap = doubled(*cap, need, size);
	*buf = big_realloc(*buf, *cap * size);
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
