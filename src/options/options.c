/* The command line from a command's option table, and the options more than
 * one command takes: --uarch, --fail-on, numbers. */
#include "options.h"
#include "../model/cost.h"
#include "../results/profile.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int select_profiles(const char *spec, const struct profile **out, size_t max,
		    size_t *n, char *why, size_t why_len)
{
	struct err e;

	if (profile_select(spec, results_profile_load, out, max, n, why, why_len, &e)) {
		say("%s", e.msg);
		return -1;
	}
	return 0;
}

int parse_name_list(const char *opt, const char *spec, int (*lookup)(const char *name),
		    const char *kind, const char *placeholder, unsigned *mask)
{
	char *copy = xstrdup(spec), *save = NULL;
	int rc = 0;
	bool named = false;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int r = lookup(t);

		named = true;
		if (strcmp(t, "any") == 0)
			*mask = ~0u;
		else if (r >= 0)
			*mask |= 1u << r;
		else {
			complain(opt, "unknown %s '%s'", kind, t);
			rc = -1;
		}
	}
	free(copy);
	if (rc == 0 && !named) {
		/* "" once turned scan's gate off and meant "any" to diff */
		complain(opt, "'%s' names no %s (%s,... or any)", spec, kind, placeholder);
		rc = -1;
	}
	return rc;
}

int parse_rules(const char *opt, const char *spec, unsigned *mask)
{
	return parse_name_list(opt, spec, rule_from_name, "rule", "RULE", mask);
}

int parse_number(const char *opt, const char *s, unsigned long min, unsigned long max,
		 unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || s[0] == '-' || s[0] == '+') {
		complain(opt, "'%s' is not a number from %lu to %lu", s, min, max);
		return -1;
	}
	v = strtoul(s, &end, 10);
	if (*end || v < min || v > max) {
		complain(opt, "'%s' is not a number from %lu to %lu", s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int bad_option(const char *cmd, int ch, char **argv)
{
	const char *arg = argv[optind - 1];

	if (ch == ':')
		complain(cmd, "option '%s' needs a value (see 'straddle %s --help')", arg, cmd);
	else
		complain(cmd, "unknown option '%s' (see 'straddle %s --help')", arg, cmd);
	return -1;
}

int parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "s") != 0) || !(v > 0) || v > 86400) {
		complain(opt, "'%s' is not a time in seconds (like 10 or 0.5s), at most a day", s);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_fraction(const char *opt, const char *s, double min, double max, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%") != 0) || v != v) {
		complain(opt, "'%s' is not a fraction (like 2%% or 0.02)", s);
		return -1;
	}
	if (*end == '%')
		v /= 100;
	if (v < min || v > max) {
		complain(opt, "'%s' is not from %g%% to %g%%", s, 100 * min, 100 * max);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_shard(const char *opt, const char *value, struct shard *s)
{
	struct err e;

	if (shard_parse(value, s, &e) == 0)
		return 0;
	complain(opt, "%s", e.msg);
	return -1;
}

/* ---- the table ---- */

/* getopt_long's `val`: the letter, or 256 + the index for a long-only one. */
static int option_key(const struct cmd_option *opts, size_t i)
{
	return opts[i].letter ? opts[i].letter : 256 + (int)i;
}

static size_t count_options(const struct cmd_option *opts)
{
	size_t n = 0;

	while (opts[n].name || opts[n].letter)
		n++;
	return n;
}

static int parse_unsigned(const char *opt, const struct cmd_option *o, const char *value,
			  void *at)
{
	unsigned long v;

	if (parse_number(opt, value, o->min, o->max, &v))
		return -1;
	if (o->kind == OPT_UNSIGNED)
		*(unsigned *)at = (unsigned)v;
	else if (o->kind == OPT_ULONG)
		*(unsigned long *)at = v;
	else
		*(uint64_t *)at = v;
	return 0;
}

/* Before a run of minutes, not after it: the write would refuse it. */
static int check_output_option(const char *path)
{
	struct err e;

	if (strcmp(path, "-") != 0 && check_output(path, &e)) {
		complain(path, "%s", e.msg);
		return -1;
	}
	return 0;
}

static int apply(const struct cmd_option *o, void *target, const char *value)
{
	char opt[64];
	void *at = (char *)target + o->field;

	if (o->name)
		snprintf(opt, sizeof opt, "--%s", o->name);
	else
		snprintf(opt, sizeof opt, "-%c", o->letter);
	switch (o->kind) {
	case OPT_SET: *(bool *)at = true; return 0;
	case OPT_CLEAR: *(bool *)at = false; return 0;
	case OPT_STRING: *(const char **)at = value; return 0;
	case OPT_OUTPUT: *(const char **)at = value; return check_output_option(value);
	case OPT_UNSIGNED:
	case OPT_ULONG:
	case OPT_U64: return parse_unsigned(opt, o, value, at);
	case OPT_SECONDS: return parse_seconds(opt, value, at);
	case OPT_FRACTION: return parse_fraction(opt, value, o->lo, o->hi, at);
	case OPT_RULES: return parse_rules(opt, value, at);
	case OPT_PROFILES: ((struct profiles_arg *)at)->spec = value; return 0;
	case OPT_BACK_END: *(const char **)at = value; return 0;
	case OPT_SHARD: return parse_shard(opt, value, at);
	case OPT_CALL: return o->call(target, opt, value);
	}
	return -1;
}

/* Each option's default, as its variable or its table give it. */
static int set_defaults(const struct cmd_option *opts, size_t n, void *target)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = opts[i].env && getenv(opts[i].env) ? getenv(opts[i].env) :
				opts[i].dflt;

		if (v && apply(&opts[i], target, v))
			return -1;
	}
	return 0;
}

