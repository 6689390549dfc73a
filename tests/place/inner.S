/* A `work(n, depth)` (as moved.c's, for moved_threads.c) whose loop
 * begins two bytes into it: the entry jump's 5 bytes hold a branch
 * target, so a thread still looping in the original would come back into
 * the middle of the jump. Moved before main it is fine; moved while other
 * threads run, the preload library must refuse it, loud. */
	.text
	.globl work
	.type work, @function
work:
	.cfi_startproc
	xorl %eax, %eax
1:	addl %esi, %eax
	addl $3, %eax
	subl $1, %edi
	jg 1b
	ret
	.cfi_endproc
	.size work, .-work
	.section .note.GNU-stack,"",@progbits
