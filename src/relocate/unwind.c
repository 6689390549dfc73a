/* Unwinding and debugging through copies. A copy runs where no loaded
 * object says how to unwind it: a C++ exception thrown through it ends the
 * program (std::terminate), backtrace() stops at it, gdb prints "??". So
 * each copy gets its function's FDEs rebased to it, in an .eh_frame of
 * the arena's own that the preload library registers with the process's
 * unwinder (libgcc_s's __register_frame), and the arena carries an ELF
 * image naming every copy that it announces to gdb through gdb's JIT
 * interface ("JIT Compilation Interface", gdb manual 29): gdb reads the
 * image's .symtab to name the copies and its .eh_frame to unwind them.
 *
 * An FDE's instructions locate code by offsets from its start, and its
 * LSDA's call sites and landing pads are offsets from the same start
 * (LPStart omitted): both hold for a copy. Every pointer the copy's CIE
 * and FDE hold is written absolute (DW_EH_PE_absptr): the FDE's start, the
 * copy's; its LSDA and the personality routine's word, the original's in
 * the object, so the type tables and catch clauses are the original's. */
#include "internal.h"
#include "plan.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define DW_EH_PE_absptr 0x00
#define DW_EH_PE_indirect 0x80
#define DW_EH_PE_omit 0xff
#define DW_CFA_nop 0x00

/* ---- which functions' unwind data a copy can have ---- */

