/* measure/ab.h: straddle ab, two builds side by side (ab.c): their arms,
 * rounds of both interleaved, the judgement. */
#ifndef STRADDLE_MEASURE_AB_H
#define STRADDLE_MEASURE_AB_H

#include <regex.h>

#include "../relocate/relocate.h"
#include "../stats/stats.h"
#include "command.h"
#include "experiment.h"

/* Is B's change over A the code's, or its layout's? A change is held
 * against the spread layouts of the same code make (each build's
 * functions at new random offsets every run: stats_layout_band) and
 * measured again with every function of both builds at offset 0 of an
 * N-byte block (the run-time -falign-functions=N). The verdicts: none (no
 * change beyond --material: an A/A), real (beyond the layouts' band, or
 * surviving alignment), layout (gone once both are aligned), inconclusive
 * (within the band, too noisy, or nothing to tell layout from code). */
enum ab_verdict { AB_NONE, AB_REAL, AB_LAYOUT, AB_INCONCLUSIVE };
enum ab_reason {
	AB_NO_CHANGE,                   /* not significant, its CI within --material */
	AB_BELOW_MATERIAL,              /* significant, within --material */
	AB_TOO_NOISY,                   /* not significant, its CI wider than --material */
	AB_BEYOND_LAYOUT,               /* its CI beyond the layouts' band */
	AB_WITHIN_LAYOUT,               /* its CI reaches into the band */
	AB_SURVIVES_ALIGNED,            /* aligned, a change of the same sign beyond --material */
	AB_VANISHES_ALIGNED,            /* aligned, within --material, or gone: not
					 * significant, and significantly smaller */
	AB_ALIGNED_UNCLEAR,             /* aligned, neither; no band to fall back on */
	AB_NO_LAYOUT,                   /* no layout arm ran (a static build, --no-layout) */
};

/* Fewer rounds than this make no band: a spread of 4 layouts says
 * nothing of the 5th. */
#define AB_BAND_MIN_ROUNDS 5

struct ab_judgement {
	/* in */
	struct paired change;           /* B over A, round by round */
	struct paired aligned;          /* the same with both aligned; n 0: not run */
	struct paired shrink;           /* change over aligned change, round by round */
	struct layout_band band[2];     /* A's and B's; n 0: none */
	double alpha, material;
	/* out: the band in A's terms (what B over A would be were B's code
	 * A's, moved): A's band and B's inverted, together */
	bool has_band;
	double lo, hi;
	enum ab_verdict verdict;
	enum ab_reason reason;
};

void ab_judge(struct ab_judgement *j);
/* "none", "real", "layout", "inconclusive" */
const char *ab_verdict_name(enum ab_verdict v);
/* "beyond layout noise", "within layout noise", ...: the reason in words */
const char *ab_reason_text(enum ab_reason r);

/* The arms of each build: the program as built, the control (every moved
 * function copied at its own offset: what copying costs), random layouts
 * (each at a new random offset of its line every run) and aligned (each
 * at offset 0 of an align_all-byte block). */
enum ab_arm { AB_UNMOVED, AB_CONTROL, AB_RANDOM, AB_ALIGNED, AB_NARMS };

struct ab_build {
	char name;                      /* 'A' or 'B' */
	char **argv;                    /* its command */
	const char *files[PLACE_MAX_FILES];     /* named (--file-a), else its executable */
	size_t nfiles;
	bool named;                     /* the files were named: one that cannot move is an error */
	char *exe;
	struct reloc_file rf[PLACE_MAX_FILES];
	size_t refused[RELOC_NREFUSALS];        /* of its files' functions, by reason */
	bool movable;                   /* the layout and aligned arms can run */
	char why_not[400];              /* why they cannot, "" when they can */
	int arm[AB_NARMS];              /* its arms' indices in x, -1: not run */
	struct place_experiment x;
};

struct ab_experiment {
	struct ab_build build[2];
	/* asked */
	bool layout;                    /* the random layouts and controls */
	uint32_t align_all;             /* 0, or the aligned arms' block */
	unsigned runs;
	double budget_s, precision, alpha, material;
	bool wall, no_output_check, higher;
	const regex_t *metric;
	const char *metric_text;
	uint64_t seed, rng;
	const char *preload;
	const struct command_input *input;
	/* what it saw */
	unsigned rounds;
	double elapsed_s;
	const char *stopped_by;         /* "runs", "time", "precision" */
	/* ab_analyse's */
	double round_sd;                /* log: the sd of B over A from round to round */
	double noise_var;               /* log: of fixed layouts' pairs, pooled */
	size_t noise_df;
	struct ab_judgement j;
};

/* Each build's files opened and analysed (every function), its arms and
 * their plans. A build whose code cannot move (a static executable, a
 * script, no movable function) runs unmoved only, why_not says why; one
 * whose named file (--file-a) cannot is an error. -1 with e. */
int ab_prepare(struct ab_experiment *t, struct err *e);
/* Both builds unmoved twice first (the output each run must give: A's
 * and B's must be the same unless no_output_check), then every arm of
 * both once a round in a new random order until runs, budget_s, or the
 * change's CI within precision (stopped_by says which). 0; 1 when an
 * output differed (A's from B's, or a run's from its build's); 2 when a
 * run could not be made or measured, or a build's command fails; e says
 * why. */
int ab_run(struct ab_experiment *t, struct err *e);
/* Summaries, the change, the noise, the bands, the aligned change, the
 * verdict. */
void ab_analyse(struct ab_experiment *t);
/* The arm of build b, NULL when it did not run. */
const struct place_arm *ab_arm_of(const struct ab_experiment *t, int b, enum ab_arm k);
void ab_free(struct ab_experiment *t);

#endif
