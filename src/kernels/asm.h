/* For the kernels' .S files only (one kernel per file): the marks that
 * tell the C side where a kernel's bytes, hot loop and exception table are.
 *
 * Everything is an offset from the kernel's first byte, because the bytes
 * are copied to another address to run (arena/): the code itself holds no
 * absolute address, and neither does this descriptor.
 *
 *	KERNEL_BEGIN name	descriptor straddle_kd_<name>, code straddle_k_<name>
 *	LOOP_BEGIN, LOOP_END	around the hot loop (the sweep's layout prediction)
 *	EX fault, fixup		an exception-table entry (labels in this kernel)
 *	KERNEL_END
 *
 * The descriptor is struct kernel_desc of kernels.c: size, loop start and
 * end, entry count, then the entries, each relocate.h's struct kex (fault,
 * fixup; kind KEX_JUMP, no register, no flags, the kernel's
 * EX_TYPE_UACCESS 3; no immediate): what _ASM_EXTABLE_UA makes. The
 * entries are appended to the descriptor's section as EX is met, so they
 * follow the header. */
#ifndef STRADDLE_KERNELS_ASM_H
#define STRADDLE_KERNELS_ASM_H

	.macro KERNEL_BEGIN name
	.pushsection .rodata.straddle_kd, "a", %progbits
	.balign 4
	.globl straddle_kd_\name
	.hidden straddle_kd_\name
straddle_kd_\name:
	.long .Lk_end - .Lk_start
	.long .Lk_loop - .Lk_start, .Lk_loop_end - .Lk_start
	.long (.Lk_ex_end - .Lk_ex) / 16
.Lk_ex:
	.popsection
	.text
	.balign 64
	.globl straddle_k_\name
	.hidden straddle_k_\name
	.type straddle_k_\name, %function
straddle_k_\name:
.Lk_start:
	.endm

	.macro LOOP_BEGIN
.Lk_loop:
	.endm

	.macro LOOP_END
.Lk_loop_end:
	.endm

	.macro EX fault, fixup
	.pushsection .rodata.straddle_kd, "a", %progbits
	.long \fault - .Lk_start, \fixup - .Lk_start
	.byte 0, 0, 0, 3
	.long 0
	.popsection
	.endm

	.macro KERNEL_END name
.Lk_end:
	.size straddle_k_\name, .Lk_end - .Lk_start
	.pushsection .rodata.straddle_kd, "a", %progbits
.Lk_ex_end:
	.popsection
	/* No executable stack for the program that links this. */
	.section .note.GNU-stack, "", %progbits
	.endm

#endif
