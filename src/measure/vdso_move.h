/* measure/vdso_move.h: a function of this process's vDSO moved to an
 * offset of a line and back (vdso_move.c), for place --file vdso. */
#ifndef STRADDLE_MEASURE_VDSO_MOVE_H
#define STRADDLE_MEASURE_VDSO_MOVE_H

#include "../relocate/relocate.h"

struct vdso_move {
	struct reloc_file rf;
	const struct reloc_func *f;     /* the function, analysed */
	uintptr_t base;                 /* the vDSO's mapping (AT_SYSINFO_EHDR) */
	uint8_t *entry;                 /* the function's first byte in it */
	uint8_t saved[5];               /* what the entry jump overwrites */
	uint8_t *arena, *copy;          /* the copy's mapping ([anon:straddle-vdso]), the copy */
	size_t arena_size;
	int mem;                        /* /proc/self/mem */
};

/* The vDSO's function `func`, analysed for moving; -1 with why (none so
 * named, refused by relocate/). */
int vdso_move_open(struct vdso_move *m, const char *func, struct err *e);
/* Its copy with its entry at `offset` of a line (0..63), near the vDSO,
 * and its entry a jump there; a copy made before goes. */
int vdso_move_to(struct vdso_move *m, uint32_t offset, struct err *e);
/* The entry's own bytes back, the copy gone. */
int vdso_move_back(struct vdso_move *m, struct err *e);
void vdso_move_close(struct vdso_move *m);

#endif
