/* model/shape.h: the shape of code, for diff to match it by (shape.c). */
#ifndef STRADDLE_MODEL_SHAPE_H
#define STRADDLE_MODEL_SHAPE_H

#include "../decode/decode.h"

/* A function's instructions reduced to what survives a rebuild elsewhere:
 * its mnemonics in order (shape; alignment nops left out, their count
 * depends on where the code lands), the same with every length (form:
 * equal forms are equal bytes to every rule, so a function or loop whose
 * form is unchanged only moved), and a histogram of mnemonics (mix), whose
 * distance says how near two shapes are after an edit. */
#define SHAPE_MIX 16

struct func_shape {
	uint64_t shape, form;
	uint16_t mix[SHAPE_MIX];        /* saturating counts, mnemonic hashed to a bucket */
};

void func_shape(const struct insn *insn, size_t n, struct func_shape *out);
uint64_t form_hash(const struct insn *insn, size_t n);
/* Instructions the two mixes disagree on (the L1 distance). */
unsigned shape_distance(const struct func_shape *a, const struct func_shape *b);

#endif
