/* The SVG plots (report/svg.c): round ticks, one element per point and per
 * sample, slow marks, merged bands, guides with their labels, the log axis
 * of a long-tailed strip, escaped names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* The texts of the elements whose opening tag ends with `attrs>`, joined
 * by spaces: the tick labels. */
static void texts(const char *s, const char *attrs, char *out, size_t n)
{
	size_t used = 0, len = strlen(attrs);

	out[0] = 0;
	for (const char *p = strstr(s, attrs); p; p = strstr(p + 1, attrs)) {
		const char *end = strchr(p + len, '<');

		used += (size_t)snprintf(out + used, n - used, "%s%.*s", used ? " " : "",
					 (int)(end - p - len), p + len);
	}
}

static char *render_plot(const struct plot *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(plot_svg(f, p), 0);
	fclose(f);
	return buf;
}

static void line_plot(void **state)
{
	double x[] = { 0, 2, 4, 6, 8, 10 }, y[] = { 100, 110, 200, 190, 105, 100 };
	double lo[] = { 95, 105, 180, 185, 100, 98 }, hi[] = { 105, 120, 210, 195, 110, 102 };
	bool mark[] = { false, false, true, true, false, false };
	double shade[] = { 4, 6, 10 }, vl[] = { 3, 7 };
	const char *const vlabels[] = { "16 B", NULL };
	struct plot_series s = { "a<b&c", x, y, lo, hi, mark, 6 };
	struct plot p = { "t", "offset", "ns", &s, 1, vl, 2, shade, 3, "note", vlabels };
	char *svg = render_plot(&p), got[400];

	assert_int_equal(count(svg, "class='point'"), 4);
	assert_int_equal(count(svg, "class='point slow'"), 2);
	assert_int_equal(count(svg, "class='ci'"), 6);
	/* 4 and 6 are one band apart (the gap between offsets): one rectangle;
	 * 10 its own */
	assert_int_equal(count(svg, "class='predicted'"), 2);
	assert_int_equal(count(svg, "class='boundary'"), 2);
	/* y from 95 to 210, padded by 8% of 115 to 85.8..219.2: steps of 20 */
	texts(svg, "text-anchor='end' font-size='11'>", got, sizeof got);
	assert_string_equal(got, "100 120 140 160 180 200");
	/* x from -1 to 11: steps of 2, whole numbers */
	texts(svg, "text-anchor='middle' font-size='11'>", got, sizeof got);
	assert_string_equal(got, "0 2 4 6 8 10");
	texts(svg, "text-anchor='middle' font-size='10'>", got, sizeof got);
	assert_string_equal(got, "16 B 7");
	assert_non_null(strstr(svg, "data-name='a&lt;b&amp;c'"));
	assert_null(strstr(svg, "a<b"));
	assert_non_null(strstr(svg, "<title>t</title>"));
	free(svg);
}

static char *render_strip(const struct strip_plot *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	strip_svg_inline(f, p, "s");
	fclose(f);
	return buf;
}

static void strip_plot(void **state)
{
	double a[] = { 1.2, 1.5, 1.3, 9, 1.4 }, b[] = { 2, 2.5, 3 };
	struct strip_row rows[] = { { "base, run 1", a, 5, 0 }, { "new, run 1", b, 3, 1 } };
	const char *const sides[] = { "base", "new" };
	struct strip_plot p = { "title", "ns", NULL, rows, 2, sides, 2 };
	char *svg = render_strip(&p), got[400];

	assert_int_equal(count(svg, "class='sample'"), 8);
	assert_int_equal(count(svg, "class='box'"), 2);
	assert_int_equal(count(svg, "class='median'"), 2);
	/* 1.2 to 9 spans 7.5 times: logarithmic; 1, 2, 5 would give two ticks
	 * in 1.14..9.45, so every digit */
	assert_non_null(strstr(svg, "logarithmic axis"));
	texts(svg, "text-anchor='middle' font-size='11'>", got, sizeof got);
	assert_string_equal(got, "1.5 2 3 4 5 6 7 8 9");
	assert_int_equal(strip_svg_height(&p), 62 + 2 * 26 + 50);
	free(svg);
	/* 2 to 3: linear, steps of 0.2 */
	rows[0] = (struct strip_row){ "base, run 1", b, 3, 0 };
	svg = render_strip(&p);
	assert_null(strstr(svg, "logarithmic"));
	texts(svg, "text-anchor='middle' font-size='11'>", got, sizeof got);
	assert_string_equal(got, "2 2.2 2.4 2.6 2.8 3");
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(line_plot),
		cmocka_unit_test(strip_plot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
