/* Shared by the files of the kernels layer only. */
#ifndef STRADDLE_KERNELS_INTERNAL_H
#define STRADDLE_KERNELS_INTERNAL_H

#include "kernels.h"

/* `owner` as one of the registry's kernels, or NULL when it is something
 * else placed by someone else (a placement's owner is only a pointer).
 * Async-signal-safe: compares addresses. */
const struct kernel *kernel_from_owner(const void *owner);

#endif
