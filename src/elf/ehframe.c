/* .eh_frame: the FDEs give the start and length of every function that has
 * unwind information, which is nearly all compiled code, stripped or not
 * (System V AMD64 ABI 6.2 and the LSB's "Exception Frames"). A .eh_frame
 * that lies is cut short where it stops making sense, never trusted. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
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

/* The FDE pointer encoding of the CIE at `cie` (default absptr); *signal
 * set when its augmentation has 'S' (a signal trampoline's frame). */
static int cie_fde_encoding(struct cursor c, bool *signal)
{
	char aug[16];
	size_t n = 0;
	uint8_t version = (uint8_t)get_bytes(&c, 1);
	uint8_t enc = 0;

	while (n < sizeof aug - 1) {
		aug[n] = (char)get_bytes(&c, 1);
		if (c.bad || aug[n] == 0)
			break;
		n++;
	}
	aug[n] = 0;
	if (c.bad || n == sizeof aug - 1)
		return -1;
	if (strstr(aug, "eh"))
		get_bytes(&c, 8);
	get_uleb(&c);                   /* code alignment */
	get_sleb(&c);                   /* data alignment */
	if (version == 1)
		get_bytes(&c, 1);       /* return register */
	else
		get_uleb(&c);
	if (aug[0] != 'z')
		return c.bad ? -1 : 0;
	get_uleb(&c);                   /* augmentation length */
	*signal = strchr(aug, 'S') != NULL;
	for (const char *a = aug + 1; *a && !c.bad; a++) {
		if (*a == 'R')
			enc = (uint8_t)get_bytes(&c, 1);
		else if (*a == 'L')
			get_bytes(&c, 1);
		else if (*a == 'P') {
			uint8_t penc = (uint8_t)get_bytes(&c, 1);
			get_encoded(&c, penc & 0x7f, false);
		} else if (*a != 'S' && *a != 'B' && *a != 'G')
			break;          /* unknown: stop, R comes first in practice */
	}
	return c.bad || enc == 0xff ? -1 : enc;
}

/* The CIE at offset `cie` of the section: its FDE pointer encoding and
 * whether it describes a signal frame. false when it is no CIE. */
static bool read_cie(const struct elf_section *s, const uint8_t *base, uint64_t cie,
		     int *enc, bool *signal)
{
	struct cursor c = { base + cie, base + s->size, s->addr + cie, false };
	uint64_t len = get_bytes(&c, 4), body;

	if (len == 0xffffffff)
		len = get_bytes(&c, 8);
	body = (uint64_t)(c.p - base);
	if (get_bytes(&c, 4) != 0 || c.bad)
		return false;
	/* bound it by its length, compared as offsets: len is untrusted */
	if (len <= s->size - body)
		c.end = base + body + len;
	*enc = cie_fde_encoding(c, signal);
	return *enc >= 0;
}

/* The FDE whose CIE pointer was just read by c: its range, if sound. */
static void read_fde(struct cursor *c, int enc, bool signal, struct elf_func **v,
		     size_t *n, size_t *cap)
{
	uint64_t start = get_encoded(c, (uint8_t)enc, true);
	uint64_t range = get_encoded(c, (uint8_t)(enc & 0x0f), false);

	/* glibc starts a signal frame's FDE one byte before the trampoline
	 * (the nop before __restore_rt) so that an unwinder looking up pc - 1
	 * finds it: the code is one byte on. */
	if (signal && range > 1) {
		start++;
		range--;
	}
	if (c->bad || range == 0 || range >= (1ull << 32))
		return;
	GROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = (struct elf_func){ .addr = start, .size = range };
}

void elf_fde_ranges(const struct elf_image *img, struct elf_func **v, size_t *n,
		    size_t *cap)
{
	const struct elf_section *s = elf_section_named(img, ".eh_frame");
	const uint8_t *base;
	uint64_t off = 0;

	/* lld and newer binutils type it SHT_X86_64_UNWIND */
	if (!s || (s->type != SHT_PROGBITS && s->type != SHT_X86_64_UNWIND))
		return;
	base = img->data + s->offset;
	while (off + 4 <= s->size) {
		struct cursor c = { base + off, base + s->size, s->addr + off, false };
		uint64_t len = get_bytes(&c, 4), body;
		uint32_t id;
		int enc;
		bool signal = false;

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
			if (!read_cie(s, base, body - id, &enc, &signal))
				break;  /* an FDE pointing at something that is no CIE */
			read_fde(&c, enc, signal, v, n, cap);
		}
		off = body + len;
	}
}
