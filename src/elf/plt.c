/* PLT stubs and the symbols they call, the way objdump names "exit@plt"
 * (bfd's elf_x86_64_get_synthetic_symtab): each stub is named from the GOT
 * slot it jumps through, matched to the dynamic relocation whose r_offset
 * is that slot. The order of stubs and of .rela.plt entries is not the
 * same: ld puts IRELATIVE entries last while their stubs sit among the
 * others (libc's _dl_fatal_printf@plt is at 0x261c0, not stub i of
 * relocation i), and .plt.got stubs jump through GLOB_DAT slots of
 * .rela.dyn (libstdc++'s terminate@plt).
 *
 * Which slot a stub's code jumps through is an instruction question: the
 * caller answers it (decode's decode_stub_slot), since elf knows no
 * opcode. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct got_slot {
	uint64_t addr;
	size_t name;                    /* offset into the pool */
};

struct slots {
	struct got_slot *v;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
};

static size_t pool_add(struct slots *s, const char *str)
{
	size_t at = s->pool_len, len = strlen(str) + 1;

	GROW(s->pool, s->pool_cap, s->pool_len + len);
	memcpy(s->pool + at, str, len);
	s->pool_len += len;
	return at;
}

/* Every relocation of a RELA section with a dynamic symbol table: the
 * symbol's name, or objdump's "*ABS*+0xADDEND" for IRELATIVE (no symbol). */
static void read_relocs(const struct elf_image *img, const struct elf_section *rela,
			struct slots *s)
{
	const struct elf_section *dynsym;

	if (!rela || rela->type != SHT_RELA || rela->entsize != sizeof(Elf64_Rela) ||
	    rela->link >= img->nsec || !elf_range_ok(img, rela->offset, rela->size))
		return;
	dynsym = &img->sec[rela->link];
	if (dynsym->entsize != sizeof(Elf64_Sym) || dynsym->link >= img->nsec ||
	    !elf_range_ok(img, dynsym->offset, dynsym->size))
		return;
	for (uint64_t i = 0; i < rela->size / sizeof(Elf64_Rela); i++) {
		Elf64_Rela r;
		Elf64_Sym sym;
		uint64_t k;
		char abs[40];

		memcpy(&r, img->data + rela->offset + i * sizeof r, sizeof r);
		k = ELF64_R_SYM(r.r_info);
		GROW(s->v, s->cap, s->n + 1);
		if (k == 0) {
			snprintf(abs, sizeof abs, "*ABS*+%#" PRIx64, (uint64_t)r.r_addend);
			s->v[s->n++] = (struct got_slot){ r.r_offset, pool_add(s, abs) };
			continue;
		}
		if (k >= dynsym->size / sizeof sym)
			continue;
		memcpy(&sym, img->data + dynsym->offset + k * sizeof sym, sizeof sym);
		s->v[s->n++] = (struct got_slot){
			r.r_offset, pool_add(s, elf_string(img, &img->sec[dynsym->link], sym.st_name))
		};
	}
}

static int by_addr(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Stub size: 16 bytes in .plt and .plt.sec on both architectures; .plt.got
 * says its own (8, or 16 with IBT's endbr64). */
static uint64_t stub_size(const struct elf_section *s)
{
	return s->entsize == 8 || s->entsize == 16 ? s->entsize : 16;
}

static void name_stubs(const struct elf_image *img, const struct elf_section *sec,
		       const struct slots *s, elf_stub_slot_fn slot_of, void *ctx,
		       struct elf_plt *out, size_t *cap)
{
	uint64_t step = stub_size(sec);

	if (sec->type != SHT_PROGBITS || !elf_range_ok(img, sec->offset, sec->size))
		return;
	for (uint64_t off = 0; off + step <= sec->size; off += step) {
		struct got_slot key = { .addr = slot_of(ctx, img->data + sec->offset + off, step,
							sec->addr + off) };
		const struct got_slot *hit;

		if (!key.addr || !(hit = bsearch(&key, s->v, s->n, sizeof *s->v, by_addr)))
			continue;
		GROW(out->v, *cap, out->n + 1);
		out->v[out->n].addr = sec->addr + off;
		out->v[out->n].name = s->pool + hit->name;     /* the pool is complete */
		out->n++;
	}
}

void elf_plt_stubs(const struct elf_image *img, elf_stub_slot_fn slot_of, void *ctx,
		   struct elf_plt *out)
{
	static const char *const sections[] = { ".plt", ".plt.sec", ".plt.got" };
	struct slots s = { 0 };
	size_t cap = 0;

	memset(out, 0, sizeof *out);
	read_relocs(img, elf_section_named(img, ".rela.plt"), &s);
	read_relocs(img, elf_section_named(img, ".rela.dyn"), &s);
	if (s.n == 0) {                 /* static: no stub to name */
		free(s.pool);
		free(s.v);              /* grown for relocations with bad symbols */
		return;
	}
	qsort(s.v, s.n, sizeof *s.v, by_addr);
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		const struct elf_section *sec = elf_section_named(img, sections[i]);

		if (sec)
			name_stubs(img, sec, &s, slot_of, ctx, out, &cap);
	}
	out->pool = s.pool;
	free(s.v);
}

void elf_plt_free(struct elf_plt *p)
{
	free(p->v);
	free(p->pool);
	memset(p, 0, sizeof *p);
}
