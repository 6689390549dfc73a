/* The W^X arena. Each placement is its own mapping: written while it is
 * PROT_READ|PROT_WRITE, then switched to PROT_READ|PROT_EXEC, never both:
 * a mapping writable and executable at once is what an exploit writes
 * code into. A fixed table of live placements serves the fault handler,
 * which must not lock or allocate. */
#include "arena.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_PLACEMENTS 1024

/* Slots hold a placement's address or NULL; writers use atomic stores so a
 * handler running on the same thread sees either the old or the new value. */
static _Atomic(const struct placement *) table[MAX_PLACEMENTS];

enum arch arena_host_arch(void)
{
#if defined(__x86_64__)
	return ARCH_X86_64;
#elif defined(__aarch64__)
	return ARCH_AARCH64;
#else
	return ARCH_NONE;
#endif
}

/* int3 on x86-64; brk #0 on AArch64: running off the copy traps at once. */
static void fill_traps(uint8_t *p, size_t n, enum arch arch)
{
	static const uint8_t brk[4] = { 0x00, 0x00, 0x20, 0xd4 };

	if (arch == ARCH_AARCH64)
		for (size_t i = 0; i + 4 <= n; i += 4)
			memcpy(p + i, brk, 4);
	else
		memset(p, 0xcc, n);
}

static int register_placement(const struct placement *p)
{
	for (size_t i = 0; i < MAX_PLACEMENTS; i++) {
		const struct placement *expected = NULL;

		if (atomic_compare_exchange_strong(&table[i], &expected, p))
			return 0;
	}
	return -1;
}

int arena_place(const void *code, size_t size, uint32_t offset, enum arch arch,
	       const void *owner, struct placement *out, struct err *e)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t need = (size_t)offset + size + 64;       /* trap bytes after it too */
	size_t len = (need + page - 1) / page * page;
	uint8_t *map;

	memset(out, 0, sizeof *out);
	if (arch != arena_host_arch())
		return err_set(e, "cannot run %s code on this %s host", arch_name(arch),
			       arch_name(arena_host_arch()));
	if (arch == ARCH_AARCH64 && offset % 4)
		return err_set(e, "AArch64 code must be placed at a multiple of 4 (offset %u)",
			       offset);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return err_set(e, "cannot map %zu bytes: %s", len, strerror(errno));
	fill_traps(map, len, arch);
	memcpy(map + offset, code, size);
	if (mprotect(map, len, PROT_READ | PROT_EXEC) != 0) {
		err_set(e, "cannot make the copy executable: %s", strerror(errno));
		munmap(map, len);
		return -1;
	}
	__builtin___clear_cache((char *)map, (char *)map + len);
	*out = (struct placement){ .map = map, .map_size = len, .code = map + offset,
				   .size = size, .offset = offset, .owner = owner };
	return 0;
}

/* The placement must stay where it is while registered: callers keep it in
 * storage that does not move (not in an array that grows). */
int arena_register(struct placement *p, struct err *e)
{
	if (register_placement(p))
		return err_set(e, "more than %d placements at once", MAX_PLACEMENTS);
	return 0;
}

void arena_free(struct placement *p)
{
	for (size_t i = 0; i < MAX_PLACEMENTS; i++) {
		const struct placement *expected = p;

		atomic_compare_exchange_strong(&table[i], &expected, NULL);
	}
	if (p->map)
		munmap(p->map, p->map_size);
	memset(p, 0, sizeof *p);
}

const struct placement *arena_find(uintptr_t pc)
{
	for (size_t i = 0; i < MAX_PLACEMENTS; i++) {
		const struct placement *p = atomic_load(&table[i]);

		if (p && pc >= (uintptr_t)p->code && pc < (uintptr_t)p->code + p->size)
			return p;
	}
	return NULL;
}
