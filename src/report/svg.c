/* SVG plots: self-contained, no script, readable in any browser, in the
 * HTML report and in a grey-scale printout. Two kinds:
 * - plot: y against x for some series, a CI whisker per point, marked
 *   points (measured slow), dashed vertical guides (window boundaries) and
 *   shaded x bands (predicted slow): sweep and calibrate;
 * - strip: every sample of each run as a dot on one row, a box (quartiles
 *   and median) over them: bench and compare.
 * Series and sides are told apart by marker shape and dash as well as hue;
 * marked points are filled and ringed, the others hollow; the legend and
 * notes sit above the plot area, never over the data. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 900
#define H 420
#define ML 70   /* margins */
#define MR 20
#define MT 62     /* the title, the legend and the note live here, off the data */
#define MB 50

/* Dark enough to print, far apart in lightness as well as hue. */
static const char *const colours[] = { "#1f4e9a", "#b35806", "#2d7d2d", "#6a3d9a", "#444444" };
static const char *const dashes[] = { "", "6 3", "2 2", "8 3 2 3", "1 3" };
#define NSTYLE 5

enum shape { SHAPE_CIRCLE, SHAPE_SQUARE, SHAPE_TRIANGLE, SHAPE_DIAMOND, SHAPE_DOWN };

/* One marker centred at (x, y), r its half-size. */
static void marker(FILE *out, enum shape s, double x, double y, double r, const char *stroke,
		   const char *fill, const char *class)
{
	fprintf(out, "<path class='%s' d='", class);
	switch (s) {
	case SHAPE_CIRCLE:
		fprintf(out, "M%.1f,%.1fa%.1f,%.1f 0 1,0 %.1f,0a%.1f,%.1f 0 1,0 %.1f,0z", x - r, y,
			r, r, 2 * r, r, r, -2 * r);
		break;
	case SHAPE_SQUARE:
		r *= 0.9;
		fprintf(out, "M%.1f,%.1fh%.1fv%.1fh%.1fz", x - r, y - r, 2 * r, 2 * r, -2 * r);
		break;
	case SHAPE_TRIANGLE:
		fprintf(out, "M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fz", x, y - 1.2 * r, x + 1.1 * r,
			y + 0.8 * r, x - 1.1 * r, y + 0.8 * r);
		break;
	case SHAPE_DIAMOND:
		fprintf(out, "M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fL%.1f,%.1fz", x, y - 1.3 * r,
			x + 1.1 * r, y, x, y + 1.3 * r, x - 1.1 * r, y);
		break;
	case SHAPE_DOWN:
		fprintf(out, "M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fz", x, y + 1.2 * r, x + 1.1 * r,
			y - 0.8 * r, x - 1.1 * r, y - 0.8 * r);
		break;
	}
	fprintf(out, "' stroke='%s' fill='%s'/>\n", stroke, fill);
}

/* Text content, escaped (names are bytes from files). */
static void text(FILE *out, double x, double y, const char *attrs, const char *s)
{
	fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, y, attrs);
	html_text(out, s);
	fputs("</text>\n", out);
}

/* ---- axes ---- */

/* A round step (1, 2 or 5 times a power of ten) giving about 5 ticks. */
static double tick_step(double span)
{
	double raw = span / 5, mag;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	return raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag :
	       10 * mag;
}

/* A value axis: linear, or logarithmic when the samples span a factor of
 * LOG_SPAN or more (a bench's slowest samples can be 15 times its median:
 * on a linear axis every run would be a smudge at one end). */
#define LOG_SPAN 4.0

struct axis {
	double lo, hi;
	bool log;
	double p0, p1;          /* pixels of lo and hi */
};

static double axis_px(const struct axis *a, double v)
{
	double f = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) :
		   (v - a->lo) / (a->hi - a->lo ? a->hi - a->lo : 1);

	return a->p0 + f * (a->p1 - a->p0);
}

/* The ticks of a: round numbers inside [lo, hi], at most `max`. */
static size_t axis_ticks(const struct axis *a, double *t, size_t max)
{
	size_t n = 0;

	if (a->log) {
		static const double steps[2][10] = { { 1, 2, 5 }, { 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9 } };
		static const size_t nsteps[2] = { 3, 10 };

		for (int fine = 0; fine < 2 && n < 3; fine++) {
			n = 0;
			for (double mag = pow(10, floor(log10(a->lo))); mag <= a->hi; mag *= 10)
				for (size_t i = 0; i < nsteps[fine]; i++) {
					double v = steps[fine][i] * mag;

					if (v >= a->lo * (1 - 1e-9) && v <= a->hi * (1 + 1e-9) && n < max)
						t[n++] = v;
				}
		}
		return n;
	}
	double step = tick_step(a->hi - a->lo);

	for (double v = ceil(a->lo / step - 1e-9) * step; v <= a->hi + step * 1e-9 && n < max;
	     v += step)
		t[n++] = fabs(v) < step / 1e6 ? 0 : v;
	return n;
}

