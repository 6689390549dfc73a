/* The kernel registry: the host architecture's assembly kernels (their bytes,
 * hot loop and exception table read from the descriptors the .S files emit,
 * see asm.h) and libc's memset/memcpy as the references a user would pick
 * instead. */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* What KERNEL_BEGIN/EX/KERNEL_END in asm.h lay down in .rodata. */
struct kernel_desc {
	uint32_t size, loop_start, loop_end, nfixups;
	struct kex fixups[];
};

#define KERNEL_ASM(n) \
	extern const uint8_t straddle_k_##n[]; \
	extern const struct kernel_desc straddle_kd_##n;

#define ASM_KERNEL(n, kind_, arch_, seed_, feat, sum) \
	{ .k = { .name = #n, .kind = kind_, .arch = arch_, .seed = seed_, .summary = sum, \
		 .features = feat, .placeable = true, .code = straddle_k_##n }, \
	  .desc = &straddle_kd_##n }

#if defined(__x86_64__)
KERNEL_ASM(clear_movq_reg)
KERNEL_ASM(clear_movq_imm)
KERNEL_ASM(clear_rep_stosq)
KERNEL_ASM(clear_rep_stosb)
KERNEL_ASM(copy_unrolled)
KERNEL_ASM(copy_rep_movsq)
KERNEL_ASM(copy_rep_movsb)
#elif defined(__aarch64__)
KERNEL_ASM(clear_str_xzr)
KERNEL_ASM(clear_stp)
KERNEL_ASM(copy_ldp_stp)
#endif

static size_t ref_memset(void *dst, size_t len)
{
	memset(dst, 0, len);
	return 0;
}

static size_t ref_memcpy(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
	return 0;
}

struct entry {
	struct kernel k;
	const struct kernel_desc *desc;         /* NULL for the references */
};

static struct entry registry[] = {
#if defined(__x86_64__)
	ASM_KERNEL(clear_movq_reg, KERNEL_CLEAR, ARCH_X86_64, "000", 0,
		   "__clear_user before 1153933703d9: 10-byte movq %reg loop, byte tail"),
	ASM_KERNEL(clear_movq_imm, KERNEL_CLEAR, ARCH_X86_64, "000", 0,
		   "__clear_user after 1153933703d9: 15-byte movq $0 loop, byte tail"),
	ASM_KERNEL(clear_rep_stosq, KERNEL_CLEAR, ARCH_X86_64, "000", 0,
		   "rep stosq over len/8 quadwords, byte tail"),
	ASM_KERNEL(clear_rep_stosb, KERNEL_CLEAR, ARCH_X86_64, "000", KFEAT_ERMS | KFEAT_FSRS,
		   "rep stosb for every length (clear_user with FSRS)"),
	ASM_KERNEL(copy_unrolled, KERNEL_COPY, ARCH_X86_64, "001", 0,
		   "rep_movs_alternative before 001: 64 B unrolled movq loop, 8 B loop, bytes"),
	ASM_KERNEL(copy_rep_movsq, KERNEL_COPY, ARCH_X86_64, "001", 0,
		   "rep_movs_alternative after 001: rep movsq from 64 B, 8 B loop, bytes"),
	ASM_KERNEL(copy_rep_movsb, KERNEL_COPY, ARCH_X86_64, "001",
		   KFEAT_ERMS | KFEAT_FSRM | KFEAT_FZRM,
		   "rep movsb for every length (copy_user_generic with FSRM)"),
#elif defined(__aarch64__)
	ASM_KERNEL(clear_str_xzr, KERNEL_CLEAR, ARCH_AARCH64, "002", 0,
		   "__arch_clear_user (4.19): str xzr,[x0],#8; nop; subs; b.pl, then 4/2/1"),
	ASM_KERNEL(clear_stp, KERNEL_CLEAR, ARCH_AARCH64, "002", 0,
		   "stp xzr,xzr,[x0],#16 loop, byte tail"),
	ASM_KERNEL(copy_ldp_stp, KERNEL_COPY, ARCH_AARCH64, "001", 0,
		   "ldp/stp 16 B loop, byte tail"),
#endif
	{ .k = { .name = "memset", .kind = KERNEL_CLEAR, .seed = "-",
		 .summary = "libc memset(dst, 0, len), called directly: the reference",
		 .ref_clear = ref_memset } },
	{ .k = { .name = "memcpy", .kind = KERNEL_COPY, .seed = "-",
		 .summary = "libc memcpy(dst, src, len), called directly: the reference",
		 .ref_copy = ref_memcpy } },
};

#define NKERNELS (sizeof registry / sizeof registry[0])

/* The descriptors' numbers are link-time data, not C constants: copied into
 * the entries once, before anyone looks. */
static void fill(void)
{
	for (size_t i = 0; i < NKERNELS; i++) {
		struct entry *x = &registry[i];

		if (!x->desc) {
			x->k.arch = arena_host_arch();
			continue;
		}
		x->k.size = x->desc->size;
		x->k.loop_start = x->desc->loop_start;
		x->k.loop_end = x->desc->loop_end;
		x->k.fixups = x->desc->fixups;
		x->k.nfixups = x->desc->nfixups;
	}
}

static void init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, fill);
}

