/* What scan --hot and diff --hot share: reading the samples (a record, or
 * perf script text) and finding a scanned file's among them. */
#include "cmd.h"
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

/* By build-id, else by path (as opened, or resolved), else by name. */
void hot_attribute_image(const struct hot_run *h, struct elf_image *img, struct scan_result *r)
{
	char id[129], *real = realpath(img->path, NULL);
	const struct hot_file *f = hot_run_find(h, real ? real : img->path,
						elf_build_id_hex(img, id));

	if (!f && real)
		f = hot_run_find(h, img->path, NULL);
	free(real);
	hot_attribute(r, f, h->total);
}
