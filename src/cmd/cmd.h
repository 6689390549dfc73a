/* cmd: one file per command. Each parses its options, calls the layers and
 * prints. Exit status: 0 success, 1 a gate failed, 2 usage or input error. */
#ifndef STRADDLE_CMD_H
#define STRADDLE_CMD_H

#include "../base/base.h"
#include "../model/model.h"

#include <stddef.h>
#include <stdio.h>
#include <unistd.h>      /* optind, after parse_command_line */

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_USAGE = 2 };

/* What an option does with its value; `field` is the offset of the target
 * in the command's own struct (offsetof). */
enum opt_kind {
	OPT_SET,        /* no value: the bool becomes true */
	OPT_CLEAR,      /* no value: the bool becomes false (--no-...) */
	OPT_STRING,     /* const char *: the value itself */
	OPT_OUTPUT,     /* const char *: a file to write, refused now if it exists
			   and is not a regular file ("-": standard output) */
	OPT_UNSIGNED,   /* unsigned: a decimal number in [min, max] */
	OPT_ULONG,      /* unsigned long: the same */
	OPT_U64,        /* uint64_t: the same */
	OPT_SECONDS,    /* double: "20", "0.5s" (parse_seconds) */
	OPT_FRACTION,   /* double: "2%", "0.02" in [lo, hi] (parse_fraction) */
	OPT_RULES,      /* unsigned mask: RULE,...|any (parse_rules) */
	OPT_CALL,       /* call(cmd, "--name", value) does it all */
};

/* One option, written once: getopt_long's list, --help and the manual page
 * are all made from a command's table of these (issue 9). */
struct cmd_option {
	const char *name;               /* the long name, without "--"; NULL: none */
	char letter;                    /* the short name, 0: none */
	const char *value;              /* the value's name in --help, NULL: takes none */
	const char *help;               /* lines of at most 59 columns, '\n' between */
	enum opt_kind kind;
	size_t field;
	unsigned long min, max;         /* OPT_UNSIGNED, OPT_ULONG, OPT_U64 */
	double lo, hi;                  /* OPT_FRACTION */
	int (*call)(void *cmd, const char *opt, const char *value);
};

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;            /* one line, for 'straddle --help' */
	const char *args;               /* after "straddle NAME " in the usage line */
	const char *about;              /* paragraphs before the options */
	void (*list)(FILE *out);        /* or NULL: lines printed after `about` */
	const struct cmd_option *options;       /* ends with { 0 }; -h, --help is added */
	const char *notes;              /* paragraphs after the options */
	bool in_order;                  /* options end at the first operand (a command to run) */
};

/* -h, --help: every command has it, after its own options. */
extern const struct cmd_option option_help;

extern const struct command scan_command, diff_command, kernels_command, sweep_command,
	bench_command, compare_command, uarch_command, record_command, calibrate_command,
	report_command, place_command, prove_command, merge_command;

/* getopt_long over cmd->options, storing into `target` (the command's
 * struct). --help prints the help and exits 0. 0 when every option was
 * good (optind is then the first operand), else -1 after one line. */
int parse_command_line(const struct command *cmd, void *target, int argc, char **argv);

/* The --help text, and the manual page straddle(1) with one section per
 * command, both from the same tables. */
void print_help(const struct command *cmd, FILE *out);
void print_man(const struct command *const *cmds, size_t n, FILE *out);

/* Shared by the commands that take --uarch NAME[,NAME...]|host|all:
 * fills out[] (at most max) and says in `why` how "host" was resolved.
 * HOST_WHY_MAX holds the longest: the detection ("cpuid ... says icelake,
 * but AMX: ...") and a calibrated file's path (PATH_MAX); 160 cut it. */
#define HOST_WHY_MAX (256 + 4096)
int select_profiles(const char *spec, const struct profile **out, size_t max,
		    size_t *n, char *why, size_t why_len);

/* NAME,...|any into a mask of (1 << lookup(NAME)); lookup returns -1 for
 * an unknown name. An unknown name, or naming none ("" once turned scan's
 * gate off), is one line on stderr and -1. kind: "rule", placeholder:
 * "RULE", for the messages. */
int parse_name_list(const char *opt, const char *spec, int (*lookup)(const char *name),
		    const char *kind, const char *placeholder, unsigned *mask);
/* --fail-on RULE,...|any into a mask of (1 << enum rule). */
int parse_rules(const char *opt, const char *spec, unsigned *mask);

/* A decimal number in [min, max], or one line on stderr and -1. */
int parse_number(const char *opt, const char *s, unsigned long min, unsigned long max,
		 unsigned long *out);

/* "20", "0.5s": more than 0, at most a day. */
int parse_seconds(const char *opt, const char *s, double *out);
/* "2%", "0.02", within [min, max]. */
int parse_fraction(const char *opt, const char *s, double min, double max, double *out);

/* getopt_long returned '?' or ':' (option strings start with ':' and
 * opterr is 0, so getopt says nothing itself): one line, returns -1. */
int bad_option(const char *cmd, int ch, char **argv);

/* --hot RECORD or --perf-script FILE (hot.c): *h empty when neither is
 * given; -1 after one line when the file is bad or both are given. */
int hot_load(const char *record, const char *perf_script, struct hot_run *h);
/* The samples of h in the loops and functions of img's scan r. */
void hot_attribute_image(const struct hot_run *h, struct elf_image *img, struct scan_result *r);

