/* clear_str_xzr: seed 002's __arch_clear_user (linux 4.19 on HiSilicon
 * HIP08): the hot loop
 *	str  xzr, [x0], #8
 *	nop			(padding of the str/sttr alternative)
 *	subs x1, x1, #8
 *	b.pl 1b
 * 16 bytes, one 32 B fetch block when 32-aligned, two when not; then 4-,
 * 2- and 1-byte stores for the rest. The leading nop (the uaccess-enable
 * alternative) and `mov x2, x1` are the function's too, so the loop sits at
 * +16 as in the seed's dump (0x...3f10 -> loop at 0x...3f20).
 * clear(dst=x0, len=x1) -> x0 = bytes not cleared.
 *
 * At every store of s bytes x1 holds (bytes left from x0) - s. The kernel's
 * fixup returned the whole size (x2); the contract here is byte exact, so
 * each store's fixup adds s back and stores byte by byte from x0 up to the
 * first inaccessible byte. */
#include "../asm.h"

KERNEL_BEGIN clear_str_xzr
	nop
	mov	x2, x1
	subs	x1, x1, #8
	b.mi	.L2
LOOP_BEGIN
.L1:	str	xzr, [x0], #8
	nop
	subs	x1, x1, #8
	b.pl	.L1
LOOP_END
.L2:	adds	x1, x1, #4
	b.mi	.L3
.Ls4:	str	wzr, [x0], #4
	sub	x1, x1, #4
.L3:	adds	x1, x1, #2
	b.mi	.L4
.Ls2:	strh	wzr, [x0], #2
	sub	x1, x1, #2
.L4:	adds	x1, x1, #1
	b.mi	.L5
.Ls1:	strb	wzr, [x0]
.L5:	mov	x0, #0
	ret

	/* Out of line, like the kernel's .fixup section. */
.Lf8:	add	x1, x1, #8
	b	.Lbytes
.Lf4:	add	x1, x1, #4
	b	.Lbytes
.Lf2:	add	x1, x1, #2
	b	.Lbytes
.Lf1:	add	x1, x1, #1
.Lbytes:
.Lb:	strb	wzr, [x0], #1
	subs	x1, x1, #1
	b.ne	.Lb
.Ldone:	mov	x0, x1
	ret

	EX	.L1, .Lf8
	EX	.Ls4, .Lf4
	EX	.Ls2, .Lf2
	EX	.Ls1, .Lf1
	EX	.Lb, .Ldone
KERNEL_END clear_str_xzr
