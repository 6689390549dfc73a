/* copy_rep_movsb: `rep movsb` for every length, what copy_user_generic
 * inlines on CPUs with FSRM (fast short rep movsb); ERMS makes long ones
 * fast, FZRM the zero-length one. Seed 001's ERMS alternative.
 * copy(dst=%rdi, src=%rsi, len=%rdx) -> %rax = bytes not copied.
 *
 * As in clear_rep_stosb, a fault goes on through a byte loop from %rsi and
 * %rdi (the kernel returns %rcx as it stands), so the count is exact even
 * if the string operation stopped short of the faulting byte. */
#include "../asm.h"

KERNEL_BEGIN copy_rep_movsb
	movq	%rdx, %rcx
LOOP_BEGIN
.Lrep:	rep movsb
LOOP_END
	movq	%rcx, %rax
	ret

.Lrep_fault:				/* %rcx >= 1: the faulting byte is left */
.Lt0:	movb	(%rsi), %al
.Lt1:	movb	%al, (%rdi)
	incq	%rdi
	incq	%rsi
	decq	%rcx
	jnz	.Lt0
.Lexit:	movq	%rcx, %rax
	ret

	EX	.Lrep, .Lrep_fault
	EX	.Lt0, .Lexit
	EX	.Lt1, .Lexit
KERNEL_END copy_rep_movsb