/* ---- the line plot ---- */

struct frame {
	double x0, x1, y0, y1;
	double band;            /* the width of a shaded band, x units */
};

static double px(const struct frame *f, double x)
{
	return ML + (x - f->x0) / (f->x1 - f->x0 ? f->x1 - f->x0 : 1) * (W - ML - MR);
}

static double py(const struct frame *f, double y)
{
	return H - MB - (y - f->y0) / (f->y1 - f->y0 ? f->y1 - f->y0 : 1) * (H - MT - MB);
}

/* The smallest gap between two x values of a series: a sweep every 2
 * bytes shades 2-byte bands. */
static double smallest_gap(const struct plot *p)
{
	double gap = INFINITY;

	for (size_t s = 0; s < p->nseries; s++)
		for (size_t i = 1; i < p->series[s].n; i++) {
			double d = fabs(p->series[s].x[i] - p->series[s].x[i - 1]);

			if (d > 0)
				gap = fmin(gap, d);
		}
	return isfinite(gap) ? gap : 1;
}

static void bounds(const struct plot *p, struct frame *f)
{
	f->x0 = f->y0 = INFINITY;
	f->x1 = f->y1 = -INFINITY;
	f->band = smallest_gap(p);
	for (size_t s = 0; s < p->nseries; s++)
		for (size_t i = 0; i < p->series[s].n; i++) {
			const struct plot_series *r = &p->series[s];
			double lo = r->lo ? r->lo[i] : r->y[i], hi = r->hi ? r->hi[i] : r->y[i];

			f->x0 = fmin(f->x0, r->x[i]);
			f->x1 = fmax(f->x1, r->x[i]);
			f->y0 = fmin(f->y0, lo);
			f->y1 = fmax(f->y1, hi);
		}
	if (!isfinite(f->x0)) {
		f->x0 = 0, f->x1 = 1, f->y0 = 0, f->y1 = 1;
		return;
	}
	double pad = (f->y1 - f->y0) * 0.08 + 1e-9;
	f->y0 = fmax(0, f->y0 - pad);
	f->y1 += pad;
	f->x0 -= f->band / 2;
	f->x1 += f->band / 2;
}

static void ticks(FILE *out, const struct frame *f)
{
	struct axis ya = { f->y0, f->y1, false, 0, 0 };
	double t[64], sx = tick_step(f->x1 - f->x0);
	double sx_whole = sx < 1 ? 1 : sx;      /* offsets are whole numbers */
	size_t n = axis_ticks(&ya, t, 64);

	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>\n", ML,
			py(f, t[i]), W - MR, py(f, t[i]));
		fprintf(out, "<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%g</text>\n",
			ML - 6, py(f, t[i]) + 4, t[i]);
	}
	for (double x = ceil(f->x0 / sx_whole) * sx_whole; x <= f->x1; x += sx_whole)
		fprintf(out, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%g</text>\n",
			px(f, x), H - MB + 28, fabs(x) < 1e-9 ? 0 : x);
}

/* Grey, not a hue: a band reads the same printed in black and white. */
static void shading(FILE *out, const struct plot *p, const struct frame *f)
{
	/* neighbours one band apart are one rectangle: no seams between them */
	for (size_t i = 0, j; i < p->nshade; i = j) {
		double a, b;

		for (j = i + 1; j < p->nshade &&
		     fabs(p->shade[j] - p->shade[j - 1] - f->band) < 1e-9 * (1 + f->band); j++)
			;
		a = px(f, p->shade[i] - f->band / 2);
		b = px(f, p->shade[j - 1] + f->band / 2);
		fprintf(out, "<rect class='predicted' x='%.1f' y='%d' width='%.1f' height='%d' "
			"fill='#bbbbbb' opacity='0.45'/>\n", a, MT, b - a, H - MT - MB);
	}
}

