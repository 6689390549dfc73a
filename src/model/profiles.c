/* The profiles: data, with the source of every number. A number nobody has
 * measured says so. */
#include "profile.h"
#include "host.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const unsigned model_windows[MODEL_NWINDOWS] = { 16, 32, 64 };

/* Designated initializers: a field left out is 0 (no uop-cache window, no
 * branch rule, no loop buffer, the default straddle windows). */
static const struct profile profiles[] = {
	{ .name = "generic-x86", .arch = ARCH_X86_64, .cpus = "any x86-64",
	  .fetch = 16, .line = 64,
	  .evidence = "conservative: 16 B legacy fetch and 64 B lines are common to every x86-64 core" },
	{ .name = "haswell", .arch = ARCH_X86_64, .cpus = "Intel HSW, BDW",
	  .fetch = 16, .uop_window = 32, .line = 64, .loop_buffer = 28,
	  .evidence = "fetch 16 B, DSB window 32 B: Intel Optimization Manual 2.4; LSD 56 uops (28 per "
		      "thread): same; seed 000: HSW/BDW unaffected, loop runs from the LSD; a store to a "
		      "load of the same address 5.25 cycles (i7-4770, uarch-bench fw_write_read, "
		      "T. Downs 2020)",
	  .store_load_cycles = 5.25, .store_load_measured = true },
	{ .name = "skylake", .arch = ARCH_X86_64, .cpus = "Intel SKL, SKX, KBL, CFL, CML, CLX",
	  .fetch = 16, .uop_window = 32,
	  .line = 64, .branch_rule = BRANCH_RULE_JCC_ERRATUM, .branch_window = 32,
	  .evidence = "fetch 16 B, DSB window 32 B: Intel Optimization Manual 2.3; JCC erratum: Intel, "
		      "'Mitigations for Jump Conditional Code Erratum' (2019); LSD disabled by microcode "
		      "(SKL150) except on CLX: not modelled; a store to a load of the same address 4.43 "
		      "cycles (i7-6700HQ, uarch-bench fw_write_read, T. Downs 2020)",
	  .store_load_cycles = 4.43, .store_load_measured = true },
	{ .name = "icelake", .arch = ARCH_X86_64, .cpus = "Intel ICL, TGL, RKL",
	  .fetch = 16, .uop_window = 64, .line = 64, .loop_buffer = 35,
	  .evidence = "fetch 16 B, DSB 64 B window: uiCA (Abel and Reineke 2022); LSD size unverified; a "
		      "store to a load of the same address 0.58 cycle, memory renaming (i5-1035, "
		      "uarch-bench fw_write_read, T. Downs 2020)",
	  .store_load_cycles = 0.58, .store_load_measured = true },
	{ .name = "goldencove", .arch = ARCH_X86_64, .cpus = "Intel ADL-P, RPL-P, SPR, EMR",
	  .fetch = 32, .uop_window = 64, .line = 64,
	  .branch_rule = BRANCH_RULE_PAIR_CROSSES, .branch_window = 64, .straddle_windows = { 64 },
	  .evidence = "fetch 32 B, DSB 64 B window: Intel Optimization Manual 2.1. Only 64 B "
		      "straddles count: across a 32 B fetch window no cost either way, and no loop "
		      "buffer hides a line (straddle sweep clear_movq_imm, EMR). Each price is the "
		      "median of three sessions on EMR guests (family 6 model 207; doc/uarch.md has "
		      "each), for the host decides it: calibrate a host to price from what it pays. "
		      "A line more costs a 1-cycle loop 0.03 cycle an iteration (2026-12-02: 0.35, "
		      "tests/place/bounds.c fe moved 1.30x-1.42x; 12-04: 0.02-0.05, Debian 6.1's "
		      "clear_user_original swept 1.02x-1.05x; 12-05: 0.01-0.02, four 1-cycle loops "
		      "swept 1.011x-1.019x; a model 0xa7 guest: 0.05, seed 000's clear.c 1.044x-1.064x). "
		      "A branch of the loop's fused pair across the line adds a bubble of 0.75 cycle "
		      "(the loop 1.81x-1.92x on 12-02: bounds pair, clear.c, the sweep; 1.73x-1.82x on "
		      "12-04: clear_user_original; 1.76x on 12-05); the line between the pair's two "
		      "instructions 0.03 (1.06x-1.25x on 12-02, 1.034x on 12-05). A 3-cycle imul chain "
		      "hides the bubble (bounds pairchain) and keeps 0.03 cycle of a line (1.064x-1.069x "
		      "on 12-02, nothing on 12-05). cut's 186 B loop (coreutils 9.1) ran 8-9% faster "
		      "with its 4 lines and the pair whole. A store's data reaches a load of the same "
		      "address at no cost (memory renaming): a counter kept in memory (mov (%rdi),%rax; "
		      "add $1,%rax; mov %rax,(%rdi)) runs at 1.00 cycle an iteration, its add's, against "
		      "a 3-cycle imul chain (12-05, three runs, load 1.7)",
	  .window_cycles = 0.03, .latency_window_cycles = 0.03, .branch_cycles = 0.75,
	  .split_cycles = 0.03, .store_load_measured = true },
	{ .name = "zen1", .arch = ARCH_X86_64, .cpus = "AMD family 17h models 00h-2Fh",
	  .fetch = 16, .uop_window = 64, .line = 64,
	  .evidence = "fetch 16 B, op cache 64 B lines: AMD SOG for family 17h 2.8; seed 000: -40% "
		      "pread_z100k when the 15-byte loop straddled 16 B and 64 B" },
	{ .name = "zen2", .arch = ARCH_X86_64, .cpus = "AMD family 17h models 30h-FFh",
	  .fetch = 32, .uop_window = 64, .line = 64,
	  .evidence = "fetch 32 B: AMD SOG for family 17h models 30h+; unverified here; a store to a load "
		      "of the same address 1.0 cycle, memory renaming (EPYC 7262, uarch-bench "
		      "fw_write_read, T. Downs 2020)",
	  .store_load_cycles = 1.0, .store_load_measured = true },
	{ .name = "zen3", .arch = ARCH_X86_64, .cpus = "AMD family 19h models 00h-0Fh, 20h-5Fh",
	  .fetch = 32, .uop_window = 64, .line = 64,
	  .evidence = "fetch 32 B: AMD SOG for family 19h; unverified here" },
	{ .name = "zen4", .arch = ARCH_X86_64, .cpus = "AMD family 19h models 10h-1Fh, 60h-7Fh, A0h-AFh",
	  .fetch = 32, .uop_window = 64,
	  .line = 64, .straddle_windows = { 64 }, .straddle_measured = true,
	  .evidence = "fetch 32 B: AMD SOG for family 19h. Measured on family 19h model 11h by make run's "
		      "straddle sweep: clear_movq_imm 1.55x at the 14 offsets where its "
		      "15-byte loop crosses a 64 B line, clear_movq_reg 1.96x at its 9, no other offset "
		      "slow: only 64 B straddles count, and no loop buffer hides these 4-instruction "
		      "loops (the 36-op loop buffer this profile had from the SOG hid both). Branch "
		      "rules unverified" },
	{ .name = "zen5", .arch = ARCH_X86_64, .cpus = "AMD family 1Ah",
	  .fetch = 32, .uop_window = 64,
	  .line = 64, .straddle_windows = { 64 }, .straddle_measured = true,
	  .issue_width = 10, .stores_per_cycle = 2,
	  .evidence = "fetch 32 B: AMD SOG for family 1Ah. Measured on family 1Ah model 02h (a KVM "
		      "guest, its host loaded) by straddle calibrate --quick: a loop across a 64 B line "
		      "1.20x [1.19, 1.20] (seed 000's 10-byte store loop the most), across 16 or 32 B "
		      "no effect, no branch or fused pair rule, no loop buffer hiding 4-instruction "
		      "loops; straddle sweep clear_movq_imm: the 14 offsets across the line 1.17x to "
		      "1.31x. A 30 s calibrate under heavier load saw 1.02x: the size of the cost "
		      "moves with the load, its place does not. Compared at the floor (10th "
		      "percentile, 2026-12-01): the 14 offsets across the line 1.14x and no other "
		      "offset slow in 5 of 7 sweeps of clear_movq_imm (one, before placements moved "
		      "to fresh mappings, also marked 6 offsets stuck in the slow state; one ran 1.8x "
		      "slow everywhere under a compile on the other vCPU); a 60 s calibrate claimed "
		      "the 64 B line only. The back end hides a straddle (calibrate --quick, quiet, "
		      "2026-12-01): 2 stores a cycle (loops of 2 stores paid 1.14x across the line, "
		      "of 4 and 8 nothing, their floors 1.9x and 3.8x a 1-cycle loop's), 10 "
		      "instructions a cycle the largest width its nop loops allow (11 paid, 20 did "
		      "not); copy_unrolled's 80-byte loop (8 stores) paid nothing for a third line, "
		      "quiet, and 1.08x with the other vCPU busy. One line more: 0.15 cycle an "
		      "iteration, the 1.14x (floor) to 1.20x (median) of seed 000's loop, whose back "
		      "end is 1 cycle" ,
	  .window_cycles = 0.15 },
	{ .name = "generic-arm64", .arch = ARCH_AARCH64, .cpus = "any AArch64",
	  .fetch = 16, .line = 64,
	  .evidence = "conservative: 16 B (4 instructions) fetch, 64 B lines" },
	{ .name = "hip08", .arch = ARCH_AARCH64, .cpus = "HiSilicon TSV110 (Kunpeng 920)",
	  .fetch = 32, .line = 64,
	  .evidence = "seed 002: fetches 32 B (8 instructions) aligned; L1-icache loads doubled when the "
		      "clear_user loop was not 32 B aligned" },
	{ .name = "neoverse-n1", .arch = ARCH_AARCH64, .cpus = "Arm Neoverse N1",
	  .fetch = 32, .line = 64,
	  .evidence = "32 B fetch: Neoverse N1 Software Optimization Guide; GCC aligns loops to 32 "
		      "for it" },
	{ .name = "neoverse-v1", .arch = ARCH_AARCH64, .cpus = "Arm Neoverse V1",
	  .fetch = 32, .line = 64,
	  .evidence = "32 B fetch: Neoverse V1 Software Optimization Guide; unverified here" },
	{ .name = "neoverse-n2", .arch = ARCH_AARCH64, .cpus = "Arm Neoverse N2",
	  .fetch = 32, .line = 64,
	  .evidence = "32 B fetch: Neoverse N2 Software Optimization Guide; unverified here" },
};

