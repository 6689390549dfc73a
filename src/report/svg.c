/* SVG plots: self-contained, no script, readable in any browser and in the
 * HTML report. One plot: y against x for some series, with whiskers (a CI)
 * per point, marked points drawn filled red, and vertical guide lines
 * (window boundaries). */
#include "report.h"

#include <math.h>
#include <string.h>

#define W 900
#define H 420
#define ML 70   /* margins */
#define MR 20
#define MT 58     /* the title and the legend live here, off the data */
#define MB 50

static const char *const colours[] = { "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf" };

struct frame {
	double x0, x1, y0, y1;
};

static double px(const struct frame *f, double x)
{
	return ML + (x - f->x0) / (f->x1 - f->x0 ? f->x1 - f->x0 : 1) * (W - ML - MR);
}

static double py(const struct frame *f, double y)
{
	return H - MB - (y - f->y0) / (f->y1 - f->y0 ? f->y1 - f->y0 : 1) * (H - MT - MB);
}

static void bounds(const struct plot *p, struct frame *f)
{
	f->x0 = f->y0 = INFINITY;
	f->x1 = f->y1 = -INFINITY;
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
	f->x0 -= 0.5;
	f->x1 += 0.5;
}

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

static void ticks(FILE *out, const struct frame *f)
{
	double sy = tick_step(f->y1 - f->y0), sx = tick_step(f->x1 - f->x0);
	double sx_whole = sx < 1 ? 1 : sx;      /* offsets are whole numbers */

	for (double y = ceil(f->y0 / sy) * sy; y <= f->y1; y += sy) {
		fprintf(out, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#eee'/>\n", ML,
			py(f, y), W - MR, py(f, y));
		fprintf(out, "<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%g</text>\n",
			ML - 6, py(f, y) + 4, fabs(y) < sy / 1e6 ? 0 : y);
	}
	for (double x = ceil(f->x0 / sx_whole) * sx_whole; x <= f->x1; x += sx_whole)
		fprintf(out, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%g</text>\n",
			px(f, x), H - MB + 28, fabs(x) < 1e-9 ? 0 : x);
}

static void shading(FILE *out, const struct plot *p, const struct frame *f)
{
	double w = px(f, 1) - px(f, 0);

	for (size_t i = 0; i < p->nshade; i++)
		fprintf(out, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#fdae6b' "
			"opacity='0.35'/>\n", px(f, p->shade[i]) - w / 2, MT, w, H - MT - MB);
}

static void axes(FILE *out, const struct plot *p, const struct frame *f)
{
	shading(out, p, f);
	ticks(out, f);
	fprintf(out, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#888'/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	for (size_t i = 0; i < p->nvlines; i++) {
		double x = px(f, p->vlines[i]);

		fprintf(out, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#d62728' "
			"stroke-dasharray='4 3' opacity='0.6'/>\n", x, MT, x, H - MB);
		fprintf(out, "<text x='%.1f' y='%d' text-anchor='middle' font-size='10' "
			"fill='#d62728'>%.0f</text>\n", x, H - MB + 14, p->vlines[i]);
	}
	fprintf(out, "<text x='%d' y='%d' text-anchor='middle' font-size='12'>%s</text>\n",
		(W + ML - MR) / 2, H - 6, p->xlabel);
	if (p->note)
		fprintf(out, "<text x='%d' y='%d' font-size='11' fill='#555'>%s</text>\n", ML,
			MT - 8, p->note);
	fprintf(out, "<text x='16' y='%d' text-anchor='middle' font-size='12' "
		"transform='rotate(-90 16 %d)'>%s</text>\n", (H - MB + MT) / 2, (H - MB + MT) / 2,
		p->ylabel);
	fprintf(out, "<text x='%d' y='18' font-size='14'>%s</text>\n", ML, p->title);
}

static void series(FILE *out, const struct plot_series *r, const struct frame *f,
		   const char *colour, int index)
{
	fprintf(out, "<polyline fill='none' stroke='%s' stroke-width='1.2' points='", colour);
	for (size_t i = 0; i < r->n; i++)
		fprintf(out, "%.1f,%.1f ", px(f, r->x[i]), py(f, r->y[i]));
	fprintf(out, "'/>\n");
	for (size_t i = 0; i < r->n; i++) {
		double x = px(f, r->x[i]);
		bool mark = r->mark && r->mark[i];

		if (r->lo && r->hi)
			fprintf(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s'/>\n",
				x, py(f, r->lo[i]), x, py(f, r->hi[i]), colour);
		fprintf(out, "<circle cx='%.1f' cy='%.1f' r='%s' fill='%s'/>\n", x,
			py(f, r->y[i]), mark ? "3.5" : "2.2", mark ? "#d62728" : colour);
	}
	/* the legend: a row above the plot area, never over a point */
	fprintf(out, "<text x='%d' y='%d' font-size='11' fill='%s'>&#9679; %s</text>\n",
		ML + 180 * index, MT - 24, colour, r->name);
}

int plot_svg(FILE *out, const struct plot *p)
{
	struct frame f;

	bounds(p, &f);
	fprintf(out, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		"font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
		W, H);
	axes(out, p, &f);
	for (size_t s = 0; s < p->nseries; s++)
		series(out, &p->series[s], &f, colours[s % 5], (int)s);
	fprintf(out, "</svg>\n");
	return ferror(out) ? -1 : 0;
}
