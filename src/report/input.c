/* The inputs of the page of `straddle report`, each read once: parsed with
 * its kind found (results_open), then read by its kind's own reader as its
 * command reads it, so that a file the page cannot show is refused before any
 * page is written and the sections render what was read. A calibrate file was
 * parsed four times while the page was written. */
#include "internal.h"
#include "../results/profile.h"

#include <string.h>

/* The kind's own reader: 0, or -1 with one line naming the file. */
static int read_kind(struct report_input *in, struct err *e)
{
	struct report_calibration *c = &in->cal;

	if (result_kind(in->kind)->metrics && results_file_of(in->path, in->doc, &in->file, e))
		return -1;
	if (in->kind == RESULT_BENCH)
		results_bench_doc(&in->file, &in->bench);
	if (in->kind == RESULT_SCAN)
		results_read_scan(in->doc, &in->scan);
	if (in->kind == RESULT_DIFF)
		results_read_diff(in->doc, &in->diff);
	if (in->kind == RESULT_RECORD)
		results_record_read(in->doc, &in->record);
	if (in->kind == RESULT_PROVE)
		results_read_prove(in->doc, &in->prove);
	if (in->kind == RESULT_SWEEP)
		results_sweep_doc(in->doc, &in->sweep);
	if (in->kind == RESULT_PLACE)
		results_place_doc(in->doc, &in->place);
	if (in->kind == RESULT_AB)
		results_ab_doc(in->doc, &in->ab);
	if (in->kind == RESULT_CALIBRATE) {
		if (results_calibration_of(in->path, in->doc, &c->host, NULL, &c->x, &c->nx, e) ||
		    !(c->profile = results_profile_of(in->path, in->doc, e)))
			return -1;
		results_calib_doc(in->doc, &c->doc);
	}
	if (in->kind == RESULT_COMPARE)
		return results_compare_doc(in->path, in->doc, &in->compared, e);
	return 0;
}

int report_input_read(const char *path, struct report_input *in, struct err *e)
{
	struct err why;
	int kind;

	memset(in, 0, sizeof *in);
	in->path = path;
	if (!(in->doc = results_open(path, RESULT_ANY, &kind, e)))
		return -1;
	in->kind = (enum result_kind)kind;
	in->command = result_kind(in->kind)->command;
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
	if (in->kind == RESULT_SCAN)
		results_scan_read_free(&in->scan);
	if (in->kind == RESULT_DIFF)
		results_diff_read_free(&in->diff);
	results_record_read_free(&in->record);
	results_prove_doc_free(&in->prove);
	results_sweep_doc_free(&in->sweep);
	results_place_doc_free(&in->place);
	results_ab_doc_free(&in->ab);
	calib_free(in->cal.x, in->cal.nx);
	results_calib_doc_free(&in->cal.doc);
	results_compare_doc_free(&in->compared);
	json_decref(in->doc);
	memset(in, 0, sizeof *in);
}
