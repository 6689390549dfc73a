/* libstraddle-place.so: applies a plan (plan.h) in the program before main,
 * and after a dlopen for an object loaded late. It decodes nothing: the
 * planner put every byte of every copy in the plan and every address that
 * depends on where things land as a fix-up.
 *
 * W^X at every instant: the arena is written while it is read+write and only
 * then made read+execute; the object's own code pages are made read+write
 * (not executable) while the entry jumps are written, then read+execute
 * again. While those pages are not executable this file calls nothing outside
 * itself: the writes are its own loops and the mprotect calls raw system
 * calls, since libc's own mprotect may lie on such a page.
 *
 * Any failure is loud: a message on stderr (and on the report descriptor) and
 * _exit(PLAN_EXIT), never a run that silently measures unmoved code. Built on
 * its own (no libstraddle, no sanitizer: it runs inside the user's program). */
#include "plan.h"
#include "poke.h"
#include "replay.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096u

struct object_plan {
	const struct plan_object *o;
	const char *path;
	const uint8_t *arena;
	const struct plan_fixup *fixup;
	const struct plan_patch *patch;
	const uint8_t *maps;            /* nmap plan_map records with names */
	bool applied;
};

static struct {
	uint8_t *data;
	size_t size;
	struct object_plan obj[PLAN_MAX_OBJECTS];
	uint32_t nobj;
	struct replay_plan replay;      /* .r NULL: no loop to replay */
	int report_fd;
	bool after_main;                /* the constructor is done: dlopen's turn */
} plan = { .report_fd = -1 };

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	if (plan.report_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	if (write(plan.report_fd, line, (size_t)n) < 0)
		return;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "straddle-place: %s\n", msg);
	report("error %s", msg);
	_exit(PLAN_EXIT);
}

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* ---- reading the plan ---- */

static const uint8_t *take(size_t *at, size_t n)
{
	const uint8_t *p;

	if (n > plan.size || *at > plan.size - n)
		fail("%s: the plan is cut short", getenv("STRADDLE_PLAN"));
	p = plan.data + *at;
	*at += pad8(n);
	return p;
}

static void read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
		fail("%s: cannot read the plan: %s", path, strerror(errno));
	plan.size = (size_t)st.st_size;
	plan.data = malloc(plan.size ? plan.size : 1);
	if (!plan.data)
		fail("%s: no memory for the plan", path);
	while (got < plan.size) {
		ssize_t r = read(fd, plan.data + got, plan.size - got);

		if (r <= 0)
			fail("%s: cannot read the plan", path);
		got += (size_t)r;
	}
	close(fd);
}

static void parse_object(size_t *at, struct object_plan *op)
{
	const struct plan_object *o = (const void *)take(at, sizeof *o);

	op->o = o;
	if (o->build_id_len > sizeof o->build_id || o->arena_size % PAGE || !o->arena_size)
		fail("the plan's object record is malformed");
	op->path = (const char *)take(at, o->path_len);
	if (o->path_len == 0 || op->path[o->path_len - 1] != 0)
		fail("the plan's object path is malformed");
	if (o->data_at % PAGE || !o->data_at || o->data_at > o->arena_size ||
	    o->eh_frame_at < o->data_at || o->eh_frame_at + 4 > o->arena_size ||
	    o->symfile_size > o->arena_size - o->data_at)
		fail("the plan's object record is malformed");
	op->arena = take(at, o->arena_size);
	op->fixup = (const void *)take(at, (size_t)o->nfixup * sizeof *op->fixup);
	op->patch = (const void *)take(at, (size_t)o->npatch * sizeof *op->patch);
	op->maps = plan.data + *at;
	for (uint32_t i = 0; i < o->nmap; i++) {
		const struct plan_map *m = (const void *)take(at, sizeof *m);

		take(at, m->name_len);
		if (m->offset > o->arena_size || m->size > o->arena_size - m->offset)
			fail("%s: a copy lies outside its arena", op->path);
	}
	for (uint32_t i = 0; i < o->npatch; i++)
		if (op->patch[i].len > sizeof op->patch[i].bytes)
			fail("%s: a patch is longer than 8 bytes", op->path);
}

