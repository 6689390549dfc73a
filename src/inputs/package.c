/* Debian packages and compressed kernel modules, read with libarchive
 * (Debian's libarchive-dev). A .deb is an ar archive: debian-binary,
 * control.tar.*, data.tar.* (deb(5)); the files are data.tar's, which
 * libarchive reads straight out of the ar member through a read callback,
 * whatever its compression (xz, zstd, gzip, bzip2 or none), so nothing is
 * unpacked to disk. */
#include "internal.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A member or module bigger than this is refused rather than read into
 * memory: Debian's largest ELF file (chromium's) is a few hundred MB, and
 * a decompression bomb must not take the machine. */
#define MEMBER_LIMIT ((size_t)4 << 30)

bool is_compressed_module(const char *name)
{
	static const char *const ends[] = { ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t n = strlen(name);

	for (size_t i = 0; i < 3; i++) {
		size_t k = strlen(ends[i]);

		if (n > k && strcmp(name + n - k, ends[i]) == 0)
			return true;
	}
	return false;
}

int package_check(const char *path, struct err *e)
{
	struct stat st;
	char head[8 + 16];
	int fd = open_input(path, &st, e);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, head, sizeof head, 0);
	close(fd);
	if (n != (ssize_t)sizeof head || memcmp(head, "!<arch>\n", 8) != 0)
		return err_set(e, "not a Debian package: not an ar archive");
	if (memcmp(head + 8, "debian-binary", 13) != 0 || (head[21] != ' ' && head[21] != '/'))
		return err_set(e, "not a Debian package: its first member is not debian-binary");
	return 0;
}

/* The rest of the current entry after its first `have` bytes, into one
 * buffer of malloc's (the head copied in front). */
static int read_rest(struct archive *a, const uint8_t *head, size_t have, int64_t hint,
		     void **out, size_t *n, struct err *e)
{
	size_t cap = hint > 0 && (uint64_t)hint < MEMBER_LIMIT ? (size_t)hint + 1 : 1 << 16;
	uint8_t *b = xmalloc(cap);
	la_ssize_t k;

	if (have)
		memcpy(b, head, have);
	*n = have;
	for (;;) {
		if (*n == cap) {
			if (cap >= MEMBER_LIMIT) {
				free(b);
				return err_set(e, "a member of more than %zu bytes", MEMBER_LIMIT);
			}
			b = xrealloc(b, cap *= 2);
		}
		k = archive_read_data(a, b + *n, cap - *n);
		if (k == 0)
			break;
		if (k < 0) {
			err_set(e, "%s", archive_error_string(a));
			free(b);
			return -1;
		}
		*n += (size_t)k;
	}
	*out = b;
	return 0;
}

/* Up to n bytes of the current entry's start. */
static la_ssize_t read_head(struct archive *a, uint8_t *head, size_t n)
{
	size_t have = 0;
	la_ssize_t k = 0;

	while (have < n && (k = archive_read_data(a, head + have, n - have)) > 0)
		have += (size_t)k;
	return k < 0 ? k : (la_ssize_t)have;
}

/* data.tar's bytes, read out of the ar archive as the tar reader asks. */
struct pipe {
	struct archive *outer;
	char buf[1 << 16];
};

static la_ssize_t pipe_read(struct archive *inner, void *ctx, const void **buf)
{
	struct pipe *p = ctx;

	(void)inner;
	*buf = p->buf;
	return archive_read_data(p->outer, p->buf, sizeof p->buf);
}

/* "./usr/bin/ls" and "/usr/bin/ls" as "usr/bin/ls". */
static const char *relative(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (name[0] == '/')
		name++;
	return name;
}

/* One regular file of data.tar: its head shown to want, then read whole. */
static int visit(struct archive *t, struct archive_entry *ent, const struct package_visit *v,
		 struct err *e)
{
	uint8_t head[ELF_HEADER_BYTES];
	la_ssize_t have = read_head(t, head, sizeof head);
	const char *rel = relative(archive_entry_pathname(ent));
	void *bytes;
	size_t n;

