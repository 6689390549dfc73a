/* clear_rep_stosq: the rep-string form of seed 000's clear: `rep stosq`
 * over len/8 quadwords, then a byte loop for the rest.
 * clear(dst=%rdi, len=%rsi) -> %rax = bytes not cleared.
 *
 * A faulting `rep stosq` leaves its registers so that it can be restarted:
 * %rdi at the faulting quadword, %rcx counting it and those after it. So
 * the remainder is rcx*8 + len%8, and it goes on byte by byte from %rdi up
 * to the first inaccessible byte (seed 001's movsq fixup does the same:
 * leaq (%rax,%rcx,8),%rcx, then the byte tail). */
#include "../asm.h"

KERNEL_BEGIN clear_rep_stosq
	movq	%rsi, %rcx
	movl	%esi, %edx
	shrq	$3, %rcx
	andl	$7, %edx
	xorl	%eax, %eax
LOOP_BEGIN
.Lrep:	rep stosq
LOOP_END
	movl	%edx, %ecx
.Lbytes:
	testq	%rcx, %rcx
	jz	.Ldone
.Lb:	movb	%al, (%rdi)
	incq	%rdi
	decq	%rcx
	jnz	.Lb
.Ldone:	movq	%rcx, %rax
	ret

.Lrep_fault:
	leaq	(%rdx, %rcx, 8), %rcx
	xorl	%eax, %eax
	jmp	.Lbytes

	EX	.Lrep, .Lrep_fault
	EX	.Lb, .Ldone
KERNEL_END clear_rep_stosq