static void guides(FILE *out, const struct plot *p, const struct frame *f)
{
	for (size_t i = 0; i < p->nvlines; i++) {
		double x = px(f, p->vlines[i]);
		char label[32];

		if (p->vlabels && p->vlabels[i])
			snprintf(label, sizeof label, "%s", p->vlabels[i]);
		else
			snprintf(label, sizeof label, "%.0f", p->vlines[i]);
		fprintf(out, "<line class='boundary' x1='%.1f' y1='%d' x2='%.1f' y2='%d' "
			"stroke='#222' stroke-dasharray='4 3' opacity='0.7'/>\n", x, MT, x, H - MB);
		text(out, x, H - MB + 14, "text-anchor='middle' font-size='10'", label);
	}
}

static void axes(FILE *out, const struct plot *p, const struct frame *f)
{
	shading(out, p, f);
	ticks(out, f);
	fprintf(out, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#888'/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	guides(out, p, f);
	text(out, (W + ML - MR) / 2.0, H - 6, "text-anchor='middle' font-size='12'", p->xlabel);
	if (p->note)
		text(out, ML, MT - 6, "font-size='11' fill='#333'", p->note);
	fprintf(out, "<text x='16' y='%d' text-anchor='middle' font-size='12' "
		"transform='rotate(-90 16 %d)'>", (H - MB + MT) / 2, (H - MB + MT) / 2);
	html_text(out, p->ylabel);
	fputs("</text>\n", out);
	text(out, ML, 16, "font-size='14'", p->title);
}

/* The legend: a row between the title and the note, each entry its marker
 * and dash as drawn; then what a filled point and a grey band mean. */
static void legend(FILE *out, const struct plot *p)
{
	double x = ML;

	for (size_t s = 0; s < p->nseries; s++) {
		const char *c = colours[s % NSTYLE];

		fprintf(out, "<line x1='%.1f' y1='34' x2='%.1f' y2='34' stroke='%s' "
			"stroke-dasharray='%s'/>\n", x, x + 24, c, dashes[s % NSTYLE]);
		marker(out, (enum shape)(s % NSTYLE), x + 12, 34, 3.5, c, "white", "key");
		text(out, x + 30, 38, "font-size='11'", p->series[s].name);
		x += 40 + 7.0 * (double)strlen(p->series[s].name);
	}
	if (p->nseries) {
		marker(out, SHAPE_CIRCLE, x + 6, 34, 3.5, "#111", "#111", "key");
		fprintf(out, "<circle cx='%.1f' cy='34' r='6.5' fill='none' stroke='#111'/>\n",
			x + 6);
		text(out, x + 16, 38, "font-size='11'", "filled, ringed: measured slow");
		x += 200;
	}
	if (p->nshade) {
		fprintf(out, "<rect x='%.1f' y='28' width='14' height='12' fill='#bbbbbb' "
			"opacity='0.45'/>\n", x);
		text(out, x + 20, 38, "font-size='11'", "grey band: predicted slow");
	}
}

/* A series of more points than this (a sweep of every offset of a page) draws
 * its line only, no marker or whisker: 4096 of each made a 2 MB page; the
 * table behind the plot and the result file have them. */
#define PLOT_POINTS 512

static void series(FILE *out, const struct plot_series *r, const struct frame *f, size_t index)
{
	const char *colour = colours[index % NSTYLE];
	bool dense = r->n > PLOT_POINTS;

	fputs("<g class='series' data-name='", out);
	html_text(out, r->name);
	fprintf(out, "'>\n<polyline fill='none' stroke='%s' stroke-width='1.2' "
		"stroke-dasharray='%s' points='", colour, dashes[index % NSTYLE]);
	for (size_t i = 0; i < r->n; i++)
		fprintf(out, "%.1f,%.1f ", px(f, r->x[i]), py(f, r->y[i]));
	fprintf(out, "'/>\n");
	for (size_t i = 0; i < r->n; i++) {
		double x = px(f, r->x[i]), y = py(f, r->y[i]);
		bool mark = r->mark && r->mark[i];

		if (dense)
			break;
		if (r->lo && r->hi)
			fprintf(out, "<line class='ci' x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
				"stroke='%s'/>\n", x, py(f, r->lo[i]), x, py(f, r->hi[i]), colour);
		marker(out, (enum shape)(index % NSTYLE), x, y, mark ? 3.5 : 3, colour,
		       mark ? colour : "white", mark ? "point slow" : "point");
		if (mark)
			fprintf(out, "<circle cx='%.1f' cy='%.1f' r='6.5' fill='none' "
				"stroke='#111'/>\n", x, y);
	}
	fputs("</g>\n", out);
}

static void plot_body(FILE *out, const struct plot *p)
{
	struct frame f;

	bounds(p, &f);
	fputs("<rect width='100%' height='100%' fill='white'/>\n", out);
	axes(out, p, &f);
	legend(out, p);
	for (size_t s = 0; s < p->nseries; s++)
		series(out, &p->series[s], &f, s);
	fputs("</svg>\n", out);
}

int plot_svg(FILE *out, const struct plot *p)
{
	fprintf(out, "<svg xmlns='http://www.w3.org/2000/svg' role='img' width='%d' height='%d' "
		"viewBox='0 0 %d %d' font-family='sans-serif'>\n<title>", W, H, W, H);
	html_text(out, p->title);
	fputs("</title>\n", out);
	plot_body(out, p);
	return ferror(out) ? -1 : 0;
}

void plot_svg_inline(FILE *out, const struct plot *p, const char *id)
{
	html_svg_begin(out, id, p->title, W, H);
	plot_body(out, p);
}

/* ---- the strip plot ---- */

#define SML 150         /* the rows' labels */
#define SRH 26          /* a row */

struct box {
	double q1, median, q3;
};

static struct box box_of(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof *s);
	struct box b;

	memcpy(s, v, n * sizeof *s);
	stats_sort(s, n);
	/* nearest-rank quartiles; the median as the run's table gives it */
	b = (struct box){ stats_quantile_sorted(s, n, 0.25), stats_median_sorted(s, n),
			  stats_quantile_sorted(s, n, 0.75) };
	free(s);
	return b;
}

