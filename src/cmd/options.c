/* Options more than one command takes: --uarch, --fail-on, numbers. */
#include "cmd.h"
#include "../results/results.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int select_profiles(const char *spec, const struct profile **out, size_t max,
		    size_t *n, char *why, size_t why_len)
{
	struct err e;

	if (profile_select(spec, results_profile_load, out, max, n, why, why_len, &e)) {
		fprintf(stderr, "straddle: %s\n", e.msg);
		return -1;
	}
	return 0;
}

int parse_rules(const char *opt, const char *spec, unsigned *mask)
{
	char *copy = xstrdup(spec), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int r = rule_from_name(t);

		if (strcmp(t, "any") == 0)
			*mask = ~0u;
		else if (r >= 0)
			*mask |= 1u << r;
		else {
			complain(opt, "unknown rule '%s'", t);
			rc = -1;
		}
	}
	free(copy);
	return rc;
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
