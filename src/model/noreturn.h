/* model/noreturn.h: the functions that never return (noreturn.c). */
#ifndef STRADDLE_MODEL_NORETURN_H
#define STRADDLE_MODEL_NORETURN_H

#include "../elf/elf.h"

/* Start addresses of the functions that never return, sorted. */
struct noreturn_set {
	uint64_t *addr;
	size_t n;
};

/* `jobs` threads read the functions' code (1: the caller alone); the set
 * does not depend on how many. */
void noreturn_find(const struct elf_image *img, const struct elf_funcs *f, unsigned jobs,
		   struct noreturn_set *s);
bool noreturn_has(const struct noreturn_set *s, uint64_t addr);

struct insn;
/* A call to a function that never returns ends its path, as ud2 does: its
 * kind becomes BR_STOP. Without it the code after `call abort` is a path
 * that may jump back into a loop, which then looks larger, or entered
 * twice (irreducible). The scan and place's own CFG both ask it, so both
 * see the same loops. */
void noreturn_stop_call(const struct noreturn_set *s, struct insn *in);

#endif
