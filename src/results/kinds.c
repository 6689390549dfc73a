/* The kinds of result file, once: what report shows (a section each),
 * what compare reads (the kinds of metrics with runs), and
 * the field without which a document is not one of its kind. They were
 * written in four places (results/read.c, report's input check, its
 * sections and its measured check) and had drifted: report's list of
 * kinds left out place (issue 23). */
#include "results.h"

#include <string.h>

static const struct result_kind_info kinds[RESULT_KINDS] = {
	[RESULT_SCAN] = { "scan", "files", false },
	[RESULT_DIFF] = { "diff", "summary", false },
	[RESULT_RECORD] = { "record", "files", false },
	[RESULT_BENCH] = { "bench", NULL, true },
	[RESULT_SWEEP] = { "sweep", NULL, true },
	[RESULT_PLACE] = { "place", "moved", true },
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
