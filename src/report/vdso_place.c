/* place --file vdso's table: each arm's hot and cold times, each held
 * against the control round by round, and whether its clock_gettime was
 * right. */
#include "report.h"
#include "../measure/vdso_move.h"

#include <string.h>

static void print_vs(FILE *out, const double *control, const double *v, size_t n)
{
	struct paired p;

	stats_paired_ratio(control, v, n, STATS_ALPHA, &p);
	fprintf(out, "  %+6.1f%% [%+.1f, %+.1f]", 100 * (p.ratio - 1), 100 * (p.lo - 1), 100 * (p.hi - 1));
}

void report_vdso_place(FILE *out, const struct vdso_move *m, const struct vdso_arm *a, size_t n)
{
	uint32_t own = (uint32_t)((m->base + m->f->addr) % 64);
	double hot[64], cold[64];

	fprintf(out, "[vdso] %s: %llu bytes at +%#llx, its entry at %u of a line; moved by a jump at "
	       "its entry written through /proc/self/mem\n", m->f->name,
	       (unsigned long long)m->f->size, (unsigned long long)m->f->addr, own);
	fprintf(out, "arm       entry@64  hot ns  vs control                cold ticks  vs control"
	       "                clock_gettime\n");
	for (size_t i = 0; i < n; i++) {
		memcpy(hot, a[i].hot, a[i].n * sizeof *hot);
		memcpy(cold, a[i].cold, a[i].n * sizeof *cold);
		fprintf(out, "%-8s  %8u  %6.1f", a[i].name, a[i].offset < 0 ? own : (uint32_t)a[i].offset,
		       stats_median_select(hot, a[i].n));
		print_vs(out, a[1].hot, a[i].hot, a[i].n);
		fprintf(out, "  %10.0f", stats_median_select(cold, a[i].n));
		print_vs(out, a[1].cold, a[i].cold, a[i].n);
		fprintf(out, "  %s\n", a[i].intact ? "intact" : "WRONG");
	}
}