/* --llvm-mca's value (scan, prove, place): NULL or "in-process" LLVM's
 * model in process, "none", or an llvm-mca that runs here; -1 after one
 * line when it is none of them. */
int check_back_end(const char *llvm_mca);
/* Why some of file's loops are priced by their bounds only: one line on
 * stderr (the scan's cost_note), nothing when all were priced. */
void note_back_end(const char *file, const struct scan_result *r);
/* The --llvm-mca option's help, written once for every command. */
#define LLVM_MCA_HELP                                                                  \
	"the cost model's back end: in-process (the default), LLVM 19's\n"               \
	"scheduling model of each profile's CPU read in process; PROGRAM,\n"             \
	"llvm-mca run as a program (the reference); none, the profile's\n"               \
	"measured bound only (default: $STRADDLE_LLVM_MCA, else in-process)"

/* One line on stderr: "straddle: WHAT: MESSAGE", both escaped
 * (fputs_escaped); say: "straddle: MESSAGE". */
void complain(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A result document to path ("-": standard output), whole or not at all
 * (results_write), and freed; 0, or -1 after one line naming the file
 * (or "stdout"). Every command's -o and --json write through it. */
struct json_t;                  /* jansson's json_t */
int write_result(struct json_t *doc, const char *path);

/* --file VMLINUX --func NAME [--call SPEC] [--loop ADDR] [--alternative
 * FEATURE]... (routine.c): a kernel image's routine, for sweep and
 * kernels. ROUTINE_OPTIONS(F, set_alternative) lays the options down in a
 * command's table (F: its offsetof of a field; set_alternative: its
 * OPT_CALL passing its struct routine_args to routine_args_alternative). */
#define ROUTINE_MAX_ALTERNATIVES 8

struct routine_args {
	const char *file, *func, *call, *loop;
	const char *alternative[ROUTINE_MAX_ALTERNATIVES];
	size_t nalternatives;
};

#define ROUTINE_OPTIONS(F, set_alternative) \
	{ .name = "file", .value = "VMLINUX", .kind = OPT_STRING, .field = F(ra.file), \
	  .help = "a kernel image (the -dbg package's vmlinux): run its\n" \
		  "own routine --func instead of a built-in kernel" }, \
	{ .name = "func", .value = "NAME", .kind = OPT_STRING, .field = F(ra.func), \
	  .help = "the routine of --file (clear_user_original,\n" \
		  "rep_movs_alternative, __put_user_2, ...)" }, \
	{ .name = "call", .value = "SPEC", .kind = OPT_STRING, .field = F(ra.call), \
	  .help = "its registers when it has no built-in call:\n" \
		  "KIND,dst=REG,src=REG,len=REG,ret=REG,REG=N,...\n" \
		  "(KIND: clear, copy, put1|2|4|8, get1|2|4|8, csum)" }, \
	{ .name = "loop", .value = "ADDR", .kind = OPT_STRING, .field = F(ra.loop), \
	  .help = "its hot loop: an address in it (0x... of the file,\n" \
		  "+OFF from the entry); default the innermost loop\n" \
		  "of the most bytes" }, \
	{ .name = "alternative", .value = "FEATURE", .kind = OPT_CALL, .call = set_alternative, \
	  .help = "apply the .altinstructions entries of FEATURE\n" \
		  "(ERMS, FSRM, REP_GOOD, !FEATURE for ALT_NOT ones,\n" \
		  "WORD*32+BIT); default the file's bytes" }

/* The seeds' workloads as the calls one operation of theirs makes
 * (pread_z1k, pread_z10k, pread_z100k, read1, poll2); NULL: no such. */
struct workload_shape {
	const char *name;
	uint32_t calls[25];
	size_t ncalls;
};
const struct workload_shape *workload_shape_named(const char *name);

/* diff --measure (diff_measure.c): the routines with a built-in call whose
 * loops the change moved or resized, each build's own bytes run at each
 * build's placement, new against old (and old against itself), beside the
 * cost model's prediction; seconds: each pair's budget a workload. */
struct diff_measure_input {
	const char *old_path, *new_path;
	const struct elf_image *old_img, *new_img;
	const struct profile *host;
	const char *host_why;
	double seconds;
};
int diff_measure(const struct diff_measure_input *in);

/* straddle place --file vdso (place_vdso.c): a function of straddle's own
 * vDSO moved, bench's gettime measured against each placement. */
bool place_vdso_asked(int argc, char **argv);
int place_vdso(int argc, char **argv);

/* straddle place --replay's words (place_replay.c): why the loop was not
 * replayed, said on standard error (true: nothing to show), and its
 * table. */
struct place_experiment;
struct place_arm;
/* "loop-straddles-window@64,...": the hazards the model predicts for an arm. */
void place_predicted_text(const struct place_arm *a, char *buf, size_t n);
bool place_replay_refused(struct place_experiment *x);
/* After the fit: no round of snapshots to judge by, said and kept (true). */
bool place_replay_unmeasured(struct place_experiment *x);
void place_replay_print(const struct place_experiment *x, const char *file, size_t moved);

struct routine;
int routine_args_alternative(struct routine_args *a, const char *opt, const char *value);
/* The routine the arguments name: 1 with *out, 0 when no --file was
 * given (and no --func either), -1 after one line (no symbols, no such
 * routine, refused, no call known). label: its name in tables, or NULL. */
int routine_args_open(const struct routine_args *a, const char *label, struct routine **out);

#endif