size_t profile_count(void)
{
	return sizeof profiles / sizeof profiles[0];
}

const struct profile *profile_at(size_t i)
{
	return i < profile_count() ? &profiles[i] : NULL;
}

const struct profile *profile_named(const char *name)
{
	for (size_t i = 0; i < profile_count(); i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

void profile_prices_from_base(struct profile *p)
{
	const struct profile *b = p->base ? profile_named(p->base) : NULL;

	if (!b)
		return;
	if (p->branch_cycles <= 0)
		p->branch_cycles = b->branch_cycles;
	if (p->split_cycles <= 0)
		p->split_cycles = b->split_cycles;
	if (!p->store_load_measured) {
		p->store_load_cycles = b->store_load_cycles;
		p->store_load_measured = b->store_load_measured;
	}
}

const char *branch_rule_name(enum branch_rule r)
{
	switch (r) {
	case BRANCH_RULE_JCC_ERRATUM: return "jcc-erratum: branch or fused pair crossing or ending on 32";
	case BRANCH_RULE_PAIR_CROSSES: return "branch or fused pair crossing 64";
	default: return "-";
	}
}

size_t profile_straddle_windows(const struct profile *p, unsigned out[3])
{
	unsigned all[3] = { p->fetch, p->uop_window, p->line };
	const unsigned *w = p->straddle_windows[0] || p->straddle_measured ?
			    p->straddle_windows : all;
	size_t n = 0;

	for (int i = 0; i < 3; i++) {
		bool repeat = false;

		for (size_t j = 0; j < n; j++)
			repeat |= out[j] == w[i];
		if (w[i] && !repeat)
			out[n++] = w[i];
	}
	return n;
}

const char *branch_rule_id(enum branch_rule r)
{
	switch (r) {
	case BRANCH_RULE_JCC_ERRATUM: return "jcc-erratum";
	case BRANCH_RULE_PAIR_CROSSES: return "pair-crosses";
	default: return "none";
	}
}

int branch_rule_from_id(const char *id)
{
	for (int r = BRANCH_RULE_NONE; r <= BRANCH_RULE_PAIR_CROSSES; r++)
		if (strcmp(branch_rule_id((enum branch_rule)r), id) == 0)
			return r;
	return -1;
}

/* ---- selecting profiles ---- */

int host_profile_path(const struct host *h, char *buf, size_t n, struct err *e)
{
	char rel[128];

	snprintf(rel, sizeof rel, "profiles/%s-%x-%x-%x.json", h->vendor, h->family, h->model,
		 h->stepping);
	return data_path(buf, n, "profile's", rel, e);
}

static int add(const struct profile *p, const struct profile **out, size_t max, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i] == p)
			return 0;
	if (*n >= max)
		return -1;
	out[(*n)++] = p;
	return 0;
}

