/* The sections of layout results on the page of `straddle report`: scan,
 * diff and record (issue 14). */
#include "report.h"

void html_section_scan(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "scan");
	html_section_end(out);
}

void html_section_diff(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "diff");
	html_section_end(out);
}

void html_section_record(FILE *out, const struct report_input *in)
{
	html_section_begin(out, in, "record");
	html_section_end(out);
}
