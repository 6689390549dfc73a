/* copy_unrolled: rep_movs_alternative as it was before seed 001, on a CPU
 * without ERMS: copies of 64 bytes or more go through the unrolled loop
 * (four 8-byte loads, four stores, twice: 64 bytes an iteration), then the
 * word loop and the byte tail. copy(dst=%rdi, src=%rsi, len=%rdx) ->
 * %rax = bytes not copied.
 *
 * Every load and store of the unrolled loop has the fixup .Lcopy_user_tail
 * (seed 001's removed _ASM_EXTABLE_UA(10b..27b, .Lcopy_user_tail)): %rsi,
 * %rdi and %rcx still describe the start of the 64-byte block, so the byte
 * tail copies again what the block had stored (the same bytes) and stops
 * at the first inaccessible byte of the source or the destination. */
#include "../asm.h"
#include "rep_movs_small.h"

KERNEL_BEGIN copy_unrolled
	REP_MOVS_ENTRY .Lunrolled

	.p2align 4
LOOP_BEGIN
.Lunrolled:
.L10:	movq	(%rsi), %r8
.L11:	movq	8(%rsi), %r9
.L12:	movq	16(%rsi), %r10
.L13:	movq	24(%rsi), %r11
.L14:	movq	%r8, (%rdi)
.L15:	movq	%r9, 8(%rdi)
.L16:	movq	%r10, 16(%rdi)
.L17:	movq	%r11, 24(%rdi)
.L20:	movq	32(%rsi), %r8
.L21:	movq	40(%rsi), %r9
.L22:	movq	48(%rsi), %r10
.L23:	movq	56(%rsi), %r11
.L24:	movq	%r8, 32(%rdi)
.L25:	movq	%r9, 40(%rdi)
.L26:	movq	%r10, 48(%rdi)
.L27:	movq	%r11, 56(%rdi)
	addq	$64, %rsi
	addq	$64, %rdi
	subq	$64, %rcx
	cmpq	$64, %rcx
	jae	.Lunrolled
LOOP_END
	cmpl	$8, %ecx
	jae	.Lword
	testl	%ecx, %ecx
	jne	.Lcopy_user_tail
	xorl	%eax, %eax
	ret

	.irp l, 10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22, 23, 24, 25, 26, 27
	EX	.L\l, .Lcopy_user_tail
	.endr
KERNEL_END copy_unrolled
