/* Typed readers of the documents whose metrics are placements measured
 * one by one: sweep's (a kernel at each code offset) and place's (a loop
 * of a real program at each offset of its line), for the page of straddle
 * report, which renders these structs and walks no JSON of them. The
 * file was validated first (results_file_of: names, kernels, offsets,
 * samples); what a hand-edited file lacks here is NAN, NULL or false, and
 * the page prints "-" for it. */
#include "json.h"
#include "sweep.h"
#include "place.h"
#include "measured.h"
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a placement was judged by: sweep, place and calibrate compare
 * floors (the 10th percentile: stats/floor.c says why not the median), so
 * a point with a floor is judged by it with the floor's CI (a calibrate
 * file has only the samples it comes from: computed here), an older file
 * by its median and the median's CI. */
static void judged(const json_t *o, struct measured_point *p)
{
	const json_t *a = json_object_get(o, "samples"), *v;
	struct summary sum;
	double *x;
	size_t i;

	p->by_floor = json_is_number(json_object_get(o, "floor"));
	if (!p->by_floor) {
		p->y = p->median, p->lo = p->ci_lo, p->hi = p->ci_hi;
		return;
	}
	p->y = doc_num(o, "floor");
	if (json_is_array(json_object_get(o, "floor_ci"))) {
		p->lo = doc_num_at(o, "floor_ci", 0), p->hi = doc_num_at(o, "floor_ci", 1);
		return;
	}
	x = xcalloc(json_array_size(a) + 1, sizeof *x);
	json_array_foreach(a, i, v)
		x[i] = json_number_value(v);
	stats_summarize(x, json_array_size(a), 1, true, &sum);
	free(x);
	p->lo = sum.floor_lo, p->hi = sum.floor_hi;
}

void results_measured_point(const json_t *o, const char *pkey, struct measured_point *p)
{
	const json_t *pred = json_object_get(o, "predicted"), *h;
	size_t i;

	*p = (struct measured_point){ .kernel = doc_str(o, "kernel"), .arm = doc_str(o, "arm"),
		.offset = doc_num(o, "offset"), .loop_offset = doc_num(o, "loop_offset"),
		.n = json_array_size(json_object_get(o, "samples")) };
	p->median = doc_num(o, "median");
	p->ci_lo = doc_num_at(o, "ci", 0), p->ci_hi = doc_num_at(o, "ci", 1);
	p->gbps = doc_num(o, "gbps");
	p->ratio = doc_num(o, "ratio");
	p->p = doc_num(o, pkey);
	p->model = doc_num(o, "predicted_ratio");
	p->tested = p->ratio != 1;
	p->slow = json_is_true(json_object_get(o, "slow"));
	judged(o, p);
	json_array_foreach(pred, i, h) {
		if (p->npredicted == sizeof p->predicted / sizeof p->predicted[0])
			break;
		p->predicted[p->npredicted++] = (struct measured_hazard){ doc_str(h, "rule"),
			(long long)json_integer_value(json_object_get(h, "window")) };
	}
	p->npredicted_all = json_is_array(pred) ? json_array_size(pred) : 0;
}

static struct measured_point *points_of(const json_t *metrics, size_t *n)
{
	struct measured_point *p = xcalloc(json_array_size(metrics) + 1, sizeof *p);
	const json_t *m;
	size_t i;

	json_array_foreach(metrics, i, m)
		results_measured_point(m, "p_vs_best", &p[i]);
	*n = json_array_size(metrics);
	return p;
}

void results_sweep_doc(const json_t *doc, struct sweep_doc *s)
{
	const json_t *sw = json_object_get(doc, "sweep"), *c = json_object_get(doc, "clock"), *a;
	size_t i;

	*s = (struct sweep_doc){ .size = doc_num(sw, "size"), .cpu = doc_num(sw, "cpu"),
		.resolution_ns = doc_num(c, "resolution_ns"), .rounds = doc_num(sw, "rounds"),
		.elapsed_s = doc_num(sw, "elapsed_s"), .alpha = doc_num(sw, "alpha"),
		.material = doc_num(sw, "material"), .clock_source = doc_str(c, "source"),
		.stopped_by = doc_str(sw, "stopped_by"), .profile = doc_str(sw, "profile"),
		.counters = doc_str(sw, "counters") };
	s->pt = points_of(json_object_get(doc, "metrics"), &s->n);
	s->agree = xcalloc(json_array_size(json_object_get(doc, "agreement")) + 1, sizeof *s->agree);
	json_array_foreach(json_object_get(doc, "agreement"), i, a)
		s->agree[s->nagree++] = (struct sweep_agreement){ doc_str(a, "kernel"), doc_str(a, "profile"),
			(size_t)json_integer_value(json_object_get(a, "agree")),
			(size_t)json_integer_value(json_object_get(a, "offsets")) };
}

