/* options: the command line of every command, written once (as git's
 * parse-options): each command's table of options, their defaults and
 * help, getopt_long's list, --help and the manual page made from it, the
 * options several commands take, and the one way a command says what is
 * wrong. Exit status: 0 success, 1 a gate failed, 2 usage or input error. */
#ifndef STRADDLE_OPTIONS_H
#define STRADDLE_OPTIONS_H

#include "../base/base.h"
#include "../inputs/inputs.h"
#include "../model/profile.h"
#include "../model/scan.h"
#include "../model/hot.h"
#include "../stats/stats.h"

#include <stddef.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_USAGE = 2 };

/* How "host" was resolved (--uarch): the detection ("cpuid ... says
 * icelake, but AMX: ...") and a calibrated file's path (PATH_MAX); 160
 * cut it. */
#define HOST_WHY_MAX (256 + 4096)

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
	OPT_CHOICE,     /* an enum: the index of the value in choices */
	OPT_PROFILES,   /* struct profiles_arg: NAME,...|host|all|FILE.json, at most
			   max of them, resolved once the command line is read */
	OPT_BACK_END,   /* const char *: in-process, none or an llvm-mca that runs
			   here (check_back_end), checked once the line is read */
	OPT_SHARD,      /* struct shard: K/N (shard_parse) */
	OPT_CALL,       /* call(cmd, "--name", value) does it all */
};

/* One option, written once: getopt_long's list, --help and the manual page
 * are all made from a command's table of these, and its default is given
 * here as the command line would give it: set before the command line is
 * read, said in the help. */
struct cmd_option {
	const char *name;               /* the long name, without "--"; NULL: none */
	char letter;                    /* the short name, 0: none */
	const char *value;              /* the value's name in --help, NULL: takes none */
	const char *help;               /* lines of at most 59 columns, '\n' between */
	enum opt_kind kind;
	size_t field;
	unsigned long min, max;         /* OPT_UNSIGNED, OPT_ULONG, OPT_U64; OPT_PROFILES: max */
	double lo, hi;                  /* OPT_FRACTION */
	const char *const *choices;     /* OPT_CHOICE: the values, NULL-ended */
	int (*call)(void *cmd, const char *opt, const char *value);
	const char *dflt;               /* the default, as a value given: "(default DFLT)" */
	const char *env;                /* a variable whose value, set, is the default */
};

