/* fault-write: seed 001's probe of the running kernel. Mateusz Guzik
 * checked his rep movsq copy_user with
 *	buf = mmap(0xAA0000, 4096, ...);   (the next page unmapped)
 *	n = write(fd, &buf[4096 - 66], 130);
 * "write returns 66 on both stock and patched kernel": copy_from_user must
 * stop at the first byte it cannot read and say exactly how many it did
 * not copy (64), or write(2) reports bytes it never moved (v1's "bogus
 * result"). The read(2) counterpart puts copy_to_user through the same
 * edge. Both must move exactly 66 bytes, and the right ones. */
#include "workloads.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096
#define MAPPED 66                       /* the seed's numbers */
#define LEN 130

static uint8_t pattern(size_t i, uint8_t salt)
{
	return (uint8_t)(i * 7 + salt);
}

/* write(fd, &buf[4096 - 66], 130) into an empty file: 66 back, a 66-byte
 * file holding exactly those bytes. */
static void probe_write(int fd, const uint8_t *buf, struct fault_probe *p)
{
	uint8_t back[LEN];
	struct stat st;

	*p = (struct fault_probe){ "write", MAPPED, LEN, -1, 0, false, false };
	p->returned = write(fd, buf + PAGE - MAPPED, LEN);
	p->err = p->returned < 0 ? errno : 0;
	p->content_ok = p->returned >= 0 && p->returned <= MAPPED && fstat(fd, &st) == 0 &&
			st.st_size == p->returned &&
			pread(fd, back, LEN, 0) == p->returned &&
			memcmp(back, buf + PAGE - MAPPED, (size_t)p->returned) == 0;
	p->pass = p->returned == MAPPED && p->content_ok;
}

/* read(fd, &buf[4096 - 66], 130) from a page of known bytes: 66 back,
 * those 66 bytes in place. */
static void probe_read(int fd, uint8_t *buf, struct fault_probe *p)
{
	uint8_t src[PAGE];
	bool same = true;

	*p = (struct fault_probe){ "read", MAPPED, LEN, -1, 0, false, false };
	for (size_t i = 0; i < PAGE; i++)
		src[i] = pattern(i, 0x5a);
	memset(buf, 0, PAGE);
	if (ftruncate(fd, 0) != 0 || pwrite(fd, src, PAGE, 0) != PAGE ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		p->err = errno;
		return;
	}
	p->returned = read(fd, buf + PAGE - MAPPED, LEN);
	p->err = p->returned < 0 ? errno : 0;
	for (long i = 0; i < p->returned && i < MAPPED; i++)
		same &= buf[PAGE - MAPPED + i] == src[i];
	p->content_ok = p->returned >= 0 && same;
	p->pass = p->returned == MAPPED && p->content_ok;
}

/* A page of ours with nothing mapped after it: two pages mapped, the
 * second unmapped again (the seed relied on MAP_FIXED at 0xAA0000). */
static uint8_t *page_before_hole(struct err *e)
{
	uint8_t *m = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (m == MAP_FAILED) {
		err_set(e, "cannot map two pages: %s", strerror(errno));
		return NULL;
	}
	munmap(m + PAGE, PAGE);
	for (size_t i = 0; i < PAGE; i++)
		m[i] = pattern(i, 0);
	return m;
}

int fault_probe_run(const char *dir, struct fault_probe probes[2], struct err *e)
{
	uint8_t *buf = page_before_hole(e);
	int fd;

	if (!buf)
		return -1;
	fd = wl_tmpfile(dir, NULL, e);
	if (fd < 0) {
		munmap(buf, PAGE);
		return -1;
	}
	probe_write(fd, buf, &probes[0]);
	probe_read(fd, buf, &probes[1]);
	close(fd);
	munmap(buf, PAGE);
	return 0;
}

static json_t *probe_json(const struct fault_probe *p)
{
	char call[64];

	snprintf(call, sizeof call, "%s(fd, &buf[4096 - %u], %u)", p->call, p->mapped, p->len);
	return json_pack("{s:s, s:I, s:I, s:I, s:s?, s:b, s:b}", "call", call,
		"expected", (json_int_t)p->mapped, "returned", (json_int_t)p->returned,
		"short_by", (json_int_t)(p->returned >= 0 ? (long)p->len - p->returned : -1),
		"error", p->err ? strerror(p->err) : NULL, "content_ok", p->content_ok,
		"pass", p->pass);
}

/* Each run probes again; the details keep every run's verdict. */
static int run(const struct wl_options *o, struct wl_result *r, struct err *e)
{
	struct fault_probe p[2];
	json_t *runs;

	wl_progress(o, "fault-write");
	if (fault_probe_run(o->dir, p, e))
		return -1;
	if (!r->details)
		r->details = json_pack("{s:s, s:b, s:[]}", "seed", "001", "pass", 1, "runs");
	runs = json_object_get(r->details, "runs");
	json_array_append_new(runs, json_pack("{s:o, s:o}", "write", probe_json(&p[0]), "read",
					      probe_json(&p[1])));
	if (!p[0].pass || !p[1].pass) {
		r->failed = true;
		json_object_set_new(r->details, "pass", json_false());
	}
	return 0;
}

const struct workload wl_fault_write = {
	"fault-write", "write/read of 130 B from 66 before a hole must give 66 (seed 001)",
	0, run,
};
