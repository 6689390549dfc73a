/* The cost model's arithmetic (model/cost.c): the ratio at a placement
 * that `straddle place` will hold a measured one against, and the bound
 * that decides a loop. No llvm-mca here: the back end's cycles are given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model/profile.h"
#include "model/cost.h"

/* a back end known only by its cycles (no chain, no stores) */
#define CYCLES(c) (&(struct back_end){ .cycles = (c) })

static void assert_near(double got, double want)
{
	assert_true(fabs(got - want) < 1e-9);
}

/* zen1 (fetch 16, uop window 64, line 64: every window counts): seed
 * 000's 15-byte loop at 0x3a touches two 16 B windows and two lines where
 * one of each would do. */
static void ratio_at_placements(void **state)
{
	const struct profile *zen1 = profile_named("zen1");
	unsigned w;

	(void)state;
	/* no back end known: two windows fetched against one */
	assert_near(cost_ratio_at(zen1, 0x3a, 15, CYCLES(0), &w), 2.0);
	assert_int_equal(w, 16);
	/* a back end of 1.5 cycles: 2 / 1.5 */
	assert_near(cost_ratio_at(zen1, 0x3a, 15, CYCLES(1.5), &w), 2.0 / 1.5);
	/* 2 cycles or more hide it */
	assert_near(cost_ratio_at(zen1, 0x3a, 15, CYCLES(2.0), &w), 1.0);
	assert_int_equal(w, 16);        /* it still straddles: the window is named */
	/* at its best (the fix's .p2align 4): nothing to price */
	assert_near(cost_ratio_at(zen1, 0x40, 15, CYCLES(0), &w), 1.0);
	assert_int_equal(w, 0);
	/* every offset of a line: 15 B straddles 16 B windows from offset 2
	 * of each 16 on, and the line only from 0x32 */
	for (uint64_t off = 0; off < 64; off++) {
		double r = cost_ratio_at(zen1, 0x1000 + off, 15, CYCLES(1.25), &w);
		bool crosses16 = off % 16 > 1;

		assert_near(r, crosses16 ? 2.0 / 1.25 : 1.0);
		assert_int_equal(w, crosses16 ? 16 : 0);
	}
}

/* zen4 counts 64 B lines only (measured): a 34-byte loop at 0x38 touches
 * two lines, and two 32 B windows as it would anyway. */
static void ratio_windows_of_profile(void **state)
{
	const struct profile *zen4 = profile_named("zen4");
	unsigned w;

	(void)state;
	assert_near(cost_ratio_at(zen4, 0x401038, 34, CYCLES(1.827), &w), 2.0 / 1.827);
	assert_int_equal(w, 64);
	/* a loop of 3 lines at best that touches 4 (0x30..0xc6) */
	assert_near(cost_ratio_at(zen4, 0x30, 150, CYCLES(0), &w), 4.0 / 3.0);
	assert_near(cost_ratio_at(zen4, 0x30, 150, CYCLES(3.5), &w), 4.0 / 3.5);
}

/* goldencove (its evidence): one line more costs a front-end-bound
 * iteration the profile's window_cycles, one a 3-cycle chain bounds its
 * latency_window_cycles, one 8 stores bound nothing (t_cost holds the
 * figures). bounds.c's 35-byte loops at 56 of a line. */
static void ratio_behind_the_back_end(void **state)
{
	const struct profile *gc = profile_named("goldencove");
	struct back_end chain = { .cycles = 3, .mca_cycles = 3, .mca_throughput = 1, .latency = true };
	struct back_end stores = { .cycles = 4, .mca_cycles = 4, .mca_throughput = 4, .nstore = 8 };
	unsigned w;

	(void)state;
	assert_near(cost_ratio_at(gc, 0x1338, 34, CYCLES(1), &w), 1 + gc->window_cycles);
	assert_int_equal(w, 64);
	assert_near(cost_ratio_at(gc, 0x1338, 35, &chain, &w), (3 + gc->latency_window_cycles) / 3);
	assert_near(cost_ratio_at(gc, 0x1438, 36, &stores, &w), 1.0);
	/* at its best the chain pays nothing */
	assert_near(cost_ratio_at(gc, 0x1340, 35, &chain, &w), 1.0);
	/* a chain slower than its windows by far still pays what a chain keeps */
	chain.cycles = chain.mca_cycles = 9;
	assert_near(cost_ratio_at(gc, 0x1338, 35, &chain, &w), (9 + gc->latency_window_cycles) / 9);
}

static void bounds(void **state)
{
	struct back_end b;

	(void)state;
	memset(&b, 0, sizeof b);
	b.cycles = b.mca_cycles = 1.827;
	b.mca_throughput = 1.25;
	assert_int_equal(cost_bound_of(&b, 2), COST_FRONT_END);
	/* the 3-cycle imul chain: the back end says a chain decides */
	b.cycles = b.mca_cycles = 3.15;
	b.mca_throughput = 1.5;
	b.latency = true;
	assert_int_equal(cost_bound_of(&b, 2), COST_LATENCY);
	/* ... a chain through memory */
	b.memory = true;
	assert_int_equal(cost_bound_of(&b, 2), COST_MEMORY);
	b.latency = b.memory = false;
	/* a div, whatever the ratio */
	b.divides = true;
	b.cycles = b.mca_cycles = 17.075;
	b.mca_throughput = 17;
	assert_int_equal(cost_bound_of(&b, 2), COST_DIVIDE);
	/* 8 stores at one a cycle fill the ports */
	memset(&b, 0, sizeof b);
	b.cycles = b.mca_cycles = 8.071;
	b.mca_throughput = 8;
	b.nstore = 8;
	assert_int_equal(cost_bound_of(&b, 2), COST_STORE);
	b.nstore = 2;
	assert_int_equal(cost_bound_of(&b, 2), COST_ISSUE);
	/* the profile's store rate decides */
	memset(&b, 0, sizeof b);
	b.store = b.cycles = 4;
	b.issue = 1.0;
	assert_int_equal(cost_bound_of(&b, 2), COST_STORE);
	/* ... its issue width */
	memset(&b, 0, sizeof b);
	b.issue = b.cycles = 2;
	assert_int_equal(cost_bound_of(&b, 2), COST_ISSUE);
}

