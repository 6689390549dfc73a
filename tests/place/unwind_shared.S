/* Two functions under one FDE (one .cfi_startproc for both, as hand
 * written assembly has it): a copy of either would take half of the
 * unwind data, so place refuses each ("unwind data a copy cannot be
 * given"); shared_main.c calls them. */
	.text
	.globl part_a
	.type part_a, @function
part_a:
	.cfi_startproc
	pushq %rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -16
	movl %edi, %ebx
	leal 1(%rbx), %eax
	popq %rbx
	.cfi_adjust_cfa_offset -8
	ret
	.size part_a, .-part_a
	.globl part_b
	.type part_b, @function
part_b:
	leal 2(%rdi), %eax
	addl %edi, %eax
	ret
	.cfi_endproc
	.size part_b, .-part_b
	.section .note.GNU-stack,"",@progbits
