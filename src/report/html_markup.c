/* The markup every section of the page writes with (html.c's page and
 * the sections of html_layout.c, html_measure.c, html_bench.c, svg.c's
 * plots): escaped text, a field of a document, tables, a section's and a
 * plot's opening tags, and the typed look-ups of a document's fields. */
#include "internal.h"

#include <math.h>
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

/* ---- a document's fields ---- */

const char *text_or(const char *s, const char *absent)
{
	return s ? s : absent;
}

void cell_text(char *buf, size_t n, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, n, fmt, v);
	else
		snprintf(buf, n, "-");
}
