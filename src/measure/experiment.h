/* measure/experiment.h: place's experiment (experiment.c): its arms, their
 * plans, rounds of runs of the program, the analysis. */
#ifndef STRADDLE_MEASURE_EXPERIMENT_H
#define STRADDLE_MEASURE_EXPERIMENT_H

#include <regex.h>

#include "../model/cost.h"
#include "../model/rules.h"
#include "../relocate/relocate.h"
#include "../stats/stats.h"
#include "command.h"

/* The arms of straddle place: the program unmoved, the control (a copy at
 * the loop's own offset), a placement at an offset, or a new random layout
 * every run. */
enum place_arm_kind { PLACE_UNMOVED, PLACE_CONTROL, PLACE_OFFSET, PLACE_RANDOM, PLACE_REPLAY };

struct replay_data;

#define PLACE_MAX_ARMS 80
#define PLACE_MAX_FILES 8

struct place_arm {
	enum place_arm_kind kind;
	uint32_t offset;                /* PLACE_CONTROL, PLACE_OFFSET: of the loop in its line */
	char name[32];                  /* "unmoved", "control", "best", "12", ... */
	int plan_fd;                    /* memfd of its plan, -1 for none */
	uint32_t align;                 /* its offsets are modulo this; 0: the experiment's */
	double *v;                      /* one sample a run */
	size_t n, cap;
	/* experiment_analyse's: the mark (stats_placement_marks) and its
	 * ratio, adjusted p and slow mark again */
	struct summary sum;
	struct placement_mark mark;
	double ratio, p;
	bool slow;
	size_t npredicted;
	struct hazard predicted[8];
	double predicted_slowdown;      /* the cost model's, against the best placement; 0 none */
};

struct place_experiment {
	/* what is moved: the chosen functions of each file, and the one loop
	 * (subject) when there is one */
	struct reloc_file *rf;
	size_t nrf;
	struct reloc_place *place[PLACE_MAX_FILES];
	size_t nplace[PLACE_MAX_FILES];
	const struct reloc_func *subject;
	uint64_t loop_start, loop_end;
	uint32_t current;               /* the loop's offset today */
	uint32_t align;                 /* offsets are modulo it */
	const struct profile *profile;  /* of the predictions */
	const char *llvm_mca;           /* the back end's source (model/cost.c): NULL the newest */
	struct back_end back_end;       /* the subject loop's, found by experiment_analyse */
	/* how it runs */
	char **argv;                    /* the command */
	const char *preload;            /* libstraddle-place.so */
	unsigned runs;
	double budget_s, precision, alpha, material;
	bool wall, no_output_check, higher;
	const regex_t *metric;          /* NULL: time it */
	const char *metric_text;
	uint64_t seed, rng;
	struct place_arm arm[PLACE_MAX_ARMS];
	size_t narms;
	const struct command_input *input;      /* every run's standard input */
	/* what it saw */
	unsigned rounds, checked;
	unsigned identical;             /* output and status as unmoved (output checked) */
	unsigned same_status;           /* status as unmoved, output or not */
	unsigned no_map;                /* runs whose perf map name was another's */
	double elapsed_s;
	const char *stopped_by;         /* "runs", "time", "precision" */
	double *apply_ns;               /* the preload library's time to apply, per report */
	size_t napply, apply_cap;
	uint64_t base_hash;
	int base_status;
	/* when it failed: the arm, why, the run's status and last lines of
	 * its standard error (failed false: it did not) */
	struct place_failure {
		bool failed, has_status;
		char arm[48];
		char why[320];
		int status;
		char stderr_lines[600];
	} failure;
	int interrupted;                /* the signal that stopped it, 0 none */
	char base_note[320];            /* the unmoved program fails: how, or "" */
	/* --replay: the loop timed in the program's own state (replay.h), the
	 * arms' samples its rounds; NULL: the program's time */
	struct replay_data *replay;
};

/* An arm, unless one like it is there. -1 with e when there is no room. */
int experiment_add_arm(struct place_experiment *x, enum place_arm_kind k, uint32_t offset,
		  const char *name, struct err *e);
/* The A/A arm of a replay: a second copy at today's offset, named "aa"
 * (another address, the same placement in its line), which
 * experiment_add_arm would take for the control. */
int experiment_add_aa(struct place_experiment *x, struct err *e);
/* A replay's timed copies of each placement (at as many addresses): with
 * one, arm aa (experiment_add_aa) is its A/A; with more, the copies of
 * each placement are (stats_copies_variance). -1 with e when they are
 * more than a plan holds. */
int experiment_replay_copies(struct place_experiment *x, unsigned copies, struct err *e);
/* "offset 12", "control", "best (offset 0)": an arm in a message. */
const char *experiment_arm_label(const struct place_arm *a, char *buf, size_t n);
/* The model's hazards for the subject loop started at `offset`, and a
 * score ordering placements (hazards by severity, then lines and fetch
 * windows touched). */
unsigned experiment_predict(const struct place_experiment *x, uint32_t offset, struct hazard *h,
		       size_t *nh);
/* The offsets the model scores best and worst (the current one on ties). */
void experiment_best_and_worst(const struct place_experiment *x, uint32_t *best, uint32_t *worst);
/* The movable functions of each file, to be placed (after the choice of
 * functions and of the subject loop). */
void experiment_collect(struct place_experiment *x);
/* Each arm's plan, written to a memfd (a random arm's is made anew every
 * run). -1 with e. */
int experiment_make_plans(struct place_experiment *x, struct err *e);
/* Every round each arm once in a new random order, until --runs, the time
 * budget or the precision goal (x->stopped_by says which). 0; 1 when a
 * run's output or status differed from the unmoved program's; 2 when a
 * run could not be made or measured (x->failure and e say why); 3 when
 * experiment_interrupt stopped it (x->interrupted: the signal). */
int experiment_run(struct place_experiment *x, struct err *e);
/* For a signal handler: end the run in progress and the experiment after
 * it (async-signal-safe). */
void experiment_interrupt(int sig);
/* Statistics, ratios to the best arm, slow marks, predictions. */
void experiment_analyse(struct place_experiment *x);
double experiment_apply_median_us(const struct place_experiment *x);
double experiment_apply_max_us(const struct place_experiment *x);
void experiment_free(struct place_experiment *x);

/* One run of arm i, its sample kept (straddle ab runs the arms of two
 * experiments in one order of its own): what experiment_run returns. The
 * experiment's first run sets the output every later run must match. */
int experiment_run_arm(struct place_experiment *x, size_t i, struct command_run *r,
		       struct err *e);
/* On a terminal: the round, and the time left at this pace. */
void experiment_progress(const struct place_experiment *x, double t0);

/* The functions of x->rf[0..nrf) to move: those --func names, or the one
 * holding the loop at loop_text (hex, of file, the first of them); the
 * functions refused counted by reason into refused[] (and with verbose
 * said on standard error). One function moved is the subject, placed by
 * its --loop, else its only innermost loop, else its entry. 0, or -1 with
 * the line in e. */
int experiment_choose(struct place_experiment *x, const char *file, const char *func,
		      const char *loop_text, bool verbose, size_t refused[RELOC_NREFUSALS],
		      struct err *e);
/* The arms: the program unmoved, the control, then those --offsets
 * names: A..B[:STEP], current, best, worst (the model's), random. 0, or
 * -1 with the line in e. */
int experiment_arms(struct place_experiment *x, const char *offsets, struct err *e);

#endif