static void strip_axis(const struct strip_plot *p, struct axis *a)
{
	a->lo = INFINITY, a->hi = -INFINITY;
	for (size_t r = 0; r < p->nrows; r++)
		for (size_t i = 0; i < p->rows[r].n; i++) {
			a->lo = fmin(a->lo, p->rows[r].v[i]);
			a->hi = fmax(a->hi, p->rows[r].v[i]);
		}
	if (!isfinite(a->lo))
		a->lo = 0, a->hi = 1;
	a->log = a->lo > 0 && a->hi / a->lo >= LOG_SPAN;
	if (a->log) {
		a->lo /= 1.05, a->hi *= 1.05;
	} else {
		double pad = (a->hi - a->lo) * 0.05 + fabs(a->hi) * 1e-6 + 1e-12;

		a->lo = a->lo >= 0 ? fmax(0, a->lo - pad) : a->lo - pad;
		a->hi += pad;
	}
	a->p0 = SML, a->p1 = W - MR;
}

unsigned strip_svg_height(const struct strip_plot *p)
{
	return (unsigned)(MT + SRH * p->nrows + MB);
}

static void strip_frame(FILE *out, const struct strip_plot *p, const struct axis *a)
{
	unsigned h = strip_svg_height(p);
	double t[64];
	size_t n = axis_ticks(a, t, 64);

	fputs("<rect width='100%' height='100%' fill='white'/>\n", out);
	for (size_t i = 0; i < n; i++) {
		double x = axis_px(a, t[i]);

		fprintf(out, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%u' stroke='#ddd'/>\n", x, MT,
			x, h - MB);
		fprintf(out, "<text x='%.1f' y='%u' text-anchor='middle' font-size='11'>%g</text>\n",
			x, h - MB + 16, t[i]);
	}
	fprintf(out, "<rect x='%d' y='%d' width='%d' height='%u' fill='none' stroke='#888'/>\n",
		SML, MT, W - SML - MR, h - MT - MB);
	text(out, (W + SML - MR) / 2.0, h - 10, "text-anchor='middle' font-size='12'", p->xlabel);
	text(out, ML, 16, "font-size='14'", p->title);
	if (p->note)
		text(out, ML, MT - 6, "font-size='11' fill='#333'", p->note);
	for (size_t s = 0; s < p->nsides; s++) {
		double x = ML + 220.0 * (double)s;

		marker(out, (enum shape)(s % NSTYLE), x + 4, 34, 3.5, colours[s % NSTYLE], "white",
		       "key");
		text(out, x + 12, 38, "font-size='11'", p->sides[s]);
	}
	if (a->log)
		text(out, W - MR, 38, "text-anchor='end' font-size='11' fill='#333'",
		     "logarithmic axis");
}

