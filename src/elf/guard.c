/* Files that change under us. An image is mmap'd; if its file is truncated
 * while we read it, touching a page past the new end raises SIGBUS, which
 * used to kill the run with its output unprinted. The handler puts a page of
 * zeros in place of the lost one and marks the image, so the thread that
 * touched it (any worker) reads on: every offset is checked against the image
 * anyway, zeros decode harmlessly, and the command then reports the file as
 * "changed while reading" and goes on with the next. No jump out of a worker
 * is needed, so no lock or allocation is left half done. */
#include "elf.h"
#include "internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GUARD_SLOTS 64

static struct guard_slot {
	_Atomic uintptr_t start, end;   /* end 0: free */
	atomic_int changed;
} slots[GUARD_SLOTS];

static struct sigaction old_bus;
static uintptr_t page_size;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)uc;
	for (size_t i = 0; i < GUARD_SLOTS; i++) {
		uintptr_t start = atomic_load(&slots[i].start), end = atomic_load(&slots[i].end);

		if (si->si_code == BUS_ADRERR && a >= start && a < end &&
		    mmap((void *)(a & ~(page_size - 1)), page_size, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
			atomic_store(&slots[i].changed, 1);
			return;
		}
	}
	/* not ours: the fault repeats under the handler that was there */
	sigaction(sig, &old_bus, NULL);
}

static void install(void)
{
	struct sigaction sa;

	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old_bus);
}

int elf_guard_add(const void *p, size_t n)
{
	int slot = -1;

	pthread_once(&installed, install);
	pthread_mutex_lock(&slots_lock);
	for (int i = 0; i < GUARD_SLOTS && slot < 0; i++)
		if (atomic_load(&slots[i].end) == 0) {
			atomic_store(&slots[i].changed, 0);
			atomic_store(&slots[i].start, (uintptr_t)p);
			atomic_store(&slots[i].end, (uintptr_t)p + n);
			slot = i;
		}
	pthread_mutex_unlock(&slots_lock);
	return slot;
}

bool elf_guard_tripped(int slot)
{
	return slot >= 0 && atomic_load(&slots[slot].changed);
}

void elf_guard_remove(int slot)
{
	if (slot < 0)
		return;
	pthread_mutex_lock(&slots_lock);
	atomic_store(&slots[slot].end, 0);
	atomic_store(&slots[slot].start, 0);
	pthread_mutex_unlock(&slots_lock);
}
