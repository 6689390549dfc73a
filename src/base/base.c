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

static void *check(void *p, size_t n)
{
	if (!p && n) {
		fprintf(stderr, "straddle: out of memory (%zu bytes)\n", n);
		abort();
	}
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

int write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx,
		 struct err *e)
{
	size_t n = strlen(path) + 16;
	char *tmp = xmalloc(n);
	FILE *f = NULL;
	bool ok;
	int fd;

	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return err_set(e, "cannot create a temporary file beside it: %s", strerror(errno));
	}
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	ok = f && write(f, ctx) == 0;
	ok = (f ? fclose(f) == 0 : close(fd) == 0) && ok;
	if (!ok || rename(tmp, path) != 0) {
		err_set(e, "cannot write: %s", strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

const char *arch_name(enum arch a)
{
	switch (a) {
	case ARCH_X86_64: return "x86_64";
	case ARCH_AARCH64: return "aarch64";
	default: return "none";
	}
}
