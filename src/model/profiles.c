/* The profiles: data, with the source of every number. A number nobody has
 * measured says so (DESIGN, hazard model). */
#include "model.h"

#include <string.h>

static const struct profile profiles[] = {
	{ "generic-x86", ARCH_X86_64, "any x86-64", 16, 0, 64, BRANCH_RULE_NONE, 0, 0,
	  "conservative: 16 B legacy fetch and 64 B lines are common to every x86-64 core", { 0 } },
	{ "haswell", ARCH_X86_64, "Intel HSW, BDW", 16, 32, 64, BRANCH_RULE_NONE, 0, 28,
	  "fetch 16 B, DSB window 32 B: Intel Optimization Manual 2.4; LSD 56 uops (28 per "
	  "thread): same; seed 000: HSW/BDW unaffected, loop runs from the LSD", { 0 } },
	{ "skylake", ARCH_X86_64, "Intel SKL, SKX, KBL, CFL, CML, CLX", 16, 32, 64,
	  BRANCH_RULE_JCC_ERRATUM, 32, 0,
	  "fetch 16 B, DSB window 32 B: Intel Optimization Manual 2.3; JCC erratum: Intel, "
	  "'Mitigations for Jump Conditional Code Erratum' (2019); LSD disabled by microcode "
	  "(SKL150) except on CLX: not modelled", { 0 } },
	{ "icelake", ARCH_X86_64, "Intel ICL, TGL, RKL", 16, 64, 64, BRANCH_RULE_NONE, 0, 35,
	  "fetch 16 B, DSB 64 B window: uiCA (Abel and Reineke 2022); LSD size unverified", { 0 } },
	{ "goldencove", ARCH_X86_64, "Intel ADL-P, RPL-P, SPR, EMR", 32, 64, 64,
	  BRANCH_RULE_PAIR_CROSSES, 64, 0,
	  "fetch 32 B, DSB 64 B window: Intel Optimization Manual 2.1. Measured on EMR "
	  "(family 6 model 207) with straddle sweep clear_movq_imm, 4 KiB: decl or jnz across "
	  "a 64 B line 1.92x, the line between them 1.13x; the loop across a line 1.04x on a "
	  "quiet KVM guest, 1.50x while its core was shared (every time 1.8x, the other vCPU "
	  "compiling); across a 32 B fetch window no cost either way: only 64 B straddles "
	  "count, and no loop buffer hides them", { 64 } },
	{ "zen1", ARCH_X86_64, "AMD family 17h models 00h-2Fh", 16, 64, 64, BRANCH_RULE_NONE, 0, 0,
	  "fetch 16 B, op cache 64 B lines: AMD SOG for family 17h 2.8; seed 000: -40% "
	  "pread_z100k when the 15-byte loop straddled 16 B and 64 B", { 0 } },
	{ "zen2", ARCH_X86_64, "AMD family 17h models 30h-FFh", 32, 64, 64, BRANCH_RULE_NONE, 0, 0,
	  "fetch 32 B: AMD SOG for family 17h models 30h+; unverified here", { 0 } },
	{ "zen3", ARCH_X86_64, "AMD family 19h models 00h-0Fh, 20h-5Fh", 32, 64, 64,
	  BRANCH_RULE_NONE, 0, 0, "fetch 32 B: AMD SOG for family 19h; unverified here", { 0 } },
	{ "zen4", ARCH_X86_64, "AMD family 19h models 10h-1Fh, 60h-7Fh, A0h-AFh", 32, 64, 64,
	  BRANCH_RULE_NONE, 0, 36,
	  "fetch 32 B: AMD SOG for family 19h; op-cache loop buffer: AMD SOG; its size "
	  "unverified", { 0 } },
	{ "zen5", ARCH_X86_64, "AMD family 1Ah", 32, 64, 64, BRANCH_RULE_NONE, 0, 0,
	  "fetch 32 B: AMD SOG for family 1Ah; unverified here", { 0 } },
	{ "generic-arm64", ARCH_AARCH64, "any AArch64", 16, 0, 64, BRANCH_RULE_NONE, 0, 0,
	  "conservative: 16 B (4 instructions) fetch, 64 B lines", { 0 } },
	{ "hip08", ARCH_AARCH64, "HiSilicon TSV110 (Kunpeng 920)", 32, 0, 64, BRANCH_RULE_NONE, 0, 0,
	  "seed 002: fetches 32 B (8 instructions) aligned; L1-icache loads doubled when the "
	  "clear_user loop was not 32 B aligned", { 0 } },
	{ "neoverse-n1", ARCH_AARCH64, "Arm Neoverse N1", 32, 0, 64, BRANCH_RULE_NONE, 0, 0,
	  "32 B fetch: Neoverse N1 Software Optimization Guide; GCC aligns loops to 32 "
	  "for it", { 0 } },
	{ "neoverse-v1", ARCH_AARCH64, "Arm Neoverse V1", 32, 0, 64, BRANCH_RULE_NONE, 0, 0,
	  "32 B fetch: Neoverse V1 Software Optimization Guide; unverified here", { 0 } },
	{ "neoverse-n2", ARCH_AARCH64, "Arm Neoverse N2", 32, 0, 64, BRANCH_RULE_NONE, 0, 0,
	  "32 B fetch: Neoverse N2 Software Optimization Guide; unverified here", { 0 } },
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
	const unsigned *w = p->straddle_windows[0] ? p->straddle_windows : all;
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
