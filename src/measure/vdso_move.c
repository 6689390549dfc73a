/* One function of this process's vDSO moved (place --file vdso): a copy
 * near the vDSO, its fix-ups made by relocate/ for the vDSO's load address
 * (its reads of the vvar pages are RIP-relative: the copy stays within
 * their reach), and the function's entry made a jump to it. The jump is
 * written through /proc/self/mem, the debugger's way: the kernel makes the
 * page a private copy and the mapping never turns writable. mprotect of
 * [vdso] is refused (EINVAL on this project's 6.18 kernel, whatever the
 * protection, but read and execute), and a writable window would stop
 * every clock_gettime in the process while it lasts. */
#include "vdso_move.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

#define JMP_LEN 5
#define REACH ((uint64_t)1 << 30)       /* well inside a rel32's 2 GiB */

int vdso_move_open(struct vdso_move *m, const char *func, struct err *e)
{
	uint64_t size;

	*m = (struct vdso_move){ .mem = -1 };
	m->base = getauxval(AT_SYSINFO_EHDR);
	if (!m->base)
		return err_set(e, "[vdso]: this process has none");
	if (reloc_open_vdso(&m->rf, e))
		return -1;
	if (!reloc_choose(&m->rf, func) || !(m->f = &m->rf.fn[0]) || strcmp(m->f->name, func) ||
	    m->rf.nfn != 1) {
		reloc_close(&m->rf);
		return err_set(e, "[vdso]: no function named %s (a glob matching one)", func);
	}
	if (m->f->refused != RELOC_OK) {
		err_set(e, "[vdso]: %s cannot be moved: %s at %#llx", func,
			reloc_refusal_name(m->f->refused), (unsigned long long)m->f->refused_at);
		reloc_close(&m->rf);
		return -1;
	}
	m->entry = (uint8_t *)(m->base + m->f->addr);
	memcpy(m->saved, m->entry, JMP_LEN);
	m->mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (m->mem < 0) {
		reloc_close(&m->rf);
		return err_set(e, "cannot open /proc/self/mem: %s", strerror(errno));
	}
	(void)size;
	return 0;
}

/* A mapping of n bytes within REACH of the vDSO, below it first. */
static uint8_t *map_near(uintptr_t base, size_t n)
{
	for (uint64_t d = 1 << 20; d < REACH; d += 1 << 20)
		for (int side = 0; side < 2; side++) {
			uintptr_t at = side ? base + d : base - d;
			void *p = mmap((void *)at, n, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

			if (p == (void *)at)
				return p;
			if (p != MAP_FAILED)
				munmap(p, n);
		}
	return NULL;
}

static int write_entry(struct vdso_move *m, const uint8_t *b, struct err *e)
{
	if (pwrite(m->mem, b, JMP_LEN, (off_t)(uintptr_t)m->entry) != JMP_LEN)
		return err_set(e, "cannot write [vdso]'s %s through /proc/self/mem: %s",
			       m->f->name, strerror(errno));
	__builtin___clear_cache((char *)m->entry, (char *)m->entry + JMP_LEN);
	return 0;
}

int vdso_move_to(struct vdso_move *m, uint32_t offset, struct err *e)
{
	struct reloc_place pl = { m->f, m->f->addr, offset, 64 };
	uint8_t *image, *arena, jmp[JMP_LEN] = { 0xe9 };
	uint64_t start;
	size_t size;
	int32_t rel;

	/* the image's size first (its fix-ups need an address: the vDSO's,
	 * near which the copy goes), then made there */
	if (reloc_image(&m->rf, &pl, 1, m->base, m->base, &image, &size, &start, e))
		return -1;
	free(image);
	if (!(arena = map_near(m->base, size)))
		return err_set(e, "no room within 1 GiB of [vdso] for a copy of %s", m->f->name);
	if (reloc_image(&m->rf, &pl, 1, m->base, (uintptr_t)arena, &image, &size, &start, e)) {
		munmap(arena, size);
		return -1;
	}
	memcpy(arena, image, size);
	free(image);
	prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, arena, size, "straddle-vdso");
	if (mprotect(arena, size, PROT_READ | PROT_EXEC) != 0) {
		munmap(arena, size);
		return err_set(e, "cannot make the copy executable: %s", strerror(errno));
	}
	rel = (int32_t)((intptr_t)(arena + start) - (intptr_t)(m->entry + JMP_LEN));
	memcpy(jmp + 1, &rel, 4);
	if (write_entry(m, jmp, e)) {
		munmap(arena, size);
		return -1;
	}
	if (m->arena)   /* the entry leads to the new copy already */
		munmap(m->arena, m->arena_size);
	m->arena = arena, m->arena_size = size;
	m->copy = arena + start;
	return 0;
}

int vdso_move_back(struct vdso_move *m, struct err *e)
{
	if (!m->arena)
		return 0;
	if (write_entry(m, m->saved, e))
		return -1;
	munmap(m->arena, m->arena_size);
	m->arena = NULL, m->copy = NULL;
	return 0;
}

void vdso_move_close(struct vdso_move *m)
{
	struct err e;

	vdso_move_back(m, &e);
	if (m->mem >= 0)
		close(m->mem);
	reloc_close(&m->rf);
	*m = (struct vdso_move){ .mem = -1 };
}
