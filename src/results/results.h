/* results: JSON documents (jansson) for machines, and writing them
 * atomically: a temporary name beside the target, then rename, so a reader
 * never sees half a file (DESIGN, Result files). */
#ifndef STRADDLE_RESULTS_H
#define STRADDLE_RESULTS_H

#include <jansson.h>
#include <stdio.h>

#include "../base/base.h"
#include "../inputs/inputs.h"
#include "../model/model.h"
#include "../kernels/kernels.h"
#include "../measure/measure.h"
#include "../workloads/workloads.h"

/* A JSON string of bytes that may not be UTF-8 (symbol names, paths):
 * invalid bytes become U+FFFD. */
json_t *json_text(const char *s);

/* A field of a document as the readers take it (fields.c): an integer (0
 * when absent or not one), a number (NAN), element i of an array of
 * numbers (NAN), a string (NULL). doc_: a document's field; jansson's own
 * json_ prefix is not ours to use. */
long long doc_int(const json_t *o, const char *key);
double doc_num(const json_t *o, const char *key);
double doc_num_at(const json_t *o, const char *key, size_t i);
const char *doc_str(const json_t *o, const char *key);
/* A cost model's figure as every document holds it: 3 decimals (the
 * scan's writer.c prints them so). */
double doc_three_places(double x);

/* A compact JSON writer to a FILE (writer.c), for the documents that can
 * be tens of megabytes. A jw writes one value (jw_open first); its bytes
 * reach the FILE in blocks, the last when that value's bracket closes.
 * Keys are NULL inside arrays, else the program's own names: plain ASCII
 * (no '"', '\\' or control bytes), short, written without escaping. */
struct jw {
	FILE *f;
	int depth;
	bool first[16];
	size_t len;             /* bytes of buf not yet written */
	char buf[4096];
};

void jw_init(struct jw *w, FILE *f);
void jw_open(struct jw *w, const char *key, char bracket);
void jw_close(struct jw *w, char bracket);
void jw_string(struct jw *w, const char *key, const char *v);
void jw_int(struct jw *w, const char *key, long long v);
void jw_hex(struct jw *w, const char *key, uint64_t v);   /* "0x...": > 2^53 */
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
void jw_real(struct jw *w, const char *key, double v);   /* three decimals */

/* Hazards, loops and functions as scan and diff write them. h: pointers,
 * else v: an array. */
void results_write_hazard(struct jw *w, const char *key, const struct hazard *h);
void results_write_hazards(struct jw *w, const char *key, const struct hazard *const *h,
			   const struct hazard *v, size_t n);
void results_write_loop(struct jw *w, const char *key, struct elf_image *img,
			const struct scan_result *r, const struct loop_report *l, bool lines);
void results_write_function(struct jw *w, struct elf_image *img, const struct scan_result *r,
			    const struct func_report *fr, bool lines);

/* {"schema":1,"command":name,"tool_version":...}: the head of every document. */
json_t *results_new(const char *command);
/* "jansson 2.14": the JSON library straddle was built with. */
const char *results_library_version(void);

/* A JSON document written as it is made: fields and array elements are
 * jansson values dumped one at a time, so a scan of a 100 MB library never
 * holds its whole document in memory (a jansson tree of libLLVM's scan
 * took 520 MB and four seconds). Elements go one per line. */
struct json_stream {
	FILE *f;
	int depth;
	bool first[8];
	char closer[8];
	bool failed;
};

/* "{" and the fields of `head` (stolen). */
void jstream_begin(struct json_stream *s, FILE *f, json_t *head);
/* Open an array ('[') or object ('{'), as field `key` or (key NULL) as an
 * element of the enclosing array. */
void jstream_open(struct json_stream *s, const char *key, char bracket);
/* A field (key) or element (key NULL); steals v. */
void jstream_put(struct json_stream *s, const char *key, json_t *v);
/* The same, to be written by a jw: the separator and key, then *w set up
 * to write exactly one value. */
