/* clear_movq_reg: seed 000's __clear_user before commit 1153933703d9
 * ("Micro-optimize __clear_user() - Use immediate constants"): the 8-byte
 * store loop with register operands, 10 bytes
 *	48 89 07  movq %rax,(%rdi)	(%rax: zero)
 *	4c 01 c7  addq %r8,%rdi		(%r8: eight)
 *	ff c9     decl %ecx
 *	75 f6     jnz
 * then the byte tail. clear(dst=%rdi, len=%rsi) -> %rax = bytes not cleared.
 *
 * The kernel's fixup for the 8-byte loop returned size8*8+size1, counting
 * from the faulting quadword; the contract here is byte exact, so the same
 * remainder is then stored byte by byte until the first inaccessible byte.
 * Quadword counts are 32-bit (decl %ecx), as in the kernel. */
#include "../asm.h"

KERNEL_BEGIN clear_movq_reg
	movq	%rsi, %rcx
	movl	%esi, %edx
	shrq	$3, %rcx		/* size8 */
	andl	$7, %edx		/* size1 */
	xorl	%eax, %eax		/* [zero] */
	movl	$8, %r8d		/* [eight] */
	testq	%rcx, %rcx
	jz	.Ltail
LOOP_BEGIN
.Lq:	movq	%rax, (%rdi)
	addq	%r8, %rdi
	decl	%ecx
	jnz	.Lq
LOOP_END
.Ltail:	movq	%rdx, %rcx
	testl	%ecx, %ecx
	jz	.Ldone
.Lb:	movb	%al, (%rdi)
	incq	%rdi
	decl	%ecx
	jnz	.Lb
.Ldone:	movq	%rcx, %rax
	ret

	/* Out of line, like the kernel's .fixup section. */
.Lq_fault:
	leaq	(%rdx, %rcx, 8), %rcx
.Lfb:	movb	$0, (%rdi)
	incq	%rdi
	decq	%rcx
	jnz	.Lfb
	jmp	.Ldone

	EX	.Lq, .Lq_fault
	EX	.Lb, .Ldone
	EX	.Lfb, .Ldone
KERNEL_END clear_movq_reg