	if (have < 0)
		return err_set(e, "data.tar: %s: %s", rel, archive_error_string(t));
	if (!*rel || !v->want(v->ctx, rel, head, (size_t)have))
		return 0;
	if (read_rest(t, head, (size_t)have, archive_entry_size_is_set(ent) ?
		      archive_entry_size(ent) : 0, &bytes, &n, e)) {
		err_prefix(e, rel);
		return err_prefix(e, "data.tar");
	}
	v->got(v->ctx, rel, bytes, n);
	return 0;
}

/* A hard link's bytes are its target's, read under that name: each file
 * once, as in a directory. */
static int read_data_tar(struct archive *outer, const struct package_visit *v, struct err *e)
{
	struct archive *t = archive_read_new();
	struct pipe *p = xcalloc(1, sizeof *p);
	struct archive_entry *ent;
	int r, rc = 0;

	p->outer = outer;
	archive_read_support_filter_all(t);
	archive_read_support_format_tar(t);
	if (archive_read_open(t, p, NULL, pipe_read, NULL) != ARCHIVE_OK)
		rc = err_set(e, "data.tar: %s", archive_error_string(t));
	while (!rc && ((r = archive_read_next_header(t, &ent)) == ARCHIVE_OK || r == ARCHIVE_WARN))
		if (archive_entry_filetype(ent) == AE_IFREG && !archive_entry_hardlink(ent))
			rc = visit(t, ent, v, e);
	if (!rc && r != ARCHIVE_EOF)
		rc = err_set(e, "data.tar: %s", archive_error_string(t));
	archive_read_free(t);
	free(p);
	return rc;
}

int package_read(const char *path, const struct package_visit *v, struct err *e)
{
	struct archive *a;
	struct archive_entry *ent;
	struct stat st;
	int fd, r = ARCHIVE_OK, rc = 1;

	if (package_check(path, e) || (fd = open_input(path, &st, e)) < 0)
		return -1;
	a = archive_read_new();
	archive_read_support_format_ar(a);
	if (archive_read_open_fd(a, fd, 1 << 16) != ARCHIVE_OK)
		rc = err_set(e, "%s", archive_error_string(a));
	while (rc == 1 && (r = archive_read_next_header(a, &ent)) == ARCHIVE_OK)
		if (strncmp(archive_entry_pathname(ent), "data.tar", 8) == 0)
			rc = read_data_tar(a, v, e);
	if (rc == 1 && r == ARCHIVE_EOF)
		rc = err_set(e, "not a Debian package: no data.tar member");
	else if (rc == 1)
		rc = err_set(e, "%s", archive_error_string(a));
	archive_read_free(a);
	close(fd);
	return rc;
}

/* A raw stream of one of libarchive's compressions, decompressed. */
static int decompress_open(struct archive *a, void **out, size_t *nout, struct err *e)
{
	struct archive_entry *ent;
	int rc;

	if (archive_read_next_header(a, &ent) != ARCHIVE_OK)
		return err_set(e, "cannot decompress: %s", archive_error_string(a));
	rc = read_rest(a, NULL, 0, 0, out, nout, e);
	if (rc)
		return err_prefix(e, "cannot decompress");
	return 0;
}

static struct archive *raw_reader(void)
{
	struct archive *a = archive_read_new();

	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	return a;
}

int module_decompress(const void *p, size_t n, void **out, size_t *nout, struct err *e)
{
	struct archive *a = raw_reader();
	int rc = archive_read_open_memory(a, p, n) == ARCHIVE_OK ? decompress_open(a, out, nout, e)
		 : err_set(e, "cannot decompress: %s", archive_error_string(a));

	archive_read_free(a);
	return rc;
}

int module_read(const char *path, void **out, size_t *nout, struct err *e)
{
	struct stat st;
	int fd = open_input(path, &st, e), rc;
	struct archive *a;

	if (fd < 0)
		return -1;
	a = raw_reader();
	rc = archive_read_open_fd(a, fd, 1 << 16) == ARCHIVE_OK ? decompress_open(a, out, nout, e)
	     : err_set(e, "cannot decompress: %s", archive_error_string(a));
	archive_read_free(a);
	close(fd);
	return rc;
}