struct jw;
void jstream_raw(struct json_stream *s, const char *key, struct jw *w);
void jstream_close(struct json_stream *s);
/* An element (key NULL) whose bytes are from[start, start+n): a value
 * this writer wrote at the same depth (merge.c copies shards' files). */
void jstream_copy(struct json_stream *s, FILE *from, off_t start, size_t n);
/* Close the document; 0, or -1 when a write failed. */
int jstream_end(struct json_stream *s);

/* One scanned file of `straddle scan --json`, as an element of the
 * enclosing array: path, arch, type, counts, then its functions with their
 * loops, windows, hazards and fixes, and irreducible cycles. */
void results_scan_file(struct json_stream *s, struct elf_image *img,
		       const struct scan_result *r, bool source_lines, size_t input);

/* A shard's place in its run (inputs.h): {"index","count","units","units_total"}. */
json_t *results_shard(const struct shard_info *s);

/* `straddle scan --json`'s document, written as it is made: the head,
 * "files" (results_scan_file's, into out) and "errors" (one per file that
 * could not be scanned). */
struct scan_doc {
	struct json_stream out;
	json_t *errors;
};
/* The head: results_run_info, the profiles applied, the host line (NULL
 * or "": none) and, with samples (hot), min_share: what the text folds,
 * so the page folds the same rows. */
struct scan_head {
	int argc;
	char **argv;
	const struct profile *const *profiles;
	size_t nprofiles;
	const char *host;
	bool hot;
	double min_share;
	const struct shard_info *shard; /* --shard: its place, NULL none */
};
/* The head and the opening of "files". */
void results_scan_begin(struct scan_doc *d, FILE *f, const struct scan_head *h);
void results_scan_error(struct scan_doc *d, const char *path, size_t input, const char *error);
/* "errors" and the end of the document; 0, or -1 when a write failed. */
int results_scan_end(struct scan_doc *d);

/* A hazard as JSON: profile, rule, window, certainty, placements, fix. */
json_t *results_hazard(const struct hazard *h);

/* The machine: CPU identity, microcode, ERMS/FSRM/FZRM/FSRS, kernel. */
json_t *results_machine(void);
/* The head of a result file: schema, command, tool version, the command
 * line, the time (UTC) and the machine. */
json_t *results_run_info(const char *command, int argc, char **argv);

/* What every result file's head says (machine.c), read back for the page:
 * the machine, the command line, the time and the tool's version; NULL
 * where the file has none. Two heads name the same machine when every
 * field the machine has agrees. */
struct machine_doc {
	bool present;
	const char *vendor, *model_name, *microcode, *kernel, *arch, *profile;
	bool has_fms;
	long long family, model, stepping;
	char features[64];
};

struct result_head {
	struct machine_doc machine;
	bool has_argv;
	const char **argv;              /* an element NULL: not a string */
	size_t argc;
	const char *time, *tool_version;
};

void results_head_of(const json_t *doc, struct result_head *h);
void results_head_free(struct result_head *h);
bool results_same_machine(const struct machine_doc *a, const struct machine_doc *b);

/* ---- bench's result file (bench.c) ---- */

struct bench_run {
	struct machine_state state;
	json_t *pinned;                 /* {"pread-zero": CPU, ...}, owned */
};

struct bench_record {
	int argc;
	char **argv;
	const struct workload *const *sel;
	const struct wl_result *res;    /* res[i] of sel[i] */
	size_t nsel;
	const struct wl_options *o;
	const struct bench_run *runs;
	unsigned nruns;
	double elapsed_s;
};

json_t *results_bench(const struct bench_record *b);
/* A run's "pinned": the CPU each batch-timed workload of sel (res[i] of
 * sel[i]) pinned itself to in it. */
json_t *results_bench_pinned(const struct workload *const *sel, const struct wl_result *res,
			     size_t nsel);
void results_bench_run_free(struct bench_run *r);
json_t *results_state(const struct machine_state *m);

