/* The command line from a command's option table, and the options more than
 * one command takes: --uarch, --fail-on, numbers. */
#include "options.h"
#include "../model/cost.h"
#include "../results/profile.h"
#include "../results/json.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	case OPT_CHOICE: return parse_choice(opt, value, o->choices, at);
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

int write_result(struct json_t *doc, const char *path)
{
	struct err e;
	int rc = results_write(doc, path, &e);

	if (rc)
		complain(strcmp(path, "-") ? path : "stdout", "%s", e.msg);
	json_decref(doc);
	return rc;
}

int parse_size(const char *opt, const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned long long mul = 1;

	if (!*s || *s == '-' || *s == '+') {
		complain(opt, "'%s' is not a size in bytes", s);
		return -1;
	}
	v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		mul = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		mul = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		mul = 1024 * 1024 * 1024, end++;
	if (*end || end == s) {
		complain(opt, "'%s' is not a size in bytes (K, M, G suffixes)", s);
		return -1;
	}
	if (v == 0 || v > (1ull << 30) / mul) {
		complain(opt, "'%s': a call clears or copies 1 byte to 1 GiB", s);
		return -1;
	}
	*out = (size_t)(v * mul);
	return 0;
}

/* One field of --offsets: decimal digits only (a sign is not one), its value
 * saturated past 4096 so that a range check sees it. The sscanf ("%lu") it
 * replaces took "-1" as 2^64 - 1 and 4294967296 as a step of 0 once cut to 32
 * bits. */
static int offset_field(const char *s, size_t n, unsigned long *out)
{
	unsigned long v = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v > 4096 ? v : v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int parse_offsets(const char *opt, const char *s, uint32_t *first, uint32_t *last, uint32_t *step)
{
	const char *dots = strstr(s, ".."), *colon = strchr(s, ':');
	const char *b_at = dots ? dots + 2 : s, *end = s + strlen(s);
	unsigned long a, b, n = 1;

	if ((colon && (!dots || colon < b_at)) ||
	    offset_field(s, (size_t)((dots ? dots : end) - s), &a) ||
	    offset_field(b_at, (size_t)((colon ? colon : end) - b_at), &b) ||
	    (colon && offset_field(colon + 1, (size_t)(end - colon - 1), &n))) {
		complain(opt, "'%s' is not A..B[:STEP] or A", s);
		return -1;
	}
	if (b < a || b > 4095 || n == 0 || n > 4095) {
		complain(opt, "'%s': need 0 <= A <= B <= 4095 and 1 <= STEP <= 4095", s);
		return -1;
	}
	*first = (uint32_t)a;
	*last = (uint32_t)b;
	*step = (uint32_t)n;
	return 0;
}

int parse_choice(const char *opt, const char *s, const char *const *names, int *out)
{
	struct strbuf list = { 0 };

	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	for (int i = 0; names[i]; i++)
		sb_addf(&list, "%s%s", i ? ", " : "", names[i]);
	complain(opt, "'%s' is none of %s", s, sb_str(&list));
	sb_free(&list);
	return -1;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

int parse_counts(const char *opt, const char *s, const char *what, unsigned max, unsigned *v,
		 size_t *n)
{
	char *copy = xstrdup(s), *save = NULL;
	size_t k = 0;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		unsigned a, b;
		int used = 0;

		if (!(sscanf(t, "%u-%u%n", &a, &b, &used) == 2 && !t[used]) &&
		    !(sscanf(t, "%u%n", &a, &used) == 1 && !t[used] && (b = a, 1)))
			rc = -1;
		else if (t[0] == '-' || t[0] == '+' || a < 1 || b < a || b > max)
			rc = -1;
		for (unsigned x = a; rc == 0 && x <= b; x++)
			if (k < max)
				v[k++] = x;
	}
	free(copy);
	if (rc || k == 0) {
		complain(opt, "'%s' is not a list of %s from 1 to %u (like 1,2,4 or 1-4)", s, what,
			 max);
		return -1;
	}
	qsort(v, k, sizeof v[0], cmp_unsigned);
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (*n == 0 || v[*n - 1] != v[i])
			v[(*n)++] = v[i];
	return 0;
}

int check_output_dir(const char *dir, const char *what)
{
	struct stat st;
	char *copy, *parent;
	int rc = 0;

	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode) && access(dir, W_OK) == 0)
			return 0;
		complain(dir, "is not a writable directory");
		return -1;
	}
	copy = xstrdup(dir);
	parent = dirname(copy);
	if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode) || access(parent, W_OK) != 0) {
		complain(dir, "cannot make the %s: %s is not a writable directory", what, parent);
		rc = -1;
	}
	free(copy);
	return rc;
}

int check_work_dir(const char *opt, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		complain(opt, "'%s': %s", dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		complain(opt, "'%s' is not a directory", dir);
	else if (access(dir, W_OK | X_OK) != 0)
		complain(opt, "'%s': cannot make files in it: %s", dir, strerror(errno));
	else
		return 0;
	return -1;
}
