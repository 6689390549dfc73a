/* A growable string: text is appended, never cut. It replaces the snprintf(p
 * + strlen(p), n - strlen(p), ...) chains into fixed buffers, which dropped
 * whatever did not fit, without a word. */
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

/* RFC 3629's table of well-formed sequences (its section 4): the second
 * byte's range depends on the first, which is what excludes overlong forms
 * (E0 80..9F, F0 80..8F), the surrogates U+D800..DFFF (ED A0..BF) and code
 * points above U+10FFFF (F4 90..BF): all three made a document jansson and
 * Python refuse. */
size_t utf8_length(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
		     c >= 0xf0 && c <= 0xf4 ? 4 : 0;

	if (!len || len > n)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (len > 1 && (p[1] < lo || p[1] > hi))
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Bytes a terminal acts on: C0 controls and DEL, UTF-8's C1 controls
 * (U+0080..U+009F, C2 80..9F: 9B is a CSI), and bytes that are not UTF-8
 * (an 8-bit terminal takes 0x9b as CSI too). */
static size_t terminal_safe(const unsigned char *p, size_t n)
{
	size_t len = utf8_length(p, n);

	if (len == 0 || (len == 1 && (p[0] < 0x20 || p[0] == 0x7f)) ||
	    (len == 2 && p[0] == 0xc2 && p[1] < 0xa0))
		return 0;
	return len;
}

void fputs_escaped(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		size_t len = terminal_safe(p + i, n - i);

		if (len) {
			fwrite(p + i, 1, len, f);
			i += len;
		} else if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] < 0xa0) {
			fprintf(f, "\\u%04x", p[i + 1]);
			i += 2;
		} else {
			fprintf(f, "\\x%02x", p[i]);
			i++;
		}
	}
}

char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		out_of_memory(strlen(s));
	fputs_escaped(s, f);
	fclose(f);
	return buf;
}
