/* The shape of code, for diff to match what a rebuild renamed, stripped or
 * moved: FNV-1a over mnemonics, and over mnemonics with lengths; a histogram
 * of mnemonics for the nearest shape. */
#include "shape.h"

#define FNV_BASIS 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

static uint64_t fnv(uint64_t h, uint64_t v)
{
	return (h ^ v) * FNV_PRIME;
}

uint64_t form_hash(const struct insn *insn, size_t n)
{
	uint64_t h = FNV_BASIS;

	for (size_t i = 0; i < n; i++)
		h = fnv(h, (uint64_t)insn[i].shape << 8 | insn[i].len);
	return h;
}

/* Mnemonic ids are dense and small; a multiplicative hash spreads the
 * common ones (mov, lea, call, jcc) over different buckets. */
static unsigned mix_bucket(uint16_t shape)
{
	return (unsigned)((shape * 0x9e3779b1u) >> 28) % SHAPE_MIX;
}

void func_shape(const struct insn *insn, size_t n, struct func_shape *out)
{
	*out = (struct func_shape){ .shape = FNV_BASIS, .form = form_hash(insn, n) };
	for (size_t i = 0; i < n; i++) {
		unsigned b = mix_bucket(insn[i].shape);

		if (insn[i].padding)
			continue;
		out->shape = fnv(out->shape, insn[i].shape);
		if (out->mix[b] < UINT16_MAX)
			out->mix[b]++;
	}
}

unsigned shape_distance(const struct func_shape *a, const struct func_shape *b)
{
	unsigned d = 0;

	for (unsigned i = 0; i < SHAPE_MIX; i++)
		d += a->mix[i] > b->mix[i] ? a->mix[i] - b->mix[i] : b->mix[i] - a->mix[i];
	return d;
}