/* What bench's text says of a workload's details (the JSON its workload
 * recorded): fault-write's probes of its last run (seed 001), and
 * gettime's note on its cold clock; NULL and 0 where the details have none. */
struct fault_probe_read {
	const char *call, *error;
	long long returned, expected;
	bool pass, content_ok;
};

struct workload_notes {
	struct fault_probe_read write, read;
	const char *cold;
};

void results_workload_notes(const json_t *details, struct workload_notes *n);

/* A bench file as the page shows it, of what results_file_of read:
 * the workloads it names, its runs (those its samples have) and what its
 * settings say, each setting as the file says it, and the machine's
 * state of each run (NAN and NULL where a run has none). */
#define BENCH_SETTINGS 5
struct bench_state {
	double seconds, load, steal_pct, others_pct, busy_pct, cpus, mhz;
	const char *clocksource, *governor;
};

struct bench_doc {
	const char *workloads[32];
	size_t nworkloads;
	size_t runs;
	bool runs_differ;               /* the settings' "runs" says otherwise */
	char runs_said[48];
	struct {
		const char *key;        /* duration_s, tasks, modes, align, elapsed_s */
		bool present;
		char text[160];
	} setting[BENCH_SETTINGS];
	struct bench_state *states;
	size_t nstates;
};

struct result_file;
void results_bench_doc(const struct result_file *f, struct bench_doc *b);
void results_bench_doc_free(struct bench_doc *b);

/* ---- diff's document (diff.c) ---- */

/* One side: its image (not const: source lines are read from its DWARF
 * when asked) and its scan. */
struct diff_image {
	struct elf_image *img;
	const struct scan_result *r;
};

/* diff's gate: the rules (1 << enum rule) and causes (1 << enum
 * diff_cause) it fails on, whether it fails, and the exit status saying so. */
struct diff_gate {
	unsigned fail_rules, fail_causes;
	bool fails;
	int exit_status;
};

/* The head of diff's document: results_run_info with the gate. */
json_t *results_diff_head(int argc, char **argv, const struct diff_gate *g);
/* Written to f as it is made, after the fields of `head` (stolen:
 * results_diff_head); 0, or -1 when a write failed.
 * With samples (diff --hot: new->r->hot) each change has its "samples",
 * and those with less than min_share of the run's are left out, counted in
 * the summary's "folded", as the text and markdown fold them. */
int results_diff(FILE *f, json_t *head, const struct diff_image *old,
		 const struct diff_image *new, const struct layout_diff *d, bool source_lines,
		 double min_share);

/* The diff of two directories or packages, a pair per file matched by
 * its path inside them (inputs.h), written as it is made: the head
 * (results_run_info with the profiles, the operands and a shard's
 * place), "pairs" (each a member's, with the fields of results_diff's
 * document after its head), "only_old" and "only_new" (the members on
 * one side only), "errors" (member, path, error), "summary" (the pairs'
 * summed: results_diff_sum) and "gate" (results_diff_gate). */
struct diff_doc {
	struct json_stream out;
	json_t *only_old, *only_new, *errors, *summary;
};
json_t *results_diff_many_head(int argc, char **argv, const char *old, const char *new,
				const struct profile *const *profiles, size_t n,
				const struct shard_info *shard);
void results_diff_begin(struct diff_doc *d, FILE *f, json_t *head);
void results_diff_pair(struct diff_doc *d, const char *member, const struct diff_image *old,
		       const struct diff_image *new, const struct layout_diff *ld, bool source_lines,
		       double min_share);
void results_diff_only(struct diff_doc *d, bool in_new, const char *member);
void results_diff_error(struct diff_doc *d, const char *member, const char *path,
			const char *error);
/* The tail; 0, or -1 when a write failed. */
int results_diff_end(struct diff_doc *d, const struct diff_gate *g);
/* Adds summary `part`'s counts into `total` (objects within, summed the
 * same; what is no count, the first one's): the pairs' summary, written
 * and merged by this one sum. */