/* The first FDE that ends after addr. */
static size_t first_fde_after(const struct elf_eh *eh, uint64_t addr)
{
	size_t lo = 0, hi = eh->nfde;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (eh->fde[mid].start + eh->fde[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* An LSDA whose call sites are relative to the function's start: its
 * LPStart encoding is DW_EH_PE_omit (GCC's and Clang's). */
static bool lsda_relative(const struct reloc_file *rf, uint64_t lsda)
{
	const uint8_t *p = elf_vaddr_bytes(&rf->img, lsda, 1);

	return p && *p == DW_EH_PE_omit;
}

static bool fde_copyable(const struct reloc_file *rf, const struct reloc_func *f,
			 const struct elf_fde *d)
{
	const struct elf_cie *c = &rf->eh.cie[d->cie];

	return d->start >= f->addr && d->start + d->size <= f->addr + f->size && c->copyable &&
	       !c->signal && elf_cfa_position_free(c->insn, c->ninsn) &&
	       elf_cfa_position_free(d->insn, d->ninsn) && (!d->lsda || lsda_relative(rf, d->lsda));
}

void reloc_unwind_check(struct reloc_file *rf, struct reloc_func *f)
{
	size_t i = first_fde_after(&rf->eh, f->addr);

	f->first_fde = (uint32_t)i;
	for (; i < rf->eh.nfde && rf->eh.fde[i].start < f->addr + f->size; i++)
		if (!fde_copyable(rf, f, &rf->eh.fde[i])) {
			reloc_refuse(f, RELOC_UNWIND, rf->eh.fde[i].start);
			return;
		}
	f->nfde = (uint32_t)(i - f->first_fde);
}

/* ---- the arena's read-only part: .eh_frame inside an ELF image ---- */

static void put_bytes(struct reloc_tail *t, const void *p, size_t n)
{
	GROW(t->bytes, t->cap, t->size + n);
	if (p)
		memcpy(t->bytes + t->size, p, n);
	else
		memset(t->bytes + t->size, 0, n);
	t->size += n;
}

static void put_u(struct reloc_tail *t, uint64_t v, unsigned n)
{
	uint8_t b[8];

	for (unsigned i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put_bytes(t, b, n);
}

static void put_uleb(struct reloc_tail *t, uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		b |= v ? 0x80 : 0;
		put_bytes(t, &b, 1);
	} while (v);
}

static void put_sleb(struct reloc_tail *t, int64_t v)
{
	bool more = true;

	while (more) {
		uint8_t b = v & 0x7f;

		v >>= 7;
		more = !((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40)));
		b |= more ? 0x80 : 0;
		put_bytes(t, &b, 1);
	}
}

static void align_to(struct reloc_tail *t, size_t a, uint8_t fill)
{
	while (t->size % a)
		put_bytes(t, &fill, 1);
}

/* An 8-byte absolute address at the current end, known at run time:
 * `value` in the arena (PLAN_IN_COPY) or the object. */
static void put_address(struct reloc_tail *t, uint64_t value, uint8_t value_in)
{
	GROW(t->fix, t->fix_cap, t->nfix + 1);
	t->fix[t->nfix++] = (struct plan_fixup){ .at = t->at + t->size, .value = value,
		.value_in = value_in, .ref_in = PLAN_ABSOLUTE, .size = 8, .at_in = PLAN_IN_COPY };
	put_u(t, 0, 8);
}

/* A record's length field, filled in by end_record; the body padded with
 * DW_CFA_nop to a multiple of 8, as GCC pads them. */
static size_t begin_record(struct reloc_tail *t)
{
	size_t at = t->size;

	put_u(t, 0, 4);
	return at;
}

static void end_record(struct reloc_tail *t, size_t at)
{
	align_to(t, 8, DW_CFA_nop);
	for (unsigned i = 0; i < 4; i++)
		t->bytes[at + i] = (uint8_t)((t->size - at - 4) >> (8 * i));
}

/* The CIE again, its pointers absolute: the personality's word (or
 * routine) in the object, LSDA and FDE pointers absptr. */
static void put_cie(struct reloc_tail *t, const struct elf_cie *c)
{
	size_t at = begin_record(t), aug;

	put_u(t, 0, 4);                 /* a CIE */
	put_bytes(t, &c->version, 1);
	put_bytes(t, c->aug, strlen(c->aug) + 1);
	put_uleb(t, c->code_align);
	put_sleb(t, c->data_align);
	if (c->version == 1)
		put_u(t, c->ra, 1);
	else
		put_uleb(t, c->ra);
	if (c->aug[0] == 'z') {
		put_uleb(t, 0);         /* its length, < 128: patched below */
		aug = t->size;
		for (const char *a = c->aug + 1; *a; a++) {
			uint8_t enc = DW_EH_PE_absptr;

			if (*a == 'P') {
				enc |= c->personality_indirect ? DW_EH_PE_indirect : 0;
				put_bytes(t, &enc, 1);
				put_address(t, c->personality_addr, PLAN_IN_OBJECT);
			} else if (*a == 'L' || *a == 'R')
				put_bytes(t, &enc, 1);
		}
		t->bytes[aug - 1] = (uint8_t)(t->size - aug);
	}
	put_bytes(t, c->insn, c->ninsn);
	end_record(t, at);
}

/* The FDE of the code now at arena offset `copy`: its CIE at `cie`. */
static void put_fde(struct reloc_tail *t, const struct elf_cie *c, const struct elf_fde *d,
		    size_t cie, uint64_t copy)
{
	size_t at = begin_record(t);

	put_u(t, t->size - cie, 4);     /* back to the CIE, from this field */
	put_address(t, copy, PLAN_IN_COPY);
	put_u(t, d->size, 8);
	if (c->aug[0] == 'z') {
		put_uleb(t, c->lsda_enc != DW_EH_PE_omit ? 8 : 0);
		if (c->lsda_enc != DW_EH_PE_omit && d->lsda)
			put_address(t, d->lsda, PLAN_IN_OBJECT);
		else if (c->lsda_enc != DW_EH_PE_omit)
			put_u(t, 0, 8);
	}
	put_bytes(t, d->insn, d->ninsn);
	end_record(t, at);
}

/* .eh_frame of the copies: each CIE used once, then every FDE. */
static void put_eh_frame(struct reloc_tail *t, const struct reloc_file *rf,
			 const struct reloc_copy *cp, size_t n)
{
	size_t *cie_at = xcalloc(rf->eh.ncie + 1, sizeof *cie_at);

	for (size_t i = 0; i < n; i++)
		for (uint32_t k = cp[i].f->first_fde; k < cp[i].f->first_fde + cp[i].f->nfde; k++) {
			uint32_t c = rf->eh.fde[k].cie;

			if (!cie_at[c]) {
				cie_at[c] = t->size;
				put_cie(t, &rf->eh.cie[c]);
			}
		}
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = cp[i].f->first_fde; k < cp[i].f->first_fde + cp[i].f->nfde; k++) {
			const struct elf_fde *d = &rf->eh.fde[k];

			put_fde(t, &rf->eh.cie[d->cie], d, cie_at[d->cie],
				cp[i].at + (d->start - cp[i].f->addr));
		}
	put_u(t, 0, 4);                 /* the terminator __register_frame reads to */
	free(cie_at);
}

/* A section header; `addr`, when given, an offset in the arena. */
static void put_shdr(struct reloc_tail *t, uint32_t name, uint32_t type, uint64_t flags,
		     const uint64_t *addr, uint64_t off, uint64_t size, uint32_t link,
		     uint64_t entsize, uint32_t info)
{
	put_u(t, name, 4), put_u(t, type, 4), put_u(t, flags, 8);
	if (addr)
		put_address(t, *addr, PLAN_IN_COPY);
	else
		put_u(t, 0, 8);
	put_u(t, off, 8), put_u(t, size, 8), put_u(t, link, 4), put_u(t, info, 4);
	put_u(t, 8, 8), put_u(t, entsize, 8);
}

static void put_ehdr(struct reloc_tail *t, const struct reloc_file *rf)
{
	static const uint8_t ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
						  ELFDATA2LSB, EV_CURRENT };

	put_bytes(t, ident, EI_NIDENT);
	put_u(t, ET_EXEC, 2);
	put_u(t, rf->img.arch == ARCH_AARCH64 ? EM_AARCH64 : EM_X86_64, 2);
	put_u(t, EV_CURRENT, 4);
	put_u(t, 0, 8), put_u(t, 0, 8); /* entry, phoff */
	put_u(t, 0, 8);                 /* shoff: patched */
	put_u(t, 0, 4), put_u(t, 64, 2), put_u(t, 0, 2), put_u(t, 0, 2);
	put_u(t, 64, 2), put_u(t, 6, 2), put_u(t, 5, 2);        /* 6 sections, names in 5 */
}