/* OPT_PROFILES' field: the profiles a command applies. */
struct profiles_arg {
	const char *spec;
	const struct profile *v[MODEL_MAX_PROFILES];
	size_t n;
	char why[HOST_WHY_MAX];         /* how "host" was resolved, "" when not named */
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

/* getopt_long over cmd->options, storing into `target` (the command's
 * struct). --help prints the help and exits 0. 0 when every option was
 * good (optind is then the first operand), else -1 after one line. */
int parse_command_line(const struct command *cmd, void *target, int argc, char **argv);

/* The --help text, and the manual page straddle(1) with one section per
 * command, both from the same tables. */
void print_help(const struct command *cmd, FILE *out);
void print_man(const struct command *const *cmds, size_t n, FILE *out);

/* Shared by the commands that take --uarch NAME[,NAME...]|host|all:
 * fills out[] (at most max) and says in `why` how "host" was resolved. */
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

/* The index of s in names (NULL-ended) in *out (an enum), or one line on
 * stderr naming them and -1. */
int parse_choice(const char *opt, const char *s, const char *const *names, int *out);
/* A decimal number in [min, max], or one line on stderr and -1. */
int parse_number(const char *opt, const char *s, unsigned long min, unsigned long max,
		 unsigned long *out);

/* "20", "0.5s": more than 0, at most a day. */
int parse_seconds(const char *opt, const char *s, double *out);
/* "2%", "0.02", within [min, max]. */
int parse_fraction(const char *opt, const char *s, double min, double max, double *out);
/* "1,2,4", "1-4", "1-2,8" into v[0..*n): ascending, each once, 1 to max
 * (v holds max); what: "task counts", for the message. */
int parse_counts(const char *opt, const char *s, const char *what, unsigned max, unsigned *v,
		 size_t *n);
/* A call's bytes: "4096", "64K", "1M"; 1 byte to 1 GiB. */
int parse_size(const char *opt, const char *s, size_t *out);
/* Code offsets from a page: "A..B", "A..B:STEP", "A" into first, last
 * and step, 0 <= A <= B <= 4095, 1 <= STEP <= 4095. */
int parse_offsets(const char *opt, const char *s, uint32_t *first, uint32_t *last, uint32_t *step);

/* getopt_long returned '?' or ':' (option strings start with ':' and
 * opterr is 0, so getopt says nothing itself): one line, returns -1. */
int bad_option(const char *cmd, int ch, char **argv);

/* --llvm-mca's value (scan, prove, place): NULL or "in-process" LLVM's
 * model in process, "none", or an llvm-mca that runs here; -1 after one
 * line when it is none of them. */
int check_back_end(const char *llvm_mca);
/* Why some of file's loops are priced by their bounds only: one line on
 * stderr (the scan's cost_note), nothing when all were priced. */
void note_back_end(const char *file, const struct scan_result *r);
/* One line on stderr: "straddle: WHAT: MESSAGE", both escaped
 * (fputs_escaped); say: "straddle: MESSAGE". */
void complain(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- the options several commands take, each written once ----
 *
 * F is the command's offsetof macro, m the member the value goes to, what
 * the words a command's own use of the option needs. */

/* The defaults of options several commands take where their commands
 * differ. --material, the slowdown that counts: 5% of a kernel's floor
 * against its best offset (sweep: a floor is steady to a fraction of a
 * per cent), 2% of a whole program's time against the program unmoved
 * (place: a program's own noise is its measure's), 3% of a hot loop
 * under prove (its share of the program scales what can be seen). */
#define SWEEP_MATERIAL "5%"
/* A number's default as the option's text: OPT_TEXT(SWEEP_MIN_ROUNDS) is "50". */
#define OPT_TEXT(x) OPT_TEXT_(x)
#define OPT_TEXT_(x) #x
#define PLACE_MATERIAL "2%"
#define PROVE_MATERIAL "3%"

#define OPT_UARCH_ONE(F, m, what) \
	{ .name = "uarch", .value = "NAME", .kind = OPT_PROFILES, .field = F(m), .max = 1, \
	  .dflt = "host", .help = what "\nNAME: a profile ('straddle uarch'), host, or a\n" \
	  "calibrate file FILE.json" }
#define OPT_UARCH_MANY(F, m, n, what) \
	{ .name = "uarch", .value = "NAME[,NAME...]", .kind = OPT_PROFILES, .field = F(m), \
	  .max = (n), .dflt = "host", .help = what "\nNAME: a profile ('straddle uarch'), host, all, or\n" \
	  "a calibrate file FILE.json" }
#define LLVM_MCA_HELP \
	"the cost model's back end: in-process (the default), LLVM 19's\n" \
	"scheduling model of each profile's CPU read in process; PROGRAM,\n" \
	"llvm-mca run as a program (the reference); none, the profile's\n" \
	"measured bound only (default: $STRADDLE_LLVM_MCA, else in-process)"
#define OPT_LLVM_MCA(F, m) \
	{ .name = "llvm-mca", .value = "in-process|PROGRAM|none", .kind = OPT_BACK_END, \
	  .field = F(m), .env = "STRADDLE_LLVM_MCA", .help = LLVM_MCA_HELP }
#define OPT_EXACT_COST(F, m) \
	{ .name = "exact-cost", .kind = OPT_SET, .field = F(m), \
	  .help = "price each loop by llvm-mca's own simulation of it\n" \
		  "(in process, or by the PROGRAM --llvm-mca names)\n" \
		  "instead of the model's bounds: the reference, some\n" \
		  "100x slower a loop" }
#define OPT_ALPHA(F, m, what) \
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(m), .lo = 1e-9, \
	  .hi = 0.5, .dflt = OPT_TEXT(STATS_ALPHA), .help = what }
#define OPT_MATERIAL(F, m, dflt_, what) \
	{ .name = "material", .value = "P", .kind = OPT_FRACTION, .field = F(m), .lo = 0, \
	  .hi = 10, .dflt = dflt_, .help = what }
#define OPT_SEED(F, m, what) \
	{ .name = "seed", .value = "N", .kind = OPT_U64, .field = F(m), .max = ULONG_MAX, \
	  .dflt = "1", .help = "seed of " what }
#define OPT_WALL(F, m) \
	{ .name = "wall", .kind = OPT_SET, .field = F(m), \
	  .help = "measure wall time, not the CPU time it used" }
#define OPT_METRIC(F, m) \
	{ .name = "metric", .value = "REGEX", .kind = OPT_STRING, .field = F(m), \
	  .help = "measure the number the program prints: the first\n" \
		  "match of REGEX in its output (its first group, if any)" }
#define OPT_DIRECTION(F, m) \
	{ .name = "direction", .value = "lower|higher", .kind = OPT_STRING, .field = F(m), \
	  .dflt = "lower", .help = "which --metric is better" }
#define OPT_JSON(F, m, what) \
	{ .name = "json", .kind = OPT_SET, .field = F(m), .help = "JSON on standard output" what }
#define OPT_FUNC(F, m) \
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(m), \
	  .help = "only functions whose name matches GLOB" }
