/* A kernel image's routine (relocate/kernel.c, kernels/routine.c) on the
 * fixture FIXTURES/kernel/kvmlinux (tests/fixtures/kernel/kvmlinux.S):
 * the copy's bytes where the kernel's conventions were made user-space,
 * the exception table as the fault handler applies it, and the count a
 * placed copy returns at every position of a fault, written out here
 * from the routines' source rather than from check.c's contract. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernels/kernels.h"

#define BASE 0xffffffff81000000ull

static struct routine *open_routine(const char *func, const char *call, const char *alt)
{
	static char path[4096];
	const char *alts[1] = { alt };
	struct routine_opts o = { path, func, call, NULL, NULL, alts, alt ? 1 : 0 };
	struct routine *rt;
	struct err e = { "" };

	snprintf(path, sizeof path, "%s/kernel/kvmlinux", getenv("FIXTURES"));
	if (routine_open(&o, &rt, &e))
		fail_msg("%s", e.msg);
	return rt;
}

static int32_t le32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			 (uint32_t)p[3] << 24);
}

/* clear_user_original: 70 bytes from its entry; __fentry__'s call a
 * 5-byte nop, the return thunk's jump "ret; int3 x4" (apply_returns). */
static void edits_are_the_kernels_own(void **state)
{
	struct routine *rt = open_routine("clear_user_original", NULL, NULL);
	static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	static const uint8_t ret[] = { 0xc3, 0xcc, 0xcc, 0xcc, 0xcc };

	assert_int_equal(rt->r.base, BASE);
	assert_int_equal(rt->k.size, 70);
	assert_int_equal(rt->k.entry, 0);
	assert_string_equal(rt->r.release, "9.9.0-fixture");
	assert_memory_equal(rt->code, nop5, 5);
	assert_memory_equal(rt->code + 0x31, ret, 5);
	/* the rest is the file's */
	assert_memory_equal(rt->code + 5, rt->r.code + 5, 0x31 - 5);
	assert_int_equal(rt->k.loop_start, 0x10);
	assert_int_equal(rt->k.loop_end, 0x20);
	assert_int_equal(rt->r.nloop, 2);
	routine_free(rt);

	/* call __x86_indirect_thunk_r11 -> call *%r11 (41 ff d3) and a 2-byte nop */
	rt = open_routine("fx_retpoline", "csum,src=rdi,len=rsi,ret=rax", NULL);
	static const uint8_t call_r11[] = { 0x41, 0xff, 0xd3, 0x66, 0x90 };
	assert_memory_equal(rt->code + 3, call_r11, 5);
	assert_int_equal(rt->r.edit[0].kind, KEDIT_CALL_REG);
	assert_int_equal(rt->r.edit[0].reg, 11);
	routine_free(rt);

	/* a static call whose trampoline returns: a nop */
	rt = open_routine("fx_static", "csum,src=rdi,len=rsi,ret=rax", NULL);
	assert_memory_equal(rt->code, nop5, 5);
	routine_free(rt);
}

/* memset's ERMS replacement, a jmp rel32 in .altinstr_replacement, re-aimed
 * from the site: the copy's jump lands on memset_erms, 0x10 on. */
static void alternative_is_relocated(void **state)
{
	struct routine *rt = open_routine("memset", NULL, NULL);

	/* the file's bytes: jmp memset_orig (0x130 - 0x105) */
	assert_int_equal(rt->code[0], 0xe9);
	assert_int_equal(le32(rt->code + 1), 0x130 - 0x105);
	assert_int_equal(rt->r.nalt, 1);
	assert_false(rt->r.alt[0].applied);
	routine_free(rt);
	rt = open_routine("memset", NULL, "ERMS");
	assert_int_equal(rt->code[0], 0xe9);
	assert_int_equal(le32(rt->code + 1), 0x110 - 0x105);
	assert_true(rt->r.alt[0].applied);
	assert_string_equal(rt->r.alt[0].repl_text, "jmp memset_erms");
	/* it reaches memset_erms now, and not memset_orig's loop */
	assert_int_equal(rt->r.nloop, 0);
	routine_free(rt);
}

/* The entries as the kernel's handlers read them. */
static void exception_types(void **state)
{
	struct routine *rt = open_routine("__put_user_2", NULL, NULL);

	assert_int_equal(rt->r.nex, 1);
	assert_int_equal(rt->r.ex[0].kind, KEX_IMM_REG);
	assert_int_equal(rt->r.ex[0].reg, 1);           /* rcx */
	assert_int_equal(rt->r.ex[0].imm, -14);         /* -EFAULT */
	routine_free(rt);
	rt = open_routine("__get_user_8", NULL, NULL);
	assert_int_equal(rt->r.ex[0].kind, KEX_IMM_REG);
	assert_int_equal(rt->r.ex[0].reg, 0);
	assert_int_equal(rt->r.ex[0].flags, KEX_CLEAR_DX);
	routine_free(rt);
	rt = open_routine("fx_clear_len", "clear,dst=rdi,len=rcx,ret=rcx,granule=8", NULL);
	assert_int_equal(rt->r.ex[0].kind, KEX_UCOPY_LEN);
	assert_int_equal(rt->r.ex[0].reg, 2);           /* rdx */
	assert_int_equal(rt->r.ex[0].imm, 8);
	assert_int_equal(rt->r.ex[1].kind, KEX_JUMP);
	routine_free(rt);
	rt = open_routine("fx_copy_string", "copy,dst=rdi,src=rsi,len=rdx,ret=rax", NULL);
	/* its own two and the unnamed tail's: the copy runs on past its symbol */
	assert_int_equal(rt->r.nex, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(rt->r.ex[i].kind, KEX_FAULT_AX);
		assert_int_equal(rt->r.ex[i].imm, 14);  /* X86_TRAP_PF */
		assert_int_equal(rt->r.ex[i].type, 4);  /* EX_TYPE_COPY */
	}
	routine_free(rt);
}

