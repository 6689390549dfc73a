/* A kernel module (a relocatable object, .ko) linked in memory as the
 * module loader links it, so that kernel.c reads it as it reads a vmlinux:
 * each allocated section given an address in the module area, every
 * symbol its address, every undefined one (__x86_return_thunk,
 * __fentry__, kmalloc) a distinct address beyond the sections, named by
 * its symbol, and the relocations of the allocated sections applied
 * (kernel/module/main.c: layout_sections, simplify_symbols,
 * apply_relocations; arch/x86/kernel/module.c: apply_relocate_add).
 * A relocation of a type not applied here is kept, with its place, for
 * kernel.c to refuse where the copy would read it. */
#include "internal.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x86-64's module area (Documentation/x86/x86_64/mm.rst: MODULES_VADDR) */
#define MODULE_BASE_X86 0xffffffffc0000000ull
/* where the undefined symbols are put: past the sections, a page on */
#define EXTERN_SLOT 16

struct linker {
	uint8_t *buf;           /* the file's bytes, made the linked image's */
	size_t size;
	Elf64_Ehdr h;
	Elf64_Shdr *sh;         /* in buf */
	Elf64_Sym *sym;         /* .symtab, in buf */
	size_t nsym;
	const char *strtab;     /* its names, and their section's size */
	size_t strsize;
	const char *shstr;
	size_t shstrsize;
	struct kmodule *m;
	struct err *e;
};

static const char *sec_name(const struct linker *l, size_t i)
{
	uint32_t off = l->sh[i].sh_name;

	return l->shstr && off < l->shstrsize && memchr(l->shstr + off, 0, l->shstrsize - off) ?
	       l->shstr + off : "?";
}

static const char *sym_name(const struct linker *l, const Elf64_Sym *s)
{
	uint32_t off = s->st_name;

	if (ELF64_ST_TYPE(s->st_info) == STT_SECTION && s->st_shndx < l->h.e_shnum)
		return sec_name(l, s->st_shndx);

	return l->strtab && off < l->strsize && memchr(l->strtab + off, 0, l->strsize - off) ?
	       l->strtab + off : "?";
}

static bool range_ok(const struct linker *l, uint64_t off, uint64_t len)
{
	return off <= l->size && len <= l->size - off;
}

/* A string table in the file (a section of another type, NOBITS among
 * them, has no bytes there to read). */
static bool table_ok(const struct linker *l, size_t i)
{
	const Elf64_Shdr *s = &l->sh[i];

	return s->sh_type == SHT_STRTAB && range_ok(l, s->sh_offset, s->sh_size);
}

/* The image's own checks (elf_open_*) passed: the section table and
 * every section lie in the file. */
static int find_tables(struct linker *l)
{
	memcpy(&l->h, l->buf, sizeof l->h);
	l->sh = (Elf64_Shdr *)(void *)(l->buf + l->h.e_shoff);
	if (l->h.e_shoff % 8 || l->h.e_shstrndx >= l->h.e_shnum)
		return err_set(l->e, "its section table is not aligned or has no names");
	if (table_ok(l, l->h.e_shstrndx)) {
		l->shstr = (const char *)l->buf + l->sh[l->h.e_shstrndx].sh_offset;
		l->shstrsize = l->sh[l->h.e_shstrndx].sh_size;
	}
	for (size_t i = 0; i < l->h.e_shnum; i++) {
		const Elf64_Shdr *s = &l->sh[i];

		if (s->sh_type != SHT_SYMTAB)
			continue;
		if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_offset % 8 ||
		    s->sh_link >= l->h.e_shnum || !range_ok(l, s->sh_offset, s->sh_size) ||
		    !table_ok(l, s->sh_link))
			return err_set(l->e, "its symbol table is malformed");
		l->sym = (Elf64_Sym *)(void *)(l->buf + s->sh_offset);
		l->nsym = s->sh_size / sizeof(Elf64_Sym);
		l->strtab = (const char *)l->buf + l->sh[s->sh_link].sh_offset;
		l->strsize = l->sh[s->sh_link].sh_size;
		l->m->symtab = (uint32_t)i;
		return 0;
	}
	return err_set(l->e, "no symbols: give the module as built (its .symtab)");
}

/* The allocated sections one after another from the module area's start
 * in the loader's order (layout_sections: code, then read-only data, then
 * writable), each at its alignment; the undefined symbols after them. */