void results_diff_sum(json_t *total, const json_t *part);
json_t *results_diff_gate(const struct diff_gate *g);

/* ---- scan and diff documents read back (scan_read.c, diff_read.c) ---- */

/* --min-share's default: scan --hot and diff --hot fold rows in code with
 * less of the run's samples than this; the page, when the document does
 * not say. */
#define SCAN_MIN_SHARE 0.005

/* The profiles a document names, each once (name borrowed from it). */
struct profile_names {
	struct profile **v;
	size_t n, cap;
};

const struct profile *results_named_profile(struct profile_names *p, const char *name);
void results_profile_names_free(struct profile_names *p);
/* "0x..." (jw_hex) as a number, 0 when absent. */
uint64_t results_addr(const json_t *o, const char *key);
/* A hazard and a loop as results_write_hazard and _loop wrote them (into
 * r's hazard and piece arrays, which must have room). A hazard of a rule
 * straddle does not know is none: false (the loop leaves it out). */
bool results_read_hazard(const json_t *j, struct profile_names *names, struct hazard *h);
void results_read_loop(const json_t *j, struct profile_names *names, struct scan_result *r,
		       struct loop_report *l);

/* One file of a scan document: its scan_result as the scan made it (its
 * funcs.v the functions reported, sections unknown), the loops' source
 * lines. Strings are borrowed from the document. */
struct scan_read_file {
	const char *path, *arch, *elf_type;
	size_t functions_total;
	struct scan_result r;
	const char **loop_source;       /* [i] of r.loop[i], NULL none */
};

/* A file scan could not scan, and why. */
struct scan_read_error {
	const char *path, *error;
};

struct scan_read {
	struct scan_read_file *file;
	size_t nfile;
	struct scan_read_error *error;
	size_t nerror;
	const char *host;               /* how "host" was resolved, NULL */
	double min_share;               /* the document's, else SCAN_MIN_SHARE */
	struct profile_names names;
};

void results_read_scan(const json_t *doc, struct scan_read *out);
void results_scan_read_free(struct scan_read *s);

/* The gate as diff's exit status gave it, and what it was asked to fail on. */
struct diff_read_gate {
	bool known;                     /* the document has it */
	bool fails;
	int exit_status;
	unsigned rules, causes;         /* 1 << enum rule, 1 << enum diff_cause */
};

/* Two functions matched under different names. */
struct diff_read_rename {
	const char *old, *new, *by;
};

/* A diff document: the changes of layout_diff over two scan_results that
 * hold only what the changes name; d's counts are the summary's. */
struct diff_read {
	const char *old_path, *new_path;
	struct scan_result old, new;
	struct layout_diff d;
	struct diff_read_gate gate;
	struct diff_read_rename *renamed;
	size_t nrenamed;
	const char **source;            /* [k]: the source line of d.v[k], NULL none */
	double min_share;
	/* --hot: the rows under min_share the document leaves out */
	size_t folded_new_rows, folded_fixed_rows;
	struct profile_names names;
	/* two directories or packages (results_diff_begin's document): this
	 * holds the run's summary and gate, each pair its own diff (member
	 * its path inside, no gate of its own), and the members on one side */
	bool of_pairs;
	struct diff_read *pair;
	const char **member;
	size_t npair;
	const char **only[2];           /* old's, new's */
	size_t nonly[2];
	struct scan_read_error *errors; /* path, error */
	size_t nerrors;
};

void results_read_diff(const json_t *doc, struct diff_read *out);
void results_diff_read_free(struct diff_read *r);

/* ---- straddle merge (merge.c) ---- */

/* The documents of one run's shards (scan --json, diff --json of two
 * directories or packages, or either's SARIF), read and checked: one
 * kind, one straddle version, one set of profiles, one command line but
 * for --shard, every shard of the run once, none cut short. NULL with
 * one line in e (naming the file) when they are not. */