/* --jobs' default (scan, diff), said in OPT_JOBS' help: the CPUs online,
 * at most JOBS_MAX. */
#define JOBS_MAX 16
unsigned jobs_default(void);
#define OPT_JOBS(F, m) \
	{ .name = "jobs", .letter = 'j', .value = "N", .kind = OPT_UNSIGNED, .field = F(m), \
	  .min = 1, .max = 256, .help = "threads (default: online CPUs, at most " \
	  OPT_TEXT(JOBS_MAX) ")" }
#define OPT_NO_SOURCE(F, m) \
	{ .name = "no-source", .kind = OPT_CLEAR, .field = F(m), \
	  .help = "do not look up source lines (DWARF)" }
#define OPT_DEBUG_DIR(F, m) \
	{ .name = "debug-dir", .value = "DIR", .kind = OPT_STRING, .field = F(m), \
	  .help = "separate debug files as DIR/.build-id/xx/yyyy.debug,\n" \
		  "looked in before /usr/lib/debug: source lines and\n" \
		  "function names of stripped files" }
#define OPT_SOURCE_ROOT(F, m) \
	{ .name = "source-root", .value = "DIR", .kind = OPT_STRING, .field = F(m), \
	  .help = "with sarif: source paths relative to DIR (SRCROOT)" }
#define OPT_SHARD(F, m, help_) \
	{ .name = "shard", .value = "K/N", .kind = OPT_SHARD, .field = F(m), .help = help_ }
#define OPT_HOT(F, m, help_) \
	{ .name = "hot", .value = "RECORD", .kind = OPT_STRING, .field = F(m), .help = help_ }
#define OPT_PERF_SCRIPT(F, m) \
	{ .name = "perf-script", .value = "FILE", .kind = OPT_STRING, .field = F(m), \
	  .help = "the same from the text of 'perf script [-F ip,dso,sym]';\n" \
		  "with --show-mmap-events every file is placed exactly" }
#define OPT_MIN_SHARE(F, m) \
	{ .name = "min-share", .value = "P", .kind = OPT_FRACTION, .field = F(m), .lo = 0, \
	  .hi = 1, .dflt = "0.5%", \
	  .help = "with --hot: fold hazards in code with less than P of the\n" \
		  "samples into one line" }

/* --metric and --direction's values (options.c): re compiled when metric
 * is given, *higher for a metric better higher. -1 after one line when
 * either is bad (re then not compiled). */
int metric_option(const char *metric, const char *direction, regex_t *re, bool *higher);

/* A result document to path ("-": standard output), whole or not at all
 * (results_write), and freed; 0, or -1 after one line naming the file
 * (or "stdout"). Every command's -o and --json write through it. */
struct json_t;                  /* jansson's json_t */
int write_result(struct json_t *doc, const char *path);

/* Before a long run, the directories it will write, each named whole in
 * the line that says what is wrong (a path is as long as the user's):
 * dir, a directory of outputs (what: "plot directory"), is a writable
 * directory or one its writable parent can hold; nothing is made yet, as a
 * run ended by a signal would leave the empty directory behind
 * (make_output_dir makes it once there is something to put in it). And
 * dir, given as opt, where straddle makes its working files: there, a
 * directory, writable. 0, or -1 after one line. */
int check_output_dir(const char *dir, const char *what);
int check_work_dir(const char *opt, const char *dir);

/* --hot RECORD or --perf-script FILE (hot.c): *h empty when neither is
 * given; -1 after one line when the file is bad or both are given. */
int hot_load(const char *record, const char *perf_script, struct hot_run *h);

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
	  .help = "a kernel image (the -dbg package's vmlinux) or a module\n" \
		  "(.ko, .ko.xz, PACKAGE:/path/x.ko): run its own routine\n" \
		  "--func instead of a built-in kernel" }, \
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

struct routine;
int routine_args_alternative(struct routine_args *a, const char *opt, const char *value);
/* The routine the arguments name: 1 with *out, 0 when no --file was
 * given (and no --func either), -1 after one line (no symbols, no such
 * routine, refused, no call known). label: its name in tables, or NULL. */
int routine_args_open(const struct routine_args *a, const char *label, struct routine **out);

#endif
