/* Text tables: columns sized to their widest cell, two spaces apart. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void table_init(struct table *t, size_t ncols, const char *const *cols)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols < TABLE_MAX_COLS ? ncols : TABLE_MAX_COLS;
	for (size_t c = 0; c < t->ncols; c++) {
		t->right[c] = cols[c][0] == '>';
		t->head[c] = cols[c] + t->right[c];
	}
}

void table_row(struct table *t, ...)
{
	va_list ap;

	GROW(t->cell, t->cap, (t->nrows + 1) * t->ncols);
	va_start(ap, t);
	for (size_t c = 0; c < t->ncols; c++) {
		char *cell = xstrdup(va_arg(ap, const char *));

		/* C++ names run to 200 characters: keep the head, mark the cut */
		if (t->max[c] > 3 && strlen(cell) > t->max[c])
			strcpy(cell + t->max[c] - 3, "...");
		t->cell[t->nrows * t->ncols + c] = cell;
	}
	va_end(ap);
	t->nrows++;
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
	size_t width[TABLE_MAX_COLS];

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
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	memset(t, 0, sizeof *t);
}
