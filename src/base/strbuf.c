/* A growable string (issue 9): text is appended, never cut. It replaces the
 * snprintf(p + strlen(p), n - strlen(p), ...) chains into fixed buffers,
 * which dropped whatever did not fit, without a word. */
#include "base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From 4 MiB up (a --json scan of libLLVM is a 33 MB document) the
 * text is big_realloc's memory: no copy as it grows, huge pages. */
#define BIG_FROM ((size_t)4 << 20)

/* Room for need bytes; capacity doubles. */
static void reserve(struct strbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 64;
	char *p;

	if (need <= b->cap)
		return;
	while (cap < need)
		cap *= 2;
	if (cap < BIG_FROM) {
		b->s = xrealloc(b->s, cap);
	} else if (b->big) {
		b->s = big_realloc(b->s, cap);
	} else {
		p = big_realloc(NULL, cap);
		memcpy(p, b->s, b->len);
		free(b->s);
		b->s = p;
		b->big = true;
	}
	b->cap = cap;
}

void sb_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	reserve(b, b->len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *sb_str(const struct strbuf *b)
{
	return b->len ? b->s : "";
}

void sb_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void sb_free(struct strbuf *b)
{
	if (b->big)
		big_free(b->s);
	else
		free(b->s);
	*b = (struct strbuf){ 0 };
}

static ssize_t sb_write(void *cookie, const char *buf, size_t n)
{
	struct strbuf *b = cookie;

	reserve(b, b->len + n + 1);
	memcpy(b->s + b->len, buf, n);
	b->len += n;
	b->s[b->len] = '\0';
	return (ssize_t)n;
}

FILE *sb_stream(struct strbuf *b)
{
	return fopencookie(b, "w", (cookie_io_functions_t){ .write = sb_write });
}
