/* clear_rep_stosb: `rep stosb` for every length, what clear_user inlines
 * on CPUs with FSRS (fast short rep stosb); ERMS makes long ones fast.
 * clear(dst=%rdi, len=%rsi) -> %rax = bytes not cleared.
 *
 * The kernel returns %rcx as it stands after a fault. Here the fault goes
 * on through a byte loop from %rdi, so the count is exact even if a
 * fast-string store stopped short of the faulting byte; when it did not,
 * the loop faults at once and returns the same %rcx. */
#include "../asm.h"

KERNEL_BEGIN clear_rep_stosb
	movq	%rsi, %rcx
	xorl	%eax, %eax
LOOP_BEGIN
.Lrep:	rep stosb
LOOP_END
	movq	%rcx, %rax
	ret

.Lrep_fault:				/* %rcx >= 1: the faulting byte is left */
.Lb:	movb	$0, (%rdi)
	incq	%rdi
	decq	%rcx
	jnz	.Lb
.Ldone:	movq	%rcx, %rax
	ret

	EX	.Lrep, .Lrep_fault
	EX	.Lb, .Ldone
KERNEL_END clear_rep_stosb
