/* --shard K/N: which units of a run a shard takes. K counts from 0 as a
 * Kubernetes Indexed Job's JOB_COMPLETION_INDEX does, so a pod passes its
 * index unchanged; GNU parallel passes `seq 0 N-1`. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int number(const char *s, char **end, unsigned long *v)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoul(s, end, 10);
	return errno ? -1 : 0;
}

int shard_parse(const char *spec, struct shard *s, struct err *e)
{
	unsigned long k, n;
	char *end;

	if (number(spec, &end, &k) || *end != '/' || number(end + 1, &end, &n) || *end)
		return err_set(e, "'%s' is not K/N (K from 0 to N-1)", spec);
	if (n == 0 || n > SHARD_MAX)
		return err_set(e, "'%s': N is from 1 to %d", spec, SHARD_MAX);
	if (k >= n)
		return err_set(e, "'%s': K is from 0 to %lu", spec, n - 1);
	s->index = (uint32_t)k;
	s->count = (uint32_t)n;
	return 0;
}

/* FNV-1a's 64-bit offset basis and prime (Fowler, Noll, Vo). */
bool shard_takes(const struct shard *s, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	if (!s->count)
		return true;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h % s->count == s->index;
}
