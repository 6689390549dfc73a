/* clear_movq_imm: seed 000's __clear_user after commit 1153933703d9, the
 * 8-byte store loop with immediate operands, 15 bytes
 *	48 c7 07 00 00 00 00  movq $0,(%rdi)
 *	48 83 c7 08           addq $8,%rdi
 *	ff c9                 decl %ecx
 *	75 f1                 jnz
 * which came to straddle a 16 B fetch window and a 64 B line (pread of
 * /dev/zero 40% slower on Zen 1) until `.align 16` was added before it.
 * No alignment here: the sweep moves it. Byte tail and fixups as in
 * clear_movq_reg (byte exact after a fault in the 8-byte loop). */
#include "../asm.h"

KERNEL_BEGIN clear_movq_imm
	movq	%rsi, %rcx
	movl	%esi, %edx
	shrq	$3, %rcx		/* size8 */
	andl	$7, %edx		/* size1 */
	testq	%rcx, %rcx
	jz	.Ltail
LOOP_BEGIN
.Lq:	movq	$0, (%rdi)
	addq	$8, %rdi
	decl	%ecx
	jnz	.Lq
LOOP_END
.Ltail:	movq	%rdx, %rcx
	testl	%ecx, %ecx
	jz	.Ldone
.Lb:	movb	$0, (%rdi)
	incq	%rdi
	decl	%ecx
	jnz	.Lb
.Ldone:	movq	%rcx, %rax
	ret

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
KERNEL_END clear_movq_imm
