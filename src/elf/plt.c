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
	size_t seq;                     /* the relocation's place in reading order */
	size_t name;                    /* offset into the pool */
};

struct slots {
	struct got_slot *v;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
};

/* A stub and the slot it jumps through, before the slot has a name. */
struct stub {
	uint64_t addr, slot;
};

struct stubs {
	struct stub *v;
	size_t n, cap;
	uint64_t *slot;                 /* every stub's slot, sorted */
};

static size_t pool_add(struct slots *s, const char *str)
{
	size_t at = s->pool_len, len = strlen(str) + 1;

	GROW(s->pool, s->pool_cap, s->pool_len + len);
	memcpy(s->pool + at, str, len);
	s->pool_len += len;
	return at;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool wanted(const struct stubs *st, uint64_t slot)
{
	return bsearch(&slot, st->slot, st->n, sizeof *st->slot, by_u64) != NULL;
}

/* The relocations of a RELA section with a dynamic symbol table whose
 * r_offset is a slot some stub jumps through: the symbol's name, or objdump's
 * "*ABS*+0xADDEND" for IRELATIVE (no symbol). Only those: a large library's
 * .rela.dyn holds hundreds of thousands of RELATIVE entries no stub uses
 * (libLLVM-14: 354,000), and naming each was 5% of a scan. */
static void read_relocs(const struct elf_image *img, const struct elf_section *rela,
			const struct stubs *st, struct slots *s, size_t *seq)
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
		if (!wanted(st, r.r_offset))
			continue;
		k = ELF64_R_SYM(r.r_info);
		GROW(s->v, s->cap, s->n + 1);
		if (k == 0) {
			snprintf(abs, sizeof abs, "*ABS*+%#" PRIx64, (uint64_t)r.r_addend);
			s->v[s->n++] = (struct got_slot){ r.r_offset, (*seq)++, pool_add(s, abs) };
			continue;
		}
		if (k >= dynsym->size / sizeof sym)
			continue;
		memcpy(&sym, img->data + dynsym->offset + k * sizeof sym, sizeof sym);
		s->v[s->n++] = (struct got_slot){
			r.r_offset, (*seq)++,
			pool_add(s, elf_string(img, &img->sec[dynsym->link], sym.st_name))
		};
	}
}

static int by_slot(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* By slot, then reading order: two relocations of one slot name its stub
 * after the first read (.rela.plt before .rela.dyn). */
static int by_slot_then_seq(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return by_slot(a, b) ? by_slot(a, b) : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The first relocation of `slot` in s (sorted by by_slot_then_seq), or NULL. */
static const struct got_slot *slot_named(const struct slots *s, uint64_t slot)
{
	struct got_slot key = { .addr = slot };
	const struct got_slot *hit = bsearch(&key, s->v, s->n, sizeof *s->v, by_slot);

	while (hit && hit > s->v && hit[-1].addr == slot)
		hit--;
	return hit;
}

/* Stub size: 16 bytes in .plt and .plt.sec on both architectures; .plt.got
 * says its own (8, or 16 with IBT's endbr64). */
static uint64_t stub_size(const struct elf_section *s)
{
	return s->entsize == 8 || s->entsize == 16 ? s->entsize : 16;
}

static void find_stubs(const struct elf_image *img, const struct elf_section *sec,
		       elf_stub_slot_fn slot_of, void *ctx, struct stubs *st)
{
	uint64_t step = stub_size(sec);

	if (sec->type != SHT_PROGBITS || !elf_range_ok(img, sec->offset, sec->size))
		return;
	for (uint64_t off = 0; off + step <= sec->size; off += step) {
		uint64_t slot = slot_of(ctx, img->data + sec->offset + off, step, sec->addr + off);

		if (!slot)
			continue;
		GROW(st->v, st->cap, st->n + 1);
		st->v[st->n++] = (struct stub){ sec->addr + off, slot };
	}
}

static void name_stubs(const struct stubs *st, const struct slots *s, struct elf_plt *out)
{
	out->v = xcalloc(st->n, sizeof *out->v);
	for (size_t i = 0; i < st->n; i++) {
		const struct got_slot *hit = slot_named(s, st->v[i].slot);

		if (!hit)
			continue;
		out->v[out->n].addr = st->v[i].addr;
		out->v[out->n].name = s->pool + hit->name;     /* the pool is complete */
		out->n++;
	}
	out->pool = s->pool;
}

void elf_plt_stubs(const struct elf_image *img, elf_stub_slot_fn slot_of, void *ctx,
		   struct elf_plt *out)
{
	static const char *const sections[] = { ".plt", ".plt.sec", ".plt.got" };
	struct stubs st = { 0 };
	struct slots s = { 0 };
	size_t seq = 0;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		const struct elf_section *sec = elf_section_named(img, sections[i]);

		if (sec)
			find_stubs(img, sec, slot_of, ctx, &st);
	}
	if (st.n) {
		st.slot = xcalloc(st.n, sizeof *st.slot);
		for (size_t i = 0; i < st.n; i++)
			st.slot[i] = st.v[i].slot;
		qsort(st.slot, st.n, sizeof *st.slot, by_u64);
		read_relocs(img, elf_section_named(img, ".rela.plt"), &st, &s, &seq);
		read_relocs(img, elf_section_named(img, ".rela.dyn"), &st, &s, &seq);
	}
	if (s.n) {
		qsort(s.v, s.n, sizeof *s.v, by_slot_then_seq);
		name_stubs(&st, &s, out);
	} else {
		free(s.pool);   /* static, or no stub's slot relocated: nothing named */
	}
	free(s.v);
	free(st.slot);
	free(st.v);
}

void elf_plt_free(struct elf_plt *p)
{
	free(p->v);
	free(p->pool);
	memset(p, 0, sizeof *p);
}
