/* .eh_frame: the FDEs give the start and length of every function that has
 * unwind information, which is nearly all compiled code, stripped or not
 * (System V AMD64 ABI 6.2 and the LSB's "Exception Frames"). A .eh_frame
 * that lies is cut short where it stops making sense, never trusted. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const uint8_t *p, *end;
	uint64_t addr;          /* virtual address of p, for pc-relative values */
	bool bad;
};

static uint64_t get_bytes(struct cursor *c, unsigned n)
{
	uint64_t v = 0;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	c->addr += n;
	return v;
}

static uint64_t get_uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		uint8_t b = (uint8_t)get_bytes(c, 1);

		if (c->bad)
			return 0;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
}

static int64_t get_sleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = (uint8_t)get_bytes(c, 1);
		if (c->bad)
			return 0;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~0ull << shift;
	return (int64_t)v;
}

/* A DW_EH_PE-encoded value; pc-relative ones are made absolute when
 * `apply` is set (the FDE's address range is an unapplied length). */
static uint64_t get_encoded(struct cursor *c, uint8_t enc, bool apply)
{
	uint64_t at = c->addr, v;

	switch (enc & 0x0f) {
	case 0x00: v = get_bytes(c, 8); break;
	case 0x01: v = get_uleb(c); break;
	case 0x02: v = get_bytes(c, 2); break;
	case 0x03: v = get_bytes(c, 4); break;
	case 0x04: v = get_bytes(c, 8); break;
	case 0x09: v = (uint64_t)get_sleb(c); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)get_bytes(c, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)get_bytes(c, 4); break;
	case 0x0c: v = get_bytes(c, 8); break;
	default: c->bad = true; return 0;
	}
	if (apply && (enc & 0x70) == 0x10)
		v += at;
	else if (apply && (enc & 0x70) != 0)
		c->bad = true;  /* text-, data-, func-relative: not used on Linux */
	return v;
}

/* A pointer encoding a copy can be given: absolute or pc-relative, of a
 * size the reader knows (text-, data- and function-relative bases are not
 * used on Linux and are not rebased). */
static bool copyable_encoding(uint8_t enc)
{
	return enc == 0xff || ((enc & 0x70) <= 0x10 && (enc & 0x0f) != 0x08 &&
			       (enc & 0x0f) <= 0x0c);
}

/* The CIE whose body starts at c (its version byte): its augmentation,
 * factors, encodings, personality and initial instructions. false when it
 * is unreadable; cie->copyable false when a copy of it could not be made
 * (an augmentation or encoding this reader does not know). */
static bool parse_cie(struct cursor c, struct elf_cie *cie)
{
	size_t n = 0;

	*cie = (struct elf_cie){ .version = (uint8_t)get_bytes(&c, 1), .lsda_enc = 0xff };
	while (n < sizeof cie->aug) {
		cie->aug[n] = (char)get_bytes(&c, 1);
		if (c.bad || cie->aug[n] == 0)
			break;
		n++;
	}
	if (c.bad || n == sizeof cie->aug)
		return false;
	cie->copyable = !strstr(cie->aug, "eh") && (cie->version == 1 || cie->version == 3);
	if (strstr(cie->aug, "eh"))
		get_bytes(&c, 8);
	cie->code_align = get_uleb(&c);
	cie->data_align = get_sleb(&c);
	cie->ra = cie->version == 1 ? get_bytes(&c, 1) : get_uleb(&c);
	if (cie->aug[0] == 'z') {
		uint64_t len = get_uleb(&c);
		const uint8_t *end = c.p + ((size_t)(c.end - c.p) < len ? (size_t)(c.end - c.p) : len);

		for (const char *a = cie->aug + 1; *a && !c.bad; a++) {
			if (*a == 'R')
				cie->fde_enc = (uint8_t)get_bytes(&c, 1);
			else if (*a == 'L')
				cie->lsda_enc = (uint8_t)get_bytes(&c, 1);
			else if (*a == 'P') {
				uint8_t penc = (uint8_t)get_bytes(&c, 1);

				cie->personality = true;
				cie->personality_indirect = penc & 0x80;
				cie->copyable &= copyable_encoding(penc & 0x7f);
				cie->personality_addr = get_encoded(&c, penc & 0x7f, true);
			} else if (*a == 'S')
				cie->signal = true;
			else if (*a != 'B' && *a != 'G') {
				cie->copyable = false;  /* unknown: its data cannot be read past */
				break;
			}
		}
		c.p = end;
	} else if (cie->aug[0])
		cie->copyable = false;
	cie->copyable &= copyable_encoding(cie->fde_enc) && cie->fde_enc != 0xff &&
			 copyable_encoding(cie->lsda_enc);
	cie->insn = c.p;
	cie->ninsn = (size_t)(c.end - c.p);
	return !c.bad && cie->fde_enc != 0xff;
}