void results_sweep_doc_free(struct sweep_doc *s)
{
	free(s->pt);
	free(s->agree);
	memset(s, 0, sizeof *s);
}

void results_place_doc(const json_t *doc, struct place_doc *p)
{
	const json_t *pl = json_object_get(doc, "place"), *c = json_object_get(doc, "output_check");

	*p = (struct place_doc){ .function = doc_str(pl, "function"), .file = doc_str(pl, "file"),
		.loop = doc_str(pl, "loop"), .measure = doc_str(pl, "measure"),
		.stopped_by = doc_str(pl, "stopped_by"), .profile = doc_str(pl, "profile"),
		.current = doc_num(pl, "current"), .rounds = doc_num(pl, "rounds"),
		.elapsed_s = doc_num(pl, "elapsed_s"), .identical = doc_num(c, "identical"),
		.runs = doc_num(c, "runs"), .moved = doc_num(json_object_get(doc, "moved"), "functions"),
		.same_status = doc_num(c, "same_status"),
		.checked = !json_is_false(json_object_get(c, "checked")) };
	p->pt = points_of(json_object_get(doc, "metrics"), &p->n);
}

void results_place_doc_free(struct place_doc *p)
{
	free(p->pt);
	memset(p, 0, sizeof *p);
}

/* ---- a calibrate file's rules and experiments ---- */

static void rule_of(const json_t *r, struct calib_rule_doc *d)
{
	const json_t *pl = json_object_get(r, "placements");

	*d = (struct calib_rule_doc){ .rule = doc_str(r, "rule"), .experiment = doc_str(r, "experiment"),
		.window = doc_num(r, "window"), .ratio = doc_num(r, "ratio"), .p = doc_num(r, "p"),
		.ci_lo = doc_num_at(r, "ci", 0), .ci_hi = doc_num_at(r, "ci", 1),
		.half[0] = doc_num_at(r, "halves", 0), .half[1] = doc_num_at(r, "halves", 1),
		.with = doc_num(pl, "with"), .without = doc_num(pl, "without"),
		.has_ci = json_is_array(json_object_get(r, "ci")),
		.has_halves = json_is_array(json_object_get(r, "halves")),
		.tested = json_is_true(json_object_get(r, "tested")),
		.claimed = json_is_true(json_object_get(r, "claimed")) };
}

static void experiment_of(const json_t *ej, struct calib_experiment_doc *x)
{
	const json_t *pts = json_object_get(ej, "points"), *o;
	size_t i;

	*x = (struct calib_experiment_doc){ .name = doc_str(ej, "name"), .what = doc_str(ej, "what"),
		.stopped_by = doc_str(ej, "stopped_by"), .rounds = doc_num(ej, "rounds"),
		.elapsed_s = doc_num(ej, "elapsed_s"), .entry = json_is_true(json_object_get(ej, "entry")) };
	x->pt = xcalloc(json_array_size(pts) + 1, sizeof *x->pt);
	x->pos = xcalloc(json_array_size(pts) + 1, sizeof *x->pos);
	json_array_foreach(pts, i, o) {
		results_measured_point(o, "p", &x->pt[i]);
		x->pos[i] = doc_num(o, "pos");
	}
	x->npt = json_array_size(pts);
}

void results_calib_doc(const json_t *doc, struct calib_doc *c)
{
	const json_t *rules = json_object_get(doc, "rules"), *exps = json_object_get(doc, "experiments");
	const json_t *v;
	size_t i;

	memset(c, 0, sizeof *c);
	c->rule = xcalloc(json_array_size(rules) + 1, sizeof *c->rule);
	json_array_foreach(rules, i, v)
		rule_of(v, &c->rule[c->nrule++]);
	c->x = xcalloc(json_array_size(exps) + 1, sizeof *c->x);
	json_array_foreach(exps, i, v)
		experiment_of(v, &c->x[c->nx++]);
	if (json_object_get(doc, "back_end"))
		c->back_end_why = doc_str(json_object_get(doc, "back_end"), "why");
	c->has_back_end = json_object_get(doc, "back_end") != NULL;
	c->loop_buffer_why = doc_str(json_object_get(doc, "loop_buffer"), "why");
	if (json_object_get(doc, "window"))
		c->window_why = doc_str(json_object_get(doc, "window"), "why");
}

void results_calib_doc_free(struct calib_doc *c)
{
	for (size_t i = 0; i < c->nx; i++) {
		free(c->x[i].pt);
		free(c->x[i].pos);
	}
	free(c->x);
	free(c->rule);
	memset(c, 0, sizeof *c);
}
