/* Which CPU is this, and which profile fits it. x86: cpuid family/model
 * (Intel SDM vol. 4 table 2-1 for Intel models; AMD's family 17h/19h/1Ah
 * model ranges). AArch64: MIDR_EL1 implementer and part number. */
#include "profile.h"
#include "host.h"

#include <stdio.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

struct intel_model {
	unsigned model;
	const char *profile;
};

static const struct intel_model intel_models[] = {
	{ 0x3c, "haswell" }, { 0x3f, "haswell" }, { 0x45, "haswell" }, { 0x46, "haswell" },
	{ 0x3d, "haswell" }, { 0x47, "haswell" }, { 0x4f, "haswell" }, { 0x56, "haswell" },
	{ 0x4e, "skylake" }, { 0x5e, "skylake" }, { 0x55, "skylake" }, { 0x8e, "skylake" },
	{ 0x9e, "skylake" }, { 0xa5, "skylake" }, { 0xa6, "skylake" },
	{ 0x7d, "icelake" }, { 0x7e, "icelake" }, { 0x6a, "icelake" }, { 0x6c, "icelake" },
	{ 0x8c, "icelake" }, { 0x8d, "icelake" }, { 0xa7, "icelake" },
	{ 0x97, "goldencove" }, { 0x9a, "goldencove" }, { 0xb7, "goldencove" },
	{ 0xba, "goldencove" }, { 0xbf, "goldencove" }, { 0x8f, "goldencove" },
	{ 0xcf, "goldencove" },
};

const struct profile *profile_for_x86(const char *vendor, unsigned family, unsigned model)
{
	if (strcmp(vendor, "GenuineIntel") == 0 && family == 6) {
		for (size_t i = 0; i < sizeof intel_models / sizeof intel_models[0]; i++)
			if (intel_models[i].model == model)
				return profile_named(intel_models[i].profile);
		return NULL;
	}
	if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
		if (family == 0x17)
			return profile_named(model < 0x30 ? "zen1" : "zen2");
		if (family == 0x19)
			return profile_named((model >= 0x10 && model <= 0x1f) ||
					     (model >= 0x60 && model <= 0x7f) ||
					     (model >= 0xa0 && model <= 0xaf) ? "zen4" : "zen3");
		if (family == 0x1a)
			return profile_named("zen5");
	}
	return NULL;
}

const struct profile *profile_for_midr(uint32_t midr)
{
	unsigned implementer = midr >> 24, part = (midr >> 4) & 0xfff;

	if (implementer == 0x48 && part == 0xd01)
		return profile_named("hip08");
	if (implementer == 0x41 && part == 0xd0c)
		return profile_named("neoverse-n1");
	if (implementer == 0x41 && part == 0xd40)
		return profile_named("neoverse-v1");
	if (implementer == 0x41 && part == 0xd49)
		return profile_named("neoverse-n2");
	return NULL;
}

#if defined(__x86_64__)
/* AMX-TILE: cpuid leaf 7 subleaf 0, EDX bit 24 (Intel SDM vol. 2, CPUID). */
static bool has_amx(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return false;
	__cpuid_count(7, 0, a, b, c, d);
	return d & (1u << 24);
}

/* A hypervisor may give a guest another core's model number: this
 * project's KVM guest reports model 0xa7 (Rocket Lake) with AMX and
 * AVX-512 FP16, which Rocket Lake never had, and measured like Golden Cove
 * (goldencove's evidence). AMX is in Intel's Xeons from Sapphire Rapids
 * on and in no client core, so it overrides the number. */
static void amx_is_goldencove(struct host *h)
{
	const struct profile *p = profile_named("goldencove");
	size_t n = strlen(h->why);

	if (h->profile == p)
		return;
	/* short: commands append the calibrated file's path to it */
	snprintf(h->why + n, sizeof h->why - n, " with AMX (SPR or later)");
	h->profile = p;
}

static void detect_x86(struct host *h)
{
	unsigned a, b, c, d;

	__cpuid(0, a, b, c, d);
	memcpy(h->vendor, &b, 4);
	memcpy(h->vendor + 4, &d, 4);
	memcpy(h->vendor + 8, &c, 4);
	__cpuid(1, a, b, c, d);
	h->family = (a >> 8) & 0xf;
	h->model = (a >> 4) & 0xf;
	h->stepping = a & 0xf;
	if (h->family == 0xf)
		h->family += (a >> 20) & 0xff;
	if (h->family == 6 || h->family >= 0xf)
		h->model |= ((a >> 16) & 0xf) << 4;
	__cpuid(0x80000000, a, b, c, d);
	if (a >= 0x80000004) {
		unsigned r[12];

		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
		memcpy(h->model_name, r, 48);
		h->model_name[48] = 0;
	}
	h->profile = profile_for_x86(h->vendor, h->family, h->model);
	snprintf(h->why, sizeof h->why, "cpuid %s family 0x%x model 0x%x", h->vendor,
		 h->family, h->model);
	if (strcmp(h->vendor, "GenuineIntel") == 0 && h->family == 6 && has_amx())
		amx_is_goldencove(h);
}
#endif

#if defined(__aarch64__)
static void detect_arm64(struct host *h)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long midr = 0;

	if (f) {
		if (fscanf(f, "%lx", &midr) != 1)
			midr = 0;
		fclose(f);
	}
	h->midr = (uint32_t)midr;
	snprintf(h->vendor, sizeof h->vendor, "0x%02x", h->midr >> 24);
	h->model = (h->midr >> 4) & 0xfff;
	h->profile = profile_for_midr(h->midr);
	snprintf(h->why, sizeof h->why, "MIDR_EL1 0x%08x", h->midr);
}
#endif

void host_detect(struct host *h)
{
	memset(h, 0, sizeof *h);
#if defined(__x86_64__)
	detect_x86(h);
#elif defined(__aarch64__)
	detect_arm64(h);
#else
	snprintf(h->why, sizeof h->why, "unknown architecture");
#endif
	/* Trim the brand string's padding. */
	size_t n = strlen(h->model_name);
	while (n && h->model_name[n - 1] == ' ')
		h->model_name[--n] = 0;
	char *p = h->model_name;
	while (*p == ' ')
		p++;
	memmove(h->model_name, p, strlen(p) + 1);
}
