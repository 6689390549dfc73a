/* cmd: one file per command. Each parses its options, calls the layers and
 * prints. Exit status: 0 success, 1 a gate failed, 2 usage or input error. */
#ifndef STRADDLE_CMD_H
#define STRADDLE_CMD_H

#include "../base/base.h"
#include "../model/model.h"

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_USAGE = 2 };

int cmd_scan(int argc, char **argv);
int cmd_uarch(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/* Shared by the commands that take --uarch NAME[,NAME...]|host|all:
 * fills out[] (at most max) and says in `why` how "host" was resolved. */
int select_profiles(const char *spec, const struct profile **out, size_t max,
		    size_t *n, char *why, size_t why_len);

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

/* One line on stderr: "straddle: WHAT: MESSAGE". */
void complain(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
