/* The page of `straddle report` (issue 14): one HTML file that needs
 * nothing else. Inline CSS, inline SVG, no script, no URL: it is mailed,
 * attached to a CI run, printed. The colours are chosen to survive a
 * grey-scale printout (dark/light, with patterns and labels, never hue
 * alone). This file has the page, its header and contents, and the
 * helpers every section uses; the sections are html_layout.c's and
 * html_measure.c's. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void html_text(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : utf8_length((const unsigned char *)s + i, n - i);

		if (len == 0) {
			fputs("\xef\xbf\xbd", out);     /* U+FFFD: symbol names are bytes */
			i++;
			continue;
		}
		switch (c) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (c < 0x20 && c != '\n' && c != '\t')
				fputs("\xef\xbf\xbd", out);
			else
				fwrite(s + i, 1, len, out);
		}
		i += len;
	}
}

void html_textf(FILE *out, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	html_text(out, buf);
}

/* An array's strings and numbers, ", " between: bench's "tasks": [1]
 * printed "-" (issue 23); anything else in it is "?". */
static void html_list(FILE *out, const json_t *list)
{
	size_t i;
	const json_t *v;

	json_array_foreach(list, i, v) {
		fputs(i ? ", " : "", out);
		if (json_is_string(v))
			html_text(out, json_string_value(v));
		else if (json_is_integer(v))
			fprintf(out, "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			fprintf(out, "%.4g", json_real_value(v));
		else
			fputs("?", out);
	}
}

void html_field(FILE *out, const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_string(v))
		html_text(out, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(out, "%.4g", json_real_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "yes" : "no", out);
	else if (json_is_array(v) && json_array_size(v))
		html_list(out, v);
	else
		fputs("-", out);
}

void html_more(FILE *out, size_t shown, size_t total, const char *what)
{
	if (shown < total)
		fprintf(out, "<p class=\"more\">%zu more %s not shown (%zu in all).</p>\n",
			total - shown, what, total);
}

void html_section_begin(FILE *out, const struct report_input *in, const char *heading)
{
	fprintf(out, "<section class=\"result %s\" id=\"%s-%zu\">\n<h2>", in->command,
		in->command, in->index);
	html_text(out, heading);
	fputs(": <span class=\"path\">", out);
	html_text(out, in->path);
	fputs("</span></h2>\n", out);
}

void html_section_end(FILE *out)
{
	fputs("</section>\n", out);
}

void html_svg_begin(FILE *out, const char *id, const char *title, unsigned width,
		    unsigned height)
{
	fprintf(out, "<svg id=\"%s\" role=\"img\" "
		"aria-labelledby=\"%s-title\" width=\"%u\" height=\"%u\" "
		"viewBox=\"0 0 %u %u\">\n<title id=\"%s-title\">", id, id, width, height, width,
		height, id);
	html_text(out, title);
	fputs("</title>\n", out);
}

void table_html(const struct table *t, FILE *out, const char *class)
{
	fputs("<table", out);
	if (class)
		fprintf(out, " class=\"%s\"", class);
	fputs(">\n<thead><tr>", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(t->right[c] ? "<th class=\"num\">" : "<th>", out);
		html_text(out, t->head[c]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			fputs(t->right[c] ? "<td class=\"num\">" : t->wrap[c] ? "<td class=\"wrap\">" :
			      "<td>", out);
			html_text(out, t->cell[r * t->ncols + c]);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

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
static void machine_line(FILE *out, const json_t *m)
{
	const json_t *fam = json_object_get(m, "family"), *mod = json_object_get(m, "model"),
		*step = json_object_get(m, "stepping");
	const char *mc = json_string_value(json_object_get(m, "microcode"));

	html_field(out, m, "model_name");
	fputs(" (", out);
	html_field(out, m, "vendor");
	if (json_is_integer(fam) && json_is_integer(mod) && json_is_integer(step))
		fprintf(out, " family 0x%llx model 0x%llx stepping %lld",
			(long long)json_integer_value(fam), (long long)json_integer_value(mod),
			(long long)json_integer_value(step));
	fputs("), kernel ", out);
	html_field(out, m, "kernel");
	if (mc && *mc) {
		fputs(", microcode ", out);
		html_field(out, m, "microcode");
	}
}

static void command_line(FILE *out, const json_t *argv)
{
	size_t i;
	const json_t *a;

	if (!json_is_array(argv)) {
		fputs("-", out);
		return;
	}
	/* a command's own argv: "scan --json ..." */
	fputs("<code>straddle ", out);
	json_array_foreach(argv, i, a) {
		if (i)
			fputc(' ', out);
		html_text(out, json_string_value(a) ? json_string_value(a) : "?");
	}
	fputs("</code>", out);
}

/* The machines, each once, numbered; a file names its machine's number. */
static size_t machine_number(const json_t *const *seen, size_t nseen, const json_t *m)
{
	for (size_t i = 0; i < nseen; i++)
		if (json_equal((json_t *)seen[i], (json_t *)m))
			return i + 1;
	return 0;
}

static void page_header(FILE *out, const struct report_input *in, size_t n)
{
	const json_t **seen = xcalloc(n + 1, sizeof *seen);
	size_t nseen = 0;

	for (size_t i = 0; i < n; i++) {
		const json_t *m = json_object_get(in[i].doc, "machine");

		if (json_is_object(m) && !machine_number(seen, nseen, m))
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
		const json_t *m = json_object_get(in[i].doc, "machine");
		size_t k = json_is_object(m) ? machine_number(seen, nseen, m) : 0;

		fprintf(out, "<tr><td class=\"path wrap\"><a href=\"#%s-%zu\">", in[i].command,
			in[i].index);
		html_text(out, in[i].path);
		fprintf(out, "</a></td><td>%s</td><td class=\"wrap\">", in[i].command);
		command_line(out, json_object_get(in[i].doc, "command_line"));
		fputs("</td><td>", out);
		html_field(out, in[i].doc, "time");
		if (k)
			fprintf(out, "</td><td class=\"num\">%zu</td><td>", k);
		else
			fputs("</td><td class=\"num\">-</td><td>", out);
		html_field(out, in[i].doc, "tool_version");
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

static const struct {
	const char *command;
	section_fn *section;
} kinds[] = {
	{ "scan", html_section_scan },
	{ "diff", html_section_diff },
	{ "record", html_section_record },
	{ "sweep", html_section_sweep },
	{ "place", html_section_place },
	{ "calibrate", html_section_calibrate },
	{ "compare", html_section_compare },
};

static void sections(FILE *out, const struct report_input *in, size_t n)
{
	struct report_input *benches = xcalloc(n + 1, sizeof *benches);
	size_t nbench = 0;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(in[i].command, "bench") == 0) {
			benches[nbench++] = in[i];
			continue;
		}
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
			if (strcmp(in[i].command, kinds[k].command) == 0)
				kinds[k].section(out, &in[i]);
	}
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