static const struct profile *generic(void)
{
#if defined(__aarch64__)
	return profile_named("generic-arm64");
#else
	return profile_named("generic-x86");
#endif
}

/* This CPU: its calibrated file, else its built-in match, else generic. */
static const struct profile *host_profile(profile_loader load, char *why, size_t why_len,
					  struct err *e)
{
	struct host h;
	char path[PATH_MAX];
	struct err none;

	host_detect(&h);
	if (load && host_profile_path(&h, path, sizeof path, &none) == 0 &&
	    access(path, F_OK) == 0) {
		const struct profile *p = load(path, e);

		if (p)
			snprintf(why, why_len, "host: %s, calibrated %s", h.why, path);
		return p;
	}
	if (h.profile) {
		snprintf(why, why_len, "host: %s", h.why);
		return h.profile;
	}
	snprintf(why, why_len, "host: %s not in the table, using %s", h.why, generic()->name);
	return generic();
}

static bool is_file(const char *tok)
{
	size_t n = strlen(tok);

	return strchr(tok, '/') || (n > 5 && strcmp(tok + n - 5, ".json") == 0);
}

static int select_one(const char *tok, profile_loader load, const struct profile **out,
		      size_t max, size_t *n, char *why, size_t why_len, struct err *e)
{
	const struct profile *p;

	if (strcmp(tok, "all") == 0) {
		for (size_t i = 0; i < profile_count(); i++)
			add(profile_at(i), out, max, n);
		return 0;
	}
	if (strcmp(tok, "host") == 0)
		p = host_profile(load, why, why_len, e);
	else if (is_file(tok))
		p = load ? load(tok, e) : NULL;
	else if (!(p = profile_named(tok)))
		err_set(e, "--uarch: no profile named '%s' (see 'straddle uarch')", tok);
	if (!p)
		return -1;
	if (add(p, out, max, n))
		return err_set(e, "--uarch: more than %zu profiles", max);
	return 0;
}

int profile_select(const char *spec, profile_loader load, const struct profile **out,
		   size_t max, size_t *n, char *why, size_t why_len, struct err *e)
{
	char *copy = xstrdup(spec), *save = NULL;
	int rc = 0;

	*n = 0;
	why[0] = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save))
		rc = select_one(tok, load, out, max, n, why, why_len, e);
	if (rc == 0 && *n == 0)
		rc = err_set(e, "--uarch: no profile given");
	free(copy);
	return rc;
}
