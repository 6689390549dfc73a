/* Calling a kernel image's routine: its registers set from the call spec
 * (kernels.h, struct kernel_call) and read back, through the trampoline
 * of x86_64/kcall.S or aarch64/kcall.S. Apart from routine.c, which reads the image, so that
 * kcheck links without relocate/. */
#include "internal.h"

#include <string.h>

#define NO KREG_NONE

#if defined(__x86_64__) || defined(__aarch64__)
void straddle_kcall(uint64_t regs[32], const void *fn);     /* ARCH/kcall.S */
#else
static void straddle_kcall(uint64_t regs[32], const void *fn)
{
	(void)regs, (void)fn;
}
#endif

#define EFAULT_RET (-14)

/* A put stores src's first `size` bytes; a get's load goes to dst when it
 * succeeds: both then read as a copy of `size` bytes, all or nothing. */
size_t routine_run(const struct kernel *k, const struct placement *p, void *dst,
		   const void *src, size_t len)
{
	const struct kernel_call *c = k->call;
	uint64_t r[32] = { 0 }, v = 0;

	for (uint8_t i = 0; i < c->nset; i++)
		r[c->set[i].reg] = c->set[i].value;
	if (c->dst != NO)
		r[c->dst] = (uintptr_t)dst;
	if (c->src != NO)
		r[c->src] = (uintptr_t)src;
	if (c->len != NO)
		r[c->len] = len;
	if (c->value != NO) {
		memcpy(&v, src, c->size);
		r[c->value] = v;
	}
	straddle_kcall(r, p->code + k->entry);
	switch (c->returns) {
	case KRET_DST:
		return r[c->ret] == (uintptr_t)dst ? 0 : SIZE_MAX;
	case KRET_ERROR:
		/* get_user's value is zeroed on a fault (arch/x86/include/asm/
		 * uaccess.h: "On error, the variable @x is set to zero") */
		if ((int32_t)r[c->ret] != 0)
			return (int32_t)r[c->ret] == EFAULT_RET &&
			       (k->kind != KERNEL_GET || !r[c->out]) ? c->size : SIZE_MAX;
		if (k->kind == KERNEL_GET)
			memcpy(dst, &r[c->out], c->size);
		return 0;
	case KRET_SUM:
		return (uint32_t)r[c->ret];
	default:
		return r[c->ret];
	}
}

