/* measure/proof.h: a hot loop's predicted cost held against its measured
 * one (proof.c), for prove. */
#ifndef STRADDLE_MEASURE_PROOF_H
#define STRADDLE_MEASURE_PROOF_H

#include "../model/cost.h"
#include "../model/hot.h"
#include "../model/rules.h"
#include "../stats/stats.h"

/* straddle prove: a loop holding `share` of a program's samples that the cost
 * model says runs `predicted` times slower at today's placement than at its
 * best, and the program measured at both (place: `program`, the best
 * placement's time over today's, paired by round). A loop slowdown R changes
 * the program by share * (1 - 1/R), so the program's ratio m gives R = 1 / (1
 * - (1 - m) / share); R's CI is the widest the CI of m and the share's own
 * interval give (a record of 34 samples knows a 70% share to +-15%). With
 * layout controls m is the best's change over their geometric mean (today's
 * copy one of them) and its CI is widened by their spread: the best is one
 * more layout drawn. The verdicts: costs (R >= 1 + material), nothing (within
 * material either way), slower at best (R <= 1 - material: the model's best
 * placement ran slower, a layout effect the model has no rule for), or
 * inconclusive (the CI holds two of them; or the program's change is more
 * than the loop's whole share, so it is not the loop's). */
enum proof_verdict { PROOF_NOTHING, PROOF_COSTS, PROOF_INCONCLUSIVE, PROOF_SLOWER_AT_BEST };

/* Layout controls: the function moved to offsets where the loop touches
 * as many windows as today (fold's and expand's best placements ran 4-8%
 * slower, a move of 3 bytes: the program is sensitive to moving its
 * function at all, and only the controls tell that from the window).
 * Their spread widens the verdict's interval by t(k-1) * sd * sqrt(1 +
 * 1/k) for k layouts: 4.97 sd with today's and two controls, 2.62 sd with
 * six. A control of the program's time costs a run a round, two of them;
 * a replayed one a child a snapshot, six (sha1sum's replay: the best's
 * paired ratio known to +-0.5%, its verdict's interval +-6% from two
 * controls 2% apart). */
#define PROOF_LAYOUT_MAX 6
/* A replay's copies of one placement, at most (place --copies). */
#define PROOF_COPIES_MAX 8
#define PROOF_PROGRAM_LAYOUTS 2

/* A replay's controls are not pooled as noise: each is the loop's own
 * copy timed alone from the same snapshots as today's (paired, +-0.2-1%
 * an offset), no other code moved, so what a control measures is the
 * loop's layout, and the model, which prices every control as today
 * (they keep its windows and branches), is held against each one.
 * sha1sum's 4,761-byte loop, replayed twice with 600 snapshots at its
 * controls 58-63: 0.919-0.990 of today's, known to +-1%, where the
 * model prices all alike; pooled, that spread left its best's -1.5%
 * [-2.4, -0.6] inconclusive, when it is the model that missed. Each
 * control's interval is taken at alpha / k for k controls (Bonferroni),
 * so the k tests together wrongly call a miss at most alpha of the time. */
struct control_verdict {
	enum proof_verdict seen;        /* today's over the control's: costs, nothing, slower */
	bool missed;                    /* conclusive, and not the model's "nothing" */
};

struct loop_proof {
	double share, predicted, material, alpha;       /* in */
	bool at_most;           /* in: predicted is a bound from above (the scan's cost.at_most:
				   a call or an inner loop in it, the back end not modelled) */
	double share_lo, share_hi;      /* in: the share's 95% interval (stats_share_ci), 0 0: exact */
	struct paired program;                          /* in: best / today */
	struct paired layout[PROOF_LAYOUT_MAX];         /* in: each control / today */
	size_t nlayout;
	bool each_control;      /* in: controls judged each against the model (a replay's),
				   not pooled as the noise of moving the function */
	struct control_verdict control[PROOF_LAYOUT_MAX];       /* out, with each_control */
	struct paired aa;       /* in: a replay's A/A, a second copy at today's offset / today */
	double aa_band;         /* the A/A's reach (log) that widened best's and the controls'
				   intervals (proof_of_replay) */
	unsigned copies;        /* in: a replay's copies of each placement, where more than
				   one: best's and the controls' intervals are their means'
				   against their spread (stats_copies_ratio) */
	struct copies_spread spread;
	double layout_sd;                               /* out: the controls' spread (log) */
	double window, window_lo, window_hi;            /* out: the program's change the window made */
	double loop, loop_lo, loop_hi;                  /* out: R and its CI; INFINITY beyond */
	enum proof_verdict said, seen;                  /* the model's, the measurement's */
};

void proof_judge(struct loop_proof *p);
/* Whether p tells the model right or wrong: its verdict is conclusive, or
 * a control it judged each was a miss (the model wrong there, whatever
 * the best's interval says). */
bool proof_conclusive(const struct loop_proof *p);
/* The model's prediction a bound from above that costs (at_most, said
 * costs): judged by whether the loop stays under it, counted apart. */
bool proof_is_bound(const struct loop_proof *p);
/* Conclusive, the verdict the model's, and no control missed; where the
 * model gave a bound (at_most) that costs, a measurement under it: nothing,
 * or a cost whose interval reaches below the bound (the bound held). */
bool proof_agrees(const struct loop_proof *p);
/* The controls p judged each that the model missed. */
size_t proof_controls_missed(const struct loop_proof *p);
/* How many paired rounds of place a verdict on p's loop needs, from the
 * noise of a pilot: sd, the standard deviation of its rounds' log ratios
 * (best over today), and p's layout_sd and nlayout (proof_judge of the
 * pilot): the program's change known within *need (log, its 95% CI's
 * half-width) with the controls' spread, which no round narrows, added in
 * quadrature. 0 when no number of rounds can (that spread is wider). */
