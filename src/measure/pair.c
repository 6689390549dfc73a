/* Two builds' routines against each other (diff --measure): each at the
 * placement its build gives it, the old one twice (the A/A control), in a
 * sweep's rounds; their change from the rounds' pairs. */
#include "sweep.h"
#include "pair.h"

#include <stdlib.h>

int measure_pair(struct sweep *s, const struct kernel *old, uint32_t old_offset,
		 const struct kernel *new, uint32_t new_offset, struct pair_measure *out,
		 struct err *e)
{
	struct kernel control;
	struct variant *v = xcalloc(3, sizeof *v);
	int rc = -1;

	if (kernel_clone(old, old->name, &control, e)) {
		free(v);
		return -1;
	}
	v[0] = (struct variant){ .k = old, .offset = old_offset };
	v[1] = (struct variant){ .k = new, .offset = new_offset };
	v[2] = (struct variant){ .k = &control, .offset = old_offset };
	s->v = v;
	s->n = 3;
	if (sweep_prepare(s, e) || sweep_run(s, e))
		goto out;
	sweep_analyse(s, NULL);
	/* every variant has a sample of every kept round, in round order */
	stats_paired_ratio(v[0].samples, v[1].samples, v[0].n, 0.05, &out->change);
	stats_paired_ratio(v[0].samples, v[2].samples, v[0].n, 0.05, &out->aa);
	out->old_median = v[0].sum.median;
	out->new_median = v[1].sum.median;
	out->rounds = s->rounds;
	out->stopped_by = s->stopped_by;
	rc = 0;
out:
	sweep_free(s);
	free(v);
	s->v = NULL;
	s->n = 0;
	kernel_unclone(&control);
	return rc;
}
