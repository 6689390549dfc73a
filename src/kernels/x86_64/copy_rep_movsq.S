/* copy_rep_movsq: rep_movs_alternative after seed 001 (copies without
 * ERMS): the unrolled loop replaced by `rep movsq` for copies of 64 bytes
 * or more; the word loop and byte tail below 64 as before.
 * copy(dst=%rdi, src=%rsi, len=%rdx) -> %rax = bytes not copied.
 *
 * The fixup is seed 001's v2: a fault in `rep movsq` leaves %rcx counting
 * the quadwords not moved (the faulting one included) and %rax the len%8
 * tail, so leaq (%rax,%rcx,8),%rcx is the remainder from %rsi/%rdi, and the
 * byte tail takes it to the exact faulting byte (130 bytes from 66 before
 * an unmapped page: 66 copied, 64 returned, as the seed's regdump shows). */
#include "../asm.h"
#include "rep_movs_small.h"

KERNEL_BEGIN copy_rep_movsq
	REP_MOVS_ENTRY .Llarge_movsq

.Llarge_movsq:
	movq	%rcx, %rax
	shrq	$3, %rcx
	andl	$7, %eax
LOOP_BEGIN
.Lrep:	rep movsq
LOOP_END
	movl	%eax, %ecx
	testl	%ecx, %ecx
	jne	.Lcopy_user_tail
	ret

.Lrep_fault:
	leaq	(%rax, %rcx, 8), %rcx
	jmp	.Lcopy_user_tail

	EX	.Lrep, .Lrep_fault
KERNEL_END copy_rep_movsq
