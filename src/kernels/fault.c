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

/* The fixup for a fault at pc, or 0 when pc is not a listed instruction of
 * a registered kernel. Only async-signal-safe calls: place_find reads a
 * fixed table, the rest compares numbers. */
static uintptr_t fixup_for(uintptr_t pc)
{
	const struct placement *p = place_find(pc);
	const struct kernel *k = p ? kernel_from_owner(p->owner) : NULL;
	const struct kernel_fixup *f;

	if (!k)
		return 0;
	f = kernel_fixup_at(k, (uint32_t)(pc - (uintptr_t)p->code));
	return f ? (uintptr_t)p->code + f->fixup : 0;
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t fix = fixup_for(get_pc(uc));

	if (fix) {
		set_pc(uc, fix);
		return;
	}
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
