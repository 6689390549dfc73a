/* libstraddle-sched.so, loaded when a loop is first priced: straddle
 * itself links no LLVM, so a machine without LLVM 19 still runs every
 * command, its loops priced by their bounds (the caller says so, once). */
#include "sched.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SCHED_LIBRARY "libstraddle-sched.so"

static struct {
	pthread_once_t once;
	void *dl;
	char why[256];
	unsigned (*abi)(void);
	const char *(*version)(void);
	void *(*open)(const char *, const char *, struct sched_cpu_info *, char *, size_t);
	void (*close)(void *);
	size_t (*describe)(void *, const uint8_t *, size_t, uint64_t, struct sched_insn *, size_t);
	unsigned (*advance)(void *, unsigned, unsigned, unsigned);
	unsigned long (*simulate)(void *, const struct sched_piece *, size_t, unsigned);
} lib = { .once = PTHREAD_ONCE_INIT };

struct sched_cpu {
	void *h;
	struct sched_cpu_info info;
};

static bool bind(const char *name, void **fn)
{
	*fn = dlsym(lib.dl, name);
	if (!*fn)
		snprintf(lib.why, sizeof lib.why, "%s has no %s", SCHED_LIBRARY, name);
	return *fn != NULL;
}

static void load(void)
{
	char buf[4096];
	const char *hook = test_hook("SCHED_LIBRARY");
	const char *path = hook ? hook : beside_self(SCHED_LIBRARY, buf, sizeof buf);

	if (!path) {
		snprintf(lib.why, sizeof lib.why, "%s is not beside straddle", SCHED_LIBRARY);
		return;
	}
	lib.dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib.dl) {
		const char *why = dlerror();

		snprintf(lib.why, sizeof lib.why, "%s", why ? why : path);
		return;
	}
	if (!bind("straddle_sched_abi", (void **)&lib.abi) ||
	    !bind("straddle_sched_llvm_version", (void **)&lib.version) ||
	    !bind("straddle_sched_open", (void **)&lib.open) ||
	    !bind("straddle_sched_close", (void **)&lib.close) ||
	    !bind("straddle_sched_describe", (void **)&lib.describe) ||
	    !bind("straddle_sched_read_advance", (void **)&lib.advance) ||
	    !bind("straddle_sched_simulate", (void **)&lib.simulate))
		goto refuse;
	if (lib.abi() != SCHED_ABI_VERSION) {
		snprintf(lib.why, sizeof lib.why, "%s is of another straddle (interface %u, not %u)",
			 path, lib.abi(), SCHED_ABI_VERSION);
		goto refuse;
	}
	return;
refuse:
	dlclose(lib.dl);
	lib.dl = NULL;
}

static bool loaded(void)
{
	pthread_once(&lib.once, load);
	return lib.dl != NULL;
}

const char *sched_llvm_version(void)
{
	return loaded() ? lib.version() : NULL;
}

const char *sched_unavailable(void)
{
	return loaded() ? NULL : lib.why;
}

static const char *triple_of(enum arch a)
{
	return a == ARCH_AARCH64 ? "aarch64-unknown-linux-gnu" : "x86_64-unknown-linux-gnu";
}

struct sched_cpu *sched_cpu_open(const char *mcpu, enum arch arch, struct err *e)
{
	struct sched_cpu *c;
	char why[256] = "";

	if (!loaded()) {
		err_set(e, "%s", lib.why);
		return NULL;
	}
	c = xcalloc(1, sizeof *c);
	c->h = lib.open(triple_of(arch), mcpu, &c->info, why, sizeof why);
	if (!c->h) {
		err_set(e, "%s", why[0] ? why : "LLVM refused the CPU");
		free(c);
		return NULL;
	}
	return c;
}

void sched_cpu_close(struct sched_cpu *c)
{
	if (c) {
		lib.close(c->h);
		free(c);
	}
}

const struct sched_cpu_info *sched_cpu_info(const struct sched_cpu *c)
{
	return &c->info;
}

size_t sched_describe(struct sched_cpu *c, const uint8_t *code, size_t n, uint64_t addr,
		      struct sched_insn *out, size_t max)
{
	return lib.describe(c->h, code, n, addr, out, max);
}

unsigned sched_read_advance(struct sched_cpu *c, const struct sched_read *r,
			    unsigned write_resource)
{
	return lib.advance(c->h, r->sched_class, r->use_index, write_resource);
}

unsigned long sched_simulate(struct sched_cpu *c, const struct sched_piece *p, size_t np,
			     unsigned iterations)
{
	return lib.simulate(c->h, p, np, iterations);
}
