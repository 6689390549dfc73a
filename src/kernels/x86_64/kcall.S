/* straddle_kcall(regs, fn): call a kernel image's routine with every
 * general register loaded from regs[0..16) (the kernel's numbering: rax
 * rcx rdx rbx rsp rbp rsi rdi r8..r15; rsp is not loaded) and stored back
 * there after it returns. Its own convention is the routine's (clear_user
 * takes rdi and rcx and returns rcx; __put_user_2 takes rax and rcx and
 * clobbers rbx): routine.c says which slot holds what. The C callee-saved
 * registers are kept here. */
	.text
	.globl straddle_kcall
	.hidden straddle_kcall
	.type straddle_kcall, @function
straddle_kcall:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	pushq	%rdi			/* 8(%rsp) after the next: regs */
	pushq	%rsi			/* (%rsp): fn */
	movq	0(%rdi), %rax
	movq	8(%rdi), %rcx
	movq	16(%rdi), %rdx
	movq	24(%rdi), %rbx
	movq	40(%rdi), %rbp
	movq	48(%rdi), %rsi
	movq	64(%rdi), %r8
	movq	72(%rdi), %r9
	movq	80(%rdi), %r10
	movq	88(%rdi), %r11
	movq	96(%rdi), %r12
	movq	104(%rdi), %r13
	movq	112(%rdi), %r14
	movq	120(%rdi), %r15
	movq	56(%rdi), %rdi
	call	*(%rsp)
	pushq	%rdi
	movq	16(%rsp), %rdi		/* regs */
	movq	%rax, 0(%rdi)
	movq	%rcx, 8(%rdi)
	movq	%rdx, 16(%rdi)
	movq	%rbx, 24(%rdi)
	movq	%rbp, 40(%rdi)
	movq	%rsi, 48(%rdi)
	movq	%r8, 64(%rdi)
	movq	%r9, 72(%rdi)
	movq	%r10, 80(%rdi)
	movq	%r11, 88(%rdi)
	movq	%r12, 96(%rdi)
	movq	%r13, 104(%rdi)
	movq	%r14, 112(%rdi)
	movq	%r15, 120(%rdi)
	popq	%rax
	movq	%rax, 56(%rdi)
	addq	$16, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size straddle_kcall, . - straddle_kcall
	.section .note.GNU-stack, "", %progbits
