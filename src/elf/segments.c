/* Program headers: where the loader puts each byte of the file. A sample's
 * instruction pointer is known as an offset into the mapped file (the
 * mapping's start and pgoff, PERF_RECORD_MMAP2); the ELF's own virtual
 * address of that byte comes from the PT_LOAD segment holding it. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <string.h>

int elf_offset_vaddr(const struct elf_image *img, uint64_t off, uint64_t *vaddr)
{
	Elf64_Ehdr h;
	Elf64_Phdr ph;

	if (img->size < sizeof h)
		return -1;
	memcpy(&h, img->data, sizeof h);
	if (h.e_phentsize != sizeof ph ||
	    !elf_range_ok(img, h.e_phoff, (uint64_t)h.e_phnum * sizeof ph))
		return -1;
	for (unsigned i = 0; i < h.e_phnum; i++) {
		memcpy(&ph, img->data + h.e_phoff + i * sizeof ph, sizeof ph);
		if (ph.p_type == PT_LOAD && off >= ph.p_offset && off - ph.p_offset < ph.p_filesz) {
			*vaddr = ph.p_vaddr + (off - ph.p_offset);
			return 0;
		}
	}
	return -1;
}

const char *elf_build_id_hex(const struct elf_image *img, char buf[static 129])
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < img->build_id_len; i++) {
		buf[2 * i] = digits[img->build_id[i] >> 4];
		buf[2 * i + 1] = digits[img->build_id[i] & 15];
	}
	buf[2 * img->build_id_len] = 0;
	return buf;
}

int elf_symbol_value(const struct elf_image *img, const char *name, uint64_t *value)
{
	for (size_t s = 0; s < img->nsec; s++) {
		const struct elf_section *symtab = &img->sec[s];
		Elf64_Sym sym;

		if (symtab->type != SHT_SYMTAB || symtab->link >= img->nsec)
			continue;
		for (size_t i = 1; i < symtab->size / sizeof sym; i++) {
			memcpy(&sym, img->data + symtab->offset + i * sizeof sym, sizeof sym);
			if (sym.st_shndx != SHN_UNDEF &&
			    strcmp(elf_string(img, &img->sec[symtab->link], sym.st_name), name) == 0) {
				*value = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

/* Every name a function has: perf names a sample by whichever symbol it
 * picked (libc's "read" is __read's alias, "__memmove_avx512_unaligned_erms"
 * __memcpy_avx512_unaligned_erms'), where the function list keeps one name
 * per address. .symtab, then .dynsym. */
int elf_function_symbol(const struct elf_image *img, const char *name, uint64_t *addr,
			uint64_t *size)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t s = 0; s < img->nsec; s++) {
			const struct elf_section *symtab = &img->sec[s];
			Elf64_Sym sym;

			if (symtab->type != (pass ? SHT_DYNSYM : SHT_SYMTAB) || symtab->link >= img->nsec)
				continue;
			for (size_t i = 1; i < symtab->size / sizeof sym; i++) {
				memcpy(&sym, img->data + symtab->offset + i * sizeof sym, sizeof sym);
				if (sym.st_shndx == SHN_UNDEF ||
				    (ELF64_ST_TYPE(sym.st_info) != STT_FUNC &&
				     ELF64_ST_TYPE(sym.st_info) != STT_GNU_IFUNC) ||
				    strcmp(elf_string(img, &img->sec[symtab->link], sym.st_name), name))
					continue;
				*addr = sym.st_value;
				*size = sym.st_size;
				return 0;
			}
		}
	return -1;
}

const char *elf_symbol_at(const struct elf_image *img, uint64_t addr)
{
	const char *local = NULL;

	if (img->type == ET_REL)
		return NULL;
	for (size_t s = 0; s < img->nsec; s++) {
		const struct elf_section *symtab = &img->sec[s];
		Elf64_Sym sym;

		if (symtab->type != SHT_SYMTAB || symtab->link >= img->nsec)
			continue;
		for (size_t i = 1; i < symtab->size / sizeof sym; i++) {
			unsigned type;

			memcpy(&sym, img->data + symtab->offset + i * sizeof sym, sizeof sym);
			type = ELF64_ST_TYPE(sym.st_info);
			if (sym.st_value != addr || sym.st_shndx == SHN_UNDEF ||
			    (type != STT_FUNC && type != STT_NOTYPE))
				continue;
			const char *name = elf_string(img, &img->sec[symtab->link], sym.st_name);

			if (!*name || name[0] == '.')
				continue;
			if (ELF64_ST_BIND(sym.st_info) != STB_LOCAL)
				return name;
			if (!local)
				local = name;
		}
	}
	return local;
}
