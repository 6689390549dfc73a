/* The one interface over both back ends. */
#include "decode.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct decoder {
	enum arch arch;
	void *impl;
};

struct decoder *decoder_new(enum arch arch)
{
	struct decoder *d = xcalloc(1, sizeof *d);

	d->arch = arch;
	d->impl = arch == ARCH_X86_64 ? x86_decoder_new() :
		  arch == ARCH_AARCH64 ? arm64_decoder_new() : NULL;
	if (!d->impl) {
		free(d);
		return NULL;
	}
	return d;
}

void decoder_free(struct decoder *d)
{
	if (!d)
		return;
	if (d->arch == ARCH_AARCH64)
		arm64_decoder_free(d->impl);
	else
		free(d->impl);
	free(d);
}

void decode_one(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
		struct insn *out)
{
	if (d->arch == ARCH_X86_64)
		x86_decode_one(d->impl, p, n, addr, out);
	else
		arm64_decode_one(d->impl, p, n, addr, out);
}

uint64_t decode_stub_slot(void *decoder, const uint8_t *p, size_t n, uint64_t addr)
{
	struct decoder *d = decoder;

	return d->arch == ARCH_X86_64 ? x86_stub_slot(d->impl, p, n, addr) :
	       arm64_stub_slot(p, n, addr);
}

bool insn_fuses(const struct insn *first, const struct insn *jcc)
{
	if (jcc->kind != BR_COND || first->addr + first->len != jcc->addr)
		return false;
	return x86_fuses(first, jcc);
}

/* x86-64: ret is c3 or c2 iw; a function with neither byte has none.
 * AArch64: RET/RETAA/RETAB/ERET are one encoding family, D65F xxxx and
 * D69F 03E0 (Arm ARM C6.2: RET, RETAA, ERET), searched word by word. */
bool decode_may_hold_ret(enum arch arch, const uint8_t *p, size_t n)
{
	if (arch == ARCH_X86_64)
		return memchr(p, 0xc3, n) || memchr(p, 0xc2, n);
	for (size_t off = 0; off + 4 <= n; off += 4) {
		uint32_t w = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
			     (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;

		if ((w & 0xfffff000u) == 0xd65f0000u || w == 0xd69f03e0u)
			return true;
	}
	return false;
}
