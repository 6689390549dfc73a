/* Pinning: a sample interrupted by a migration measures two CPUs' caches. */
#include "clock.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

int pin_to_current_cpu(int *cpu, struct err *e)
{
	cpu_set_t set;
	int c = sched_getcpu();

	if (c < 0)
		return err_set(e, "cannot tell which CPU this is: %s", strerror(errno));
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return err_set(e, "cannot pin to CPU %d: %s", c, strerror(errno));
	*cpu = c;
	return 0;
}
