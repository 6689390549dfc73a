/* results/measured.h: one placement measured, as sweep's, place's and
 * calibrate's documents hold it, read back (measured.c). */
#ifndef STRADDLE_RESULTS_MEASURED_H
#define STRADDLE_RESULTS_MEASURED_H

#include <jansson.h>

#include "../base/base.h"

struct measured_hazard {
	const char *rule;               /* NULL when the file lacks it */
	long long window;
};

/* One placement measured (a sweep's or place's metric, a calibrate
 * experiment's point): strings borrowed from the document, numbers NAN
 * where the file has none. */
struct measured_point {
	const char *kernel, *arm;       /* the kernel or function placed; place's arm */
	double offset, loop_offset;
	size_t n;                       /* samples */
	bool by_floor;                  /* judged by its floor, else (an older file) its median */
	double y, lo, hi;               /* that statistic and its 95% CI */
	double median, ci_lo, ci_hi, gbps, ratio, p;
	double model;                   /* the cost model's ratio there (sweep), 0 none */
	bool tested;                    /* p is a test's (the best has none) */
	bool slow;
	struct measured_hazard predicted[8];
	size_t npredicted, npredicted_all;      /* kept, and in the file */
};

/* o, a placement's object, with its test's p in pkey. */
void results_measured_point(const json_t *o, const char *pkey, struct measured_point *p);

#endif