unsigned proof_rounds_needed(const struct loop_proof *p, double sd, double *need);

/* One hot loop of straddle prove: what the scan said of it, and what
 * place measured (when it was measured: why not, else). */
struct loop_trial {
	char *file, *func;
	uint64_t start, end;            /* the loop's span */
	uint64_t samples, run_samples;
	uint32_t current, best;         /* its first byte's offset in its line today, the model's best */
	uint32_t layout[PROOF_LAYOUT_MAX];      /* offsets touching today's windows: the controls */
	size_t nlayout;                 /* the replay's; the program's rounds place the first
					   PROOF_PROGRAM_LAYOUTS */
	struct loop_cost cost;          /* the scan's */
	float place_predicted;          /* place's own prediction for today's offset */
	struct paired control;          /* the control over the unmoved program: the copy's own cost */
	unsigned rounds;
	unsigned rounds_needed;         /* a verdict's, from the pilot's noise; 0 not known */
	char why_not[300];              /* "" measured */
	struct loop_proof proof;        /* the program's time: its change, through the share */
	/* the loop replayed (place --replay): its own cycles an iteration at
	 * the best over today's, share 1; why not ("" when replayed or not
	 * asked) */
	bool replayed;
	struct loop_proof replay;
	unsigned snapshots;             /* complete ones the replay's rounds hold */
	double unmoved_s;               /* the replay's unmoved run of the program, wall s */
	char replay_why[300];
	/* why the program's time was not measured beside the replay (the
	 * check did not fit the loop's time: self/prove.c), "" it was */
	char check_why[300];
	/* its hottest inner loop (0 0: none with half its samples), replayed
	 * in its stead when it makes a system call: inner_why, why it was
	 * not ("" when it was, or the inner loop was not needed) */
	uint64_t inner_start, inner_end, inner_samples;
	char inner_why[300];
};
/* The verdict t's row gives: its replayed loop's, else its program's. */
const struct loop_proof *proof_of_trial(const struct loop_trial *t);
/* The measured rows' verdicts counted, as prove's text and page say them
 * (replayed: the conclusive ones by their replay). */
struct proof_tally {
	size_t agree, conclusive, inconclusive, replayed;
	size_t bounds, bounds_held;     /* of the conclusive: predicted by a bound, and held */
};
struct proof_tally proof_tally(const struct loop_trial *t, size_t n);
/* "costs", "nothing", "inconclusive" */
const char *proof_verdict_name(enum proof_verdict v);

/* The hot loops of a scanned file worth moving: each loop with at least
 * min_share of the samples whose placement costs something (those at
 * their best only counted), with the offsets prove places it at (its
 * best, and the layout controls), the model's verdict judged. */
struct proof_candidates {
	struct loop_trial *v;
	size_t n, cap;
	size_t at_best;                 /* hot loops that straddle nothing more than they must */
};

void proof_add_loops(struct proof_candidates *out, const char *path, const struct scan_result *r,
		     double min_share, double material, double alpha);
/* The most sampled first: the first `top` measurable ones, and the
 * uncertain ones before them, into trial (at most max; the candidates'
 * names move with them); how many. */
size_t proof_choose(struct proof_candidates *all, struct loop_trial *trial, size_t max,
		    unsigned top);
void proof_candidates_free(struct proof_candidates *all);

/* An arm of place's result files (a pilot and the rounds after it): its
 * samples in round order (v NULL: no such arm), the model's prediction
 * there, its offset. */
struct proof_arm {
	double *v;
	size_t n;
	double predicted;
	uint32_t offset;
	double *copy;                   /* a replay's copies' rounds: copy[c * n + r] */
	size_t ncopies;
};

/* The arms prove places a loop at: the program unmoved, the control (a
 * copy at today's offset), the best, and the layout controls. */
struct proof_arms {
	struct proof_arm unmoved, control, best, layout[PROOF_LAYOUT_MAX];
	struct proof_arm aa;            /* a replay's second copy at today's offset */
};

/* The arms turned into t's proof, each round paired; why_not when place's
 * result lacks an arm or placed another span. */
void proof_of_arms(struct loop_trial *t, const struct proof_arms *a, double alpha);
/* The replayed loop's arms (a place --replay file's: no unmoved arm)
 * turned into t->replay, its share 1: the loop is all that was timed;
 * replay_why when they lack an arm or placed another span, or when its
 * A/A arm, a second copy at today's offset, ran the material mark or more
 * apart from today's copy, conclusively: then two copies of one placement
 * differ as much as the verdict would tell, and no placement's can be
 * believed (the row is the program's time's). */
void proof_of_replay(struct loop_trial *t, const struct proof_arms *a, double material,
		     double alpha);
/* A pilot's noise: the standard deviation of its rounds' log ratios,
 * best over control; -1 with fewer than 2 rounds. */
double proof_pilot_sd(const struct proof_arm *control, const struct proof_arm *best);
/* A loop whose replay was refused because it makes a system call (the
 * outer loop of a filter: a buffer read, a file opened, written) and
 * that holds an inner loop with half its samples: *in, t's trial of that
 * inner loop at the same placements of its function (its offsets t's
 * plus the distance between the two first bytes); true. in shares t's
 * names: never freed. */
bool proof_inner_trial(const struct loop_trial *t, struct loop_trial *in);
/* in's replay (proof_inner_trial's) as t's verdict; t's own refusal kept
 * in t->inner_why. */
void proof_take_inner(struct loop_trial *t, const struct loop_trial *in);
/* The layout controls the program's rounds place: t's first ones. */
size_t proof_program_layouts(const struct loop_trial *t);

#endif
