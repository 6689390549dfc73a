/* results/sweep.h: sweep's result file (sweep.c), and read back for the
 * page (measured.c). */
#ifndef STRADDLE_RESULTS_SWEEP_H
#define STRADDLE_RESULTS_SWEEP_H

#include <jansson.h>

#include "measured.h"
#include "../kernels/kernels.h"
#include "../measure/sweep.h"
#include "../model/profile.h"

/* sweep's file: every placement's samples and verdict, and for each
 * placed kernel against each profile the "agreement": how many of its
 * offsets the prediction agreed with, and the offsets it predicts slow. */
json_t *results_sweep(const struct sweep *s, const char *profile,
		      const struct profile *const *profiles, size_t nprofiles,
		      const struct kernel *const *kernels, size_t nkernels, int argc, char **argv);
/* An agreement as the page reads it back. */
struct sweep_agreement {
	const char *kernel, *profile;
	size_t agree, offsets;
};

struct sweep_doc {
	double size, cpu, resolution_ns, rounds, elapsed_s, alpha, material;
	const char *clock_source, *stopped_by, *profile, *counters;
	struct measured_point *pt;      /* the metrics, in the file's order */
	size_t n;
	struct sweep_agreement *agree;
	size_t nagree;
};

/* Of a document results_file_of (sweep, place) or results_calibration_of
 * (calibrate) read; doc lives as long as the struct. */
void results_sweep_doc(const json_t *doc, struct sweep_doc *s);
void results_sweep_doc_free(struct sweep_doc *s);

#endif
