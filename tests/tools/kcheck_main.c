/* kcheck: `straddle kernels --check` without the rest of straddle. Links
 * only src/base, src/place and src/kernels, so it can be cross-built for
 * AArch64 (static) and run under qemu-aarch64, and natively beside it (tests/kernels.mk).
 *
 *	kcheck                   the contract check; last line "N passed, N failed"
 *	kcheck --crash plain     a fault in plain C code: must still kill
 *	kcheck --crash unlisted  a fault in placed kernel code at an instruction
 *	                         the kernel's table does not list: must still kill */
#include "kernels/kernels.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* A store to a PROT_NONE page (not NULL: UBSan would stop that first). */
static int crash_plain(void)
{
	struct err e;
	volatile char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || kernels_install_fault_handler(&e)) {
		fprintf(stderr, "kcheck: cannot set up the crash\n");
		return 2;
	}
	*p = 1;
	fprintf(stderr, "kcheck: survived a store to a PROT_NONE page\n");
	return 0;
}

/* A load at offset 0 of code registered as a kernel whose table lists
 * other offsets only: the handler knows the placement but has no fixup. */
static int crash_unlisted(void)
{
#if defined(__aarch64__)
	static const uint8_t code[] = { 0x00, 0x00, 0x40, 0xf9,   /* ldr x0, [x0] */
					0xc0, 0x03, 0x5f, 0xd6 }; /* ret */
#else
	static const uint8_t code[] = { 0x48, 0x8b, 0x07, 0xc3 };  /* movq (%rdi),%rax; ret */
#endif
	static struct placement p;
	const struct kernel *k = kernel_at(0);
	struct err e;

	if (kernel_fixup_at(k, 0)) {
		fprintf(stderr, "kcheck: %s lists offset 0\n", k->name);
		return 2;
	}
	if (kernels_install_fault_handler(&e) ||
	    arena_place(code, sizeof code, 0, k->arch, k, &p, &e) || arena_register(&p, &e)) {
		fprintf(stderr, "kcheck: %s\n", e.msg);
		return 2;
	}
	((kernel_clear_fn)(uintptr_t)p.code)(NULL, 0);
	fprintf(stderr, "kcheck: survived an unlisted fault\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct kernels_check_opts o = { .max_len = KERNELS_CHECK_MAX_LEN,
		.fault_span = KERNELS_CHECK_FAULT_SPAN, .out = stdout };
	struct kernels_check_result r;
	struct err e;

	if (argc == 3 && strcmp(argv[1], "--crash") == 0)
		return strcmp(argv[2], "plain") == 0 ? crash_plain() : crash_unlisted();
	if (argc > 1) {
		fprintf(stderr, "usage: kcheck [--crash plain|unlisted]\n");
		return 2;
	}
	if (kernels_check(&o, &r, &e)) {
		fprintf(stderr, "kcheck: %s\n", e.msg);
		return 2;
	}
	printf("%lu passed, %lu failed\n", r.passed, r.failed);
	return r.failed ? 1 : 0;
}