/* A plot of more than STRIP_DOTS samples (report.h) draws each run as their
 * density, one path, not a dot each: one bench file of gettime's 10,000 cold
 * calls a run made a 16 MB page of 144,000 paths, and 100 dots a run still
 * made 0.9 MB of two small bench files. */
#define DENSITY_BIN 3.0 /* pixels */

/* The samples' density over the row: the count in each DENSITY_BIN pixels
 * of the axis as the height of one filled outline from the row's foot
 * (class "density"), the fullest bin the row's height. */
static void strip_density(FILE *out, const struct strip_row *r, const struct axis *a, double y,
			  const char *colour)
{
	size_t nbins = (size_t)ceil((a->p1 - a->p0) / DENSITY_BIN) + 1, most = 0;
	size_t *count = xcalloc(nbins, sizeof *count);
	double foot = y + SRH / 2.0 - 2, tall = SRH - 4;

	for (size_t i = 0; i < r->n; i++) {
		double f = (axis_px(a, r->v[i]) - a->p0) / DENSITY_BIN;
		size_t k = f <= 0 ? 0 : f >= (double)(nbins - 1) ? nbins - 1 : (size_t)f;

		most = ++count[k] > most ? count[k] : most;
	}
	fprintf(out, "<path class='density' data-samples='%zu' fill='%s' fill-opacity='0.45' "
		"stroke='%s' stroke-width='0.5' d='M%.1f %.1f", r->n, colour, colour, a->p0, foot);
	for (size_t k = 0; k < nbins; k++)
		if (count[k] || (k && count[k - 1]))
			fprintf(out, "L%.0f %.1fh%.0f", a->p0 + (double)k * DENSITY_BIN,
				foot - tall * (double)count[k] / (double)most, DENSITY_BIN);
		else if (k + 1 < nbins && count[k + 1])
			fprintf(out, "L%.0f %.1f", a->p0 + (double)(k + 1) * DENSITY_BIN, foot);
	fprintf(out, "L%.0f %.1fZ'/>\n", a->p0 + (double)nbins * DENSITY_BIN, foot);
	free(count);
}

/* One run: its label, its samples (a dot each, spread over the row by a
 * fixed jitter: the golden ratio's fractions, the same page every time;
 * or, dense, their density), the box of its quartiles and a thick median
 * line over them. */
static void strip_row(FILE *out, const struct strip_row *r, const struct axis *a, size_t row,
		      bool dense)
{
	double y = MT + SRH * ((double)row + 0.5);
	const char *c = colours[r->side % NSTYLE];
	struct box b = box_of(r->v, r->n);

	text(out, SML - 8, y + 4, "text-anchor='end' font-size='11'", r->label);
	fputs("<g class='run' data-name='", out);
	html_text(out, r->label);
	fputs("'>\n", out);
	if (dense)
		strip_density(out, r, a, y, c);
	for (size_t i = 0; !dense && i < r->n; i++) {
		double j = fmod((double)i * 0.6180339887, 1.0) - 0.5;

		marker(out, (enum shape)(r->side % NSTYLE), axis_px(a, r->v[i]), y + j * (SRH - 10),
		       2.6, c, "none", "sample");
	}
	if (r->n) {
		fprintf(out, "<rect class='box' x='%.1f' y='%.1f' width='%.1f' height='%d' "
			"fill='none' stroke='#111'/>\n", axis_px(a, b.q1), y - SRH / 2.0 + 2,
			axis_px(a, b.q3) - axis_px(a, b.q1), SRH - 4);
		fprintf(out, "<line class='median' x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
			"stroke='#111' stroke-width='3'/>\n", axis_px(a, b.median),
			y - SRH / 2.0 + 2, axis_px(a, b.median), y + SRH / 2.0 - 2);
	}
	fputs("</g>\n", out);
}

bool strip_dense(const struct strip_plot *p)
{
	size_t n = 0;

	for (size_t r = 0; r < p->nrows; r++)
		n += p->rows[r].n;
	return n > STRIP_DOTS;
}

void strip_svg_inline(FILE *out, const struct strip_plot *p, const char *id)
{
	struct axis a;

	strip_axis(p, &a);
	html_svg_begin(out, id, p->title, W, strip_svg_height(p));
	strip_frame(out, p, &a);
	for (size_t r = 0; r < p->nrows; r++)
		strip_row(out, &p->rows[r], &a, r, strip_dense(p));
	fputs("</svg>\n", out);
}

/* ---- the change plot ---- */