/* [rw page | PROT_NONE page]: the first byte of the second. */
static uint8_t *edge(void)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	return m + page;
}

/* A clear of 130 bytes starting k before the edge, at every k: 6.1's
 * clear_user_original counts whole 8-byte stores while 8 bytes are left
 * (16 of them here), then bytes: 130 - (k < 128 ? k & ~7 : k) left. */
static void clear_counts_at_every_position(void)
{
	static struct placement p;
	struct routine *rt = open_routine("clear_user_original", NULL, NULL);
	uint8_t *end = edge(), src[8] = { 0 };
	struct err e;

	assert_int_equal(kernel_place(&rt->k, 7, &p, &e), 0);
	for (size_t k = 0; k <= 130; k++) {
		size_t left = kernel_run(&rt->k, &p, end - k, src, 130);
		size_t want = 130 - (k < 128 ? k & ~(size_t)7 : k);

		if (left != want)
			fail_msg("clear 130 bytes, %zu before the edge: %zu left, want %zu", k, left,
				 want);
	}
	/* seed 001's case: 66 before the page */
	assert_int_equal(kernel_run(&rt->k, &p, end - 66, src, 130), 66);
	arena_free(&p);
	routine_free(rt);
}

/* A copy whose source ends k bytes in, at every k: fx_copy_string's
 * fixups (COPY: rax = 14) end in a byte tail, so exactly k are copied. */
static void copy_counts_at_every_position(void)
{
	static struct placement p;
	struct routine *rt = open_routine("fx_copy_string", "copy,dst=rdi,src=rsi,len=rdx,ret=rax",
					  NULL);
	uint8_t *end = edge(), dst[256];
	struct err e;

	assert_int_equal(kernel_place(&rt->k, 33, &p, &e), 0);
	for (size_t k = 0; k <= 130; k++) {
		memset(end - 130, (int)k, 130);
		memset(dst, 0xee, sizeof dst);
		size_t left = kernel_run(&rt->k, &p, dst, end - k, 130);

		if (left != 130 - k)
			fail_msg("copy 130 bytes, source %zu before the edge: %zu left, want %zu", k,
				 left, 130 - k);
		for (size_t i = 0; i < sizeof dst; i++)
			assert_int_equal(dst[i], i < k ? (uint8_t)k : 0xee);
	}
	arena_free(&p);
	routine_free(rt);
}

/* put_user of 2 bytes: -EFAULT (as 2 bytes left) with one byte before the
 * edge, and nothing written; get_user: -EFAULT and rdx cleared (then no
 * byte is stored to dst). */
static void access_counts(void)
{
	static struct placement p, q;
	struct routine *put = open_routine("__put_user_2", NULL, NULL);
	struct routine *get = open_routine("__get_user_8", NULL, NULL);
	uint8_t *end = edge(), v[8] = { 0x34, 0x12 }, out[8];
	struct err e;

	assert_int_equal(kernel_place(&put->k, 0, &p, &e), 0);
	assert_int_equal(kernel_place(&get->k, 0, &q, &e), 0);
	end[-1] = 0x55;
	assert_int_equal(kernel_run(&put->k, &p, end - 1, v, 2), 2);
	assert_int_equal(end[-1], 0x55);
	assert_int_equal(kernel_run(&put->k, &p, end - 2, v, 2), 0);
	assert_int_equal(end[-2], 0x34);
	assert_int_equal(end[-1], 0x12);
	memset(out, 0xee, sizeof out);
	assert_int_equal(kernel_run(&get->k, &q, out, end - 7, 8), 8);
	assert_int_equal(out[0], 0xee);
	assert_int_equal(kernel_run(&get->k, &q, out, end - 8, 8), 0);
	assert_int_equal(out[6], 0x34);
	arena_free(&p);
	arena_free(&q);
	routine_free(put);
	routine_free(get);
}

/* A fault the table does not list: an oops, with where, not a crash. */
static void unlisted_fault_is_an_oops(void)
{
	static struct placement p;
	struct routine *rt = open_routine("fx_oops", "clear,dst=rdi,len=rcx,ret=rcx", NULL);
	uint8_t *end = edge();
	struct kernel_oops oops;
	struct err e;
	size_t left;

	assert_int_equal(kernel_place(&rt->k, 0, &p, &e), 0);
	assert_int_equal(kernel_run_guarded(&rt->k, &p, end - 3, NULL, 16, &left, &oops), -1);
	assert_int_equal(oops.offset, 0x8);             /* movq $0,(%rdi) */
	assert_ptr_equal((void *)oops.addr, end);        /* the unmapped page it reached */
	/* the byte loop's entry is listed: 3 bytes cleared, 2 left */
	assert_int_equal(kernel_run_guarded(&rt->k, &p, end - 3, NULL, 5, &left, &oops), 0);
	assert_int_equal(left, 2);
	arena_free(&p);
	routine_free(rt);
}

/* One test: cmocka installs its own SIGSEGV handler around each test,
 * over the fault handler kernel_place installed once for the process. */
static void fault_counts(void **state)
{
	clear_counts_at_every_position();
	copy_counts_at_every_position();
	access_counts();
	unlisted_fault_is_an_oops();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edits_are_the_kernels_own),
		cmocka_unit_test(alternative_is_relocated),
		cmocka_unit_test(exception_types),
		cmocka_unit_test(fault_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
