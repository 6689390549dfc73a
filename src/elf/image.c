/* Opening an ELF image: header, section table, build-id. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *elf_type_name(uint16_t type)
{
	switch (type) {
	case ET_REL: return "rel";
	case ET_EXEC: return "exec";
	case ET_DYN: return "dyn";
	default: return "other";
	}
}

bool elf_range_ok(const struct elf_image *img, uint64_t off, uint64_t len)
{
	return off <= img->size && len <= img->size - off;
}

static int read_header(struct elf_image *img, Elf64_Ehdr *h, struct err *e)
{
	if (img->size < EI_NIDENT || memcmp(img->data, ELFMAG, SELFMAG) != 0)
		return err_set(e, "not an ELF file");
	if (img->data[EI_CLASS] != ELFCLASS64)
		return err_set(e, "not a 64-bit ELF file (class %u)", img->data[EI_CLASS]);
	if (img->data[EI_DATA] != ELFDATA2LSB)
		return err_set(e, "not a little-endian ELF file");
	if (img->size < sizeof *h)
		return err_set(e, "truncated ELF header (%zu bytes)", img->size);
	memcpy(h, img->data, sizeof *h);
	if (h->e_machine == EM_X86_64)
		img->arch = ARCH_X86_64;
	else if (h->e_machine == EM_AARCH64)
		img->arch = ARCH_AARCH64;
	else
		return err_set(e, "unsupported machine %u (x86-64 and AArch64 only)",
			       h->e_machine);
	if (h->e_type != ET_REL && h->e_type != ET_EXEC && h->e_type != ET_DYN)
		return err_set(e, "unsupported ELF type %u (not exec, dyn or rel)", h->e_type);
	img->type = h->e_type;
	return 0;
}

bool elf_header_ok(const void *p, size_t n)
{
	struct elf_image img = { .data = p, .size = n };
	Elf64_Ehdr h;
	struct err e;

	return read_header(&img, &h, &e) == 0;
}

static int read_sections(struct elf_image *img, const Elf64_Ehdr *h, struct err *e)
{
	Elf64_Shdr sh;
	const struct elf_section *strsec;

	if (h->e_shnum == 0 || h->e_shoff == 0)
		return err_set(e, "no section headers");
	if (h->e_shentsize != sizeof sh)
		return err_set(e, "bad section header size %u", h->e_shentsize);
	if (!elf_range_ok(img, h->e_shoff, (uint64_t)h->e_shnum * sizeof sh))
		return err_set(e, "section header table outside the file (offset 0x%llx)",
			       (unsigned long long)h->e_shoff);
	img->nsec = h->e_shnum;
	img->sec = xcalloc(img->nsec, sizeof *img->sec);
	for (size_t i = 0; i < img->nsec; i++) {
		struct elf_section *s = &img->sec[i];

		memcpy(&sh, img->data + h->e_shoff + i * sizeof sh, sizeof sh);
		s->name_off = sh.sh_name;
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		s->addr = sh.sh_addr;
		s->offset = sh.sh_offset;
		s->size = sh.sh_size;
		s->addralign = sh.sh_addralign ? sh.sh_addralign : 1;
		s->link = sh.sh_link;
		s->entsize = sh.sh_entsize;
		s->name = "";
		if (s->type != SHT_NOBITS && s->type != SHT_NULL &&
		    !elf_range_ok(img, s->offset, s->size))
			return err_set(e, "section %zu outside the file (offset 0x%llx, size 0x%llx)",
				       i, (unsigned long long)s->offset,
				       (unsigned long long)s->size);
	}
	if (h->e_shstrndx >= img->nsec)
		return err_set(e, "section name table index %u out of range", h->e_shstrndx);
	strsec = &img->sec[h->e_shstrndx];
	for (size_t i = 0; i < img->nsec; i++)
		img->sec[i].name = elf_string(img, strsec, img->sec[i].name_off);
	return 0;
}

const char *elf_string(const struct elf_image *img, const struct elf_section *strtab,
		       uint64_t off)
{
	const char *s;

	if (strtab->type != SHT_STRTAB || off >= strtab->size)
		return "";
	s = (const char *)img->data + strtab->offset + off;
	if (!memchr(s, 0, strtab->size - off))
		return "";
	return s;
}

const uint8_t *elf_vaddr_bytes(const struct elf_image *img, uint64_t addr, uint64_t len)
{
	if (img->type == ET_REL)
		return NULL;
	for (size_t i = 0; i < img->nsec; i++) {
		const struct elf_section *s = &img->sec[i];

		if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || addr < s->addr ||
		    addr - s->addr > s->size || len > s->size - (addr - s->addr) ||
		    !elf_range_ok(img, s->offset, s->size))
			continue;
		return img->data + s->offset + (addr - s->addr);
	}
	return NULL;
}

bool elf_vaddr_is_code(const struct elf_image *img, uint64_t addr)
{
	for (size_t i = 0; i < img->nsec; i++) {
		const struct elf_section *s = &img->sec[i];

		if ((s->flags & SHF_EXECINSTR) && s->type == SHT_PROGBITS && addr >= s->addr &&
		    addr - s->addr < s->size)
			return true;
	}
	return false;
}

const struct elf_section *elf_section_named(const struct elf_image *img, const char *name)
{
	for (size_t i = 0; i < img->nsec; i++)
		if (strcmp(img->sec[i].name, name) == 0)
			return &img->sec[i];
	return NULL;
}

/* The GNU build-id note, used to find separate debug info. */
static void read_build_id(struct elf_image *img)
{
	for (size_t i = 0; i < img->nsec; i++) {
		const struct elf_section *s = &img->sec[i];
		const uint8_t *p;
		uint64_t off = 0;

		if (s->type != SHT_NOTE)
			continue;
		p = img->data + s->offset;      /* checked by read_sections */
		while (off + 12 <= s->size) {
			uint32_t nsz, dsz, type;
			uint64_t desc;

			memcpy(&nsz, p + off, 4);
			memcpy(&dsz, p + off + 4, 4);
			memcpy(&type, p + off + 8, 4);
			desc = off + 12 + (((uint64_t)nsz + 3) & ~3ull);
			if (desc > s->size || dsz > s->size - desc)
				break;
			if (type == NT_GNU_BUILD_ID && nsz == 4 &&
			    memcmp(p + off + 12, "GNU", 4) == 0 && dsz <= sizeof img->build_id) {
				memcpy(img->build_id, p + desc, dsz);
				img->build_id_len = dsz;
				return;
			}
			off = desc + (((uint64_t)dsz + 3) & ~3ull);
		}
	}
}

