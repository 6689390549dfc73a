/* measure/command.h: one run of a whole program timed by wait4
 * (command.c), for place. */
#ifndef STRADDLE_MEASURE_COMMAND_H
#define STRADDLE_MEASURE_COMMAND_H

#include "../base/base.h"

/* What a run of a command gave: its CPU time (user + system, from wait4),
 * wall time, exit status, its standard output (hashed whole, the first
 * out_max bytes kept for --metric), the start and the end of its standard
 * error, and the lines a status pipe carried (the preload library's). */
struct command_run {
	double cpu_s, wall_s;
	int status;                     /* the wait status */
	uint64_t out_hash;              /* FNV-1a 64 of all of standard output */
	size_t out_len;
	char *out;                      /* the first out_max bytes, NUL-ended */
	char err_head[512];
	char err_tail[2048];            /* its last bytes, NUL-ended */
	char *report;                   /* the status pipe's lines, NUL-ended */
	size_t report_len, report_cap;
};

/* The standard input every run of a command gets, the same each time: a
 * file from its start (--stdin FILE), straddle's own standard input when
 * the user redirected it (a regular file from where it stood, anything
 * else read once into memory), or /dev/null (fd -1: "-", a terminal). */
struct command_input {
	int fd;
	off_t start;
	char what[256];                 /* "/dev/null", the file, "standard input" */
};

/* spec: NULL (straddle's own standard input unless it is a terminal), "-"
 * (/dev/null) or a file. 0, or -1 with e ("FILE: why"). */
int command_input_open(struct command_input *in, const char *spec, struct err *e);
void command_input_close(struct command_input *in);

struct command_spec {
	char **argv;                    /* run with execvp */
	char **env;                     /* NAME=VALUE strings to add, NULL-ended, or NULL */
	const char *report_env;         /* the variable that names the status pipe's fd */
	size_t out_max;
	const struct command_input *input;      /* NULL: /dev/null */
};

/* Run it once, in a process group of its own that ends with straddle
 * (base's spawn), the child spawn_signal reaches while it runs. 0, or -1
 * with e (it could not be started: e names the command and the reason). */
int command_run(const struct command_spec *c, struct command_run *r, struct err *e);
void command_run_free(struct command_run *r);
/* The last n lines of its standard error, joined by " | " (into buf). */
const char *command_err_lines(const struct command_run *r, unsigned n, char *buf, size_t len);

#endif