/* A verdict's marker: worse filled, better filled the other way up,
 * no verdict hollow; shapes, not colours, carry it. */
static void verdict_marker(FILE *out, const char *verdict, double x, double y,
			   const char *class)
{
	bool worse = strcmp(verdict, "REGRESSION") == 0, better = strcmp(verdict, "better") == 0;
	enum shape s = worse ? SHAPE_SQUARE : better ? SHAPE_TRIANGLE :
		       strcmp(verdict, "inconclusive") == 0 ? SHAPE_DIAMOND : SHAPE_CIRCLE;

	marker(out, s, x, y, 4.5, "#111", worse || better ? "#111" : "white", class);
}

static void change_axis(const struct change_plot *p, struct axis *a)
{
	a->lo = -100 * p->threshold, a->hi = 100 * p->threshold, a->log = false;
	for (size_t i = 0; i < p->nrows; i++) {
		const struct change_plot_row *r = &p->rows[i];

		a->lo = fmin(a->lo, fmin(r->change, isfinite(r->lo) ? r->lo : r->change));
		a->hi = fmax(a->hi, fmax(r->change, isfinite(r->hi) ? r->hi : r->change));
	}
	double pad = (a->hi - a->lo) * 0.05;

	a->lo -= pad, a->hi += pad;
	a->p0 = SML + 100, a->p1 = W - MR;
}

unsigned change_svg_height(const struct change_plot *p)
{
	return (unsigned)(MT + SRH * p->nrows + MB);
}

static void change_frame(FILE *out, const struct change_plot *p, const struct axis *a)
{
	static const char *const keys[][2] = { { "REGRESSION", "filled square: regression" },
		{ "better", "filled triangle: better" }, { "no change", "hollow circle: no change" },
		{ "inconclusive", "hollow diamond: inconclusive" } };
	unsigned h = change_svg_height(p);
	double t[64], x0 = axis_px(a, 0);
	size_t n = axis_ticks(a, t, 64);

	fputs("<rect width='100%' height='100%' fill='white'/>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%u' stroke='#ddd'/>\n",
			axis_px(a, t[i]), MT, axis_px(a, t[i]), h - MB);
		fprintf(out, "<text x='%.1f' y='%u' text-anchor='middle' font-size='11'>%+g</text>\n",
			axis_px(a, t[i]), h - MB + 16, t[i]);
	}
	/* the threshold: a change inside the band cannot be a regression */
	fprintf(out, "<rect class='threshold' x='%.1f' y='%d' width='%.1f' height='%u' "
		"fill='#bbbbbb' opacity='0.35'/>\n", axis_px(a, -100 * p->threshold), MT,
		axis_px(a, 100 * p->threshold) - axis_px(a, -100 * p->threshold), h - MT - MB);
	fprintf(out, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%u' stroke='#111'/>\n", x0, MT, x0,
		h - MB);
	fprintf(out, "<rect x='%.0f' y='%d' width='%.0f' height='%u' fill='none' stroke='#888'/>\n",
		a->p0, MT, a->p1 - a->p0, h - MT - MB);
	text(out, (a->p0 + a->p1) / 2, h - 10, "text-anchor='middle' font-size='12'", p->xlabel);
	text(out, ML, 16, "font-size='14'", p->title);
	for (size_t k = 0; k < 4; k++) {
		verdict_marker(out, keys[k][0], ML + 6 + 190.0 * (double)k, 34, "key");
		text(out, ML + 16 + 190.0 * (double)k, 38, "font-size='11'", keys[k][1]);
	}
	if (p->note)
		text(out, ML, MT - 6, "font-size='11' fill='#333'", p->note);
}

void change_svg_inline(FILE *out, const struct change_plot *p, const char *id)
{
	struct axis a;

	change_axis(p, &a);
	html_svg_begin(out, id, p->title, W, change_svg_height(p));
	change_frame(out, p, &a);
	for (size_t i = 0; i < p->nrows; i++) {
		const struct change_plot_row *r = &p->rows[i];
		double y = MT + SRH * ((double)i + 0.5);

		text(out, a.p0 - 8, y + 4, "text-anchor='end' font-size='11'", r->label);
		if (isfinite(r->lo))
			fprintf(out, "<line class='ci' x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
				"stroke='#111' stroke-width='1.5'/>\n", axis_px(&a, r->lo), y,
				axis_px(&a, r->hi), y);
		verdict_marker(out, r->verdict, axis_px(&a, r->change), y, "change");
	}
	fputs("</svg>\n", out);
}