static void parse_plan(const char *path)
{
	size_t at = 0;
	const struct plan_header *h;

	read_file(path);
	h = (const void *)take(&at, sizeof *h);
	if (memcmp(h->magic, PLAN_MAGIC, 8) != 0 || h->nobjects == 0 ||
	    h->nobjects > PLAN_MAX_OBJECTS)
		fail("%s: not a straddle plan", path);
	plan.nobj = h->nobjects;
	for (uint32_t i = 0; i < plan.nobj; i++)
		parse_object(&at, &plan.obj[i]);
	if (h->flags & PLAN_REPLAY) {
		const struct plan_replay *r = (const void *)take(&at, sizeof *r);

		plan.replay = (struct replay_plan){ r,
			(const void *)take(&at, (size_t)r->ncopies * sizeof *plan.replay.copy),
			(const void *)take(&at, (size_t)r->ntrap * sizeof *plan.replay.trap) };
		if (r->object >= plan.nobj)
			fail("%s: the loop to replay is in no object of the plan", path);
	}
}

/* ---- applying one object's plan ---- */

static long raw_mprotect(void *addr, size_t len, int prot)
{
#if defined(__aarch64__)
	register long x8 __asm__("x8") = 226;   /* __NR_mprotect, asm-generic */
	register long x0 __asm__("x0") = (long)addr;
	register long x1 __asm__("x1") = (long)len;
	register long x2 __asm__("x2") = prot;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
#else
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(10L), "D"(addr), "S"(len), "d"((long)prot)
			 : "rcx", "r11", "memory");
	return ret;
#endif
}

/* A fix-up's value (plan.h), or fail: a 4-byte field must hold it as
 * int32, an AArch64 immediate its form's reach. */
static uint64_t fixup_value(const struct object_plan *op, const struct plan_fixup *f,
			    uint64_t bias, uint64_t arena)
{
	uint64_t v;
	int rc;

	/* a replay slot's offset from the thread pointer is this library's
	 * own: known here, not to the plan */
	if (f->value_in == PLAN_IN_TLS)
		return (uint64_t)replay_slot_offset(f->value) -
		       plan_address(f->ref_in, f->ref, bias, arena);
	rc = plan_fixup_value(f, bias, arena, &v);

	if (rc == -1)
		fail("%s: a fix-up at %#llx is out of reach of its target (%lld%s)", op->path,
		     (unsigned long long)f->at, (long long)v, plan_a64_form(f->size) ? "" : " bytes");
	if (rc == -2)
		fail("%s: a fix-up of %u bytes", op->path, f->size);
	return v;
}

/* The bytes a fix-up writes. */
static unsigned field_len(uint8_t size)
{
	return plan_a64_form(size) ? 4 : size;
}

/* How far from the object an arena is sought, in MiB: x86-64's rel32
 * reaches +-2 GiB, AArch64's b/bl +-128 MiB (object, gap and arena within
 * that; a fix-up out of reach would stop the program anyway). */
#if defined(__aarch64__)
#define ARENA_SEARCH_MIB 64
#define REACH "128 MiB"
#else
#define ARENA_SEARCH_MIB 1024
#define REACH "2 GiB"
#endif

/* An arena page aligned, within reach: tried from just above the object,
 * then just below it, a megabyte at a time. */
