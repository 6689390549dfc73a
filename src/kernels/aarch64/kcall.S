/* straddle_kcall(regs[32], fn): a kernel image's routine called with
 * x0..x28 loaded from regs and stored back after (call.c). The routine
 * may use any of them, as the kernel's assembly does, so the C
 * callee-saved x19..x28 are kept here; x29 holds the table while the
 * registers load, x30 is the link. A fault the routine's table fixes
 * returns here as usual; one it does not leaves by siglongjmp (fault.c). */
	.text
	.globl	straddle_kcall
	.type	straddle_kcall, %function
	.p2align 2
straddle_kcall:
	stp	x29, x30, [sp, #-112]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	str	x0, [sp, #96]
	mov	x30, x1
	mov	x29, x0
	ldp	x2, x3, [x29, #16]
	ldp	x4, x5, [x29, #32]
	ldp	x6, x7, [x29, #48]
	ldp	x8, x9, [x29, #64]
	ldp	x10, x11, [x29, #80]
	ldp	x12, x13, [x29, #96]
	ldp	x14, x15, [x29, #112]
	ldp	x16, x17, [x29, #128]
	ldp	x18, x19, [x29, #144]
	ldp	x20, x21, [x29, #160]
	ldp	x22, x23, [x29, #176]
	ldp	x24, x25, [x29, #192]
	ldp	x26, x27, [x29, #208]
	ldr	x28, [x29, #224]
	ldp	x0, x1, [x29]
	blr	x30
	ldr	x30, [sp, #96]
	stp	x0, x1, [x30]
	stp	x2, x3, [x30, #16]
	stp	x4, x5, [x30, #32]
	stp	x6, x7, [x30, #48]
	stp	x8, x9, [x30, #64]
	stp	x10, x11, [x30, #80]
	stp	x12, x13, [x30, #96]
	stp	x14, x15, [x30, #112]
	stp	x16, x17, [x30, #128]
	stp	x18, x19, [x30, #144]
	stp	x20, x21, [x30, #160]
	stp	x22, x23, [x30, #176]
	stp	x24, x25, [x30, #192]
	stp	x26, x27, [x30, #208]
	str	x28, [x30, #224]
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #112
	ret
	.size	straddle_kcall, . - straddle_kcall
	.section .note.GNU-stack, "", %progbits
