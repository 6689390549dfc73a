/* clear_stp: seed 002's clear with 16 bytes a store (stp xzr, xzr), the
 * wider loop a maintainer would weigh against the str xzr one; the rest
 * (0..15 bytes) byte by byte. clear(dst=x0, len=x1) -> x0 = bytes not
 * cleared.
 *
 * At the stp, x1 holds (bytes left from x0) - 16 and x0 is not yet moved
 * (a faulting post-indexed store does not write back its base), so the
 * fixup adds 16 back and goes on byte by byte to the first inaccessible
 * byte. */
#include "../asm.h"

KERNEL_BEGIN clear_stp
	subs	x1, x1, #16
	b.mi	.Lrest
LOOP_BEGIN
.Lq:	stp	xzr, xzr, [x0], #16
	subs	x1, x1, #16
	b.pl	.Lq
LOOP_END
.Lrest:	adds	x1, x1, #16
	b.eq	.Ldone
.Lb:	strb	wzr, [x0], #1
	subs	x1, x1, #1
	b.ne	.Lb
.Ldone:	mov	x0, x1
	ret

.Lq_fault:
	add	x1, x1, #16
	b	.Lb

	EX	.Lq, .Lq_fault
	EX	.Lb, .Ldone
KERNEL_END clear_stp
