/* `straddle kernels --check`: the byte-exact fault contract, proved for every
 * placeable kernel by running it, placed, on buffers that end at a
 * PROT_NONE page (seed 001: "write of 130 bytes across an unmapped
 * page returns 66"). One check is one call whose return value and every byte
 * around its buffers are compared with what the contract says. */
#include "kernels.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GUARD 64                /* bytes watched on each side of a buffer */
#define FILL 0xee               /* untouched bytes; never a source byte */
#define MAX_SHOWN 5             /* failures printed per kernel */

/* Source bytes are 1..127, so none equals FILL or a cleared 0. */
static uint8_t pattern(size_t i)
{
	return (uint8_t)(1 + (i * 37 + i / 127) % 127);
}

/* Two mappings that end at a PROT_NONE page (one for a faulting
 * destination, one for a faulting source) and two plain areas. */
struct buffers {
	size_t page;
	uint8_t *dst_edge, *src_edge;   /* first byte of the PROT_NONE page */
	uint8_t *dst_area, *src_area;   /* GUARD + longest + 8 + GUARD, in the clear */
	size_t area;
	uint8_t *maps[3];
	size_t map_len[3];
};

struct run {
	const struct kernels_check_opts *o;
	struct buffers a;
	const struct kernel *k;
	struct placement *p;
	uint32_t offset;
	unsigned long passed, failed, shown;
};

static uint8_t *map_rw(struct buffers *a, int i, size_t len, struct err *e)
{
	uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		err_set(e, "cannot map %zu bytes: %s", len, strerror(errno));
		return NULL;
	}
	a->maps[i] = m;
	a->map_len[i] = len;
	return m;
}

/* [RW page(s) | PROT_NONE page]: returns the start of the PROT_NONE page. */
static uint8_t *map_edge(struct buffers *a, int i, size_t rw, struct err *e)
{
	uint8_t *m = map_rw(a, i, rw + a->page, e);

	if (!m)
		return NULL;
	if (mprotect(m + rw, a->page, PROT_NONE) != 0) {
		err_set(e, "cannot protect a page: %s", strerror(errno));
		return NULL;
	}
	return m + rw;
}

static void buffers_free(struct buffers *a)
{
	for (int i = 0; i < 3; i++)
		if (a->maps[i])
			munmap(a->maps[i], a->map_len[i]);
}

/* Room for lengths up to max_len and seed 001's 130, and for starts up to
 * `span` (and 66) bytes before the edge. */
static int buffers_init(struct buffers *a, size_t max_len, size_t span, struct err *e)
{
	size_t area = 2 * GUARD + (max_len > 130 ? max_len : 130) + 8;
	size_t rw;
	uint8_t *plain;

	memset(a, 0, sizeof *a);
	a->page = (size_t)sysconf(_SC_PAGESIZE);
	a->area = area;
	rw = ((span > 66 ? span : 66) + GUARD + a->page - 1) / a->page * a->page;
	if (!(a->dst_edge = map_edge(a, 0, rw, e)) || !(a->src_edge = map_edge(a, 1, rw, e)) ||
	    !(plain = map_rw(a, 2, 2 * area, e))) {
		buffers_free(a);
		return -1;
	}
	a->dst_area = plain;
	a->src_area = plain + area;
	for (size_t i = 0; i < area; i++)
		a->src_area[i] = pattern(i);
	for (size_t i = 0; i < rw; i++)
		a->src_edge[-(ptrdiff_t)rw + (ptrdiff_t)i] = pattern(i);
	return 0;
}

/* ---- one call and its verdict ---- */

struct call {
	const char *what;               /* "no fault", "destination fault", ... */
	uint8_t *dst;
	const uint8_t *src;
	size_t len;
	size_t ok_bytes;                /* bytes before the first inaccessible one */
	size_t done;                    /* of them, those its contract processes */
	uint8_t *lo, *hi;               /* watched: [lo, hi) apart from dst[0..ok_bytes) */
};