/* The CIE at offset `off` of the section, parsed once: its index in
 * eh->cie, or -1 when it is no CIE. */
static long cie_at(const struct elf_section *s, const uint8_t *base, uint64_t off,
		   struct elf_eh *eh)
{
	struct cursor c = { base + off, base + s->size, s->addr + off, false };
	uint64_t len = get_bytes(&c, 4), body;

	for (size_t i = eh->ncie; i-- > 0;)
		if (eh->cie[i].offset == off)
			return (long)i;
	if (len == 0xffffffff)
		len = get_bytes(&c, 8);
	body = (uint64_t)(c.p - base);
	if (get_bytes(&c, 4) != 0 || c.bad)
		return -1;
	/* bound it by its length, compared as offsets: len is untrusted */
	if (len <= s->size - body)
		c.end = base + body + len;
	GROW(eh->cie, eh->cie_cap, eh->ncie + 1);
	if (!parse_cie(c, &eh->cie[eh->ncie]))
		return -1;
	eh->cie[eh->ncie].offset = off;
	return (long)eh->ncie++;
}

/* The FDE whose CIE pointer was just read by c. */
static void parse_fde(struct cursor *c, struct elf_eh *eh, long cie)
{
	const struct elf_cie *ci = &eh->cie[cie];
	uint64_t start = get_encoded(c, ci->fde_enc, true);
	uint64_t range = get_encoded(c, (uint8_t)(ci->fde_enc & 0x0f), false), lsda = 0;
	const uint8_t *insn;

	if (ci->aug[0] == 'z') {
		uint64_t len = get_uleb(c);

		insn = c->p + ((size_t)(c->end - c->p) < len ? (size_t)(c->end - c->p) : len);
		if (ci->lsda_enc != 0xff)
			lsda = get_encoded(c, ci->lsda_enc, true);
		c->p = insn;
	}
	if (c->bad || range == 0 || range >= (1ull << 32))
		return;
	GROW(eh->fde, eh->fde_cap, eh->nfde + 1);
	eh->fde[eh->nfde++] = (struct elf_fde){ .start = start, .size = range, .lsda = lsda,
		.cie = (uint32_t)cie, .insn = c->p, .ninsn = (size_t)(c->end - c->p) };
}