/* What the back end's source says of a chain: llvm-mca the program only
 * its cycles well above the ports' (1.5x), the model in process its
 * chain's own cycles when they are the largest. A measured issue width
 * stands for the model's ports, not for its chain. */
static void combined(void **state)
{
	const struct profile *gc = profile_named("goldencove"), *zen5 = profile_named("zen5");
	struct modelled_loop mca = { .cycles = 3.15, .throughput = 1.5, .ok = true,
				     .source = COST_SOURCE_MCA };
	struct modelled_loop model = { .cycles = 3, .throughput = 1.25, .chain = 3, .ok = true,
				       .source = COST_SOURCE_MODEL };
	struct back_end b = { 0 };

	(void)state;
	back_end_combine(gc, 7, &mca, &b);
	assert_true(b.latency);
	assert_int_equal(b.source, COST_SOURCE_MCA);
	memset(&b, 0, sizeof b);
	mca.cycles = 2.0;               /* 1.33x the ports: no chain said */
	back_end_combine(gc, 7, &mca, &b);
	assert_false(b.latency);
	memset(&b, 0, sizeof b);
	back_end_combine(gc, 7, &model, &b);
	assert_true(b.latency);
	assert_near(b.cycles, 3);
	assert_int_equal(b.source, COST_SOURCE_MODEL);
	/* zen5's measured width (10) stands for the ports: the chain stays */
	memset(&b, 0, sizeof b);
	model.cycles = model.throughput = 3.25;
	back_end_combine(zen5, 7, &model, &b);
	assert_near(b.cycles, 3);
	assert_true(b.latency);
	/* a 1-cycle counter under a port bound of 1.25: no chain decides */
	memset(&b, 0, sizeof b);
	model = (struct modelled_loop){ .cycles = 1.25, .throughput = 1.25, .chain = 1, .ok = true,
					.source = COST_SOURCE_MODEL };
	back_end_combine(gc, 5, &model, &b);
	assert_false(b.latency);
	assert_near(b.cycles, 1.25);
	/* not modelled: the profile's bound alone */
	memset(&b, 0, sizeof b);
	back_end_combine(zen5, 10, NULL, &b);
	assert_near(b.cycles, 1);
	assert_int_equal(b.source, COST_SOURCE_PROFILE);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(cost_bound_name(COST_AT_BEST), "at-best");
	assert_string_equal(cost_bound_name(COST_FRONT_END), "front-end");
	assert_string_equal(cost_bound_name(COST_LATENCY), "latency");
	assert_string_equal(cost_bound_name(COST_DIVIDE), "divide");
	assert_string_equal(cost_bound_name(COST_STORE), "store");
	assert_string_equal(cost_bound_name(COST_ISSUE), "issue");
	assert_string_equal(cost_bound_name(COST_LOOP_BUFFER), "loop-buffer");
	assert_string_equal(cost_bound_name(COST_MEMORY), "memory");
	assert_string_equal(cost_source_name(COST_SOURCE_MCA_WIDTH), "llvm-mca-width");
	assert_string_equal(cost_source_name(COST_SOURCE_MODEL), "llvm-model");
}

/* The one-loop back end (what place will ask for a loop it moves), with
 * no llvm-mca: the profile's bound from the loop's own bytes. zen5: 10
 * instructions, 2 stores a cycle. */
static void one_loop_by_profile(void **state)
{
	/* 0: movq %rax,(%rdi) x4; decl %ecx; jnz 0b */
	static const uint8_t st4[] = { 0x48, 0x89, 0x07, 0x48, 0x89, 0x07, 0x48, 0x89, 0x07,
				       0x48, 0x89, 0x07, 0xff, 0xc9, 0x75, 0xf0 };
	struct decoder *d = decoder_new(ARCH_X86_64);
	struct back_end b;
	struct err e = { "" };

	(void)state;
	assert_int_equal(loop_back_end("none", profile_named("zen5"), d, st4, sizeof st4, 0x1000,
				       &b, &e), 0);
	assert_int_equal(b.nstore, 4);
	assert_near(b.store, 2.0);
	assert_near(b.issue, 0.6);
	assert_near(b.cycles, 2.0);
	assert_int_equal(b.source, COST_SOURCE_PROFILE);
	assert_false(b.divides);
	assert_int_equal(cost_bound_of(&b, 2), COST_STORE);
	decoder_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ratio_at_placements),
		cmocka_unit_test(ratio_windows_of_profile),
		cmocka_unit_test(ratio_behind_the_back_end),
		cmocka_unit_test(bounds),
		cmocka_unit_test(combined),
		cmocka_unit_test(names),
		cmocka_unit_test(one_loop_by_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