struct merge;
struct merge *results_merge_open(char *const *paths, size_t n, struct err *e);
/* The run's document to f, as the run unsharded writes it (its time and
 * machine the first shard's); 0, or -1 when a write failed. For
 * write_atomic. */
int results_merge_write(FILE *f, void *merge);
void results_merge_free(struct merge *m);

/* ---- sweep's result file (sweep.c) ---- */

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

/* ---- place's result file (place.c) ---- */

/* subject: the function moved, or the glob that chose several; refused[]:
 * how many functions were moved (RELOC_OK) and refused, by reason. */
json_t *results_place(const struct place_experiment *x, const char *subject,
		      const size_t refused[RELOC_NREFUSALS], int argc, char **argv);

/* ---- prove's result file (prove.c) ---- */

json_t *results_prove(const struct loop_trial *t, size_t n, const char *profile, int argc,
		      char **argv);
/* prove's document read back (prove_read.c): each loop's trial as prove
 * made it, for its table on the page. What the document rounds (the cost
 * model's three decimals) stays rounded; a slowdown or CI it wrote as
 * null (not finite) reads as INFINITY for the loop's measured slowdown
 * and its bounds, NAN elsewhere. */
struct prove_doc {
	const char *profile;
	struct loop_trial *trial;       /* file and func owned */
	size_t n;
};

void results_read_prove(const json_t *doc, struct prove_doc *p);
void results_prove_doc_free(struct prove_doc *p);
/* The enum cost_bound of its name (cost_bound_name), COST_AT_BEST for none. */
int results_cost_bound(const char *name);

/* A result file read back (read.c): its metrics with their raw samples,
 * run by run (a sweep is one run). */
struct metric_run {
	double *v;
	size_t n;
	size_t file;                    /* the invocation: which of a side's files, from 0 */
};

struct metric {
	char *name, *unit;
	bool lower_is_better;
	char *kernel;                   /* sweep: the kernel placed; else NULL */
	struct metric_run *runs;
	size_t nruns;
};

/* The kinds of result file (kinds.c): one table for report and compare,
 * in the order their lists name them. */
enum result_kind {
	RESULT_SCAN, RESULT_DIFF, RESULT_RECORD, RESULT_BENCH, RESULT_SWEEP, RESULT_PLACE,
	RESULT_PROVE, RESULT_CALIBRATE, RESULT_COMPARE, RESULT_KINDS
};

struct result_kind_info {
	const char *command;            /* the document's "command" */
	const char *needs;              /* a field a document of the kind has, or NULL */
	bool metrics;                   /* metrics with runs of samples: results_read, compare */
};

const struct result_kind_info *result_kind(enum result_kind k);
/* The kind of a document's "command", -1 for none of them. */
int result_kind_of(const char *command);
/* "scan, diff, ... and compare" (metrics_only: "bench, sweep and place";
 * last: the word before the last, "and" or "or"). */
void result_kind_list(bool metrics_only, const char *last, char *buf, size_t n);
/* A result file of any kind, parsed (no duplicate keys), its "command" one
 * of the kinds and the field its kind cannot lack there: the document
 * with *kind, or NULL with one line naming the file in e. */
json_t *results_load_any(const char *path, int *kind, struct err *e);

struct result_file {
	char *path;
	json_t *doc;                    /* the (first) file's document */
	json_t *more;                   /* a directory's other documents */
	const char *command;            /* "bench" or "sweep" (in doc) */
	json_t *machine;                /* borrowed from doc, may be NULL */
	json_t *states;                 /* one machine state per run, null where none */
	struct metric *m;
	size_t n;
	size_t nfiles;                  /* 1, or a directory's result files */
};

/* A file, or a directory whose *.json files are one side (their runs
 * pooled in name order). 0, or -1 with one line, naming the file, saying
 * what is wrong with it. */
int results_read(const char *path, struct result_file *r, struct err *e);
/* The same of one file's document already parsed (doc: the caller's, r
 * holds a reference of its own); results_file_free(r) also on error. */