static int by_start(const void *a, const void *b)
{
	const struct elf_fde *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void elf_eh_read(const struct elf_image *img, struct elf_eh *eh)
{
	const struct elf_section *s = elf_section_named(img, ".eh_frame");
	const uint8_t *base;
	uint64_t off = 0;

	*eh = (struct elf_eh){ 0 };
	/* lld and newer binutils type it SHT_X86_64_UNWIND */
	if (!s || (s->type != SHT_PROGBITS && s->type != SHT_X86_64_UNWIND) ||
	    !elf_range_ok(img, s->offset, s->size))
		return;
	base = img->data + s->offset;
	while (off + 4 <= s->size) {
		struct cursor c = { base + off, base + s->size, s->addr + off, false };
		uint64_t len = get_bytes(&c, 4), body;
		uint32_t id;
		long cie;

		if (len == 0)
			break;          /* terminator */
		if (len == 0xffffffff)
			len = get_bytes(&c, 8);
		body = (uint64_t)(c.p - base);
		if (c.bad || len > s->size - body)
			break;
		c.end = base + body + len;
		id = (uint32_t)get_bytes(&c, 4);        /* 0: a CIE; else back to one */
		if (id != 0 && id <= body) {
			if ((cie = cie_at(s, base, body - id, eh)) < 0)
				break;  /* an FDE pointing at something that is no CIE */
			parse_fde(&c, eh, cie);
		}
		off = body + len;
	}
	if (eh->nfde)
		qsort(eh->fde, eh->nfde, sizeof *eh->fde, by_start);
}

void elf_eh_free(struct elf_eh *eh)
{
	free(eh->cie);
	free(eh->fde);
	*eh = (struct elf_eh){ 0 };
}

/* glibc starts a signal frame's FDE one byte before the trampoline (the
 * nop before __restore_rt) so that an unwinder looking up pc - 1 finds
 * it: the code is one byte on. */
void elf_fde_ranges(const struct elf_image *img, struct elf_func **v, size_t *n,
		    size_t *cap)
{
	struct elf_eh eh;

	elf_eh_read(img, &eh);
	for (size_t i = 0; i < eh.nfde; i++) {
		const struct elf_fde *f = &eh.fde[i];
		bool signal = eh.cie[f->cie].signal && f->size > 1;

		GROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = (struct elf_func){ .addr = f->start + signal, .size = f->size - signal };
	}
	elf_eh_free(&eh);
}

/* ---- call-frame instructions ---- */

/* DW_CFA_* (DWARF 5, 6.4.2; GNU's 0x2d-0x2f): the operands of each, so
 * that a walk can step over them. */
enum { OP_NONE, OP_U, OP_UU, OP_US, OP_S, OP_B, OP_UB, OP_1, OP_2, OP_4, OP_ADDR, OP_BAD };

static int cfa_operands(uint8_t op)
{
	switch (op) {
	case 0x00: case 0x0a: case 0x0b: case 0x2d: return OP_NONE;
	case 0x01: return OP_ADDR;                                      /* set_loc */
	case 0x02: return OP_1;
	case 0x03: return OP_2;
	case 0x04: return OP_4;
	case 0x05: case 0x09: case 0x0c: case 0x14: case 0x2f: return OP_UU;
	case 0x06: case 0x07: case 0x08: case 0x0d: case 0x0e: case 0x2e: return OP_U;
	case 0x0f: return OP_B;
	case 0x10: case 0x16: return OP_UB;
	case 0x11: case 0x12: case 0x15: return OP_US;
	case 0x13: return OP_S;
	default: return OP_BAD;
	}
}

bool elf_cfa_position_free(const uint8_t *p, size_t n)
{
	struct cursor c = { p, p + n, 0, false };

	while (c.p < c.end && !c.bad) {
		uint8_t op = (uint8_t)get_bytes(&c, 1);

		if (op & 0xc0) {                /* advance_loc, offset, restore */
			if ((op & 0xc0) == 0x80)
				get_uleb(&c);
			continue;
		}
		switch (cfa_operands(op)) {
		case OP_NONE: break;
		case OP_U: get_uleb(&c); break;
		case OP_UU: get_uleb(&c), get_uleb(&c); break;
		case OP_US: get_uleb(&c), get_sleb(&c); break;
		case OP_S: get_sleb(&c); break;
		case OP_1: get_bytes(&c, 1); break;
		case OP_2: get_bytes(&c, 2); break;
		case OP_4: get_bytes(&c, 4); break;
		case OP_UB: get_uleb(&c);
			/* fall through */
		case OP_B: {
			uint64_t len = get_uleb(&c);

			if ((uint64_t)(c.end - c.p) < len)
				return false;
			c.p += len;
			break;
		}
		default: return false;          /* set_loc: an address; or unknown */
		}
	}
	return !c.bad;
}
