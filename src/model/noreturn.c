/* Functions that never return. A call to one ends its block: without this,
 * the code after `call exit` looks like a fall-through path, and the CFG
 * grows cycles with two entries that are not in the program (libc's
 * __libc_init_first: `call exit` falls into the thread-exit path, which
 * jumps back before the call).
 *
 * Two sources: names from glibc's and the kernel's noreturn declarations,
 * the C++ ABI and libgcc; and the code itself, for the many internal
 * helpers (__libc_dynarray_at_failure...) no list knows. */
#include "noreturn.h"
#include "../decode/decode.h"

#include <elf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const noreturn_names[] = {
	/* C library and POSIX */
	"exit", "_exit", "_Exit", "abort", "quick_exit", "__stack_chk_fail",
	"__stack_chk_fail_local", "__assert_fail", "__assert_perror_fail", "__assert",
	"longjmp", "_longjmp", "siglongjmp", "pthread_exit", "err", "errx", "verr", "verrx",
	/* glibc internals (declared __attribute__ ((noreturn)) in its sources) */
	"__fortify_fail", "__chk_fail", "__libc_fatal", "__libc_message", "__longjmp",
	"__longjmp_chk", "____longjmp_chk", "__libc_longjmp", "__libc_siglongjmp",
	"__libc_unwind_longjmp", "__longjmp_cancel", "__pthread_unwind",
	"__pthread_unwind_next", "__libc_dynarray_at_failure", "__libc_start_call_main",
	"__libc_start_main", "__malloc_assert", "malloc_printerr", "_dl_signal_error",
	"_dl_signal_exception", "_dl_fatal_printf", "_dl_reloc_bad_type",
	/* C++ ABI, libgcc, libstdc++ (std::__throw_* are matched by pattern) */
	"__cxa_throw", "__cxa_rethrow", "__cxa_bad_cast", "__cxa_bad_typeid",
	"__cxa_pure_virtual", "__cxa_deleted_virtual", "__cxa_throw_bad_array_new_length",
	"__cxa_call_unexpected", "__cxa_call_terminate", "_Unwind_Resume",
	"_ZSt9terminatev", "_ZSt10unexpectedv", "_ZN10__cxxabiv111__terminateEPFvvE",
	"_ZN10__cxxabiv112__unexpectedEPFvvE",
	/* Linux (__noreturn in include/linux/ and arch/) */
	"panic", "do_exit", "make_task_dead", "do_group_exit", "kthread_exit",
	"kthread_complete_and_exit", "__module_put_and_kthread_exit", "do_task_dead",
	"rewind_stack_and_make_dead", "rewind_stack_do_exit", "usercopy_abort",
	"fortify_panic", "__fortify_panic", "panic_smp_self_stop", "nmi_panic_self_stop",
	"cpu_startup_entry", "sev_es_terminate", "snp_abort",
	"__ubsan_handle_builtin_unreachable", "__sanitizer_cov_trace_pc_unreachable",
};

static bool name_is_noreturn(const char *name)
{
	/* glibc's internal aliases: __GI_exit, __GI___assert_fail */
	if (strncmp(name, "__GI_", 5) == 0)
		name += 5;
	/* libstdc++'s std::__throw_* and __gnu_cxx::__throw_* helpers */
	if ((strncmp(name, "_ZSt", 4) == 0 || strncmp(name, "_ZN9__gnu_cxx", 13) == 0) &&
	    strstr(name, "__throw_"))
		return true;
	/* every function's name is asked: the first two bytes rule out most
	 * entries without a call (strcmp here was 1.7% of a libLLVM scan);
	 * every entry is two bytes or longer */
	for (size_t i = 0; i < sizeof noreturn_names / sizeof noreturn_names[0]; i++)
		if (name[0] == noreturn_names[i][0] && name[0] && name[1] == noreturn_names[i][1] &&
		    strcmp(name, noreturn_names[i]) == 0)
			return true;
	return false;
}

/* What a function's own code says: it has no ret, no indirect jump and no
 * jump leaving it, and its last instruction is a trap, a jump inside it, or
 * a call (which then decides). ENDS_NAMED: its name says so. */
enum { ENDS_RETURNING, ENDS_STOPPED, ENDS_IN_CALL, ENDS_NAMED };

struct candidate {
	size_t func;
	uint64_t last_call;     /* target of the final call, for ENDS_IN_CALL */
};

static int ends(struct decoder *d, const uint8_t *p, const struct elf_func *f,
		uint64_t *last_call)
{
	struct insn in = { 0 };

	for (uint64_t off = 0; off < f->size; off += in.len) {
		decode_one(d, p + off, f->size - off, f->addr + off, &in);
		if (in.kind == BR_RET || in.kind == BR_JUMP_IND)
			return ENDS_RETURNING;
		if ((in.kind == BR_JUMP || in.kind == BR_COND) &&
		    (in.target < f->addr || in.target >= f->addr + f->size))
			return ENDS_RETURNING;  /* a tail call */
	}
	if (in.kind == BR_STOP || in.kind == BR_JUMP)
		return ENDS_STOPPED;
	if (in.kind == BR_CALL) {
		*last_call = in.target;
		return ENDS_IN_CALL;
	}
	return ENDS_RETURNING;
}

