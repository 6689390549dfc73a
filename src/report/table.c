/* Text tables: columns sized to their widest cell, two spaces apart. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
	 * break the row or drive the terminal (issue 25, finding 9) */
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
