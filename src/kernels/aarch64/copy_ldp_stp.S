/* copy_ldp_stp: an AArch64 user copy in seed 001's terms: 16 bytes an
 * iteration (ldp/stp with post-indexed addresses), then the rest (0..15
 * bytes) byte by byte. copy(dst=x0, src=x1, len=x2) -> x0 = bytes not
 * copied.
 *
 * Fixups: at the ldp, x2 holds (bytes left) - 16 and neither pointer has
 * moved (a faulting access does not write back its base): add 16 back.
 * At the stp the ldp has already moved x1 on by 16: take it back too.
 * Either way the byte loop then stops at the first inaccessible byte of
 * the source or the destination; its own fault returns x2 as it stands. */
#include "../asm.h"

KERNEL_BEGIN copy_ldp_stp
	subs	x2, x2, #16
	b.mi	.Lrest
LOOP_BEGIN
.Lld:	ldp	x3, x4, [x1], #16
.Lst:	stp	x3, x4, [x0], #16
	subs	x2, x2, #16
	b.pl	.Lld
LOOP_END
.Lrest:	adds	x2, x2, #16
	b.eq	.Ldone
.Lb0:	ldrb	w3, [x1], #1
.Lb1:	strb	w3, [x0], #1
	subs	x2, x2, #1
	b.ne	.Lb0
.Ldone:	mov	x0, x2
	ret

.Lst_fault:
	sub	x1, x1, #16
.Lld_fault:
	add	x2, x2, #16
	b	.Lb0

	EX	.Lld, .Lld_fault
	EX	.Lst, .Lst_fault
	EX	.Lb0, .Ldone
	EX	.Lb1, .Ldone
KERNEL_END copy_ldp_stp
