/* AArch64 shapes for the relocator (tests/cmd/t_place_arm64.sh): one
 * function whose conditional branches leave it (each through a stub after
 * its copy), and one of each kind it refuses. Linked into a PIE with
 * a64_shapes_main.c. */
	.text
	.globl	helper
	.type	helper, %function
helper:				/* x0 + 100 */
	add	x0, x0, #100
	ret
	.size	helper, .-helper

	.globl	shapes
	.type	shapes, %function
	.p2align 6
shapes:				/* 0: 100; odd: x0 + 100; > 10: x0 + 100; else x0 + 1 */
	cbz	x0, helper	/* imm19 out */
	tbnz	x0, #0, helper	/* imm14 out */
	cmp	x0, #10
	b.gt	helper		/* b.cond imm19 out */
1:	add	x0, x0, #1
	subs	x1, x1, #1
	b.pl	1b
	ret
	.size	shapes, .-shapes

	.globl	back_in
	.type	back_in, %function
back_in:			/* into shapes' loop from outside, as a .cold part
				 * goes back: redirected to the copy's loop */
	mov	x1, #2
	b	shapes + 16
	.size	back_in, .-back_in

	.globl	literal_out
	.type	literal_out, %function
literal_out:			/* a literal load of a word outside it */
	ldr	x0, konst
	ret
	.size	literal_out, .-literal_out
konst:	.quad	42

	.globl	pool
	.type	pool, %function
pool:				/* its literal reads as a b out of it */
	ldr	w0, 1f
	ret
1:	.word	0x14000010
	.size	pool, .-pool

	.globl	computed
	.type	computed, %function
computed:			/* a computed jump to its own label */
	adr	x1, 1f
	br	x1
1:	mov	x0, #7
	ret
	.size	computed, .-computed

	.globl	own_address
	.type	own_address, %function
own_address:			/* adrp + add: an address of its middle */
	adrp	x0, 1f
	add	x0, x0, :lo12:1f
	ret
1:	nop
	ret
	.size	own_address, .-own_address

	.globl	short_target
	.type	short_target, %function
short_target:			/* entered in its middle by a cbz elsewhere */
	mov	x0, #1
	mov	x0, #2
	ret
	.size	short_target, .-short_target

	.globl	short_source
	.type	short_source, %function
short_source:
	cbz	x0, short_target + 4
	ret
	.size	short_source, .-short_source
	.section .note.GNU-stack,"",%progbits
