/* straddle-kroutine-aarch64: an AArch64 kernel image's routine, as
 * straddle copied it, run under qemu-aarch64 (emulate.c). Its input is
 * the wire (wire.c); `check` proves the fault contract as `kernels
 * --check` does natively (the same check.c, the same fault handler with
 * arm64's exception-table types), `sweep` places it at each offset and
 * runs each call once, checking every byte and the guards around them.
 * Built static, for AArch64, from base, arena and kernels alone
 * (Makefile). Exit 0 every check passed, 1 one failed, 2 it could not run. */
#include "../internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define GUARD 64
#define FILL 0xee

static int check(struct kernel_wire *w)
{
	struct kernels_check_opts o = { .offsets = w->noffsets ? w->offsets : NULL,
		.noffsets = w->noffsets, .max_len = KERNELS_CHECK_MAX_LEN,
		.fault_span = KERNELS_CHECK_FAULT_SPAN, .kernel = &w->k, .out = stdout };
	struct kernels_check_result r;
	struct err e;

	if (kernels_check(&o, &r, &e)) {
		fprintf(stderr, "straddle-kroutine-aarch64: %s\n", e.msg);
		return 2;
	}
	printf("%lu passed, %lu failed\n", r.passed, r.failed);
	return r.failed ? 1 : 0;
}

/* One call of len bytes into a fresh area: what went wrong, or NULL. */
static const char *one_call(const struct kernel *k, const struct placement *p, uint8_t *area,
			    size_t len, char *why, size_t n)
{
	uint8_t *dst = area + GUARD, *src = area + 2 * GUARD + len;
	struct kernel_oops oops;
	size_t got;

	memset(area, FILL, 3 * GUARD + 2 * len);
	for (size_t i = 0; i < len; i++)
		src[i] = (uint8_t)(1 + i % 127);
	if (kernel_run_guarded(k, p, dst, src, len, &got, &oops)) {
		snprintf(why, n, "a fault at %#lx in +%#x, which its table does not list",
			 (unsigned long)oops.addr, oops.offset);
		return why;
	}
	if (got) {
		snprintf(why, n, "returned %zu, want 0", got);
		return why;
	}
	for (size_t i = 0; i < GUARD; i++)
		if (area[i] != FILL || dst[len + i] != FILL) {
			snprintf(why, n, "wrote outside its %zu bytes", len);
			return why;
		}
	for (size_t i = 0; i < len; i++)
		if (dst[i] != (k->kind == KERNEL_CLEAR ? 0 : src[i])) {
			snprintf(why, n, "byte %zu is 0x%02x", i, dst[i]);
			return why;
		}
	return NULL;
}

static int sweep(struct kernel_wire *w)
{
	static struct placement placed;         /* registered: must not move */
	size_t longest = 0, calls = 0, failed = 0;
	uint8_t *area;
	struct err e;
	char why[160];

	for (size_t i = 0; i < w->ncalls; i++)
		if (w->calls[i] > longest)
			longest = w->calls[i];
	area = mmap(NULL, 3 * GUARD + 2 * longest, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		fprintf(stderr, "straddle-kroutine-aarch64: cannot map %zu bytes\n", 2 * longest);
		return 2;
	}
	printf("offset  loop@64  calls      bytes  result\n");
	for (size_t i = 0; i < w->noffsets; i++) {
		uint32_t off = w->offsets[i];
		size_t bytes = 0, bad = 0;
		const char *first = NULL;

		if (kernel_place(&w->k, off, &placed, &e)) {
			fprintf(stderr, "straddle-kroutine-aarch64: %s\n", e.msg);
			return 2;
		}
		for (size_t c = 0; c < w->ncalls; c++) {
			const char *wrong = one_call(&w->k, &placed, area, w->calls[c], why, sizeof why);

			bytes += w->calls[c];
			if (wrong && !bad++)
				first = wrong;
		}
		arena_free(&placed);
		printf("%6u  %7u  %5zu  %9zu  %s\n", off, (off + w->k.loop_start) % 64, w->ncalls,
		       bytes, bad ? first : "ok");
		calls += w->ncalls;
		failed += bad;
	}
	printf("%zu offsets, %zu calls checked byte for byte, %zu failed\n", w->noffsets, calls,
	       failed);
	return failed ? 1 : 0;
}

int main(void)
{
	struct kernel_wire w;
	struct err e;
	int rc;

	if (kernel_wire_read(stdin, &w, &e)) {
		fprintf(stderr, "straddle-kroutine-aarch64: its input: %s\n", e.msg);
		return 2;
	}
	if (kernel_adopt(&w.k, &e)) {
		fprintf(stderr, "straddle-kroutine-aarch64: %s\n", e.msg);
		kernel_wire_free(&w);
		return 2;
	}
	rc = w.mode == KWIRE_CHECK ? check(&w) : sweep(&w);
	fflush(stdout);
	kernel_disown(&w.k);
	kernel_wire_free(&w);
	return rc;
}
