/* model/host.h: which CPU this is: cpuid or MIDR matched to a profile (host.c), and
 * where calibrate keeps its profile (host_profile_path: profiles.c). */
#ifndef STRADDLE_MODEL_HOST_H
#define STRADDLE_MODEL_HOST_H

#include "profile.h"

struct host {
	char vendor[16];
	unsigned family, model, stepping;
	char model_name[64];
	uint32_t midr;                  /* AArch64 only */
	const struct profile *profile;  /* NULL when the CPU is not in the table */
	char why[128];                  /* how it was matched */
};

void host_detect(struct host *h);
/* Where `straddle calibrate` keeps this CPU's profile:
 * $XDG_DATA_HOME/straddle/profiles/VENDOR-FAMILY-MODEL-STEPPING.json, else
 * under ~/.local/share (XDG Base Directory Specification). -1 with the reason
 * when neither $XDG_DATA_HOME nor $HOME is set, or when the path does not fit
 * in n bytes (never cut: a cut one named a directory nobody asked for, which
 * calibrate made). */
int host_profile_path(const struct host *h, char *buf, size_t n, struct err *e);

/* Profile for a CPU identified by cpuid family/model (x86) or MIDR part. */
const struct profile *profile_for_x86(const char *vendor, unsigned family, unsigned model);
const struct profile *profile_for_midr(uint32_t midr);

#endif