int results_file_of(const char *path, json_t *doc, struct result_file *r, struct err *e);
void results_file_free(struct result_file *r);
const struct metric *results_metric(const struct result_file *r, const char *name);
/* m of base in r: the metric of that name, or for a kernel that base and r
 * each placed at one offset only, r's placement of it. */
const struct metric *results_counterpart(const struct result_file *base, const struct metric *m,
					 const struct result_file *r);
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


/* ---- sweep's and place's documents, typed (measured.c) ---- */

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
	bool slow;
	struct measured_hazard predicted[8];
	size_t npredicted, npredicted_all;      /* kept, and in the file */
};

/* o, a placement's object, with its test's p in pkey. */
void results_measured_point(const json_t *o, const char *pkey, struct measured_point *p);

struct sweep_doc {
	double size, cpu, resolution_ns, rounds, elapsed_s, alpha, material;
	const char *clock_source, *stopped_by, *profile, *counters;
	struct measured_point *pt;      /* the metrics, in the file's order */
	size_t n;
	struct sweep_agreement *agree;
	size_t nagree;
};

struct place_doc {
	const char *function, *file, *loop, *measure, *stopped_by, *profile;
	double current, rounds, elapsed_s, identical, runs, moved;
	double same_status;
	bool checked;                   /* the output compared (not --no-output-check) */
	struct measured_point *pt;      /* the arms, in the file's order */
	size_t n;
};

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

/* Of a document results_file_of (sweep, place) or results_calibration_of
 * (calibrate) read; doc lives as long as the struct. */
void results_sweep_doc(const json_t *doc, struct sweep_doc *s);
void results_sweep_doc_free(struct sweep_doc *s);
void results_place_doc(const json_t *doc, struct place_doc *p);
void results_place_doc_free(struct place_doc *p);
void results_calib_doc(const json_t *doc, struct calib_doc *c);
void results_calib_doc_free(struct calib_doc *c);

/* The whole record document: the sampling's event and counts, the run,
 * the files (results_record_add_file's, in its order) and the kernel
 * (results_record_set_kernel's, or none), both taken; the notes the
 * event's, the kernel's and `few` (each when set), and that kernel
 * symbols were hidden. */
struct record_doc {
	int argc;
	char **argv;                    /* straddle's own */
	const struct sampling *s;
	unsigned long hz;
	bool hz_auto;                   /* chosen, not given with -F */
	double sample_cost_ns;          /* < 0: not measured */
	int exit_status;                /* the program's */
	uint64_t outside;               /* samples in a file but outside its segments */
	json_t *files, *kernel;         /* NULL until added, then results_record's */
	bool ksyms_hidden;
	const char *few;                /* a note on too few samples, or "" */
};
/* A record's sampled file, appended to d->files: its samples per
 * function and loop of the scan r (NULL when the file could not be
 * scanned: error says why) and every sampled address. */
void results_record_add_file(struct record_doc *d, const struct hot_file *f,
			     struct scan_result *r, const char *error);
/* The kernel's part: its release, build id, text, functions and addresses. */
void results_record_set_kernel(struct record_doc *d, const struct hot_run *h);
json_t *results_record(const struct record_doc *d);
/* Read a record back for scan --hot: 0, or -1 with one line in e. */
int results_read_record(const char *path, struct hot_run *h, struct err *e);
/* A record document read back whole for the page (strings borrowed from
 * it, NULL where it has none; numbers 0): each file's loops and functions
 * in the file's order (most samples first, as results_record_add_file wrote
 * them), each loop's hazards as the record's scan saw them. */
struct record_hazard_read {
	const char *rule, *profile;
	long long window;
	struct hazard h;                /* for its fix; a rule not known: zero */
};

struct record_loop_read {
	const char *function, *start, *end;
	uint64_t bytes;                 /* end - start */
	long long depth, samples;
	struct record_hazard_read *hazard;
	size_t nhazard;
};

