/* The kinds of result file, once: what report shows (a section each),
 * what compare reads (the kinds of metrics with runs), and
 * the field without which a document is not one of its kind. They were
 * written in four places (results/read.c, report's input check, its
 * sections and its measured check) and had drifted: report's list of
 * kinds left out place (issue 23). */
#include "results.h"

#include <stdlib.h>
#include <string.h>

static const struct result_kind_info kinds[RESULT_KINDS] = {
	[RESULT_SCAN] = { "scan", "files", false },
	[RESULT_DIFF] = { "diff", "summary", false },
	[RESULT_RECORD] = { "record", "files", false },
	[RESULT_BENCH] = { "bench", NULL, true },
	[RESULT_SWEEP] = { "sweep", NULL, true },
	[RESULT_PLACE] = { "place", "moved", true },
	[RESULT_AB] = { "ab", "verdict", true },
	[RESULT_PROVE] = { "prove", "loops", false },
	[RESULT_CALIBRATE] = { "calibrate", NULL, false },
	[RESULT_COMPARE] = { "compare", NULL, false },
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

void result_kind_list(bool metrics_only, const char *last, char *buf, size_t n)
{
	size_t total = 0, at = 0, len = 0;

	for (int k = 0; k < RESULT_KINDS; k++)
		total += !metrics_only || kinds[k].metrics;
	buf[0] = '\0';
	for (int k = 0; k < RESULT_KINDS; k++) {
		if (metrics_only && !kinds[k].metrics)
			continue;
		at++;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s%s%s",
					at == 1 ? "" : at == total ? " " : ", ", at > 1 && at == total ? last : "",
					at > 1 && at == total ? " " : "", kinds[k].command);
		if (len >= n)
			return;
	}
}

/* What a document is, against the kinds: its kind, or -1 with why. */
static int kind_of(const char *path, const json_t *doc, struct err *e)
{
	const char *name = json_string_value(json_object_get(doc, "command"));
	const struct result_kind_info *k;
	char list[160];
	int kind;

	if (!json_is_object(doc) || !name)
		return err_set(e, "%s: not a straddle result file (no \"command\")", path);
	kind = result_kind_of(name);
	result_kind_list(false, "or", list, sizeof list);
	if (kind < 0)
		return err_set(e, "%s: a '%s' result has no section in a report (one of %s)", path,
			       name, list);
	k = result_kind((enum result_kind)kind);
	if (k->needs && !json_object_get(doc, k->needs))
		return err_set(e, "%s: a %s result without \"%s\"", path, name, k->needs);
	return kind;
}

json_t *results_load_any(const char *path, int *kind, struct err *e)
{
	json_error_t je;
	struct err why;
	json_t *doc;
	char *buf;
	size_t len;

	if (read_input(path, INPUT_LIMIT, &buf, &len, &why))
		return err_set(e, "%s: %s", path, why.msg), NULL;
	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (!doc)
		return err_set(e, "%s: not a JSON result: %s (line %d)", path, je.text, je.line), NULL;
	if ((*kind = kind_of(path, doc, e)) < 0) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
