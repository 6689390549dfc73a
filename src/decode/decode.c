/* The one interface over both back ends. */
#include "decode.h"
#include "internal.h"

#include <stdio.h>
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

size_t decode_run(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
		  struct insn *out, size_t max, size_t *used)
{
	size_t k = 0, off = 0;

	if (d->arch == ARCH_X86_64)
		return x86_decode_run(d->impl, p, n, addr, out, max, used);
	for (; off < n && k < max; off += out[k++].len)
		arm64_decode_one(d->impl, p + off, n - off, addr + off, &out[k]);
	*used = off;
	return k;
}

bool decode_quick_agrees(struct decoder *d, const uint8_t *p, size_t n, bool *quick)
{
	*quick = false;
	return d->arch == ARCH_X86_64 && x86_quick_agrees(d->impl, p, n, quick);
}

static bool may_store(struct decoder *d, const uint8_t *p, size_t n)
{
	return d->arch == ARCH_X86_64 ? x86_may_store(d->impl, p, n) : arm64_may_store(p, n);
}

static bool writes_memory(struct decoder *d, const uint8_t *p, size_t n)
{
	return d->arch == ARCH_X86_64 ? x86_writes_memory(d->impl, p, n) :
	       arm64_writes_memory(d->impl, p, n);
}

unsigned decode_count_stores(struct decoder *d, const struct insn *insn, const uint8_t *code,
			     size_t n)
{
	unsigned stores = 0;

	for (size_t off = 0, k = 0; off < n; off += insn[k++].len)
		stores += may_store(d, code + off, insn[k].len) &&
			  writes_memory(d, code + off, insn[k].len);
	return stores;
}

bool decode_store_filter_holds(struct decoder *d, const uint8_t *p, size_t n, bool *may)
{
	*may = may_store(d, p, n);
	return *may || !writes_memory(d, p, n);
}

static uint64_t read_entry(const uint8_t *p, const struct table_shape *t)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < t->size; k++)
		v |= (uint64_t)p[k] << (8 * k);
	if (t->sign && t->size < 8) {
		uint64_t m = 1ull << (8 * t->size - 1);

		v = (v ^ m) - m;
	}
	return v;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool falls_through(const struct insn *in)
{
	return in->kind == BR_NONE || in->kind == BR_COND;
}

size_t dispatch_prev(const struct dispatch *w, size_t k)
{
	size_t from = DISPATCH_NONE, top = k;

	/* Alignment padding after a ret or a jmp is on no path: the way in is
	 * then a branch (libc's parse_arith: a nopl between a ret and the
	 * dispatch block its jg reaches, which left the switch unread). */
	while (top > 0 && w->insn[top - 1].padding)
		top--;
	if (top > 0 && falls_through(&w->insn[top - 1]))
		return w->insn[k - 1].undecoded ? DISPATCH_NONE : k - 1;
	for (size_t i = 0; i < w->n; i++)
		if ((w->insn[i].kind == BR_COND || w->insn[i].kind == BR_JUMP) &&
		    w->insn[i].target == w->insn[k].addr) {
			if (from != DISPATCH_NONE)
				return DISPATCH_NONE;   /* two ways in: the bound is not one */
			from = i;
		}
	return from;
}

/* The shape of a dispatch is per back end; reading the table is common. */
enum jump_kind decode_jump_table(struct decoder *d, const struct elf_image *img,
				 const uint8_t *code, const struct insn *insn, size_t n, size_t j,
				 struct jump_targets *out)
{
	struct table_shape t;

	return decode_jump_table_shape(d, img, code, insn, n, j, out, &t);
}