struct record_function_read {
	const char *name, *addr;
	long long samples;
};

struct record_file_read {
	const char *path, *build_id, *error;
	bool has_error;                 /* "error" present (a string or not) */
	long long samples;
	struct record_loop_read *loop;
	size_t nloop;
	struct record_function_read *function;
	size_t nfunction;
};

struct record_read {
	const char *event;
	bool has_frequency, has_exit_status, has_sample_cost;
	long long frequency, exit_status;
	double sample_cost_ns;
	long long total, user, kernel, unmapped, lost;     /* "samples" */
	const char **note;
	size_t nnote;
	struct record_file_read *file;
	size_t nfile;
	struct record_function_read *kernel_function;
	size_t nkernel_function;
	struct profile_names names;
};

void results_record_read(const json_t *doc, struct record_read *r);
/* A record file read so, its document kept in *doc (r points into it;
 * json_decref it after results_record_read_free). 0, or -1 with e. */
int results_record_load(const char *path, struct record_read *r, json_t **doc, struct err *e);
void results_record_read_free(struct record_read *r);
/* The text of `perf script -F ip,dso,sym` or its default output
 * (perfscript.c): samples by file, runtime addresses turned into the
 * files' own through each file's load bias; kernel samples by symbol. */
int results_read_perf_script(const char *path, struct hot_run *h, struct err *e);

/* Write `doc` to stdout ("-") or atomically to path. */
int results_write(json_t *doc, const char *path, struct err *e);

/* ---- straddle kernels --json (kernels.c) ---- */

/* Every built-in kernel with the features it needs (have: this CPU's
 * KFEAT_*, for what it lacks), and --check's counts unless check is NULL. */
json_t *results_kernels(unsigned have, const struct kernels_check_result *check);
/* kernels --file VMLINUX --func NAME --json: the routine as it is run
 * (relocate.h's kroutine: edits, exception table, loops, alternatives;
 * offsets from its copy's first byte), and --check's counts. */
json_t *results_routine(const struct routine *rt, const struct kernels_check_result *check);

/* ---- compare's JSON document, typed (compared.c) ---- */

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

/* ---- a comparison of result files, in memory (side.c, compared.c) ----
 * report/compare.c builds it (compare_build) and prints it; results/
 * reads the sides it is built of and writes its document. */

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
	enum stat_kind stat;            /* the one statistic of the row (issue 12) */
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
/* What bench --invocations records in each file of a side (issue 22: a
 * band recorded by bench): {"invocations", "side", "versus", "band_pct":
 * {metric: {statistic: pct}}}, compare's drift for a BASE of one of them
 * when no --drift is given. */
json_t *results_drift_record(const struct result_file *aa, const char *side,
			     const char *versus);
/* Does the result file at path have metrics to band? (fault-write alone:
 * counts, no samples.) */
bool results_has_metrics(const char *path);
/* The file at path with rec (results_drift_record's, copied) as its
 * "drift", stamped with its "order" among the "of" invocations, and the
 * "-o" of its command line made final_out (where it will be once its
 * directory is renamed); NULL when it cannot be read back. */
json_t *results_drift_stamp(const char *path, const json_t *rec, size_t order, size_t of,
			    const char *final_out);
/* The band BASE's own file recorded for the metric's statistic k, NAN
 * when none: a number of 0 or more, from 2 or more invocations. */
double results_recorded_drift(const struct result_file *base, const char *metric,
			      enum stat_kind k);
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

/* ---- profile files (profile.c) ---- */

/* A profile's fields as JSON (straddle uarch --json, calibrate's file). */
json_t *results_profile(const struct profile *p);
/* straddle uarch --json: every built-in profile, the calibrated one of
 * this CPU (cal, read from cal_path; NULL: none) and the host detected. */
json_t *results_uarch(const struct host *h, const struct profile *cal, const char *cal_path);
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
/* model.h's profile_loader: the profile of a calibrate file, kept until
 * exit, or NULL with "PATH: what is wrong" in *e. */
