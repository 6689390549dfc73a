/* The fault half of the contract: what the kernel's exception table and
 * fixup machinery do for copy_to_user, done with a signal handler. A fault
 * in placed kernel code at an instruction the kernel's table lists moves
 * the program counter to its fixup, which works out the remainder from
 * the registers as the kernel does (seed 001: "fault fixup must leave
 * exactly the same partial count"). */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <setjmp.h>
#include <ucontext.h>

static struct sigaction old_segv, old_bus;

static uintptr_t get_pc(const ucontext_t *uc)
{
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static void set_pc(ucontext_t *uc, uintptr_t pc)
{
#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
#elif defined(__aarch64__)
	uc->uc_mcontext.pc = pc;
#else
	(void)uc;
	(void)pc;
#endif
}

__thread struct oops_landing *kernels_oops_landing;

#if defined(__x86_64__)
/* The kernel's register numbers (rax 0 .. r15 15) as ucontext's. */
static greg_t *reg_at(ucontext_t *uc, unsigned nr)
{
	static const int greg[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
		REG_RSI, REG_RDI, REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14,
		REG_R15 };

	return &uc->uc_mcontext.gregs[greg[nr & 15]];
}

/* What arch/x86/mm/extable.c's handlers do before the jump: ex_handler_
 * fault (ax = trap number), imm_reg (reg = imm; pop_reg first drops a
 * word), ucopy_len (cx = reg + imm * cx), then ex_handler_default's flags. */
static void set_registers(ucontext_t *uc, const struct kex *x)
{
	switch (x->kind) {
	case KEX_FAULT_AX:
		*reg_at(uc, 0) = x->imm;
		break;
	case KEX_POP_IMM_REG:
		*reg_at(uc, 4) += 8;
		/* fall through */
	case KEX_IMM_REG:
		*reg_at(uc, x->reg) = (greg_t)x->imm;
		break;
	case KEX_UCOPY_LEN:
		*reg_at(uc, 1) = *reg_at(uc, x->reg) + (greg_t)x->imm * *reg_at(uc, 1);
		break;
	}
	if (x->flags & KEX_CLEAR_AX)
		*reg_at(uc, 0) = 0;
	if (x->flags & KEX_CLEAR_DX)
		*reg_at(uc, 2) = 0;
}
#elif defined(__aarch64__)
/* arch/arm64/mm/extable.c's ex_handler_uaccess_err_zero: the error
 * register -EFAULT, the zero register 0 (xzr, 31: neither), then the jump. */
static void set_registers(ucontext_t *uc, const struct kex *x)
{
	if (x->kind != KEX_ERR_ZERO)
		return;
	if (x->reg < 31)
		uc->uc_mcontext.regs[x->reg] = (uint64_t)-EFAULT;
	if (x->imm >= 0 && x->imm < 31)
		uc->uc_mcontext.regs[x->imm] = 0;
}
#else
static void set_registers(ucontext_t *uc, const struct kex *x)
{
	(void)uc, (void)x;
}
#endif

/* To the guarded call's landing, with the address the fault touched. */
static bool land(struct oops_landing *l, const siginfo_t *si)
{
	l->addr = (uintptr_t)si->si_addr;
	/* the landing was set without the signal mask (a syscall a call):
	 * the signal this handler blocks is unblocked by hand */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, si->si_signo);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	siglongjmp(l->jb, 1);
}

/* A fault at pc of a registered kernel: its table's entry applied (true),
 * or for a routine under a guarded call, the oops taken there. Only
 * async-signal-safe calls: arena_find reads a fixed table, the rest
 * compares numbers. */
static bool fix(ucontext_t *uc, const siginfo_t *si)
{
	uintptr_t pc = get_pc(uc);
	const struct placement *p = arena_find(pc);
	const struct kernel *k = p ? kernel_from_owner(p->owner) : NULL;
	const struct kex *x;
	struct oops_landing *l = kernels_oops_landing;

	if (!k && !l)
		return false;
	if (!k) {
		/* a guarded routine's call went out of its copy (through a
		 * register its call spec left unset): that call's oops, not
		 * straddle's crash */
		l->outside = true;
		return land(l, si);
	}
	x = kernel_fixup_at(k, (uint32_t)(pc - (uintptr_t)p->code));
	if (x && x->kind != KEX_UNMODELLED) {
		set_registers(uc, x);
		set_pc(uc, (uintptr_t)p->code + x->fixup);
		return true;
	}
	if (!k->call || !l)
		return false;
	l->offset = (uint32_t)(pc - (uintptr_t)p->code);
	return land(l, si);
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	if (fix(ctx, si))
		return;
	/* Not ours: whoever handled it before (the default action, or ASan's
	 * report under the sanitizers) gets it back. A hardware fault happens
	 * again when this returns; a sent signal must be sent again. */
	sigaction(sig, sig == SIGBUS ? &old_bus : &old_segv, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static int install_error;

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv) != 0 || sigaction(SIGBUS, &sa, &old_bus) != 0)
		install_error = errno;
}

int kernels_install_fault_handler(struct err *e)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, install);
	if (install_error)
		return err_set(e, "cannot install the fault handler: %s", strerror(install_error));
	return 0;
}

int kernel_run_guarded(const struct kernel *k, const struct placement *p, void *dst,
		       const void *src, size_t len, size_t *ret, struct kernel_oops *oops)
{
	struct oops_landing l;

	/* no signal mask saved: fix() unblocks the signal before it jumps */
	l.outside = false;
	if (sigsetjmp(l.jb, 0)) {
		kernels_oops_landing = NULL;
		*oops = (struct kernel_oops){ l.offset, l.addr, l.outside };
		return -1;
	}
	kernels_oops_landing = &l;
	*ret = kernel_run(k, p, dst, src, len);
	kernels_oops_landing = NULL;
	return 0;
}
