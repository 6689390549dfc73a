/* results/compare.h: compare's document written and read back
 * (compared.c), and the sides it compares read from their files: their
 * statistics, drift, machine states and times (side.c). */
#ifndef STRADDLE_RESULTS_COMPARE_H
#define STRADDLE_RESULTS_COMPARE_H

#include <jansson.h>

#include "metrics.h"
#include "../base/base.h"
#include "../stats/stats.h"

/* One metric against one NEW file, as compare recorded it. */
struct compared {
	const char *metric, *stat, *path, *verdict;
	bool lower_is_better;
	double base, value, base_range, range, change_pct, change_pct_mmtests, p;
	double ci_lo, ci_hi;            /* of change_pct; NAN: none */
	size_t base_runs, runs;
	bool enough_runs, stands_out, significant, regression;
};

struct compare_doc {
	const char *base;
	double alpha, threshold, min_runs;
	bool regression;
	const char **warnings, **noisy;
	size_t nwarnings, nnoisy;
	struct compared *row;           /* metric by metric, NEW file by file */
	size_t nrows;
};

/* 0, or -1 with the line naming path (no base, a run count that is none). */
int results_compare_doc(const char *path, const json_t *doc, struct compare_doc *d,
			struct err *e);
void results_compare_doc_free(struct compare_doc *d);


/* Lines of warnings, each its own copy (invalid UTF-8 as U+FFFD). */
struct compare_notes {
	char **v;
	size_t n, cap;
};

void compare_notes_add(struct compare_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void compare_notes_free(struct compare_notes *n);

struct compare_row {
	const struct metric *base;
	enum stat_kind stat;            /* the one statistic of the row */
	double value, sd_pct;           /* BASE: the mean of its runs' statistic, their spread */
	/* one a NEW file (nfiles - 1), as many as given */
	const struct metric **new;      /* NULL where a NEW lacks it */
	struct comparison *cmp;
};

struct compare {
	/* given */
	const struct result_file *files;        /* [0] is BASE */
	size_t nfiles;
	bool stat_given;                /* --stats: every row; else by direction */
	enum stat_kind stat;
	double alpha, threshold;
	/* --drift: A/A invocations of this machine (2 or more files), or NULL */
	const struct result_file *drift;
	/* --layout-noise: a place --offsets random band, %; 0 none */
	double layout_pct;
	/* the drift this host keeps (results_host_drift_load), NULL none */
	json_t *host_drift;
	/* made by compare_build */
	struct compare_row *rows;
	size_t nrows;
	bool regression;
	bool *state_changed;            /* [f - 1]: BASE -> NEW f beyond the warning's limits */
	struct compare_notes warnings;  /* machines and states: always printed */
	struct compare_notes noise;     /* metrics whose runs vary: --verbose */
	size_t noisy;
	double worst_cv;
	char worst[200];
};

/* compare --format json: the settings, every row against every NEW file,
 * the warnings, the noisy metrics and the verdict (compared.c reads it). */
json_t *results_compare(const struct compare *c);
/* "REGRESSION", "better", "changed, within the threshold", "no change",
 * "inconclusive", "inconclusive: machine state changed", "inconclusive:
 * one invocation a side", "inconclusive: inside the drift between
 * invocations" */
const char *compare_verdict(const struct comparison *cmp);
/* "runs" or "invocations": what the verdict counted */
const char *compare_units(const struct comparison *cmp);

/* Each run's statistic k of m (m->nruns of them; free it). */
double *results_run_stats(const struct metric *m, enum stat_kind k);
/* The units of a side: invocations (each file's mean of its runs') when
 * by_invocation, else runs; *n of them. */
double *results_unit_stats(const struct result_file *f, const struct metric *m,
			   enum stat_kind k, bool by_invocation, size_t *n);
/* The drift between the A/A invocations of aa (a directory: 2 or more
 * files) in m's statistic k: 100 (max - min) / mean of the invocations'
 * means of their runs; NAN with fewer than 2. */
double results_drift_band(const struct result_file *aa, const struct metric *m,
			  enum stat_kind k);
/* What bench --invocations records in each file of a side (a band recorded by
 * bench): {"invocations", "side", "versus", "band_pct": {metric: {statistic:
 * pct}}}, compare's drift for a BASE of one of them when no --drift is
 * given. */
json_t *results_drift_record(const struct result_file *aa, const char *side,
			     const char *versus);
/* Does the result file at path have metrics to band? (fault-write alone:
 * counts, no samples.) */
/* The drift between this host's A/A invocations, kept (host_drift.c):
 * $XDG_DATA_HOME/straddle/drift/HOST.json, with the machine it was
 * measured on. */
int results_host_drift_path(char *buf, size_t n, struct err *e);
/* aa's bands (a side of bench --invocations: 2 or more A/A files) into
 * this host's file (path: where), replacing those of the same metrics; a
 * file of another machine (kernel, microcode) is started anew. 0, or -1
 * with e. */
int results_host_drift_save(const struct result_file *aa, char *path, size_t n, struct err *e);
/* This host's file, NULL when there is none (or it is no such file). */
json_t *results_host_drift_load(void);
/* The band kept (NAN: none) for the metric's statistic k, when base and
 * new both ran on the machine it was measured on; *invocations: of how
 * many it was measured. */
double results_host_drift_of(const json_t *kept, const struct result_file *base,
			     const struct result_file *new, const char *metric, enum stat_kind k,
			     size_t *invocations);
bool results_has_metrics(const char *path);
/* The file at path with rec (results_drift_record's, copied) as its
 * "drift", stamped with its "order" among the "of" invocations, and the
 * "-o" of its command line made final_out (where it will be once its
 * directory is renamed); NULL when it cannot be read back. */
json_t *results_drift_stamp(const char *path, const json_t *rec, size_t order, size_t of,
			    const char *final_out);
/* The band BASE's own file recorded for the metric's statistic k, NAN
 * when none: a number of 0 or more, from 2 or more invocations
 * (*invocations: how many). */
double results_recorded_drift(const struct result_file *base, const char *metric,
			      enum stat_kind k, size_t *invocations);
/* The mean over a side's runs of a number in their machine states (index
 * >= 0: of that element of an array, like load's), NAN if none; a string
 * of them when every run agrees, "mixed" when not, NULL if none. */
double results_state_mean(const struct result_file *f, const char *key, int index);
const char *results_state_string(const struct result_file *f, const char *key);
/* How many runs' states a side has (null where a run recorded none). */
size_t results_state_count(const struct result_file *f);
/* The earliest and latest "time" (ISO 8601, UTC: ordered as text) of a
 * side's files; false when one lacks it. */
bool results_time_span(const struct result_file *f, const char **first, const char **last);
/* "kernel "6.1" vs "6.12"; microcode ..." for the identity fields of the
 * machines of a and b that differ (those that can explain a difference on
 * their own), appended to out. */
void results_machine_diff(const struct result_file *a, const struct result_file *b,
			  struct strbuf *out);

/* The sides of a comparison read (side.c): paths[0] BASE, then each NEW,
 * each a file or a directory (results_read); --drift's A/A invocations of
 * BASE's command, 2 or more; --layout-noise's band. Each NEW of BASE's
 * command, with a metric in common of the same unit and direction. 0, or
 * -1 with one line in e; results_compare_close(c) either way. */
int results_compare_open(struct compare *c, char *const *paths, size_t n, const char *drift_path,
			 const char *layout_path, struct err *e);
void results_compare_close(struct compare *c);

#endif
