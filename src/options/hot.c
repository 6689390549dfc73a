/* What scan --hot and diff --hot share: the samples read (a record, or
 * perf script text). */
#include "options.h"
#include "../results/record.h"

#include <stdlib.h>
#include <string.h>

int hot_load(const char *record, const char *perf_script, struct hot_run *h)
{
	struct err e = { "" };
	const char *path = record ? record : perf_script;

	memset(h, 0, sizeof *h);
	if (record && perf_script) {
		complain("--hot", "a record or --perf-script FILE, not both");
		return -1;
	}
	if (!path)
		return 0;
	/* a record's line names its file (results_open); perf script's does not */
	if (record ? results_read_record(path, h, &e) : results_read_perf_script(path, h, &e)) {
		if (record)
			say("%s", e.msg);
		else
			complain(path, "%s", e.msg);
		hot_run_free(h);
		return -1;
	}
	return 0;
}