size_t kernel_count(void)
{
	return NKERNELS;
}

const struct kernel *kernel_at(size_t i)
{
	init();
	return i < NKERNELS ? &registry[i].k : NULL;
}

const struct kernel *kernel_named(const char *name)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (strcmp(kernel_at(i)->name, name) == 0)
			return kernel_at(i);
	return NULL;
}

/* A kernel image's routines (routine.c) are made at run time: the fault
 * handler knows them from this fixed table, as place/ knows placements. */
#define MAX_ROUTINES 64

static _Atomic(const struct kernel *) routines[MAX_ROUTINES];

int kernel_adopt(const struct kernel *k, struct err *e)
{
	for (size_t i = 0; i < MAX_ROUTINES; i++) {
		const struct kernel *expected = NULL;

		if (atomic_compare_exchange_strong(&routines[i], &expected, k))
			return 0;
	}
	return err_set(e, "more than %d kernel routines at once", MAX_ROUTINES);
}

void kernel_disown(const struct kernel *k)
{
	for (size_t i = 0; i < MAX_ROUTINES; i++) {
		const struct kernel *expected = k;

		atomic_compare_exchange_strong(&routines[i], &expected, NULL);
	}
}

const struct kernel *kernel_from_owner(const void *owner)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (owner == &registry[i].k)
			return &registry[i].k;
	for (size_t i = 0; i < MAX_ROUTINES; i++)
		if (owner && owner == atomic_load(&routines[i]))
			return owner;
	return NULL;
}

const struct kex *kernel_fixup_at(const struct kernel *k, uint32_t offset)
{
	for (size_t i = 0; i < k->nfixups; i++)
		if (k->fixups[i].fault == offset)
			return &k->fixups[i];
	return NULL;
}

unsigned kernels_host_features(void)
{
	unsigned f = 0;
#if defined(__x86_64__)
	unsigned a, b, c, d, max_sub;

	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	max_sub = a;
	if (b & (1u << 9))
		f |= KFEAT_ERMS;
	if (d & (1u << 4))
		f |= KFEAT_FSRM;
	if (max_sub >= 1) {
		__cpuid_count(7, 1, a, b, c, d);
		if (a & (1u << 10))
			f |= KFEAT_FZRM;
		if (a & (1u << 11))
			f |= KFEAT_FSRS;
	}
#endif
	return f;
}

const char *kernel_feature_name(unsigned bit)
{
	switch (bit) {
	case KFEAT_ERMS: return "ERMS";
	case KFEAT_FSRM: return "FSRM";
	case KFEAT_FZRM: return "FZRM";
	case KFEAT_FSRS: return "FSRS";
	default: return "?";
	}
}

const char *kernel_kind_name(enum kernel_kind kind)
{
	static const char *const names[] = { "clear", "copy", "put", "get", "csum" };

	return kind <= KERNEL_CSUM ? names[kind] : "?";
}

int kernel_clone(const struct kernel *k, const char *name, struct kernel *out, struct err *e)
{
	*out = *k;
	out->name = name;
	return kernel_adopt(out, e);
}

void kernel_unclone(struct kernel *k)
{
	kernel_disown(k);
}

int kernel_place(const struct kernel *k, uint32_t offset, struct placement *p,
		 struct err *e)
{
	if (!k->placeable)
		return err_set(e, "%s is libc's and runs where it is: it cannot be placed",
			       k->name);
	if (kernels_install_fault_handler(e))
		return -1;
	if (arena_place(k->code, k->size, offset, k->arch, k, p, e))
		return -1;
	if (arena_register(p, e)) {
		arena_free(p);
		return -1;
	}
	return 0;
}

size_t kernel_run(const struct kernel *k, const struct placement *p, void *dst,
		  const void *src, size_t len)
{
	if (!k->placeable)
		return k->kind == KERNEL_CLEAR ? k->ref_clear(dst, len) : k->ref_copy(dst, src, len);
	if (k->call)
		return routine_run(k, p, dst, src, len);
	/* Placed code is data to C; POSIX lets it be called through a cast. */
	if (k->kind == KERNEL_CLEAR)
		return ((kernel_clear_fn)(uintptr_t)p->code)(dst, len);
	return ((kernel_copy_fn)(uintptr_t)p->code)(dst, src, len);
}