/* .symtab and .strtab: each copy a global function of section 1. */
static void put_symbols(struct reloc_tail *t, const struct reloc_copy *cp, size_t n,
			size_t *symtab, size_t *strtab, size_t *strsize)
{
	size_t name = 1;

	align_to(t, 8, 0);
	*symtab = t->size;
	put_bytes(t, NULL, sizeof(Elf64_Sym));
	for (size_t i = 0; i < n; i++) {
		put_u(t, name, 4);
		put_u(t, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1), put_u(t, 0, 1), put_u(t, 1, 2);
		put_address(t, cp[i].at, PLAN_IN_COPY);
		put_u(t, cp[i].f->size, 8);
		name += strlen(cp[i].f->symbol) + 1;
	}
	*strtab = t->size;
	put_bytes(t, "", 1);
	for (size_t i = 0; i < n; i++)
		put_bytes(t, cp[i].f->symbol, strlen(cp[i].f->symbol) + 1);
	*strsize = t->size - *strtab;
}

void reloc_tail_build(const struct reloc_file *rf, const struct reloc_copy *cp, size_t n,
		      uint64_t at, struct reloc_tail *t)
{
	static const char names[] = "\0.text\0.eh_frame\0.symtab\0.strtab\0.shstrtab";
	size_t symtab, strtab, strsize, shstr, shoff;
	uint64_t code = 0, eh;

	*t = (struct reloc_tail){ .at = at };
	put_ehdr(t, rf);
	t->eh_frame = t->size;
	put_eh_frame(t, rf, cp, n);
	t->eh_frame_size = t->size - t->eh_frame;
	put_symbols(t, cp, n, &symtab, &strtab, &strsize);
	shstr = t->size;
	put_bytes(t, names, sizeof names);
	align_to(t, 8, 0);
	shoff = t->size;
	put_bytes(t, NULL, sizeof(Elf64_Shdr));
	put_shdr(t, 1, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, &code, 0, at, 0, 0, 0);
	eh = at + t->eh_frame;
	put_shdr(t, 7, SHT_PROGBITS, SHF_ALLOC, &eh, t->eh_frame, t->eh_frame_size, 0, 0, 0);
	put_shdr(t, 17, SHT_SYMTAB, 0, NULL, symtab, strtab - symtab, 4, sizeof(Elf64_Sym), 1);
	put_shdr(t, 25, SHT_STRTAB, 0, NULL, strtab, strsize, 0, 0, 0);
	put_shdr(t, 33, SHT_STRTAB, 0, NULL, shstr, sizeof names, 0, 0, 0);
	for (unsigned i = 0; i < 8; i++)
		t->bytes[40 + i] = (uint8_t)(shoff >> (8 * i));
}

void reloc_tail_free(struct reloc_tail *t)
{
	free(t->bytes), free(t->fix);
	*t = (struct reloc_tail){ 0 };
}
