/* The back ends behind decode.h; nothing outside decode/ includes this. */
#ifndef STRADDLE_DECODE_INTERNAL_H
#define STRADDLE_DECODE_INTERNAL_H

#include "decode.h"

void *x86_decoder_new(void);
void x86_decode_one(void *d, const uint8_t *p, size_t n, uint64_t addr, struct insn *out);
bool x86_fuses(const struct insn *first, const struct insn *jcc);

void *arm64_decoder_new(void);
void arm64_decoder_free(void *d);
void arm64_decode_one(void *d, const uint8_t *p, size_t n, uint64_t addr, struct insn *out);

/* The library behind each, as built: "Zydis 4.0.0", "Capstone 4.0.2". */
const char *x86_library_version(void);
const char *arm64_library_version(void);

#endif
