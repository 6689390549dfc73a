/* native_main: what `straddle calibrate` checks before measuring
 * (src/measure/native.c), alone: "ok", or the refusal and exit 2. Built
 * natively, and cross-built for AArch64 to run under qemu-aarch64, where
 * it must refuse (tests/cmd/t_calibrate.sh). */
#include "measure/calibrate.h"

#include <stdio.h>

int main(void)
{
	struct err e;

	if (calib_check_machine(&e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 2;
	}
	puts("ok");
	return 0;
}
