/* The one interface over both back ends. */
#include "decode.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

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

bool insn_fuses(const struct insn *first, const struct insn *jcc)
{
	if (jcc->kind != BR_COND || first->addr + first->len != jcc->addr)
		return false;
	return x86_fuses(first, jcc);
}

const char *decode_library_versions(void)
{
	static char v[80];

	snprintf(v, sizeof v, "%s, %s", x86_library_version(), arm64_library_version());
	return v;
}
