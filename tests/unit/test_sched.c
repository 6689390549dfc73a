/* The in-process back end (sched/): what LLVM 19's models say of known
 * bytes, and the bounds throughput.c makes of them. Every figure is
 * LLVM 19.1.7's (Debian's llvm-19-dev): its tables, not a guess; each
 * bound is checked by hand in the comment above it. Needs
 * libstraddle-sched.so (tests.mk gives its path). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "sched/sched.h"

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("got %.6f, want %.6f", got, want);
}

struct loop {
	struct sched_insn insn[32];
	size_t n;
	struct sched_bounds b;
	int rc;
	struct err e;
};

static void bounds_of(const char *mcpu, const uint8_t *code, size_t len, double store_load,
		      struct loop *l)
{
	struct sched_cpu *c = sched_cpu_open(mcpu, ARCH_X86_64, &l->e);

	if (!c)
		fail_msg("%s: %s", mcpu, l->e.msg);
	l->n = sched_describe(c, code, len, 0x1000, l->insn, 32);
	l->rc = sched_loop_bounds(c, l->insn, l->n, store_load, &l->b, &l->e);
	sched_cpu_close(c);
}

/* seed 000's loop (movq $0,(%rdi); add $8,%rdi; dec %ecx; jnz): two
 * 1-cycle chains (rdi, ecx); alderlake's two store ports take its store
 * in half a cycle, its 4 micro-ops dispatch 6 a cycle; znver3's one
 * store unit takes a whole cycle. */
static const uint8_t seed000[] = { 0x48, 0xc7, 0x07, 0, 0, 0, 0, 0x48, 0x83, 0xc7, 0x08,
				   0xff, 0xc9, 0x75, 0xf2 };

static void seed_loop(void **state)
{
	struct loop l;

	(void)state;
	bounds_of("alderlake", seed000, sizeof seed000, -1, &l);
	assert_int_equal(l.rc, 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.insn[0].name, "MOV64mi32");
	assert_int_equal(l.insn[0].len, 7);
	assert_true(l.insn[0].flags & SCHED_STORE);
	assert_int_equal(l.insn[0].mem.base != 0, 1);
	assert_int_equal(l.insn[0].mem.disp, 0);
	assert_true(l.insn[3].flags & SCHED_BRANCH);
	assert_near(l.b.ports, 0.5);
	assert_string_equal(l.b.port, "ADLPPort04_09");
	assert_near(l.b.dispatch, 4.0 / 6);
	assert_near(l.b.chain, 1);
	assert_near(l.b.cycles, 1);
	assert_int_equal(l.b.uops, 4);
	bounds_of("znver3", seed000, sizeof seed000, -1, &l);
	assert_near(l.b.ports, 1);
	assert_string_equal(l.b.port, "Zn3Store");
	assert_near(l.b.retire, 4.0 / 8);     /* znver3 retires 8 a cycle */
	assert_near(l.b.cycles, 1);
}

/* tests/place/bounds.c's chain: imul %rdx,%rdx (3 cycles) decides. */
static const uint8_t imul_chain[] = { 0x48, 0x0f, 0xaf, 0xd2, 0x49, 0xb9, 2, 0, 0, 0, 0, 0, 0, 0,
				      0x49, 0xba, 3, 0, 0, 0, 0, 0, 0, 0, 0x66, 0x0f, 0x1f, 0x44,
				      0, 0, 0x90, 0xff, 0xc9, 0x75, 0xe1 };

static void dependency_chain(void **state)
{
	struct loop l;

	(void)state;
	bounds_of("alderlake", imul_chain, sizeof imul_chain, -1, &l);
	assert_int_equal(l.n, 7);
	assert_near(l.b.chain, 3);
	assert_near(l.b.ports, 1);
	assert_near(l.b.cycles, 3);
	assert_near(l.b.memory_chain, 0);
}

/* A counter kept in memory (mov (%rdi),%rax; add $1,%rax; mov %rax,(%rdi)):
 * a chain through memory of store_load + the add's cycle an iteration,
 * which no register chain shows; without a store-to-load figure (-1),
 * none. */
static const uint8_t memory_counter[] = { 0x48, 0x8b, 0x07, 0x48, 0x83, 0xc0, 0x01, 0x48, 0x89,
					  0x07, 0xff, 0xc9, 0x75, 0xf3 };