static int parse(struct elf_image *img, struct err *e)
{
	Elf64_Ehdr h;

	if (read_header(img, &h, e) || read_sections(img, &h, e))
		return -1;
	read_build_id(img);
	return 0;
}

#ifdef STRADDLE_TEST_HOOKS
/* Tests: STRADDLE_TEST_TRUNCATE_AFTER_OPEN=BYTES:PATH shrinks PATH to
 * BYTES right after its headers were read, as if another process truncated
 * it between open and decode. */
static void truncate_for_test(const char *path)
{
	const char *hook = test_hook("TRUNCATE_AFTER_OPEN");
	char *rest;
	long n = hook ? strtol(hook, &rest, 10) : 0;

	if (hook && *rest == ':' && strcmp(rest + 1, path) == 0 && truncate(path, n) != 0)
		perror("STRADDLE_TEST_TRUNCATE_AFTER_OPEN");
}
#else
#define truncate_for_test(path) ((void)(path))
#endif

/* No guard slot free: a copy read whole, which no truncation can touch. */
static int read_copy(struct elf_image *img, struct err *e)
{
	uint8_t *copy = xmalloc(img->size);

	for (size_t got = 0; got < img->size;) {
		ssize_t k = pread(img->fd, copy + got, img->size - got, (off_t)got);

		if (k <= 0) {
			free(copy);
			return err_set(e, k == 0 ? "changed while reading" : "cannot read: %s",
				       strerror(errno));
		}
		got += (size_t)k;
	}
	img->data = copy;
	img->owned = 1;
	return 0;
}

