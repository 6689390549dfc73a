/* The preload library's writes into code other threads may be running
 * (poke.c): what preload.c hands over. Part of libstraddle-place.so only. */
#ifndef STRADDLE_RELOCATE_POKE_H
#define STRADDLE_RELOCATE_POKE_H

#include <stddef.h>
#include <stdint.h>

/* One instruction of the object's code as it will be: a plan_patch with
 * its fix-ups applied, at its run-time address. */
struct poke {
	uint64_t addr;
	uint64_t resume;        /* PLAN_PATCH_ENTRY: the copy, where a thread caught there goes */
	uint8_t bytes[16];
	uint8_t len, kind, flags;
};

/* The threads of this process (/proc/self/stat), 0 when it cannot tell. */
long poke_threads(void);

/* Write n pokes (sorted by address) while other threads may run them,
 * as Linux's text_poke_bp does: an int3 on each first byte, then the rest
 * of each, then each first byte, every thread serialized between steps
 * (membarrier SYNC_CORE); a thread that reaches an int3 meanwhile is sent
 * to the copy (an entry) or tries again once the instruction is whole.
 * The writes go through /proc/self/mem, so the pages stay read+execute
 * throughout. 0, or -1 with the reason in why (addresses less bias: the
 * file's). x86-64 only. */
int poke_live(const struct poke *p, size_t n, uint64_t bias, char *why, size_t whylen);

#endif
