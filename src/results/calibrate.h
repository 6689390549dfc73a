/* results/calibrate.h: calibrate's file: written and its experiments
 * read back for refitting (profile.c), its rules and points for the
 * page (measured.c). */
#ifndef STRADDLE_RESULTS_CALIBRATE_H
#define STRADDLE_RESULTS_CALIBRATE_H

#include <jansson.h>

#include "measured.h"
#include "../measure/calibrate.h"
#include "../model/host.h"
#include "../model/profile.h"

/* A calibrate file's rules as measured and its experiments' points (the
 * profile and the experiments' geometry: results_profile_of and
 * results_calibration_of). */
struct calib_rule_doc {
	const char *rule, *experiment;
	double window, ratio, p, ci_lo, ci_hi, half[2], with, without;
	bool has_ci, has_halves, tested, claimed;
};

struct calib_experiment_doc {
	const char *name, *what, *stopped_by;
	double rounds, elapsed_s;
	bool entry;                     /* the callee's entry placed, not a loop */
	struct measured_point *pt;
	double *pos;                    /* each point's position */
	size_t npt;
};

struct calib_doc {
	struct calib_rule_doc *rule;
	size_t nrule;
	struct calib_experiment_doc *x;
	size_t nx;
	bool has_back_end;              /* a file from before the bound has none */
	const char *back_end_why, *loop_buffer_why;
	const char *window_why;         /* NULL in files from before cycles were measured */
};

void results_calib_doc(const json_t *doc, struct calib_doc *c);
void results_calib_doc_free(struct calib_doc *c);

/* calibrate's head: results_run_info, and with --from (recorded: the
 * recording's "machine", recorded_in: its file) that machine as
 * "machine" and this one as "calibrated_on". */
json_t *results_calibration_head(int argc, char **argv, const json_t *recorded,
				 const char *recorded_in);
/* calibrate's file: `head` (results_calibration_head) with the profile, each
 * rule's ratio, CI, halves and verdict, the loop buffer, and every
 * experiment with its points' raw samples. Returns head. */
json_t *results_calibration(json_t *head, const struct profile *p, const struct calib_fit *f,
			    const struct calib_experiment *x, size_t nx);

/* The experiments of a calibrate file (for refitting and the tests) and
 * the machine they were measured on (h: vendor, family, model, stepping,
 * model name, its built-in profile; *machine, unless NULL: the recorded
 * "machine" object whole, microcode, features and kernel too, owned by the
 * caller, so that a refit says the machine measured, not the one fitting);
 * calib_free(*out, *n) afterwards, also on error. */
int results_calibration_read(const char *path, struct host *h, json_t **machine,
			     struct calib_experiment **out, size_t *n, struct err *e);
/* The same of a calibrate file results_open opened. */
int results_calibration_of(const char *path, const json_t *doc, struct host *h,
			   json_t **machine, struct calib_experiment **out, size_t *n, struct err *e);

#endif
