/* plt_dump: the PLT stubs straddle names, in objdump's format, to check
 * against the `<name@plt>:` lines of `objdump -d`.
 *
 *   plt_dump FILE
 *       one line per named stub of .plt, .plt.sec and .plt.got, in
 *       address order: "%016x <NAME@plt>:".
 *
 * Exit 0 when it ran, 2 on bad usage or input. */
#include "base/base.h"
#include "decode/decode.h"
#include "elf/elf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int by_addr(const void *a, const void *b)
{
	const struct elf_plt_stub *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

int main(int argc, char **argv)
{
	struct elf_image img;
	struct err e;
	struct decoder *d;
	struct elf_plt plt;

	if (argc != 2) {
		fprintf(stderr, "usage: plt_dump FILE\n");
		return 2;
	}
	if (elf_open_file(&img, argv[1], &e)) {
		fprintf(stderr, "plt_dump: %s\n", e.msg);
		return 2;
	}
	d = decoder_new(img.arch);
	if (!d) {
		fprintf(stderr, "plt_dump: %s: no decoder\n", argv[1]);
		elf_close(&img);
		return 2;
	}
	elf_plt_stubs(&img, decode_stub_slot, d, &plt);
	qsort(plt.v, plt.n, sizeof *plt.v, by_addr);
	for (size_t i = 0; i < plt.n; i++)
		printf("%016" PRIx64 " <%s@plt>:\n", plt.v[i].addr, plt.v[i].name);
	elf_plt_free(&plt);
	decoder_free(d);
	elf_close(&img);
	return 0;
}
