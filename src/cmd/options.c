/* Options more than one command takes: --uarch, --fail-on, numbers. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(const struct profile *p, const struct profile **out, size_t max, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i] == p)
			return 0;
	if (*n >= max)
		return -1;
	out[(*n)++] = p;
	return 0;
}

static const struct profile *host_profile(char *why, size_t why_len)
{
	struct host h;

	host_detect(&h);
	if (h.profile) {
		snprintf(why, why_len, "host: %s", h.why);
		return h.profile;
	}
#if defined(__aarch64__)
	snprintf(why, why_len, "host: %s not in the table, using generic-arm64", h.why);
	return profile_named("generic-arm64");
#else
	snprintf(why, why_len, "host: %s not in the table, using generic-x86", h.why);
	return profile_named("generic-x86");
#endif
}

int select_profiles(const char *spec, const struct profile **out, size_t max,
		    size_t *n, char *why, size_t why_len)
{
	char *copy = xstrdup(spec), *save = NULL;
	int rc = 0;

	*n = 0;
	why[0] = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			for (size_t i = 0; i < profile_count(); i++)
				add(profile_at(i), out, max, n);
		} else if (strcmp(tok, "host") == 0) {
			rc = add(host_profile(why, why_len), out, max, n);
		} else if (profile_named(tok)) {
			rc = add(profile_named(tok), out, max, n);
		} else {
			complain("--uarch", "no profile named '%s' (see 'straddle uarch')", tok);
			rc = -1;
		}
	}
	if (rc == 0 && *n == 0) {
		complain("--uarch", "no profile given");
		rc = -1;
	}
	free(copy);
	return rc;
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
