/* What calibrate refuses: an emulator, whose times are its own and not the
 * CPU's, and a clock too coarse to time one sample. Apart from the rest of
 * calibrate so that tests/tools/native_main.c can be cross-built with it
 * alone and run under qemu-aarch64. */
#include "clock.h"
#include "calibrate.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

/* QEMU's TCG (full emulation) says so in the hypervisor leaf; KVM, which
 * runs the code natively, says "KVMKVMKVM". */
static bool emulated(char *why, size_t n)
{
	unsigned a, b, c, d;
	char sig[13] = "";

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return false;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	snprintf(why, n, "hypervisor \"%s\"", sig);
	return strcmp(sig, "TCGTCGTCGTCG") == 0;
}
#else
/* qemu-user passes the host's /proc/cpuinfo through: an AArch64 process
 * that sees no "CPU implementer" there is not on an AArch64 CPU. */
static bool emulated(char *why, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	bool arm = false;

	while (f && fgets(line, sizeof line, f))
		arm |= strncmp(line, "CPU implementer", 15) == 0;
	if (f)
		fclose(f);
	snprintf(why, n, "/proc/cpuinfo has no \"CPU implementer\"");
	return !arm;
}
#endif

int calib_check_machine(struct err *e)
{
	struct clock c;
	char why[96];

	if (emulated(why, sizeof why))
		return err_set(e, "refusing to calibrate under an emulator (%s): its times are "
			       "the emulator's, not this CPU's", why);
	if (clock_init(&c, e))
		return -1;
	if (c.resolution_ns > CALIB_MAX_RESOLUTION_NS)
		return err_set(e, "refusing to calibrate: the %s clock steps by %.0f ns, coarser "
			       "than %.0f ns", c.source, c.resolution_ns, CALIB_MAX_RESOLUTION_NS);
	return 0;
}
