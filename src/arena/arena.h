/* arena: the W^X code arena that sweep, calibrate and kernels --check
 * place code in. Position-independent code is copied to base + offset of
 * a fresh mapping, with trap bytes around it, and only then made
 * executable: no mapping is ever writable and executable at once.
 * Every placement is registered so that a signal handler can tell which
 * placed code a faulting program counter belongs to. */
#ifndef STRADDLE_ARENA_H
#define STRADDLE_ARENA_H

#include "../base/base.h"

struct placement {
	uint8_t *map;           /* the mapping: page aligned, r-x once placed */
	size_t map_size;
	uint8_t *code;          /* map + offset: the first byte of the copy */
	size_t size;            /* bytes copied */
	uint32_t offset;        /* from the start of the mapping (so mod 64, mod 4096) */
	const void *owner;      /* what was placed (a struct kernel *), for the handler */
};

/* Copy `size` bytes of code to a new mapping at `offset` (0..4095 and
 * beyond), fill the rest of the mapping with the architecture's trap
 * instruction and make it read+execute. */
int arena_place(const void *code, size_t size, uint32_t offset, enum arch arch,
	       const void *owner, struct placement *out, struct err *e);
/* Make a placement known to arena_find (and so to the fault handler). It
 * must not move while registered: keep it in storage that stays put. */
int arena_register(struct placement *p, struct err *e);
/* Unregister (if registered) and unmap. */
void arena_free(struct placement *p);

/* The registered placement whose copied code contains `pc`, or NULL.
 * Async-signal-safe: reads a fixed table, takes no lock, allocates nothing. */
const struct placement *arena_find(uintptr_t pc);

/* The host's architecture (what placed code runs as). */
enum arch arena_host_arch(void);

#endif