int elf_open_file(struct elf_image *img, const char *path, struct err *e)
{
	struct stat st;
	void *p;

	memset(img, 0, sizeof *img);
	img->path = xstrdup(path);
	img->fd = open_input(path, &st, e);
	if (img->fd < 0)
		return -1;
	img->from_file = true;
	img->guard = -1;
	/* size and time first: elf_changed compares them, and an empty file
	 * was reported "changed while reading" */
	img->size = (size_t)st.st_size;
	img->mtime = st.st_mtim;
	if (st.st_size == 0)
		return err_set(e, "empty file");
	/* Writable but private: libelf decompresses SHF_COMPRESSED sections
	 * (Debian's -dbg files) in the memory elf_memory() is given, and a
	 * read-only map made that a SIGSEGV. Copy-on-write: the file is never
	 * written. */
	p = mmap(NULL, img->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, img->fd, 0);
	if (p == MAP_FAILED)
		return err_set(e, "cannot map: %s", strerror(errno));
	img->guard = elf_guard_add(p, img->size);
	if (img->guard < 0) {
		munmap(p, img->size);
		if (read_copy(img, e))
			return -1;
	} else {
		img->data = p;
		img->mapped = 1;
	}
	if (parse(img, e))
		return -1;
	truncate_for_test(path);
	return 0;
}

bool elf_changed(const struct elf_image *img)
{
	struct stat st;

	if (!img->from_file)
		return false;   /* from memory: the vDSO, a copy */
	if (elf_guard_tripped(img->guard))
		return true;
	return fstat(img->fd, &st) != 0 || (size_t)st.st_size != img->size ||
	       st.st_mtim.tv_sec != img->mtime.tv_sec || st.st_mtim.tv_nsec != img->mtime.tv_nsec;
}

int elf_open_owned(struct elf_image *img, void *p, size_t n, const char *label, struct err *e)
{
	memset(img, 0, sizeof *img);
	img->path = xstrdup(label);
	img->data = p;
	img->size = n;
	img->owned = 1;
	return parse(img, e);
}

int elf_open_memory(struct elf_image *img, const void *p, size_t n,
		    const char *label, struct err *e)
{
	uint8_t *copy = xmalloc(n ? n : 1);

	memcpy(copy, p, n);
	return elf_open_owned(img, copy, n, label, e);
}

void elf_close(struct elf_image *img)
{
	elf_dwarf_close(img);
	if (img->mapped)
		munmap((void *)img->data, img->size);
	if (img->owned)
		free((void *)img->data);
	if (img->from_file) {
		elf_guard_remove(img->guard);
		close(img->fd);
	}
	free(img->sec);
	free(img->path);
	memset(img, 0, sizeof *img);
}

int elf_file_offset(const struct elf_image *img, uint32_t sec, uint64_t addr, uint64_t *off)
{
	const struct elf_section *s = sec < img->nsec ? &img->sec[sec] : NULL;
	uint64_t in = img->type == ET_REL ? addr : addr - (s ? s->addr : 0);

	if (!s || s->type == SHT_NOBITS || (img->type != ET_REL && addr < s->addr) ||
	    in >= s->size || !elf_range_ok(img, s->offset, s->size))
		return -1;
	*off = s->offset + in;
	return 0;
}

uint64_t elf_placement_align(const struct elf_image *img, uint32_t sec)
{
	if (img->type != ET_REL)
		return 4096;
	if (sec >= img->nsec)
		return 1;
	return img->sec[sec].addralign;
}

static int write_image(FILE *f, void *ctx)
{
	const struct elf_image *img = ctx;

	return fwrite(img->data, 1, img->size, f) == img->size ? 0 : -1;
}

int elf_save(const struct elf_image *img, const char *path, struct err *e)
{
	return write_atomic(path, write_image, (void *)img, e);
}
