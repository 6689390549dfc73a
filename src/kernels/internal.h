/* Shared by the files of the kernels layer only. */
#ifndef STRADDLE_KERNELS_INTERNAL_H
#define STRADDLE_KERNELS_INTERNAL_H

#include "kernels.h"

#include <setjmp.h>

/* `owner` as one of the registry's kernels, or NULL when it is something
 * else placed by someone else (a placement's owner is only a pointer).
 * Async-signal-safe: compares addresses. */
const struct kernel *kernel_from_owner(const void *owner);

/* Make a routine known to kernel_from_owner (and so to the fault
 * handler) while it is placed; it must not move until kernel_disown. */
int kernel_adopt(const struct kernel *k, struct err *e);
void kernel_disown(const struct kernel *k);

/* Where a fault in a routine's copy that its table does not list lands
 * (the kernel would oops), for this thread's guarded call (routine.c):
 * the handler records the copy's offset and the faulting address. */
struct oops_landing {
	sigjmp_buf jb;
	uint32_t offset;
	uintptr_t addr;
	bool outside;           /* not in the copy: where a register call led */
};

extern __thread struct oops_landing *kernels_oops_landing;

/* kernel_run of a routine (routine.c): its registers through the
 * trampoline of x86_64/kcall.S. */
size_t routine_run(const struct kernel *k, const struct placement *p, void *dst,
		   const void *src, size_t len);

/* An emulated routine's runner beside straddle and qemu-aarch64 in PATH,
 * into rt->runner and rt->qemu (emulate.c); -1 with e naming what is
 * missing. */
int routine_find_runner(struct routine *rt, struct err *e);

/* x86-64 (Intel SDM vol. 2B, NOP): a k-byte nop for k 1..8, synth.c's. */
void kernels_x86_nops(uint8_t *p, size_t n);

#endif