static void layout(struct linker *l)
{
	uint64_t at = MODULE_BASE_X86;

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 1; i < l->h.e_shnum; i++) {
			Elf64_Shdr *s = &l->sh[i];
			uint64_t align = s->sh_addralign > 1 && s->sh_addralign <= 4096 ?
					 s->sh_addralign : 1;
			int kind = s->sh_flags & SHF_EXECINSTR ? 0 : s->sh_flags & SHF_WRITE ? 2 : 1;

			if (!(s->sh_flags & SHF_ALLOC) || kind != pass)
				continue;
			at = (at + align - 1) / align * align;
			s->sh_addr = at;
			at += s->sh_size;
		}
	l->m->extern_lo = (at + 4095) / 4096 * 4096 + 4096;
	l->m->extern_hi = l->m->extern_lo;
}

static void place_symbols(struct linker *l)
{
	for (size_t i = 1; i < l->nsym; i++) {
		Elf64_Sym *s = &l->sym[i];

		if (s->st_shndx == SHN_UNDEF) {
			s->st_shndx = SHN_ABS;
			s->st_value = l->m->extern_hi;
			l->m->extern_hi += EXTERN_SLOT;
		} else if (s->st_shndx < l->h.e_shnum && s->st_shndx < SHN_LORESERVE &&
			   (l->sh[s->st_shndx].sh_flags & SHF_ALLOC)) {
			s->st_value += l->sh[s->st_shndx].sh_addr;
		}
	}
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned b = 0; b < n; b++)
		p[b] = (uint8_t)(v >> (8 * b));
}

static void keep_unapplied(struct linker *l, size_t target, const Elf64_Rela *r, uint64_t place,
			   const char *why)
{
	struct kmodule *m = l->m;
	struct kmodule_reloc *u;

	GROW(m->unapplied, m->unapplied_cap, m->nunapplied + 1);
	u = &m->unapplied[m->nunapplied++];
	*u = (struct kmodule_reloc){ place, (uint32_t)ELF64_R_TYPE(r->r_info), "", "", "" };
	snprintf(u->sym, sizeof u->sym, "%s", sym_name(l, &l->sym[ELF64_R_SYM(r->r_info)]));
	snprintf(u->where, sizeof u->where, "%s+%#llx", sec_name(l, target),
		 (unsigned long long)r->r_offset);
	snprintf(u->why, sizeof u->why, "%s", why);
}

/* The name of an x86-64 relocation type, for the refusal's line. */
static const char *x86_reloc_name(unsigned type, char buf[static 24])
{
	static const char *const names[] = { "R_X86_64_NONE", "R_X86_64_64", "R_X86_64_PC32",
		"R_X86_64_GOT32", "R_X86_64_PLT32", "R_X86_64_COPY", "R_X86_64_GLOB_DAT",
		"R_X86_64_JUMP_SLOT", "R_X86_64_RELATIVE", "R_X86_64_GOTPCREL", "R_X86_64_32",
		"R_X86_64_32S", "R_X86_64_16", "R_X86_64_PC16", "R_X86_64_8", "R_X86_64_PC8",
		"R_X86_64_DTPMOD64", "R_X86_64_DTPOFF64", "R_X86_64_TPOFF64", "R_X86_64_TLSGD",
		"R_X86_64_TLSLD", "R_X86_64_DTPOFF32", "R_X86_64_GOTTPOFF", "R_X86_64_TPOFF32",
		"R_X86_64_PC64", "R_X86_64_GOTOFF64", "R_X86_64_GOTPC32" };

	if (type < sizeof names / sizeof *names)
		return names[type];
	if (type == R_X86_64_GOTPCRELX || type == R_X86_64_REX_GOTPCRELX)
		return type == R_X86_64_GOTPCRELX ? "R_X86_64_GOTPCRELX" : "R_X86_64_REX_GOTPCRELX";
	snprintf(buf, 24, "type %u", type);
	return buf;
}

/* One x86-64 relocation of the field at p (address `place`, `room` bytes
 * to its section's end): S + A or S + A - P in the field's width, as
 * apply_relocate_add writes it; a value the field cannot hold is what
 * the loader refuses ("overflow in relocation type"). */
