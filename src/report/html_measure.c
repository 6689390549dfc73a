/* The sections of measured results on the page of `straddle report`:
 * sweep, calibrate, bench and compare (issue 14). Stubs: the heading only,
 * until their plots and tables come. */
#include "report.h"

void html_section_sweep(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "sweep");
	html_section_end(out);
}

void html_section_calibrate(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "calibrate");
	html_section_end(out);
}

void html_section_compare(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "compare");
	html_section_end(out);
}

void html_section_benches(FILE *out, const struct report_input *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		html_section_begin(out, &in[i], "bench");
		html_section_end(out);
	}
}
