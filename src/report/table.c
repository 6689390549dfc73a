/* Text tables: columns sized to their widest cell, two spaces apart; and
 * text fitted to a terminal's width. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void table_init(struct table *t, size_t ncols, const char *const *cols)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
	t->head = xcalloc(ncols ? ncols : 1, sizeof *t->head);
	t->right = xcalloc(ncols ? ncols : 1, sizeof *t->right);
	t->max = xcalloc(ncols ? ncols : 1, sizeof *t->max);
	t->wrap = xcalloc(ncols ? ncols : 1, sizeof *t->wrap);
	for (size_t c = 0; c < t->ncols; c++) {
		t->right[c] = cols[c][0] == '>';
		t->head[c] = cols[c] + t->right[c];
	}
}

static char *cut_cell(const struct table *t, size_t c, const char *text)
{
	/* names and paths come from files: a newline or ESC in one would
	 * break the row or drive the terminal */
	char *cell = escaped(text);

	/* C++ names run to 200 characters: keep the head, mark the cut */
	if (t->max[c] > 3 && strlen(cell) > t->max[c])
		strcpy(cell + t->max[c] - 3, "...");
	return cell;
}

void table_row_v(struct table *t, const char *const *cells)
{
	GROW(t->cell, t->cap, (t->nrows + 1) * t->ncols);
	for (size_t c = 0; c < t->ncols; c++)
		t->cell[t->nrows * t->ncols + c] = cut_cell(t, c, cells[c]);
	t->nrows++;
}

void table_row(struct table *t, ...)
{
	const char **cells = xcalloc(t->ncols ? t->ncols : 1, sizeof *cells);
	va_list ap;

	va_start(ap, t);
	for (size_t c = 0; c < t->ncols; c++)
		cells[c] = va_arg(ap, const char *);
	va_end(ap);
	table_row_v(t, cells);
	free(cells);
}

static void print_line(const struct table *t, FILE *out, const char *const *cells,
		       const size_t *width)
{
	for (size_t c = 0; c < t->ncols; c++) {
		int w = (int)width[c];
		bool last = c + 1 == t->ncols;

		if (t->right[c])
			fprintf(out, "%*s", w, cells[c]);
		else if (last)
			fputs(cells[c], out);   /* no trailing blanks */
		else
			fprintf(out, "%-*s", w, cells[c]);
		fputs(last ? "\n" : "  ", out);
	}
}

void table_print(const struct table *t, FILE *out)
{
	size_t *width = xcalloc(t->ncols ? t->ncols : 1, sizeof *width);

	for (size_t c = 0; c < t->ncols; c++) {
		width[c] = strlen(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t n = strlen(t->cell[r * t->ncols + c]);

			if (n > width[c])
				width[c] = n;
		}
	}
	print_line(t, out, t->head, width);
	for (size_t r = 0; r < t->nrows; r++)
		print_line(t, out, (const char *const *)&t->cell[r * t->ncols], width);
	free(width);
}

size_t table_width(const struct table *t)
{
	size_t sum = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		size_t w = strlen(t->head[c]);

		for (size_t r = 0; r < t->nrows; r++) {
			size_t len = strlen(t->cell[r * t->ncols + c]);

			w = len > w ? len : w;
		}
		sum += w + (c ? 2 : 0);
	}
	return sum;
}

size_t text_width(int fd)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	long n;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	n = cols ? strtol(cols, NULL, 10) : 0;
	return n >= 40 && n <= 1000 ? (size_t)n : 80;
}

void print_wrapped(FILE *out, const char *text, size_t indent, size_t width)
{
	size_t col = indent;
	bool first = true;

	for (const char *w = text; *w;) {
		size_t len = strcspn(w, " ");

		if (!first && col + 1 + len > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)len, w);
		col += len;
		first = false;
		w += len;
		w += strspn(w, " ");
	}
	fputc('\n', out);
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->head);
	free(t->right);
	free(t->max);
	free(t->wrap);
	memset(t, 0, sizeof *t);
}
