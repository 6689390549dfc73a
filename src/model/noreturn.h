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

#endif
