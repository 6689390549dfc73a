/* The parts of the kernel's rep_movs_alternative (arch/x86/lib/
 * copy_user_64.S) that seed 001 left alone, shared by copy_unrolled and
 * copy_rep_movsq: the entry that sends copies of 64 bytes or more to
 * `large`, the 8-byte word loop and the byte tail. The count travels in
 * %rcx (the kernel's `rep movs` convention); the kernels' own convention
 * has it in %rdx, so the entry moves it, and .Lexit returns it in %rax.
 *
 * Fixups, as in the kernel: a fault in the byte tail returns %rcx (exact:
 * nothing of that byte was copied); a fault in the word loop goes on byte
 * by byte from the same %rsi/%rdi, so it ends at the exact faulting byte. */
#ifndef STRADDLE_REP_MOVS_SMALL_H
#define STRADDLE_REP_MOVS_SMALL_H

	.macro REP_MOVS_ENTRY large
	movq	%rdx, %rcx
	cmpq	$64, %rcx
	jae	\large
	cmpl	$8, %ecx
	jae	.Lword
	testl	%ecx, %ecx
	je	.Lexit
.Lcopy_user_tail:
.Lt0:	movb	(%rsi), %al
.Lt1:	movb	%al, (%rdi)
	incq	%rdi
	incq	%rsi
	decq	%rcx
	jne	.Lcopy_user_tail
.Lexit:	movq	%rcx, %rax
	ret

	EX	.Lt0, .Lexit
	EX	.Lt1, .Lexit

	.p2align 4
.Lword:
.Lw0:	movq	(%rsi), %rax
.Lw1:	movq	%rax, (%rdi)
	addq	$8, %rsi
	addq	$8, %rdi
	subl	$8, %ecx
	je	.Lexit
	cmpl	$8, %ecx
	jae	.Lword
	jmp	.Lcopy_user_tail

	EX	.Lw0, .Lcopy_user_tail
	EX	.Lw1, .Lcopy_user_tail
	.endm

#endif
