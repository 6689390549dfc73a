/* The inputs of the page of `straddle report`, each read once: parsed
 * (no duplicate keys), its kind found in the kinds' one table
 * (results/kinds.c) with the field it cannot do without, then read by its
 * kind's own reader as its command reads it, so that a file the page
 * cannot show is refused before any page is written and the sections
 * render what was read. A calibrate file was parsed four times while the
 * page was written (issue 23). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Each comparison's run counts are counts: fuzz_report found a missing
 * "base_runs" made NaN and then a size_t (UBSan, issue 25). */
static int check_compare(const struct report_input *in, struct err *e)
{
	const json_t *metrics = json_object_get(in->doc, "metrics"), *m, *x;
	size_t i, k;

	if (!json_is_array(metrics) || !json_is_string(json_object_get(in->doc, "base")))
		return err_set(e, "%s: a compare document without \"base\" and \"metrics\"",
			       in->path);
	json_array_foreach(metrics, i, m) {
		json_array_foreach(json_object_get(m, "new"), k, x) {
			const json_t *b = json_object_get(x, "base_runs"), *r = json_object_get(x, "runs");

			if (!json_is_integer(b) || !json_is_integer(r) || json_integer_value(b) < 0 ||
			    json_integer_value(r) < 0)
				return err_set(e, "%s: metric %zu, comparison %zu: \"base_runs\" and "
					       "\"runs\" are not counts", in->path, i, k);
		}
	}
	return 0;
}

/* The kind's own reader: 0, or -1 with one line naming the file. */
static int read_kind(struct report_input *in, struct err *e)
{
	struct report_calibration *c = &in->cal;

	if (result_kind(in->kind)->metrics && results_file_of(in->path, in->doc, &in->file, e))
		return -1;
	if (in->kind == RESULT_BENCH)
		results_bench_doc(&in->file, &in->bench);
	if (in->kind == RESULT_SWEEP)
		results_sweep_doc(in->doc, &in->sweep);
	if (in->kind == RESULT_PLACE)
		results_place_doc(in->doc, &in->place);
	if (in->kind == RESULT_CALIBRATE) {
		if (results_calibration_of(in->path, in->doc, &c->host, NULL, &c->x, &c->nx, e) ||
		    !(c->profile = results_profile_of(in->path, in->doc, e)))
			return -1;
		results_calib_doc(in->doc, &c->doc);
	}
	if (in->kind == RESULT_COMPARE) {
		if (check_compare(in, e))
			return -1;
		results_compare_doc(in->doc, &in->compared);
	}
	return 0;
}

/* What a document is, against the kinds: 0 with in->kind, or -1 with why. */
static int check_kind(const char *path, const json_t *doc, struct report_input *in,
		      struct err *e)
{
	const char *name = json_string_value(json_object_get(doc, "command"));
	const struct result_kind_info *k;
	char kinds[160];
	int kind;

	if (!json_is_object(doc) || !name)
		return err_set(e, "%s: not a straddle result file (no \"command\")", path);
	kind = result_kind_of(name);
	result_kind_list(false, "or", kinds, sizeof kinds);
	if (kind < 0)
		return err_set(e, "%s: a '%s' result has no section in a report (one of %s)", path,
			       name, kinds);
	k = result_kind((enum result_kind)kind);
	if (k->needs && !json_object_get(doc, k->needs))
		return err_set(e, "%s: a %s result without \"%s\"", path, name, k->needs);
	in->kind = (enum result_kind)kind;
	in->command = k->command;
	return 0;
}

int report_input_read(const char *path, struct report_input *in, struct err *e)
{
	json_error_t je;
	struct err why;
	char *buf;
	size_t len;

	memset(in, 0, sizeof *in);
	in->path = path;
	if (read_input(path, INPUT_LIMIT, &buf, &len, &why))
		return err_set(e, "%s: %s", path, why.msg);
	in->doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (!in->doc)
		return err_set(e, "%s: not a JSON result: %s (line %d)", path, je.text, je.line);
	if (check_kind(path, in->doc, in, e)) {
		report_input_free(in);
		return -1;
	}
	results_head_of(in->doc, &in->head);
	if (read_kind(in, &why)) {
		report_input_free(in);
		return err_set(e, "report: %s", why.msg);
	}
	return 0;
}

void report_input_free(struct report_input *in)
{
	results_head_free(&in->head);
	results_file_free(&in->file);
	results_bench_doc_free(&in->bench);
	results_sweep_doc_free(&in->sweep);
	results_place_doc_free(&in->place);
	calib_free(in->cal.x, in->cal.nx);
	results_calib_doc_free(&in->cal.doc);
	results_compare_doc_free(&in->compared);
	json_decref(in->doc);
	memset(in, 0, sizeof *in);
}
