/* The kinds of result file, once: what report shows (a section each),
 * what compare reads (the kinds of metrics with runs), the field without
 * which a document is not one of its kind; and the one opening of a
 * result file, which checks a document's head against them. A list of
 * kinds written in several places drifts: report's once left out place. */
#include "kinds.h"

#include <stdlib.h>
#include <string.h>

static const struct result_kind_info kinds[RESULT_KINDS] = {
	[RESULT_SCAN] = { "scan", "files", false, "scan document" },
	[RESULT_DIFF] = { "diff", "summary", false, "diff document" },
	[RESULT_RECORD] = { "record", "files", false, "record" },
	[RESULT_BENCH] = { "bench", NULL, true, "bench result" },
	[RESULT_SWEEP] = { "sweep", NULL, true, "sweep result" },
	[RESULT_PLACE] = { "place", "moved", true, "place result" },
	[RESULT_AB] = { "ab", "verdict", true, "ab result" },
	[RESULT_PROVE] = { "prove", "loops", false, "prove result" },
	[RESULT_CALIBRATE] = { "calibrate", NULL, false, "profile file" },
	[RESULT_COMPARE] = { "compare", NULL, false, "compare document" },
};

const struct result_kind_info *result_kind(enum result_kind k)
{
	return &kinds[k];
}

int result_kind_of(const char *command)
{
	for (int k = 0; command && k < RESULT_KINDS; k++)
		if (strcmp(command, kinds[k].command) == 0)
			return k;
	return -1;
}

void result_kind_list(unsigned want, const char *last, char *buf, size_t n)
{
	size_t total = 0, at = 0, len = 0;

	for (int k = 0; k < RESULT_KINDS; k++)
		total += (want >> k) & 1;
	buf[0] = '\0';
	for (int k = 0; k < RESULT_KINDS; k++) {
		if (!((want >> k) & 1))
			continue;
		at++;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s%s%s",
					at == 1 ? "" : at == total ? " " : ", ", at > 1 && at == total ? last : "",
					at > 1 && at == total ? " " : "", kinds[k].command);
		if (len >= n)
			return;
	}
}

/* The one kind want names, or -1 when it names several. */
static int only_kind(unsigned want)
{
	for (int k = 0; k < RESULT_KINDS; k++)
		if (want == 1u << k)
			return k;
	return -1;
}

/* What a reader of `want` calls a file: "record", "profile file", else
 * "result file". */
static const char *noun_of(unsigned want)
{
	int k = only_kind(want);

	return k >= 0 ? kinds[k].noun : "result file";
}

/* jansson's refusal in words: the NaN and Infinity Python's json writes,
 * a number too large for a double, or what jansson says. */
static int parse_error(const char *path, unsigned want, const json_error_t *je, struct err *e)
{
	if (strstr(je->text, "'NaN") || strstr(je->text, "'Infinity") ||
	    strstr(je->text, "'-Infinity"))
		return err_set(e, "%s: line %d: NaN or Infinity, not a number (a sample must be "
			       "finite)", path, je->line);
	if (strstr(je->text, "overflow"))
		return err_set(e, "%s: line %d: a number too large for a double (infinite)", path,
			       je->line);
	return err_set(e, "%s: not a %s: %s (line %d)", path, noun_of(want), je->text, je->line);
}

/* The head against want: the kind, or -1 with why. */
static int check_head(const char *path, const json_t *doc, unsigned want, struct err *e)
{
	const json_t *schema = json_object_get(doc, "schema");
	const char *name = json_string_value(json_object_get(doc, "command"));
	int kind = result_kind_of(name), one = only_kind(want);
	char list[160];

	if (!json_is_object(doc) || !json_is_integer(schema))
		return err_set(e, "%s: not a %s: no \"schema\"", path, noun_of(want));
	if (json_integer_value(schema) != 1)
		return err_set(e, "%s: schema %lld; this straddle reads schema 1", path,
			       (long long)json_integer_value(schema));
	if (!name)
		return err_set(e, "%s: not a %s: no \"command\"", path, noun_of(want));
	if (kind < 0 || !((want >> kind) & 1)) {
		if (one >= 0)
			return err_set(e, "%s: a %s result, not a %s (make one with 'straddle %s')",
				       path, name, kinds[one].noun, kinds[one].command);
		result_kind_list(want, "or", list, sizeof list);
		return err_set(e, "%s: a %s result, not a %s result", path, name, list);
	}
	if (kinds[kind].needs && !json_object_get(doc, kinds[kind].needs))
		return err_set(e, "%s: a %s result without \"%s\"", path, name, kinds[kind].needs);
	return kind;
}

json_t *results_open(const char *path, unsigned want, int *kind, struct err *e)
{
	json_error_t je;
	struct err why;
	json_t *doc;
	char *buf;
	size_t len;
	int k;

	if (read_input(path, INPUT_LIMIT, &buf, &len, &why))
		return err_set(e, "%s: %s", path, why.msg), NULL;
	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (!doc)
		return parse_error(path, want, &je, e), NULL;
	if ((k = check_head(path, doc, want, e)) < 0) {
		json_decref(doc);
		return NULL;
	}
	if (kind)
		*kind = k;
	return doc;
}