enum jump_kind decode_jump_table_shape(struct decoder *d, const struct elf_image *img,
				       const uint8_t *code, const struct insn *insn, size_t n,
				       size_t j, struct jump_targets *out, struct table_shape *shape)
{
	struct dispatch w = { code, insn, n, j };
	struct table_shape t = { 0 };
	uint64_t lo = insn[0].addr, hi = insn[n - 1].addr + insn[n - 1].len;
	const uint8_t *p;
	size_t k = 0, m = 0;

	out->n = 0;
	if (insn[j].kind != BR_JUMP_IND)
		return JUMP_UNKNOWN;
	if (d->arch == ARCH_X86_64 &&
	    x86_stub_slot(d->impl, code + (insn[j].addr - lo), insn[j].len, insn[j].addr))
		return JUMP_SLOT;
	if (!(d->arch == ARCH_X86_64 ? x86_table_shape(d->impl, img, &w, &t) :
	      arm64_table_shape(d->impl, img, &w, &t)))
		return JUMP_UNKNOWN;
	/* a bound beyond 64 Ki entries is not a switch GCC or Clang emit */
	if (t.count == 0 || t.count > 65536 || !(p = elf_vaddr_bytes(img, t.table, t.count * t.size)))
		return JUMP_UNKNOWN;
	GROW(out->v, out->cap, t.count);
	for (uint64_t e = 0; e < t.count; e++) {
		uint64_t target = t.base + (read_entry(p + e * t.size, &t) << t.shift);

		/* a case may sit in the function's cold part, elsewhere in
		 * the text: only an entry leading out of code is a misread */
		if (target < lo || target >= hi) {
			if (!elf_vaddr_is_code(img, target))
				return JUMP_UNKNOWN;
			continue;
		}
		out->v[m++] = target;
	}
	*shape = t;
	qsort(out->v, m, sizeof *out->v, by_u64);
	for (uint64_t e = 0; e < m; e++)
		if (k == 0 || out->v[e] != out->v[k - 1])
			out->v[k++] = out->v[e];
	out->n = k;
	return JUMP_TABLE;
}

bool decode_address_fields(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr,
			   struct address_fields *out)
{
	if (d->arch != ARCH_X86_64)
		return arm64_address_fields(p, n, addr, out);
	return x86_address_fields(d->impl, p, n, addr, out);
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
	/* from the end: a ret is most often the last bytes, and a search from
	 * the start read nearly every byte of the file once more (memchr was
	 * 2% of a libLLVM scan) */
	if (arch == ARCH_X86_64)
		return memrchr(p, 0xc3, n) || memrchr(p, 0xc2, n);
	for (size_t off = 0; off + 4 <= n; off += 4) {
		uint32_t w = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
			     (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;

		if ((w & 0xfffff000u) == 0xd65f0000u || w == 0xd69f03e0u)
			return true;
	}
	return false;
}

bool decode_privileged(struct decoder *d, const uint8_t *p, size_t n, const char **name)
{
	*name = "";
	return d->arch == ARCH_X86_64 ? x86_privileged(d->impl, p, n, name) :
	       arm64_privileged(d->impl, p, n, name);
}

const char *decode_library_versions(void)
{
	static char v[80];

	snprintf(v, sizeof v, "%s, %s", x86_library_version(), arm64_library_version());
	return v;
}

const char *branch_kind_name(enum branch_kind k)
{
	switch (k) {
	case BR_NONE: return "none";
	case BR_COND: return "jcc";
	case BR_JUMP: return "jmp";
	case BR_JUMP_IND: return "jmp-indirect";
	case BR_CALL: return "call";
	case BR_CALL_IND: return "call-indirect";
	case BR_RET: return "ret";
	case BR_STOP: return "stop";
	case BR_INVALID: return "invalid";
	}
	return "?";
}

bool decode_asm_text(struct decoder *d, const uint8_t *p, size_t n, uint64_t addr, uint64_t base,
		     char *buf, size_t cap, bool *divides)
{
	*divides = false;
	return d->arch == ARCH_X86_64 ? x86_asm_text(d->impl, p, n, addr, base, buf, cap, divides) :
	       arm64_asm_text(d->impl, p, n, addr, base, buf, cap, divides);
}