const struct profile *results_profile_load(const char *path, struct err *e);
/* The same of a document already parsed (the page of straddle report
 * reads each file once). */
const struct profile *results_profile_of(const char *path, const json_t *doc, struct err *e);
/* Frees every profile loaded so far, for a process that loads profiles
 * without end (fuzz/fuzz_report.c: each input a calibrate file, read twice
 * for a page); nothing may hold one then. */
void results_profiles_forget(void);
/* The experiments of a calibrate file (for refitting and the tests) and
 * the machine they were measured on (h: vendor, family, model, stepping,
 * model name, its built-in profile; *machine, unless NULL: the recorded
 * "machine" object whole, microcode, features and kernel too, owned by the
 * caller, so that a refit says the machine measured, not the one fitting);
 * calib_free(*out, *n) afterwards, also on error. */
int results_calibration_read(const char *path, struct host *h, json_t **machine,
			     struct calib_experiment **out, size_t *n, struct err *e);
int results_calibration_of(const char *path, const json_t *doc, struct host *h,
			   json_t **machine, struct calib_experiment **out, size_t *n, struct err *e);

/* ---- SARIF 2.1.0 (sarif.c): scan's and diff's rows as code-scanning alerts ---- */

/* One row of a table: a subject's hazards of one rule. */
struct sarif_result {
	enum rule rule;
	unsigned severity;              /* of the worst hazard of the row */
	const char *severity_name;
	const char *message;
	/* the source file (relative to the source root when `relative`), else
	 * the ELF file; line 0 when there is no DWARF line, and then the
	 * region is the subject's bytes in the ELF file when `in_file` */
	const char *uri;
	bool relative;
	int line;
	bool in_file;
	uint64_t byte_offset, byte_length;
	/* the ELF file and the operand it came from (inputs.h): a merge's
	 * order of shards' results */
	const char *file;
	size_t input;
	const char *function, *section;
	uint64_t address, bytes;
	const char *profiles;           /* "skylake,zen5" */
	const unsigned *windows;
	size_t nwindows;
	const char *placement, *fix;
	const char *compiler_fix;       /* NULL or "" when none is known */
	const char *cause;              /* diff: why it is new; NULL for scan */
	/* the cost model's slowdown of the row's costliest hazard (issue 26),
	 * 0 when not priced; at_most: an upper bound (loop not simulated) */
	double slowdown;
	bool slowdown_at_most;
	/* partialFingerprints: the rule, the function and the loop's shape,
	 * not its address, so an alert is the same alert after a relink */
	uint64_t fingerprint;
};

/* A log of one run, made in memory: source_root the SRCROOT base of
 * relative URIs (or NULL); the command line as the invocation's
 * arguments, the profiles and a shard's place (or NULL) in the run's
 * properties, for a merge to check. */
struct sarif_head {
	const char *source_root;
	int argc;
	char **argv;
	const struct profile *const *profiles;
	size_t nprofiles;
	const struct shard_info *shard;
};
struct sarif_log;
struct sarif_log *sarif_new(const struct sarif_head *h);
void sarif_add(struct sarif_log *log, const struct sarif_result *r);
/* The results added so far; the first n kept, the rest dropped (scan: a
 * file that changed while it was read has no rows). */
size_t sarif_count(const struct sarif_log *log);
void sarif_truncate(struct sarif_log *log, size_t n);
/* A file that could not be scanned (of operand `input`; diff: of the pair
 * of `member`, else NULL): a tool execution notification. */
void sarif_notify(struct sarif_log *log, const char *path, size_t input, const char *member,
		  const char *text);
/* Writes the log whole and frees it; 0, or -1 when f could not take it. */
int sarif_write(struct sarif_log *log, FILE *f, bool success);
/* A log's bytes, as sarif_write and a merge (merge.c) write them. */
int sarif_dump(const json_t *doc, FILE *f);

#endif