static void memory_chain(void **state)
{
	struct loop l;

	(void)state;
	bounds_of("skylake", memory_counter, sizeof memory_counter, 4.43, &l);
	assert_near(l.b.chain, 5.43);
	assert_near(l.b.memory_chain, 5.43);
	assert_near(l.b.cycles, 5.43);
	assert_true(l.insn[0].flags & SCHED_LOAD);
	assert_true(l.insn[2].flags & SCHED_STORE);
	bounds_of("skylake", memory_counter, sizeof memory_counter, -1, &l);
	assert_near(l.b.chain, 1);
	assert_near(l.b.memory_chain, 0);
	/* memory renamed (Golden Cove): the chain through memory is the add's */
	bounds_of("alderlake", memory_counter, sizeof memory_counter, 0, &l);
	assert_near(l.b.chain, 1);
	assert_near(l.b.memory_chain, 1);
}

/* movdqa (%rax),%xmm0 writes XMM0 alone (a legacy SSE write keeps the rest
 * of ZMM0): the pminub/pcmpeqb that follow read the new XMM0, so no chain
 * runs through it from one iteration to the next; rax's add is 1 cycle. */
static const uint8_t partial_write[] = { 0x66, 0x0f, 0x6f, 0x00, 0x66, 0x0f, 0xda, 0x40, 0x10,
					 0x66, 0x0f, 0x74, 0xc3, 0x66, 0x0f, 0xd7, 0xd0, 0x48, 0x83,
					 0xc0, 0x40, 0x85, 0xd2, 0x74, 0xe8 };

static void partial_registers(void **state)
{
	struct loop l;

	(void)state;
	bounds_of("alderlake", partial_write, sizeof partial_write, -1, &l);
	assert_int_equal(l.n, 7);
	assert_int_equal(l.insn[0].write[0].lo, 0);
	assert_int_equal(l.insn[0].write[0].hi, 16);
	assert_near(l.b.chain, 1);
	assert_near(l.b.ports, 1.5);
	assert_near(l.b.cycles, 1.5);
}

/* lock cmpxchg %rcx,(%rdx): one instruction of 5 bytes, as llvm-mca's
 * assembler reads it (LLVM's disassembler gives the prefix apart); its
 * rax in and out is a 12-cycle chain on alderlake. */
static const uint8_t locked[] = { 0xf0, 0x48, 0x0f, 0xb1, 0x0a, 0x75, 0xf9 };

static void lock_prefix(void **state)
{
	struct loop l;

	(void)state;
	bounds_of("alderlake", locked, sizeof locked, -1, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.insn[0].name, "CMPXCHG64rm");
	assert_int_equal(l.insn[0].len, 5);
	assert_near(l.b.chain, 12);
}

/* What the models cannot price says so: rep stosq (no model holds a
 * string instruction), and a divide is flagged as one. */
static const uint8_t rep_stos[] = { 0xf3, 0x48, 0xab, 0xff, 0xc9, 0x75, 0xf9 };
static const uint8_t divide[] = { 0x48, 0xf7, 0xf1, 0xff, 0xc9, 0x75, 0xf9 };

static void refused_and_flagged(void **state)
{
	struct loop l;

	(void)state;
	bounds_of("znver3", rep_stos, sizeof rep_stos, -1, &l);
	assert_int_equal(l.rc, -1);
	assert_true(l.insn[0].flags & SCHED_STRING);
	assert_string_equal(l.e.msg, "STOSQ: a string instruction, which no model holds");
	bounds_of("znver3", divide, sizeof divide, -1, &l);
	assert_true(l.insn[0].flags & SCHED_DIVIDE);
	assert_near(l.b.chain, 17);
	assert_near(l.b.ports, 17);
	assert_string_equal(l.b.port, "Zn3ALU0");
}

static void bad_cpu(void **state)
{
	struct err e = { "" };

	(void)state;
	assert_null(sched_cpu_open("no-such-cpu", ARCH_X86_64, &e));
	assert_string_equal(e.msg, "LLVM does not know the CPU no-such-cpu");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_loop),
		cmocka_unit_test(dependency_chain),
		cmocka_unit_test(memory_chain),
		cmocka_unit_test(partial_registers),
		cmocka_unit_test(lock_prefix),
		cmocka_unit_test(refused_and_flagged),
		cmocka_unit_test(bad_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
