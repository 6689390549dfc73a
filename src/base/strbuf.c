/* A growable string (issue 9): text is appended, never cut. It replaces the
 * snprintf(p + strlen(p), n - strlen(p), ...) chains into fixed buffers,
 * which dropped whatever did not fit, without a word. */
#include "base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
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
	free(b->s);
	*b = (struct strbuf){ 0 };
}

static ssize_t sb_write(void *cookie, const char *buf, size_t n)
{
	struct strbuf *b = cookie;

	GROW(b->s, b->cap, b->len + n + 1);
	memcpy(b->s + b->len, buf, n);
	b->len += n;
	b->s[b->len] = '\0';
	return (ssize_t)n;
}

FILE *sb_stream(struct strbuf *b)
{
	return fopencookie(b, "w", (cookie_io_functions_t){ .write = sb_write });
}
