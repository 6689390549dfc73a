/* measure/command.h: one run of a whole program timed by wait4
 * (command.c), for place. */
#ifndef STRADDLE_MEASURE_COMMAND_H
#define STRADDLE_MEASURE_COMMAND_H

#include "../base/base.h"

/* What a run of a command gave: its CPU time (user + system, from wait4),
 * wall time, exit status, its standard output (hashed whole, the first
 * out_max bytes kept for --metric), the start of its standard error, and
 * the lines a status pipe carried (the preload library's report). */
struct command_run {
	double cpu_s, wall_s;
	int status;                     /* the wait status */
	uint64_t out_hash;              /* FNV-1a 64 of all of standard output */
	size_t out_len;
	char *out;                      /* the first out_max bytes, NUL-ended */
	char err_head[512];
	char report[1024];              /* the status pipe's lines */
};

struct command_spec {
	char **argv;                    /* run with execvp */
	char **env;                     /* NAME=VALUE strings to add, NULL-ended, or NULL */
	const char *report_env;         /* the variable that names the status pipe's fd */
	size_t out_max;
};

/* Run it once, standard input from /dev/null. 0, or -1 with e (it could not
 * be started: e names the command and the reason). */
int command_run(const struct command_spec *c, struct command_run *r, struct err *e);
/* Kill the run in progress, if any (for a signal handler: async-signal-safe). */
void command_kill_current(void);
/* The executable execvp would run for `name` (in buf, or name itself when
 * it holds a '/'), NULL when PATH has none. */
const char *command_find(const char *name, char *buf, size_t n);
/* "exit 3", "killed by SIGSEGV": a wait status in words. */
void command_status_text(int status, char *buf, size_t n);

#endif
