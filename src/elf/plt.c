/* PLT stubs and the symbols they call, the way objdump names "exit@plt":
 * stub i of .plt.sec (IBT), or stub i+1 of .plt after the resolver's own
 * entry, jumps through the GOT slot of .rela.plt's relocation i. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <string.h>

static const struct elf_section *stub_section(const struct elf_image *img, uint64_t *first)
{
	const struct elf_section *s = elf_section_named(img, ".plt.sec");

	if (s) {
		*first = 0;
		return s;
	}
	s = elf_section_named(img, ".plt");
	/* the lazy resolver's entry: 16 bytes on x86-64, 32 on AArch64 */
	*first = img->arch == ARCH_AARCH64 ? 32 : 16;
	return s;
}

size_t elf_plt_stubs(const struct elf_image *img, struct elf_plt_stub **out)
{
	const struct elf_section *rela = elf_section_named(img, ".rela.plt"), *plt, *dynsym;
	uint64_t first, n;
	size_t count = 0;

	*out = NULL;
	if (!rela || rela->type != SHT_RELA || rela->entsize != sizeof(Elf64_Rela) ||
	    rela->link >= img->nsec || !(plt = stub_section(img, &first)))
		return 0;
	dynsym = &img->sec[rela->link];
	if (dynsym->entsize != sizeof(Elf64_Sym) || dynsym->link >= img->nsec)
		return 0;
	n = rela->size / sizeof(Elf64_Rela);
	*out = xcalloc(n, sizeof **out);
	for (uint64_t i = 0; i < n && first + (i + 1) * 16 <= plt->size; i++) {
		Elf64_Rela r;
		Elf64_Sym sym;
		uint64_t k;

		memcpy(&r, img->data + rela->offset + i * sizeof r, sizeof r);
		k = ELF64_R_SYM(r.r_info);
		if (k == 0 || k >= dynsym->size / sizeof sym)
			continue;
		memcpy(&sym, img->data + dynsym->offset + k * sizeof sym, sizeof sym);
		(*out)[count].addr = plt->addr + first + i * 16;
		(*out)[count].name = elf_string(img, &img->sec[dynsym->link], sym.st_name);
		count++;
	}
	return count;
}
