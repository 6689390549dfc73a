/* results/place.h: place's result file (place.c), its arms read back
 * for compare (place.c) and for the page (measured.c). */
#ifndef STRADDLE_RESULTS_PLACE_H
#define STRADDLE_RESULTS_PLACE_H

#include <jansson.h>

#include "measured.h"
#include "metrics.h"
#include "../measure/experiment.h"
#include "../measure/proof.h"
#include "../relocate/relocate.h"

/* subject: the function moved, or the glob that chose several; refused[]:
 * how many functions were moved (RELOC_OK) and refused, by reason. */
json_t *results_place(const struct place_experiment *x, const char *subject,
		      const size_t refused[RELOC_NREFUSALS], int argc, char **argv);

/* One arm of a place result read back (results_read): "unmoved",
 * "control", "best" or an offset; its samples in round order (each round
 * ran every arm once, so arms pair by index). -1 when there is none. */
struct place_arm_result {
	uint32_t offset;
	double predicted;               /* the cost model's slowdown there, 0 none */
	const double *v;
	size_t n;
};
int results_place_arm(const struct result_file *f, const char *arm, struct place_arm_result *out);
/* The layout-noise band, %, of a place --offsets random result
 * ("layout_noise"."band_pct"): 0, or -1 when f is not one. */
int results_place_layout_band(const struct result_file *f, double *band_pct);
/* A place file's pace: its rounds and the seconds they took. -1 when it
 * is no place file. */
int results_place_pace(const struct result_file *f, unsigned *rounds, double *elapsed_s);
/* A place --replay file's refusal of its loop ("replay"."refused") into
 * why: 1, or 0 when it has none. */
int results_place_replay_refused(const struct result_file *f, char *why, size_t n);
/* A place --replay file whose replays' iterations did not vary enough
 * to tell their fixed cost (measure/replay.c's SPAN_FOR_FIXED): its
 * cycles an iteration hold that cost, the same at every offset, and
 * pull every ratio towards 1. 1 with why, else 0. */
int results_place_replay_short(const struct result_file *f, char *why, size_t n);
/* The complete snapshots a place --replay file's rounds hold, 0 none. */
unsigned results_place_snapshots(const struct result_file *f);
/* A replay's unmoved run of the program, wall seconds (0: not said). */
double results_place_unmoved_s(const struct result_file *f);
/* The arm `name` of place files f[0..nf) (a pilot and the rounds after
 * it), its samples one after the other: each round pairs the arms alike.
 * -1 (out->v NULL) when one file lacks it. */
int results_place_arms(const struct result_file *const *f, size_t nf, const char *name,
		       struct proof_arm *out);
/* A place --replay file's copies of arm `name` (its "replay"."copies"
 * whose rounds are out->n, results_place_arms's): out->copy, ncopies;
 * none (0) in a file of one copy each, or of another place. */
void results_place_copies(const struct result_file *f, const char *name, struct proof_arm *out);

struct place_doc {
	const char *function, *file, *loop, *measure, *stopped_by, *profile;
	double current, rounds, elapsed_s, identical, runs, moved;
	double same_status;
	bool checked;                   /* the output compared (not --no-output-check) */
	struct measured_point *pt;      /* the arms, in the file's order */
	size_t n;
};

void results_place_doc(const json_t *doc, struct place_doc *p);
void results_place_doc_free(struct place_doc *p);

#endif
