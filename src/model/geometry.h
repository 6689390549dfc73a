/* model/geometry.h: a loop's geometry from its CFG, its stores counted, and the hazards
 * of a loop in bytes placed anywhere (geometry.c). */
#ifndef STRADDLE_MODEL_GEOMETRY_H
#define STRADDLE_MODEL_GEOMETRY_H

#include "rules.h"
#include "../cfg/cfg.h"

void loop_geometry(const struct cfg *g, const struct cfg_loop *l, struct loop_geometry *geo);
void loop_geometry_free(struct loop_geometry *geo);
/* Does the loop straddle one of p's windows (at `start`, or at a
 * placement modulo placement_align) that p's back-end bound hides? */
bool back_end_hid_straddle(const struct profile *p, const struct loop_geometry *geo,
			   uint64_t start, uint64_t placement_align);
/* Count the stores of a loop whose bytes are code[0..geo->bytes), decoded as
 * insn[] (insn[0] at code[0]), at `start` with placements known modulo
 * `placement_align` (loop_hazards), when p's verdict depends on them and they
 * are not counted yet (decoding operands costs several times the scan's
 * decode). */
void loop_count_stores(struct loop_geometry *geo, const struct profile *p, struct decoder *d,
		       const struct insn *insn, const uint8_t *code, uint64_t start,
		       uint64_t placement_align);
/* Room loop_hazards needs for one profile's hazards of a loop. */
size_t loop_hazards_max(const struct loop_geometry *geo);

/* The hazards under `p` of the innermost loop containing
 * loop_addr in the code bytes code[0..size) placed at addr (a placement
 * in memory: addresses mod 4096 are exact). For the sweep's prediction. */
size_t code_loop_hazards(const struct profile *p, const uint8_t *code, size_t size,
			 uint64_t addr, uint64_t loop_addr, struct hazard *out, size_t max);

#endif
