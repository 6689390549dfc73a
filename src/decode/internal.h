/* The back ends behind decode.h; nothing outside decode/ includes this. */
#ifndef STRADDLE_DECODE_INTERNAL_H
#define STRADDLE_DECODE_INTERNAL_H

#include "decode.h"

void *x86_decoder_new(void);
void x86_decode_one(void *d, const uint8_t *p, size_t n, uint64_t addr, struct insn *out);
size_t x86_decode_run(void *d, const uint8_t *p, size_t n, uint64_t addr, struct insn *out,
		      size_t max, size_t *used);
/* What the scan keeps of an x86 instruction, as Zydis (minimal mode) or
 * the quick path (x86_quick.c) decodes it: the mnemonic and the raw
 * fields the branch kind, the target and macro-fusion are read from. */
struct x86_facts {
	uint16_t mnemonic;      /* ZydisMnemonic */
	uint8_t len;
	bool has_modrm;
	uint8_t mod, rm;        /* ModRM fields, when has_modrm */
	bool has_imm;           /* a first immediate (or relative displacement) */
	bool rel;               /* ... which is a branch's displacement */
	int64_t imm;
};

/* The common instructions without Zydis; false: ask Zydis. */
bool x86_quick_facts(const uint8_t *p, size_t n, struct x86_facts *f);
/* The opcode map (ZydisOpcodeMap) and opcode of bytes x86_quick_facts
 * took. */
void x86_quick_opcode(const uint8_t *p, size_t n, uint8_t *map, uint8_t *opcode);
bool x86_quick_agrees(void *d, const uint8_t *p, size_t n, bool *quick);
bool x86_may_store(void *d, const uint8_t *p, size_t n);
bool x86_writes_memory(void *d, const uint8_t *p, size_t n);
bool x86_fuses(const struct insn *first, const struct insn *jcc);
uint64_t x86_stub_slot(void *d, const uint8_t *p, size_t n, uint64_t addr);
bool x86_privileged(void *d, const uint8_t *p, size_t n, const char **name);
bool x86_asm_text(void *d, const uint8_t *p, size_t n, uint64_t addr, uint64_t base, char *buf,
		  size_t cap, bool *divides);

/* A function's instructions insn[0..n) (bytes `code`) and its indirect
 * jump insn[j], for the walk back from the jump. */
struct dispatch {
	const uint8_t *code;
	const struct insn *insn;
	size_t n, j;
};

#define DISPATCH_NONE SIZE_MAX
#define DISPATCH_WINDOW 40      /* instructions walked back at most */

/* The instruction executed just before insn[k] on the way to the
 * dispatch: insn[k-1] when it falls through (a conditional branch does;
 * a call, a jump, a ret do not; nops after one of those are on no path),
 * else the one direct branch to insn[k]
 * (GCC often jumps to the dispatch block from its bound check);
 * DISPATCH_NONE when there is neither. */
size_t dispatch_prev(const struct dispatch *w, size_t k);

bool x86_table_shape(void *d, const struct elf_image *img, const struct dispatch *w,
		     struct table_shape *t);
bool x86_address_fields(void *d, const uint8_t *p, size_t n, uint64_t addr,
			struct address_fields *out);
bool arm64_table_shape(void *d, const struct elf_image *img, const struct dispatch *w,
		       struct table_shape *t);

void *arm64_decoder_new(void);
void arm64_decoder_free(void *d);
void arm64_decode_one(void *d, const uint8_t *p, size_t n, uint64_t addr, struct insn *out);
bool arm64_may_store(const uint8_t *p, size_t n);
bool arm64_writes_memory(void *d, const uint8_t *p, size_t n);
uint64_t arm64_stub_slot(const uint8_t *p, size_t n, uint64_t addr);
bool arm64_address_fields(const uint8_t *p, size_t n, uint64_t addr, struct address_fields *out);
bool arm64_asm_text(void *d, const uint8_t *p, size_t n, uint64_t addr, uint64_t base, char *buf,
		    size_t cap, bool *divides);

/* The library behind each, as built: "Zydis 4.0.0", "Capstone 4.0.2". */
const char *x86_library_version(void);
const char *arm64_library_version(void);
bool arm64_privileged(void *d, const uint8_t *p, size_t n, const char **name);

#endif