/* How each function ends, read by several threads: this is the first pass
 * over the file's code, paid in page faults as much as in searching, and it
 * was a serial part of every scan -j 2. Threads take interleaved chunks; each
 * writes only its functions' entries. */
struct ending {
	const struct elf_image *img;
	const struct elf_funcs *f;
	uint8_t *end;                   /* per function: ENDS_* */
	uint64_t *last_call;            /* per function, for ENDS_IN_CALL */
	size_t first, stride;           /* chunks first, first + stride, ... */
	pthread_t thread;
};

#define ENDING_CHUNK 256

static int ending_of(const struct ending *e, struct decoder *d, size_t i)
{
	const struct elf_func *f = &e->f->v[i];
	const uint8_t *p = elf_func_bytes(e->img, f);

	if (name_is_noreturn(f->name))
		return ENDS_NAMED;
	/* most functions hold a ret: a byte or word search rules them out
	 * without a second decode */
	if (!p || decode_may_hold_ret(e->img->arch, p, f->size))
		return ENDS_RETURNING;
	return ends(d, p, f, &e->last_call[i]);
}

static void *find_endings(void *arg)
{
	struct ending *e = arg;
	struct decoder *d = decoder_new(e->img->arch);
	size_t n = e->f->n;

	for (size_t c = e->first; d && c < n; c += e->stride)
		for (size_t i = c; i < n && i < c + ENDING_CHUNK; i++)
			e->end[i] = (uint8_t)ending_of(e, d, i);
	decoder_free(d);
	return NULL;
}

static void find_endings_in(const struct elf_image *img, const struct elf_funcs *f,
			    unsigned jobs, uint8_t *end, uint64_t *last_call)
{
	struct ending e[jobs ? jobs : 1];
	bool started[jobs ? jobs : 1];

	jobs = jobs ? jobs : 1;
	for (unsigned k = 0; k < jobs; k++)
		e[k] = (struct ending){ img, f, end, last_call, (size_t)k * ENDING_CHUNK,
					(size_t)jobs * ENDING_CHUNK, 0 };
	/* a thread that cannot start leaves its chunks to the caller */
	for (unsigned k = 1; k < jobs; k++)
		started[k] = pthread_create(&e[k].thread, NULL, find_endings, &e[k]) == 0;
	find_endings(&e[0]);
	for (unsigned k = 1; k < jobs; k++) {
		if (started[k])
			pthread_join(e[k].thread, NULL);
		else
			find_endings(&e[k]);
	}
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Asked for every direct call of every function with a loop: a search by
 * hand, since bsearch's comparator calls were 1% of a libLLVM scan. */
bool noreturn_has(const struct noreturn_set *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->addr[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->addr[lo] == addr;
}

void noreturn_stop_call(const struct noreturn_set *s, struct insn *in)
{
	if (in->kind == BR_CALL && noreturn_has(s, in->target))
		in->kind = BR_STOP;
}

static void add(struct noreturn_set *s, uint64_t addr)
{
	s->addr[s->n++] = addr;
	qsort(s->addr, s->n, sizeof *s->addr, by_u64);
}

/* exit@plt never returns either. */
static void add_plt_stubs(const struct elf_image *img, struct decoder *d,
			  struct noreturn_set *s, size_t nfuncs)
{
	struct elf_plt plt;

	elf_plt_stubs(img, decode_stub_slot, d, &plt);
	s->addr = xrealloc(s->addr, (nfuncs + plt.n + 1) * sizeof *s->addr);
	for (size_t i = 0; i < plt.n; i++)
		if (name_is_noreturn(plt.v[i].name))
			s->addr[s->n++] = plt.v[i].addr;
	elf_plt_free(&plt);
}

void noreturn_find(const struct elf_image *img, const struct elf_funcs *f, unsigned jobs,
		   struct noreturn_set *s)
{
	struct decoder *d = decoder_new(img->arch);
	struct candidate *c = xcalloc(f->n, sizeof *c);
	uint8_t *end = xcalloc(f->n + 1, 1);
	uint64_t *last_call = xcalloc(f->n + 1, sizeof *last_call);
	size_t nc = 0;
	bool grew = true;

	s->n = 0;
	s->addr = xcalloc(f->n + 1, sizeof *s->addr);
	/* Relocatable objects: call targets are unrelocated, nothing to match. */
	if (img->type == ET_REL || !d)
		goto out;
	find_endings_in(img, f, jobs, end, last_call);
	for (size_t i = 0; i < f->n; i++) {
		if (end[i] == ENDS_NAMED || end[i] == ENDS_STOPPED)
			s->addr[s->n++] = f->v[i].addr;
		else if (end[i] == ENDS_IN_CALL)
			c[nc++] = (struct candidate){ i, last_call[i] };
	}
	add_plt_stubs(img, d, s, f->n);
	qsort(s->addr, s->n, sizeof *s->addr, by_u64);
	/* A function whose last act is calling a noreturn function is one. */
	while (grew) {
		grew = false;
		for (size_t k = 0; k < nc; k++)
			if (c[k].last_call && noreturn_has(s, c[k].last_call) &&
			    !noreturn_has(s, f->v[c[k].func].addr)) {
				add(s, f->v[c[k].func].addr);
				c[k].last_call = 0;
				grew = true;
			}
	}
out:
	free(end);
	free(last_call);
	free(c);
	decoder_free(d);
}