/* What is checked once the whole line is read, in the table's order: the
 * profiles named, the back end. */
static int finish(const struct cmd_option *opts, size_t n, void *target)
{
	for (size_t i = 0; i < n; i++) {
		void *at = (char *)target + opts[i].field;
		struct profiles_arg *p = at;

		if (opts[i].kind == OPT_PROFILES && p->spec &&
		    select_profiles(p->spec, p->v, opts[i].max, &p->n, p->why, sizeof p->why))
			return -1;
		if (opts[i].kind == OPT_BACK_END && check_back_end(*(const char **)at))
			return -1;
	}
	return 0;
}

int parse_command_line(const struct command *cmd, void *target, int argc, char **argv)
{
	const struct cmd_option *opts = cmd->options;
	size_t n = count_options(opts), k = 0, nlong = 0;
	struct option *longopts = xcalloc(n + 2, sizeof *longopts);
	char *letters = xcalloc(2 * n + 5, 1);
	int ch, rc = 0;

	if (cmd->in_order)
		letters[k++] = '+';     /* the rest is a command line of its own */
	letters[k++] = ':';     /* a missing value is ':', not '?' */
	for (size_t i = 0; i < n; i++) {
		if (opts[i].name)
			longopts[nlong++] = (struct option){ opts[i].name,
				opts[i].value ? required_argument : no_argument, NULL,
				option_key(opts, i) };
		if (opts[i].letter) {
			letters[k++] = opts[i].letter;
			if (opts[i].value)
				letters[k++] = ':';
		}
	}
	longopts[nlong] = (struct option){ option_help.name, no_argument, NULL, option_help.letter };
	letters[k++] = option_help.letter;
	opterr = 0;
	optind = 1;
	rc = set_defaults(opts, n, target);
	while (rc == 0 && (ch = getopt_long(argc, argv, letters, longopts, NULL)) != -1) {
		size_t i = 0;

		if (ch == option_help.letter) {
			print_help(cmd, stdout);
			exit(EXIT_OK);
		}
		while (i < n && option_key(opts, i) != ch)
			i++;
		rc = i < n ? apply(&opts[i], target, optarg) : bad_option(cmd->name, ch, argv);
	}
	free(longopts);
	free(letters);
	return rc ? rc : finish(opts, n, target);
}

int check_back_end(const char *llvm_mca)
{
	if (!llvm_mca || !strcmp(llvm_mca, "none") || !strcmp(llvm_mca, MODEL_IN_PROCESS) ||
	    mca_version(llvm_mca))
		return 0;
	complain("--llvm-mca", "'%s' is not an llvm-mca that runs here", llvm_mca);
	return -1;
}

void note_back_end(const char *file, const struct scan_result *r)
{
	if (r->cost_note[0])
		complain(file, "%s", r->cost_note);
}

int metric_option(const char *metric, const char *direction, regex_t *re, bool *higher)
{
	if (strcmp(direction, "lower") && strcmp(direction, "higher")) {
		complain("--direction", "'%s' is not lower or higher", direction);
		return -1;
	}
	*higher = metric && strcmp(direction, "higher") == 0;
	if (metric && regcomp(re, metric, REG_EXTENDED)) {
		complain("--metric", "'%s' is not an extended regular expression", metric);
		return -1;
	}
	return 0;
}

/* Every line to stderr goes out escaped: its text holds paths, names and
 * values from files. */
static void say_v(const char *what, const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap);

	fputs("straddle: ", stderr);
	if (what) {
		fputs_escaped(what, stderr);
		fputs(": ", stderr);
	}
	fputs_escaped(msg, stderr);
	fputc('\n', stderr);
	free(msg);
}

void complain(const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_v(what, fmt, ap);
	va_end(ap);
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_v(NULL, fmt, ap);
	va_end(ap);
}

unsigned jobs_default(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 0 ? (unsigned)(cpus < JOBS_MAX ? cpus : JOBS_MAX) : 1;
}
