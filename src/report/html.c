/* The page of `straddle report`: one HTML file that needs nothing else.
 * Inline CSS, inline SVG, no script, no URL: it is mailed, attached to a CI
 * run, printed. The colours are chosen to survive a grey-scale printout
 * (dark/light, with patterns and labels, never hue alone). This file is the
 * page driver: the page, its header and contents, and one section per input
 * through the kinds' functions (html_layout.c, html_measure.c, html_bench.c);
 * the markup they all write with is html_markup.c's, so no section calls back
 * into here. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Print-friendly at 1280 px: dark text, light fills told apart by
 * lightness and hatching as well as hue, tables that break across pages
 * row by row. */
static const char page_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;color:#111;background:#fff;"
	"max-width:1280px;margin:0 auto;padding:0 16px}\n"
	"h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:0 0 8px;"
	"border-bottom:2px solid #333}h3{font-size:15px;margin:14px 0 6px}\n"
	"section.result{margin:24px 0;padding-top:4px}\n"
	"table{border-collapse:collapse;margin:6px 0;font-size:12px}\n"
	"th,td{border:1px solid #999;padding:2px 6px;text-align:left;vertical-align:top;"
	"white-space:nowrap}\n"
	/* only the long cells of a row (a fix, a name, a command line) wrap */
	"td.wrap{white-space:normal;min-width:5em;overflow-wrap:anywhere}\n"
	"td.wrap:last-child{min-width:14em}\n"
	"th{background:#e8e8e8}td.num,th.num{text-align:right;"
	"font-variant-numeric:tabular-nums}\n"
	"tbody tr:nth-child(even){background:#f6f6f6}\n"
	"code,.path,.addr{font-family:ui-monospace,monospace;font-size:12px}\n"
	".path{font-weight:normal;word-break:break-all}\n"
	".more{font-style:italic;color:#444}\n"
	".verdict{font-size:16px;font-weight:bold;padding:6px 10px;display:inline-block;"
	"border:3px solid #111}\n"
	".verdict.fail{border-style:double;background:#ddd}\n"
	".verdict.pass{border-style:solid;background:#fff}\n"
	".sev-high{font-weight:bold}.sev-medium{font-style:italic}\n"
	".counts{display:flex;flex-wrap:wrap;gap:20px;align-items:flex-start}\n"
	"nav.toc ol{margin:4px 0;padding-left:24px}\n"
	"svg{display:block;margin:6px 0;max-width:100%;height:auto}\n"
	"details{margin:4px 0}summary{cursor:pointer;color:#333}\n"
	"@media print{body{max-width:none;font-size:11px}section.result{"
	"break-before:page}section.result:first-of-type{break-before:auto}"
	"tr,svg{break-inside:avoid}th,td{white-space:normal}"
	"a{color:inherit;text-decoration:none}}\n";

static void page_begin(FILE *out, const struct report_input *in, size_t n)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>straddle report", out);
	if (n == 1) {
		fputs(": ", out);
		html_text(out, in[0].path);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		"<h1>straddle report</h1>\n", page_css);
}

static void page_end(FILE *out)
{
	fprintf(out, "<footer><p>Made by straddle %s.</p></footer>\n</body>\n</html>\n",
		STRADDLE_VERSION);
}

/* "AMD EPYC 9B45 (AuthenticAMD family 0x1a model 0x2 stepping 1), Linux 6.1.0" */
static void machine_line(FILE *out, const struct machine_doc *m)
{
	html_text(out, text_or(m->model_name, "-"));
	fputs(" (", out);
	html_text(out, text_or(m->vendor, "-"));
	if (m->has_fms)
		fprintf(out, " family 0x%llx model 0x%llx stepping %lld", m->family, m->model,
			m->stepping);
	fputs("), kernel ", out);
	html_text(out, text_or(m->kernel, "-"));
	if (m->microcode && *m->microcode) {
		fputs(", microcode ", out);
		html_text(out, m->microcode);
	}
}

static void command_line(FILE *out, const struct result_head *h)
{
	if (!h->has_argv) {
		fputs("-", out);
		return;
	}
	/* a command's own argv: "scan --json ..." */
	fputs("<code>straddle ", out);
	for (size_t i = 0; i < h->argc; i++) {
		if (i)
			fputc(' ', out);
		html_text(out, h->argv[i] ? h->argv[i] : "?");
	}
	fputs("</code>", out);
}