static uint8_t *map_arena(const struct object_plan *op, uint64_t bias)
{
	uint64_t size = op->o->arena_size;
	uint64_t hi = (bias + op->o->span_hi + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	uint64_t lo = (bias + op->o->span_lo) & ~(uint64_t)(PAGE - 1);

	for (uint64_t step = 0; step < ARENA_SEARCH_MIB; step++) {
		uint64_t cand[2] = { hi + (step << 20), lo - size - (step << 20) };

		for (int k = 0; k < 2; k++) {
			void *p;

			if (k == 1 && lo < size + (step << 20) + (1u << 20))
				continue;
			p = mmap((void *)cand[k], size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (p == (void *)cand[k])
				return p;
			if (p != MAP_FAILED)
				munmap(p, size);
		}
	}
	fail("%s: no room for the copies within " REACH " of it", op->path);
}

struct exec_range {
	uint64_t lo, hi;                /* [lo, hi) runtime, page aligned */
	int prot;
};

/* The object's executable PT_LOAD segments, as mapped. */
static size_t exec_segments(const struct dl_phdr_info *info, struct exec_range *out, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < info->dlpi_phnum && n < max; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		out[n].lo = (info->dlpi_addr + ph->p_vaddr) & ~(uint64_t)(PAGE - 1);
		out[n].hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + PAGE - 1) &
			    ~(uint64_t)(PAGE - 1);
		out[n].prot = PROT_EXEC | (ph->p_flags & PF_R ? PROT_READ : 0);
		n++;
	}
	return n;
}

static bool in_range(const struct exec_range *r, uint64_t at, uint64_t len)
{
	return at >= r->lo && at + len <= r->hi;
}

/* The instruction of each patch as it will be, its fix-ups applied:
 * computed before any page of the object changes (fixup_value may fail,
 * which prints; nothing may be called while its code is not executable),
 * sorted by address, each inside one executable segment. */