static void report(struct run *r, const struct call *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(struct run *r, const struct call *c, const char *fmt, ...)
{
	va_list ap;

	if (r->shown++ >= MAX_SHOWN)
		return;
	fprintf(r->o->out, "FAIL %s at offset %u, %s, len %zu, %zu accessible: ", r->k->name,
		r->offset, c->what, c->len, c->ok_bytes);
	va_start(ap, fmt);
	vfprintf(r->o->out, fmt, ap);
	va_end(ap);
	fputc('\n', r->o->out);
}

/* What byte i of the watched range must hold after the call. */
static uint8_t wanted(const struct run *r, const struct call *c, const uint8_t *at)
{
	size_t i = (size_t)(at - c->dst);

	if (at < c->dst || i >= c->done)
		return FILL;
	return r->k->kind == KERNEL_CLEAR ? 0 : c->src[i];
}

/* The bytes a call processes before a fault `ok` bytes in: all of them,
 * or for a routine whose count is in whole wide accesses (kernel_call's
 * granule) the accesses done while a whole one was left, or (narrows)
 * the whole accesses of the width its length takes. */
/* arm64's copy_template.S moves a copy in groups, in this order: below
 * 16 bytes the bits of the length (8, 4, 2, 1); from 16, the bits of the
 * source's misalignment to 16 (1, 2, 4, 8), then 16-byte pairs, then the
 * bits of the rest (8, 4, 2, 1). Each group is loaded, then stored,
 * through x6, the destination pointer, moved on after the group's stores,
 * but for the 16-byte pairs of 64 bytes or more: of a 64..127-byte rest
 * the loads and stores go L0 S0 L1 L2 S1 S2 L3 S3, of 128 or more four
 * loads run ahead (L0 L1 L2 L3 S0 L4 S1 L5 ...). A fault's fixup returns
 * the end less x6, but first, when nothing was stored, tries one byte.
 * The bytes stored before a fault `ok` bytes into the user's side. */
static size_t a64_copy_done(const struct kernel_call *c, size_t len, size_t ok, uintptr_t src)
{
	size_t head = len < 16 ? 0 : (size_t)(-src & 15), m = len - head, pairs = m / 16;
	size_t pos = 0, done;
	bool load_side = c->user == KUSER_SRC;

	for (unsigned b = 0; b < 4 && head; b++)
		if (head >> b & 1) {
			if (pos + (1u << b) > ok)
				goto fixup;
			pos += 1u << b;
		}
	if (pos + 16 * pairs > ok) {
		size_t j = (ok - pos) / 16;     /* the pair that faults */

		if (!load_side || m < 64 || j >= m / 64 * 4)
			pos += 16 * j;
		else if (m < 128)
			pos += 16 * (j == 2 ? 1 : j);   /* L0 S0 L1 L2 S1 S2 L3 S3 */
		else
			pos += 16 * (j < 4 ? 0 : j - 3);
		goto fixup;
	}
	pos += 16 * pairs;
	for (int b = 3; b >= 0; b--)
		if (m >> b & 1) {
			if (pos + (1u << b) > ok)
				goto fixup;
			pos += 1u << b;
		}
	return ok;      /* no fault */
fixup:
	done = pos;
	return done == 0 && ok >= 1 ? 1 : done;
}

/* A 16-byte pair is two 8-byte stores: the first of a pair whose second
 * faults has written its bytes past the count (the kernel's contract
 * allows it: "the number of bytes not copied", not untouched). */
static bool may_write_past(const struct kernel *k, const struct call *c, size_t i)
{
	return k->call && k->call->count == KCOUNT_A64_COPY && k->call->user == KUSER_DST &&
	       i >= c->done && i < c->ok_bytes && c->dst[i] == c->src[i];
}

static size_t done_before_fault(const struct kernel *k, size_t len, size_t ok, uintptr_t src)
{
	const struct kernel_call *c = k->call;
	size_t whole, g;

	if (c && c->count == KCOUNT_A64_COPY && ok < len)
		return a64_copy_done(c, len, ok, src);
	if (!c || !c->granule || len >= c->exact_from || ok >= len)
		return ok;
	if (c->narrows) {
		for (g = c->granule; g > len; g /= 2)
			;
		return ok / g * g;
	}
	whole = len / c->granule * c->granule;
	return ok < whole ? ok / c->granule * c->granule : ok;
}

static bool verify(struct run *r, const struct call *c, size_t got)
{
	size_t want = c->len - c->done;

	if (got != want) {
		report(r, c, "returned %zu, want %zu", got, want);
		return false;
	}
	for (uint8_t *at = c->lo; at < c->hi; at++)
		if (*at != wanted(r, c, at) &&
		    !(at >= c->dst && may_write_past(r->k, c, (size_t)(at - c->dst)))) {
			report(r, c, "byte %td is 0x%02x, want 0x%02x", at - c->dst, *at,
			       wanted(r, c, at));
			return false;
		}
	return true;
}

/* A fault the copy's table does not cover, as the kernel would oops. */
static void report_oops(struct run *r, const struct call *c, const struct kernel_oops *oops)
{
	if (oops->outside)
		report(r, c, "a fault at %#lx outside its copy: a call through a register its call "
		       "does not set?", (unsigned long)oops->addr);
	else
		report(r, c, "a fault at %#lx in +%#x, which its exception table does not list (the "
		       "kernel would oops)", (unsigned long)oops->addr, oops->offset);
}

static bool one_call(struct run *r, struct call *c)
{
	struct kernel_oops oops;
	size_t got;
	bool ok;

	memset(c->lo, FILL, (size_t)(c->hi - c->lo));
	c->done = done_before_fault(r->k, c->len, c->ok_bytes, (uintptr_t)c->src);
	if (kernel_run_guarded(r->k, r->p, c->dst, c->src, c->len, &got, &oops)) {
		report_oops(r, c, &oops);
		r->failed++;
		return false;
	}
	ok = verify(r, c, got);
	if (ok)
		r->passed++;
	else
		r->failed++;
	return ok;
}

/* ---- the three kinds of check ---- */

/* (a) No fault: everything processed, 0 returned, guards untouched. The
 * buffers' alignment varies with the length so that every kernel meets
 * misaligned heads and tails. */
static void no_fault(struct run *r, size_t len)
{
	struct call c = { .what = "no fault", .len = len, .ok_bytes = len };

	c.lo = r->a.dst_area;
	c.dst = c.lo + GUARD + len % 8;
	c.hi = c.lo + r->a.area;
	c.src = r->a.src_area + GUARD + (len * 3) % 8;
	one_call(r, &c);
}

/* (b) The destination starts `k` bytes before a PROT_NONE page: the
 * bytes its contract counts as done. */
static size_t dst_fault(struct run *r, size_t len, size_t k)
{
	struct call c = { .what = "destination fault", .len = len, .ok_bytes = k };

	c.dst = r->a.dst_edge - k;
	c.lo = c.dst - GUARD;
	c.hi = r->a.dst_edge;
	c.src = r->a.src_area + GUARD + len % 8;
	one_call(r, &c);
	return c.done;
}

/* (c) The source starts `k` bytes before a PROT_NONE page: nothing at or
 * after dst[k] may be written. */
static size_t src_fault(struct run *r, size_t len, size_t k)
{
	struct call c = { .what = "source fault", .len = len, .ok_bytes = k };

	c.lo = r->a.dst_area;
	c.dst = c.lo + GUARD + len % 8;
	c.hi = c.lo + r->a.area;
	c.src = r->a.src_edge - k;
	one_call(r, &c);
	return c.done;
}

/* A checksum: no fault, its sum folded to 16 bits against one made here
 * (RFC 1071; ones' complement, so 0xffff is 0 too). */
static uint32_t fold16(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s == 0xffff ? 0 : (uint32_t)s;
}

static void csum_lengths(struct run *r)
{
	for (size_t len = 0; len <= r->o->max_len; len++) {
		struct call c = { .what = "checksum", .len = len, .ok_bytes = len };
		const uint8_t *src = r->a.src_area + GUARD + (len * 3) % 8;
		uint64_t want = 0;
		struct kernel_oops oops;
		size_t got;

		for (size_t i = 0; i + 1 < len; i += 2)
			want += (uint64_t)src[i] | (uint64_t)src[i + 1] << 8;
		if (len % 2)
			want += src[len - 1];
		if (kernel_run_guarded(r->k, r->p, NULL, src, len, &got, &oops)) {
			report_oops(r, &c, &oops);
			r->failed++;
		} else if (fold16(got) != fold16(want)) {
			report(r, &c, "sum %#x folded, want %#x", fold16(got), fold16(want));
			r->failed++;
		} else {
			r->passed++;
		}
	}
}

/* A put or a get: one access of its size, at every alignment. */
static void access_alignments(struct run *r, size_t size)
{
	for (size_t a = 0; a < 8; a++) {
		struct call c = { .what = "no fault", .len = size, .ok_bytes = size };

		c.lo = r->a.dst_area;
		c.dst = c.lo + GUARD + a;
		c.hi = c.lo + r->a.area;
		c.src = r->a.src_area + GUARD + 7 - a;
		one_call(r, &c);
	}
}

static void all_lengths(struct run *r)
{
	const struct kernels_check_opts *o = r->o;
	enum kernel_kind kind = r->k->kind;
	size_t lo = 0, hi = o->max_len;
	uint8_t user = r->k->call ? r->k->call->user : KUSER_BOTH;
	bool dst_faults = kind != KERNEL_GET && user != KUSER_SRC,
	     src_faults = (kind == KERNEL_COPY || kind == KERNEL_GET) && user != KUSER_DST;

	if (kind == KERNEL_CSUM) {
		csum_lengths(r);
		return;
	}
	if (kind == KERNEL_PUT || kind == KERNEL_GET) {
		lo = hi = r->k->call->size;
		access_alignments(r, lo);
	} else {
		for (size_t len = 0; len <= hi; len++)
			no_fault(r, len);
	}
	/* a routine without a table cannot survive a fault: none is made */
	if (r->k->call && !r->k->nfixups)
		return;
	for (size_t k = 0; k <= o->fault_span; k++)
		for (size_t len = k + 1 > lo ? k + 1 : lo; len <= hi; len++) {
			if (dst_faults)
				dst_fault(r, len, k);
			if (src_faults)
				src_fault(r, len, k);
		}
}

/* Seed 001's case by name, with its own line: what the contract counts
 * (a routine whose count is in whole 8-byte stores clears 64 of 66). */
static void seed001(struct run *r)
{
	static const char *const side[] = { "destination", "source" };
	const char *verb = r->k->kind == KERNEL_CLEAR ? "cleared" : "copied";
	size_t done;

	if ((r->k->kind != KERNEL_CLEAR && r->k->kind != KERNEL_COPY) ||
	    (r->k->call && !r->k->nfixups))
		return;
	for (int s = 0; s < (r->k->kind == KERNEL_COPY ? 2 : 1); s++) {
		unsigned long failed = r->failed;

		if (r->k->call && r->k->call->user == (s ? KUSER_DST : KUSER_SRC))
			continue;

		done = s == 0 ? dst_fault(r, 130, 66) : src_fault(r, 130, 66);
		fprintf(r->o->out, "seed 001: %s, 130 bytes, %s 66 before an unmapped page: "
			"%zu %s, %zu returned: %s\n", r->k->name, side[s], done, verb, 130 - done,
			r->failed == failed ? "ok" : "FAIL");
	}
}

/* ---- every kernel at every offset ---- */

static const uint32_t default_offsets[] = {
#if defined(__aarch64__)
	0, 4, 12, 28, 36, 60,   /* instructions are 4 bytes: place/ wants multiples of 4 */
#else
	0, 1, 7, 13, 33, 63,    /* line start, odd, mid-window, window and line ends */
#endif
};

static uint32_t valid_offset(const struct kernel *k, uint32_t off)
{
	return k->arch == ARCH_AARCH64 ? (off + 3) / 4 * 4 : off;
}

static void print_offsets(FILE *out, const struct kernel *k, const uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%u", i ? "," : "", valid_offset(k, v[i]));
}

static int check_kernel(struct run *r, const uint32_t *offsets, size_t n, struct err *e)
{
	static struct placement placed;         /* registered: must not move */
	unsigned long passed = r->passed, failed = r->failed;

	r->shown = 0;
	for (size_t i = 0; i < n; i++) {
		r->offset = valid_offset(r->k, offsets[i]);
		if (kernel_place(r->k, r->offset, &placed, e))
			return -1;
		r->p = &placed;
		all_lengths(r);
		if (i == 0)
			seed001(r);
		arena_free(&placed);
	}
	if (r->shown > MAX_SHOWN)
		fprintf(r->o->out, "FAIL %s: %lu more failures not shown\n", r->k->name,
			r->shown - MAX_SHOWN);
	if (r->k->call && !r->k->nfixups && r->k->kind != KERNEL_CSUM)
		fprintf(r->o->out, "%s has no exception-table entry: no fault was made\n",
			r->k->name);
	fprintf(r->o->out, "%-16s offsets ", r->k->name);
	print_offsets(r->o->out, r->k, offsets, n);
	fprintf(r->o->out, ": %lu passed, %lu failed\n", r->passed - passed, r->failed - failed);
	return 0;
}

int kernels_check(const struct kernels_check_opts *o, struct kernels_check_result *res,
		  struct err *e)
{
	struct kernels_check_opts opts = *o;
	struct run r = { .o = &opts };
	const uint32_t *offsets = o->offsets ? o->offsets : default_offsets;
	size_t n = o->offsets ? o->noffsets : sizeof default_offsets / sizeof default_offsets[0];
	int rc = 0;

	if (!opts.out)
		opts.out = stdout;
	if (o->only && !kernel_named(o->only))
		return err_set(e, "no kernel named '%s'", o->only);
	if (buffers_init(&r.a, opts.max_len, opts.fault_span, e))
		return -1;
	if (o->kernel) {
		r.k = o->kernel;
		rc = check_kernel(&r, offsets, n, e);
	}
	for (size_t i = 0; i < kernel_count() && !rc && !o->kernel; i++) {
		r.k = kernel_at(i);
		if (!r.k->placeable || (o->only && strcmp(o->only, r.k->name) != 0))
			continue;
		rc = check_kernel(&r, offsets, n, e);
	}
	buffers_free(&r.a);
	res->passed = r.passed;
	res->failed = r.failed;
	return rc;
}