/* The machines, each once, numbered; a file names its machine's number. */
static size_t machine_number(const struct machine_doc *const *seen, size_t nseen,
			     const struct machine_doc *m)
{
	for (size_t i = 0; i < nseen; i++)
		if (results_same_machine(seen[i], m))
			return i + 1;
	return 0;
}

static void page_header(FILE *out, const struct report_input *in, size_t n)
{
	const struct machine_doc **seen = xcalloc(n + 1, sizeof *seen);
	size_t nseen = 0;

	for (size_t i = 0; i < n; i++) {
		const struct machine_doc *m = &in[i].head.machine;

		if (m->present && !machine_number(seen, nseen, m))
			seen[nseen++] = m;
	}
	fputs("<header>\n", out);
	if (nseen) {
		fputs("<h3>Machines</h3>\n<ol class=\"machines\">\n", out);
		for (size_t i = 0; i < nseen; i++) {
			fputs("<li>", out);
			machine_line(out, seen[i]);
			fputs("</li>\n", out);
		}
		fputs("</ol>\n", out);
	}
	fputs("<h3>Result files</h3>\n<table class=\"files\">\n<thead><tr><th>file</th>"
	      "<th>command</th><th>made by</th><th>time (UTC)</th><th class=\"num\">machine"
	      "</th><th>tool version</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct result_head *h = &in[i].head;
		size_t k = h->machine.present ? machine_number(seen, nseen, &h->machine) : 0;

		fprintf(out, "<tr><td class=\"path wrap\"><a href=\"#%s-%zu\">", in[i].command,
			in[i].index);
		html_text(out, in[i].path);
		fprintf(out, "</a></td><td>%s</td><td class=\"wrap\">", in[i].command);
		command_line(out, h);
		fputs("</td><td>", out);
		html_text(out, text_or(h->time, "-"));
		if (k)
			fprintf(out, "</td><td class=\"num\">%zu</td><td>", k);
		else
			fputs("</td><td class=\"num\">-</td><td>", out);
		html_text(out, text_or(h->tool_version, "-"));
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</header>\n", out);
	free(seen);
}

static void contents(FILE *out, const struct report_input *in, size_t n)
{
	fputs("<nav class=\"toc\"><h3>Contents</h3>\n<ol>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<li><a href=\"#%s-%zu\">%s %zu</a>: <span class=\"path\">",
			in[i].command, in[i].index, in[i].command, in[i].index);
		html_text(out, in[i].path);
		fputs("</span></li>\n", out);
	}
	fputs("</ol></nav>\n", out);
}

typedef void section_fn(FILE *out, const struct report_input *in);

/* Each kind's section, by the kinds' one table (results/kinds.c); bench
 * files are shown together (html_section_benches), compared. */
static section_fn *const section_of[RESULT_KINDS] = {
	[RESULT_SCAN] = html_section_scan, [RESULT_DIFF] = html_section_diff,
	[RESULT_RECORD] = html_section_record, [RESULT_SWEEP] = html_section_sweep,
	[RESULT_PLACE] = html_section_place, [RESULT_AB] = html_section_ab,
	[RESULT_PROVE] = html_section_prove,
	[RESULT_CALIBRATE] = html_section_calibrate,
	[RESULT_COMPARE] = html_section_compare,
};

static void sections(FILE *out, const struct report_input *in, size_t n)
{
	struct report_input *benches = xcalloc(n + 1, sizeof *benches);
	size_t nbench = 0;

	for (size_t i = 0; i < n; i++)
		if (in[i].kind == RESULT_BENCH)
			benches[nbench++] = in[i];
		else
			section_of[in[i].kind](out, &in[i]);
	if (nbench)
		html_section_benches(out, benches, nbench);
	free(benches);
}

int report_html(FILE *out, const struct report_input *in, size_t n)
{
	page_begin(out, in, n);
	page_header(out, in, n);
	contents(out, in, n);
	fputs("<main>\n", out);
	sections(out, in, n);
	fputs("</main>\n", out);
	page_end(out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