static int apply_x86(struct linker *l, size_t target, const Elf64_Rela *r, uint8_t *p,
		     uint64_t place, uint64_t room)
{
	unsigned type = (unsigned)ELF64_R_TYPE(r->r_info);
	uint64_t v = l->sym[ELF64_R_SYM(r->r_info)].st_value + (uint64_t)r->r_addend;
	unsigned n = 4;
	char nb[24], why[32];

	switch (type) {
	case R_X86_64_NONE:
		return 0;
	case R_X86_64_64:
		n = 8;
		break;
	case R_X86_64_PC64:
		n = 8;
		v -= place;
		break;
	case R_X86_64_32:
		if (v > UINT32_MAX)
			goto overflow;
		break;
	case R_X86_64_32S:
		if ((int64_t)v != (int32_t)v)
			goto overflow;
		break;
	case R_X86_64_PC32: case R_X86_64_PLT32:
		v -= place;
		if ((int64_t)v != (int32_t)v)
			goto overflow;
		break;
	default:
		keep_unapplied(l, target, r, place, x86_reloc_name(type, nb));
		return 0;
	}
	if (room < n)
		return err_set(l->e, "a relocation at %s+%#llx past its section's end",
			       sec_name(l, target), (unsigned long long)r->r_offset);
	put_le(p, v, n);
	return 0;
overflow:
	snprintf(why, sizeof why, "%s out of range", x86_reloc_name(type, nb));
	keep_unapplied(l, target, r, place, why);
	return 0;
}

/* Every SHT_RELA section of an allocated one, applied. */
static int relocate(struct linker *l)
{
	for (size_t i = 1; i < l->h.e_shnum; i++) {
		const Elf64_Shdr *rs = &l->sh[i];
		const Elf64_Shdr *t;
		Elf64_Rela r;

		if (rs->sh_type == SHT_REL && rs->sh_size)
			return err_set(l->e, "%s: REL relocations (without addends) are not x86-64's "
				       "or AArch64's", sec_name(l, i));
		if (rs->sh_type != SHT_RELA || rs->sh_info >= l->h.e_shnum)
			continue;
		t = &l->sh[rs->sh_info];
		if (!(t->sh_flags & SHF_ALLOC) || t->sh_type == SHT_NOBITS)
			continue;
		if (rs->sh_entsize != sizeof r || rs->sh_link != l->m->symtab ||
		    !range_ok(l, rs->sh_offset, rs->sh_size))
			return err_set(l->e, "%s is malformed", sec_name(l, i));
		for (uint64_t off = 0; off + sizeof r <= rs->sh_size; off += sizeof r) {
			memcpy(&r, l->buf + rs->sh_offset + off, sizeof r);
			if (ELF64_R_SYM(r.r_info) >= l->nsym || r.r_offset >= t->sh_size)
				return err_set(l->e, "%s: a relocation of symbol %llu at %#llx is "
					       "outside its symbols or its section", sec_name(l, i),
					       (unsigned long long)ELF64_R_SYM(r.r_info),
					       (unsigned long long)r.r_offset);
			if (apply_x86(l, rs->sh_info, &r, l->buf + t->sh_offset + r.r_offset,
				      t->sh_addr + r.r_offset, t->sh_size - r.r_offset))
				return -1;
		}
	}
	return 0;
}

int kmodule_link(const struct elf_image *obj, struct elf_image *out, struct kmodule *m,
		 struct err *e)
{
	struct linker l = { .size = obj->size, .m = m, .e = e };
	char label[4200];

	*m = (struct kmodule){ 0 };
	if (obj->arch != ARCH_X86_64)
		return err_set(e, "%s: straddle links x86-64 modules (this is %s)", obj->path,
			       arch_name(obj->arch));
	l.buf = xmalloc(obj->size);
	memcpy(l.buf, obj->data, obj->size);
	if (find_tables(&l))
		goto fail;
	layout(&l);
	place_symbols(&l);
	if (relocate(&l))
		goto fail;
	l.h.e_type = ET_EXEC;
	memcpy(l.buf, &l.h, sizeof l.h);
	snprintf(label, sizeof label, "%s", obj->path);
	/* the image takes the bytes, freed on failure too */
	if (elf_open_owned(out, l.buf, l.size, label, e))
		goto close;
	return 0;
fail:
	free(l.buf);
close:
	{
		char msg[sizeof e->msg];

		snprintf(msg, sizeof msg, "%s", e->msg);
		err_set(e, "%s: %s", obj->path, msg);
	}
	kmodule_free(m);
	return -1;
}

void kmodule_free(struct kmodule *m)
{
	free(m->unapplied);
	*m = (struct kmodule){ 0 };
}