static int by_poke_addr(const void *a, const void *b)
{
	const struct poke *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct poke *poke_holding(struct poke *p, size_t n, uint64_t at, unsigned len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {               /* the last poke starting at or before at */
		size_t mid = lo + (hi - lo) / 2;

		if (p[mid].addr <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && at + len <= p[lo - 1].addr + p[lo - 1].len ? &p[lo - 1] : NULL;
}

/* Where a thread stopped at an entry goes: the jump's own target. */
static uint64_t jump_target(const struct poke *p)
{
#if defined(__aarch64__)
	/* b imm26: the word's low 26 bits, in words, signed */
	int32_t imm = (int32_t)(((uint32_t)p->bytes[0] | (uint32_t)p->bytes[1] << 8 |
				 (uint32_t)p->bytes[2] << 16 | (uint32_t)p->bytes[3] << 24) << 6);

	return p->addr + (uint64_t)(int64_t)(imm >> 4);
#else
	return p->addr + 5 + (uint64_t)(int64_t)(int32_t)((uint32_t)p->bytes[1] |
		(uint32_t)p->bytes[2] << 8 | (uint32_t)p->bytes[3] << 16 | (uint32_t)p->bytes[4] << 24);
#endif
}

static struct poke *make_pokes(const struct object_plan *op, uint64_t bias, uint64_t arena,
			       const struct exec_range *seg, size_t nseg)
{
	size_t n = op->o->npatch;
	struct poke *p = malloc((n + 1) * sizeof *p);

	if (!p)
		fail("%s: no memory for its patches", op->path);
	for (size_t i = 0; i < n; i++) {
		const struct plan_patch *pt = &op->patch[i];
		bool ok = false;

		if (pt->len == 0 || pt->len > sizeof pt->bytes)
			fail("%s: a patch of %u bytes", op->path, pt->len);
		p[i] = (struct poke){ .addr = bias + pt->at, .len = pt->len, .kind = pt->kind,
				      .flags = pt->flags };
		memcpy(p[i].bytes, pt->bytes, pt->len);
		for (size_t s = 0; s < nseg && !ok; s++)
			ok = in_range(&seg[s], p[i].addr, pt->len);
		if (!ok)
			fail("%s: a patch at %#llx is not in its code", op->path,
			     (unsigned long long)pt->at);
	}
	qsort(p, n, sizeof *p, by_poke_addr);
	for (uint32_t i = 0; i < op->o->nfixup; i++) {
		const struct plan_fixup *f = &op->fixup[i];
		struct poke *in;

		if (f->at_in != PLAN_IN_OBJECT)
			continue;
		if (!(in = poke_holding(p, n, bias + f->at, field_len(f->size))))
			fail("%s: a fix-up at %#llx is in no patch", op->path, (unsigned long long)f->at);
		plan_store(in->bytes + (bias + f->at - in->addr), fixup_value(op, f, bias, arena), f->size);
	}
	for (size_t i = 0; i < n; i++)
		if (p[i].kind == PLAN_PATCH_ENTRY)
			p[i].resume = jump_target(&p[i]);
	return p;
}

/* With no other thread: segment by segment, read+write while written,
 * then as before. Nothing called here lives in the object. */
static void write_alone(const struct object_plan *op, const struct poke *p, size_t n,
			const struct exec_range *seg, size_t nseg)
{
	for (size_t s = 0; s < nseg; s++) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (size_t i = 0; i < n; i++)
			if (in_range(&seg[s], p[i].addr, p[i].len)) {
				lo = p[i].addr < lo ? p[i].addr : lo;
				hi = p[i].addr + p[i].len > hi ? p[i].addr + p[i].len : hi;
			}
		if (lo > hi)
			continue;
		lo &= ~(uint64_t)(PAGE - 1);
		hi = (hi + PAGE - 1) & ~(uint64_t)(PAGE - 1);
		if (raw_mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
			fail("%s: cannot make its code writable", op->path);
		for (size_t i = 0; i < n; i++)
			if (in_range(&seg[s], p[i].addr, p[i].len))
				for (unsigned k = 0; k < p[i].len; k++)
					((volatile uint8_t *)p[i].addr)[k] = p[i].bytes[k];
		if (raw_mprotect((void *)lo, hi - lo, seg[s].prot) != 0)
			fail("%s: cannot make its code executable again", op->path);
		/* AArch64 fetches through an instruction cache the data
		 * writes do not update (Arm ARM B2.4.4); a no-op on x86 */
		__builtin___clear_cache((char *)lo, (char *)hi);
	}
}

/* The entry jumps and redirected branches: alone, or while other threads
 * may run the code (poke.c). A process that cannot say how many threads
 * it has (no /proc) is taken to have one before main, as it always was. */
static bool patch_object(const struct object_plan *op, uint64_t bias, uint64_t arena,
			 const struct exec_range *seg, size_t nseg)
{
	struct poke *p = make_pokes(op, bias, arena, seg, nseg);
	long threads = poke_threads();
	char why[256] = "";

	if (threads > 1) {
		if (poke_live(p, op->o->npatch, bias, why, sizeof why))
			fail("%s: %s", op->path, why);
	} else if (threads == 1 || !plan.after_main) {
		write_alone(op, p, op->o->npatch, seg, nseg);
	} else {
		fail("%s: cannot tell whether other threads run (no /proc/self/stat)", op->path);
	}
	free(p);
	return threads > 1;
}

/* The perf map's file, opened to add lines: made by this process (never
 * following a link: /tmp is everyone's, and a link planted at the name
 * would have this process write wherever it points, as root too), or
 * one it may take over: a regular file of its own user with one link (a
 * process that had this pid before, or this one before an exec), which
 * it empties once. Anything else at the name is left alone: -1, no map. */
static int open_perf_map(const char *path)
{
	static bool mine;
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd >= 0) {
		mine = true;
		return fd;
	}
	if (errno != EEXIST ||
	    (fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1 ||
	    (!mine && ftruncate(fd, 0))) {
		close(fd);
		return -1;
	}
	mine = true;
	lseek(fd, 0, SEEK_END);
	return fd;
}

/* perf's convention for code made at run time: START SIZE NAME lines in
 * /tmp/perf-PID.map; the name ends with where the original is, in the
 * file and in this process, for straddle record. false when the name was
 * taken (the report says so; straddle place removes the maps it was told
 * of when each run ends). */
static bool write_perf_map(const struct object_plan *op, uint64_t bias, uint64_t arena)
{
	char path[64];
	const uint8_t *m = op->maps;
	FILE *f;
	int fd;

	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	if ((fd = open_perf_map(path)) < 0)
		return false;   /* a profiler's convenience, not the experiment */
	if (!(f = fdopen(fd, "a"))) {
		close(fd);
		return false;
	}
	for (uint32_t i = 0; i < op->o->nmap; i++) {
		const struct plan_map *r = (const void *)m;
		const char *name = (const char *)(m + sizeof *r);

		fprintf(f, "%llx %llx %.*s [straddle copy of %s+%#llx at %#llx]\n",
			(unsigned long long)(arena + r->offset), (unsigned long long)r->size,
			(int)r->name_len, name, op->path, (unsigned long long)r->orig,
			(unsigned long long)(bias + r->orig));
		m += sizeof *r + pad8(r->name_len);
	}
	return fclose(f) == 0;
}

/* ---- unwinders and debuggers told of the copies ---- */

static void *(*real_dlopen(void))(const char *, int)
{
	static void *(*real)(const char *, int);

	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	return real;
}

/* The copies' .eh_frame (plan.h) given to the unwinder the program's C++
 * runtime, backtrace() and pthread_cancel use: libgcc_s's, which keeps
 * registered frames beside those it finds through PT_GNU_EH_FRAME. A
 * program that has not loaded it yet (C, before its first backtrace)
 * gets it now, as glibc would load it then. Registered before the entry
 * jumps are written: no copy runs before it can be unwound. */
static void register_unwind(const struct object_plan *op, const uint8_t *arena)
{
	const uint8_t *eh = arena + op->o->eh_frame_at;
	void (*reg)(const void *);
	void *lib;

	if (!(eh[0] | eh[1] | eh[2] | eh[3]))
		return;                 /* no copy has an FDE */
	reg = (void (*)(const void *))dlsym(RTLD_DEFAULT, "__register_frame");
	if (!reg && real_dlopen() && (lib = real_dlopen()("libgcc_s.so.1", RTLD_NOW | RTLD_GLOBAL)))
		reg = (void (*)(const void *))dlsym(lib, "__register_frame");
	if (!reg)
		fail("%s: no unwinder to give the copies' unwind data to (libgcc_s.so.1: %s)",
		     op->path, dlerror());
	reg(eh);
}

/* gdb's JIT interface (gdb manual, "JIT Compilation Interface"): gdb
 * breaks in __jit_debug_register_code and reads the entry named by
 * __jit_debug_descriptor: here the arena's ELF image, whose .symtab names
 * each copy and whose .eh_frame unwinds it, so `bt` names moved frames. */
struct jit_code_entry {
	struct jit_code_entry *next, *prev;
	const char *symfile_addr;
	uint64_t symfile_size;
};

struct jit_descriptor {
	uint32_t version, action_flag;          /* 1: JIT_REGISTER_FN */
	struct jit_code_entry *relevant_entry, *first_entry;
};

__attribute__((visibility("default"))) struct jit_descriptor __jit_debug_descriptor = { 1, 0, 0, 0 };

__attribute__((visibility("default"), noinline, used)) void __jit_debug_register_code(void)
{
	__asm__ volatile("" ::: "memory");
}

static void announce_to_gdb(const struct object_plan *op, const uint8_t *arena)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct jit_code_entry *e = calloc(1, sizeof *e);

	if (!e)
		fail("%s: no memory to name the copies to debuggers", op->path);
	e->symfile_addr = (const char *)arena + op->o->data_at;
	e->symfile_size = op->o->symfile_size;
	pthread_mutex_lock(&lock);
	e->next = __jit_debug_descriptor.first_entry;
	if (e->next)
		e->next->prev = e;
	__jit_debug_descriptor.first_entry = __jit_debug_descriptor.relevant_entry = e;
	__jit_debug_descriptor.action_flag = 1;
	__jit_debug_register_code();
	__jit_debug_descriptor.action_flag = 0;
	pthread_mutex_unlock(&lock);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void apply(struct object_plan *op, const struct dl_phdr_info *info)
{
	uint64_t t0 = now_ns();
	uint64_t bias = info->dlpi_addr;
	struct exec_range seg[16];
	size_t nseg = exec_segments(info, seg, 16);
	uint8_t *arena;

	arena = map_arena(op, bias);
	memcpy(arena, op->arena, op->o->arena_size);
	for (uint32_t i = 0; i < op->o->nfixup; i++)
		if (op->fixup[i].at_in == PLAN_IN_COPY) {
			if (op->fixup[i].at + field_len(op->fixup[i].size) > op->o->arena_size)
				fail("%s: a fix-up lies outside its arena", op->path);
			plan_store(arena + op->fixup[i].at,
				   fixup_value(op, &op->fixup[i], bias, (uint64_t)arena), op->fixup[i].size);
		}
	if (mprotect(arena, op->o->data_at, PROT_READ | PROT_EXEC) ||
	    (op->o->arena_size > op->o->data_at &&
	     mprotect(arena + op->o->data_at, op->o->arena_size - op->o->data_at, PROT_READ)))
		fail("%s: cannot make the copies executable: %s", op->path, strerror(errno));
	__builtin___clear_cache((char *)arena, (char *)arena + op->o->data_at);
	register_unwind(op, arena);
	announce_to_gdb(op, arena);
	bool live = patch_object(op, bias, (uint64_t)arena, seg, nseg);
	op->applied = true;
	bool map = write_perf_map(op, bias, (uint64_t)arena);

	if (plan.replay.r && plan.replay.r->object == (uint32_t)(op - plan.obj)) {
		char why[200] = "";

		if (!replay_start(&plan.replay, (uint64_t)(uintptr_t)arena, op->o->arena_size, bias,
				  plan.report_fd, why, sizeof why))
			fail("%s: the loop cannot be replayed here: %s", op->path, why);
	}
	/* the process that moved code reports; the programs it runs do not
	 * (a shell in between, which moved nothing, passes the pipe on) */
	if (plan.report_fd >= 0) {
		fcntl(plan.report_fd, F_SETFD, FD_CLOEXEC);
		unsetenv("STRADDLE_PLACE_FD");
	}
	report("applied %u %u %llx %llu %d %d %d", (unsigned)(op - plan.obj), op->o->nmap,
	       (unsigned long long)(uintptr_t)arena, (unsigned long long)(now_ns() - t0),
	       (int)getpid(), map, live);
}

/* ---- finding the objects ---- */

static bool build_id_of(const struct dl_phdr_info *info, const uint8_t **id, uint32_t *len)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		size_t at = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		while (at + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
			const ElfW(Nhdr) *nh = (const void *)(p + at);
			size_t name = (nh->n_namesz + 3) & ~3u, desc = (nh->n_descsz + 3) & ~3u;

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(p + at + sizeof *nh, "GNU", 4) == 0) {
				*id = p + at + sizeof *nh + name;
				*len = nh->n_descsz;
				return true;
			}
			at += sizeof *nh + name + desc;
		}
	}
	return false;
}

static int visit(struct dl_phdr_info *info, size_t size, void *ctx)
{
	const uint8_t *id;
	uint32_t len;

	(void)size, (void)ctx;
	if (!build_id_of(info, &id, &len))
		return 0;
	for (uint32_t i = 0; i < plan.nobj; i++) {
		struct object_plan *op = &plan.obj[i];

		if (!op->applied && op->o->build_id_len == len &&
		    memcmp(op->o->build_id, id, len) == 0)
			apply(op, info);
	}
	return 0;
}

__attribute__((constructor)) static void straddle_place_init(void)
{
	const char *path = getenv("STRADDLE_PLAN"), *fd = getenv("STRADDLE_PLACE_FD");

	if (!path || !*path)
		return;
	if (fd && *fd)
		plan.report_fd = atoi(fd);
	parse_plan(path);
	dl_iterate_phdr(visit, NULL);
	plan.after_main = true;
}

/* A library the plan names may come later: after each dlopen, look again. */
__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
	void *h;

	if (!real_dlopen())
		return NULL;
	h = real_dlopen()(file, mode);
	if (h && plan.nobj)
		dl_iterate_phdr(visit, NULL);
	return h;
}
