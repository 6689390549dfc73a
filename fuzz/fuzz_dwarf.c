/* libFuzzer harness over the DWARF of separate debug files: the input
 * bytes as the debug file a stripped image borrows
 * (/usr/lib/debug/.build-id/..., opened as an elf_image and handed to
 * libdw from memory, dwarf.c), asked for the source line of every
 * function's first, middle and last byte and of every section's start, the
 * way scan's source column asks. Its symbols are read too (funcs.c lends
 * a debug file's .symtab). A crash, a sanitizer report or a leak is a
 * finding. */
#include "base/base.h"
#include "elf/elf.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ask(struct elf_image *img, uint64_t addr)
{
	char line[256];

	elf_source_line(img, addr, line, sizeof line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_image img;
	struct elf_funcs f = { 0 };
	struct err e;

	if (elf_open_memory(&img, data, size, "fuzz.debug", &e) != 0) {
		elf_close(&img);
		return 0;
	}
	for (size_t i = 0; i < img.nsec && i < 64; i++)
		ask(&img, img.sec[i].addr);
	if (elf_functions(&img, &f, &e) == 0)
		for (size_t i = 0; i < f.n && i < 256; i++) {
			ask(&img, f.v[i].addr);
			ask(&img, f.v[i].addr + f.v[i].size / 2);
			if (f.v[i].size)
				ask(&img, f.v[i].addr + f.v[i].size - 1);
		}
	elf_funcs_free(&f);
	elf_close(&img);
	return 0;
}
