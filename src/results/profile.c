/* Profile files: what `straddle calibrate` writes (the profile, the rules
 * with their ratios and CIs, every experiment's raw samples) and reads
 * back for `--uarch host|FILE.json` and `straddle uarch`. model/ cannot
 * read JSON; it gets the profile through the profile_loader of model/profile.h.
 * A file that fails any check is one line naming it and the reason. */
#include "json.h"
#include "head.h"
#include "kinds.h"
#include "calibrate.h"
#include "profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


json_t *results_profile(const struct profile *p)
{
	json_t *w = json_array();
	unsigned win[3];
	size_t nw = profile_straddle_windows(p, win);

	for (size_t i = 0; i < nw; i++)
		json_array_append_new(w, json_integer(win[i]));
	json_t *doc = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:o, s:s, s:i, s:i, s:i, s:i, s:s}",
		"name", p->name, "arch", arch_name(p->arch), "cpus", p->cpus, "fetch", (int)p->fetch,
		"uop_window", (int)p->uop_window, "line", (int)p->line, "straddle_windows", w,
		"branch_rule", branch_rule_id(p->branch_rule), "branch_window",
		(int)p->branch_window, "loop_buffer", (int)p->loop_buffer,
		"issue_width", (int)p->issue_width, "stores_per_cycle", (int)p->stores_per_cycle,
		"evidence", p->evidence);
	if (p->window_cycles > 0)       /* only where measured: older readers never saw it */
		json_object_set_new(doc, "window_cycles", json_real(doc_three_places(p->window_cycles)));
	if (p->latency_window_cycles > 0)
		json_object_set_new(doc, "latency_window_cycles",
				    json_real(doc_three_places(p->latency_window_cycles)));
	if (p->branch_cycles > 0)
		json_object_set_new(doc, "branch_cycles", json_real(doc_three_places(p->branch_cycles)));
	if (p->split_cycles > 0)
		json_object_set_new(doc, "split_cycles", json_real(doc_three_places(p->split_cycles)));
	if (p->store_load_measured)
		json_object_set_new(doc, "store_load_cycles",
				    json_real(doc_three_places(p->store_load_cycles)));
	if (p->base)
		json_object_set_new(doc, "base", json_string(p->base));
	return doc;
}

/* straddle uarch --json: the built-in profiles, then this CPU's calibrated
 * one (cal, from cal_path) when there is one, and the host as detected. */
json_t *results_uarch(const struct host *h, const struct profile *cal, const char *cal_path)
{
	json_t *doc = results_new("uarch"), *list = json_array();

	for (size_t i = 0; i < profile_count(); i++)
		json_array_append_new(list, results_profile(profile_at(i)));
	if (cal) {
		json_t *o = results_profile(cal);

		json_object_set_new(o, "file", json_text(cal_path));
		json_array_append_new(list, o);
	}
	json_object_set_new(doc, "profiles", list);
	json_object_set_new(doc, "host", json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:s?}",
		"vendor", h->vendor, "family", (int)h->family, "model", (int)h->model,
		"stepping", (int)h->stepping, "model_name", h->model_name, "detected", h->why,
		"profile", cal ? cal->name : h->profile ? h->profile->name : NULL));
	return doc;
}

static json_t *rule_json(const struct calib_rule *r)
{
	char text[200];

	calib_rule_text(r, text, sizeof text);
	return json_pack("{s:s, s:i, s:b, s:b, s:s, s:o, s:o, s:o, s:o, s:{s:i, s:i}, s:s?}",
		"rule", calib_effect_name(r->effect), "window", (int)r->window, "tested", r->tested,
		"claimed", r->claimed, "verdict", text,
		"ratio", r->tested ? json_real(doc_three_places(r->ratio)) : json_null(),
		"ci", r->tested ? json_pack("[f,f]", doc_three_places(r->lo), doc_three_places(r->hi)) : json_null(),
		"p", r->tested ? json_real(r->p) : json_null(),
		"halves", r->tested ? json_pack("[f,f]", doc_three_places(r->half_ratio[0]),
						 doc_three_places(r->half_ratio[1])) : json_null(),
		"placements", "with", (int)r->n_with, "without", (int)r->n_without,
		"experiment", r->experiment[0] ? r->experiment : NULL);
}

static json_t *point_json(const struct calib_point *p)
{
	json_t *s = json_array();

	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(s, json_real(round(p->samples[i] * 100) / 100));
	return json_pack("{s:i, s:f, s:[f,f], s:f, s:[f,f], s:f, s:f, s:b, s:o}", "pos", (int)p->pos,
		"median", doc_three_places(p->median), "ci", doc_three_places(p->ci_lo), doc_three_places(p->ci_hi),
		"floor", doc_three_places(p->floor), "floor_ci", doc_three_places(p->floor_lo), doc_three_places(p->floor_hi),
		"ratio", doc_three_places(p->ratio), "p", p->p, "slow", p->slow, "samples", s);
}

static json_t *experiment_json(const struct calib_experiment *x)
{
	json_t *pts = json_array(), *j;

	for (size_t i = 0; i < x->npt; i++)
		json_array_append_new(pts, point_json(&x->pt[i]));
	j = json_pack("{s:s, s:s, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:s, s:o}",
		"name", x->name, "what", x->what, "entry", x->entry, "bytes", (int)x->bytes,
		"ninsn", (int)x->ninsn, "nstore", (int)x->nstore, "pair", (int)x->pair,
		"branch", (int)x->branch,
		"end", (int)x->end, "rounds", (int)x->rounds, "elapsed_s", doc_three_places(x->elapsed_s),
		"stopped_by", x->stopped_by, "points", pts);
	/* the machine while it ran (results_state's fields) */
	if (x->has_state)
		json_object_set_new(j, "state", results_state(&x->state));
	if (x->chain)           /* only chains: older readers never saw it */
		json_object_set_new(j, "chain", json_integer(x->chain));
	return j;
}

/* A recorded state: its numbers (load, steal, other tenants, busy); a
 * file from before states were recorded has none, and says nothing. */
static void read_state(json_t *o, struct calib_experiment *x)
{
	json_t *st = json_object_get(o, "state"), *load;

	x->has_state = json_is_object(st);
	if (!x->has_state)
		return;
	load = json_object_get(st, "load");
	for (size_t i = 0; i < 3; i++)
		x->state.load[i] = json_number_value(json_array_get(load, i));
	x->state.seconds = json_number_value(json_object_get(st, "seconds"));
	x->state.steal_pct = json_number_value(json_object_get(st, "steal_pct"));
	x->state.others_pct = json_number_value(json_object_get(st, "others_pct"));
	x->state.busy_pct = json_number_value(json_object_get(st, "busy_pct"));
	x->state.mhz = json_number_value(json_object_get(st, "mhz"));
}

/* With a recording the profile is the recorded CPU's: its "machine" is
 * the recording's, whole (the CPU --uarch host matches it by, its
 * microcode, features and kernel: what was measured), with the file it
 * came from; the machine the fit ran on is "calibrated_on". */
json_t *results_calibration_head(int argc, char **argv, const json_t *recorded,
				 const char *recorded_in)
{
	json_t *head = results_run_info("calibrate", argc, argv), *m;

	if (!recorded)
		return head;
	json_object_set(head, "calibrated_on", json_object_get(head, "machine"));
	m = json_deep_copy(recorded);
	json_object_set_new(m, "recorded_in", json_string(recorded_in));
	json_object_set_new(head, "machine", m);
	return head;
}

json_t *results_calibration(json_t *head, const struct profile *p, const struct calib_fit *f,
			    const struct calib_experiment *x, size_t nx)
{
	json_t *rules = json_array(), *exps = json_array();

	for (size_t i = 0; i < f->nrule; i++)
		json_array_append_new(rules, rule_json(&f->rule[i]));
	for (size_t i = 0; i < nx; i++)
		json_array_append_new(exps, experiment_json(&x[i]));
	json_object_set_new(head, "profile", results_profile(p));
	json_object_set_new(head, "rules", rules);
	json_object_set_new(head, "loop_buffer", json_pack("{s:i, s:b, s:s}", "instructions",
		(int)f->loop_buffer, "claimed", f->loop_buffer_claimed, "why", f->loop_buffer_why));
	json_object_set_new(head, "back_end", json_pack("{s:i, s:i, s:[i,i], s:[i,i], s:s}",
		"issue_width", (int)f->issue_width, "stores_per_cycle", (int)f->stores_per_cycle,
		"issue_width_range", (int)f->issue_width_least, (int)f->issue_width,
		"stores_per_cycle_range", (int)f->stores_least, (int)f->stores_per_cycle, "why",
		f->back_end_why));
	json_object_set_new(head, "window", json_pack("{s:f, s:f, s:s}", "cycles",
		doc_three_places(f->window_cycles), "latency_cycles",
		doc_three_places(f->latency_window_cycles), "why", f->window_why));
	json_object_set_new(head, "experiments", exps);
	return head;
}

/* ---- reading ---- */

static int get_uint(json_t *o, const char *key, unsigned max, unsigned *out, const char *where,
		    struct err *e)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > (json_int_t)max)
		return err_set(e, "%s: \"%s\" is not a whole number from 0 to %u", where, key, max);
	*out = (unsigned)json_integer_value(v);
	return 0;
}

/* A field files written before it existed lack: absent is `absent`. */
static int get_uint_or(json_t *o, const char *key, unsigned max, unsigned absent,
		       unsigned *out, const char *where, struct err *e)
{
	if (!json_object_get(o, key)) {
		*out = absent;
		return 0;
	}
	return get_uint(o, key, max, out, where, e);
}

static int get_text(json_t *o, const char *key, const char **out, const char *where,
		    struct err *e)
{
	*out = json_string_value(json_object_get(o, key));
	if (!*out || !**out)
		return err_set(e, "%s: no \"%s\"", where, key);
	return 0;
}

/* Optional: cycles an iteration, above 0 and at most 16 (profile.h):
 * what one window more costs, what a branch hazard does. */
static int get_cycles(json_t *o, const char *key, double *out, struct err *e)
{
	json_t *v = json_object_get(o, key);
	double x = json_number_value(v);

	if (!v)
		return 0;
	if (!json_is_number(v) || !(x > 0 && x <= 16))
		return err_set(e, "profile: \"%s\" is not a number above 0, at most 16", key);
	*out = x;
	return 0;
}

static bool known_window(unsigned w)
{
	for (size_t i = 0; i < MODEL_NWINDOWS; i++)
		if (model_windows[i] == w)
			return true;
	return false;
}

static int read_windows(json_t *a, struct profile *p, struct err *e)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a) || json_array_size(a) > 3)
		return err_set(e, "profile: \"straddle_windows\" is not a list of at most 3 windows");
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || !known_window((unsigned)json_integer_value(v)))
			return err_set(e, "profile: straddle window %zu is not 16, 32 or 64", i);
		p->straddle_windows[i] = (unsigned)json_integer_value(v);
	}
	p->straddle_measured = true;
	return 0;
}

/* Optional: cycles from a store's data to its load, 0 (renamed) to 16. */
static int get_store_load(json_t *o, struct profile *p, struct err *e)
{
	json_t *v = json_object_get(o, "store_load_cycles");
	double x = json_number_value(v);

	if (!v)
		return 0;
	if (!json_is_number(v) || !(x >= 0 && x <= 16))
		return err_set(e, "profile: \"store_load_cycles\" is not a number from 0 to 16");
	p->store_load_cycles = x;
	p->store_load_measured = true;
	return 0;
}

/* Optional: the built-in profile a calibration was measured against. */
static int get_base(json_t *o, struct profile *p, struct err *e)
{
	json_t *v = json_object_get(o, "base");
	const struct profile *b = json_is_string(v) ? profile_named(json_string_value(v)) : NULL;

	if (v && (!b || b->base))
		return err_set(e, "profile: base is not the name of a built-in profile");
	p->base = b ? b->name : NULL;
	return 0;
}

static int read_profile(json_t *o, struct profile *p, struct err *e)
{
	const char *name, *arch, *cpus, *rule, *evidence;
	int r;

	if (!json_is_object(o))
		return err_set(e, "no \"profile\" object");
	if (get_text(o, "name", &name, "profile", e) || get_text(o, "arch", &arch, "profile", e) ||
	    get_text(o, "cpus", &cpus, "profile", e) ||
	    get_text(o, "branch_rule", &rule, "profile", e) ||
	    get_text(o, "evidence", &evidence, "profile", e) ||
	    get_uint(o, "fetch", 64, &p->fetch, "profile", e) ||
	    get_uint(o, "uop_window", 64, &p->uop_window, "profile", e) ||
	    get_uint(o, "line", 128, &p->line, "profile", e) ||
	    get_uint(o, "branch_window", 64, &p->branch_window, "profile", e) ||
	    get_uint(o, "loop_buffer", 4096, &p->loop_buffer, "profile", e) ||
	    get_uint_or(o, "issue_width", 64, 0, &p->issue_width, "profile", e) ||
	    get_uint_or(o, "stores_per_cycle", 64, 0, &p->stores_per_cycle, "profile", e) ||
	    read_windows(json_object_get(o, "straddle_windows"), p, e) ||
	    get_cycles(o, "window_cycles", &p->window_cycles, e) ||
	    get_cycles(o, "latency_window_cycles", &p->latency_window_cycles, e) ||
	    get_cycles(o, "branch_cycles", &p->branch_cycles, e) ||
	    get_cycles(o, "split_cycles", &p->split_cycles, e) ||
	    get_store_load(o, p, e) ||
	    get_base(o, p, e))
		return -1;
	profile_prices_from_base(p);
	if (strcmp(arch, "x86_64") == 0)
		p->arch = ARCH_X86_64;
	else if (strcmp(arch, "aarch64") == 0)
		p->arch = ARCH_AARCH64;
	else
		return err_set(e, "profile: arch \"%s\" is not x86_64 or aarch64", arch);
	if ((r = branch_rule_from_id(rule)) < 0)
		return err_set(e, "profile: branch_rule \"%s\" is not none, jcc-erratum or "
			       "pair-crosses", rule);
	p->branch_rule = (enum branch_rule)r;
	if (p->branch_rule != BRANCH_RULE_NONE && !known_window(p->branch_window))
		return err_set(e, "profile: branch_window %u is not 16, 32 or 64", p->branch_window);
	if (!known_window(p->line) && p->line != 128)
		return err_set(e, "profile: line %u is not 16, 32, 64 or 128", p->line);
	/* printed in scan's and diff's header and uarch's table: escaped for
	 * the terminal here, once */
	p->name = escaped(name);
	p->cpus = escaped(cpus);
	p->evidence = escaped(evidence);
	return 0;
}

/* A calibrate file, its head checked (results_open). */
static json_t *load_doc(const char *path, struct err *e)
{
	return results_open(path, 1u << RESULT_CALIBRATE, NULL, e);
}

/* Loaded profiles stay until exit: scans hold pointers to them. */
static struct profile *loaded[16];
static size_t nloaded;
static bool at_exit_set;

static void free_loaded(void)
{
	for (size_t i = 0; i < nloaded; i++) {
		free((char *)loaded[i]->name);
		free((char *)loaded[i]->cpus);
		free((char *)loaded[i]->evidence);
		free(loaded[i]);
	}
	nloaded = 0;
}

void results_profiles_forget(void)
{
	free_loaded();
}

const struct profile *results_profile_of(const char *path, const json_t *doc, struct err *e)
{
	struct profile *p;
	struct err inner;

	if (nloaded == sizeof loaded / sizeof loaded[0]) {
		err_set(e, "%s: more than %zu profile files", path, nloaded);
		return NULL;
	}
	p = xcalloc(1, sizeof *p);
	if (read_profile(json_object_get(doc, "profile"), p, &inner)) {
		err_set(e, "%s: %s", path, inner.msg);
		free((char *)p->name);
		free((char *)p->cpus);
		free(p);
		return NULL;
	}
	if (!at_exit_set)
		at_exit_set = !atexit(free_loaded);
	loaded[nloaded++] = p;
	return p;
}

const struct profile *results_profile_load(const char *path, struct err *e)
{
	json_t *doc = load_doc(path, e);
	const struct profile *p = doc ? results_profile_of(path, doc, e) : NULL;

	json_decref(doc);
	return p;
}

static int read_point(json_t *o, struct calib_point *p, size_t i, struct err *e)
{
	json_t *s = json_object_get(o, "samples"), *v;
	unsigned pos;
	size_t k;

	if (get_uint(o, "pos", CALIB_SPAN - 1, &pos, "point", e))
		return -1;
	if (!json_is_array(s) || json_array_size(s) < 2)
		return err_set(e, "point %zu: fewer than 2 samples", i);
	p->pos = pos;
	p->n = json_array_size(s);
	p->samples = xcalloc(p->n, sizeof *p->samples);
	json_array_foreach(s, k, v) {
		if (!json_is_number(v) || !(json_number_value(v) > 0))
			return err_set(e, "point %zu: sample %zu is not a positive number", i, k);
		p->samples[k] = json_number_value(v);
	}
	return 0;
}

static int read_experiment(json_t *o, struct calib_experiment *x, struct err *e)
{
	const char *name;
	json_t *pts = json_object_get(o, "points"), *v;
	size_t i;

	if (get_text(o, "name", &name, "experiment", e) ||
	    get_uint(o, "bytes", 128, &x->bytes, name, e) ||
	    get_uint(o, "ninsn", 128, &x->ninsn, name, e) ||
	    get_uint(o, "pair", 128, &x->pair, name, e) ||
	    get_uint(o, "branch", 128, &x->branch, name, e) ||
	    get_uint(o, "end", 128, &x->end, name, e))
		return -1;
	/* files from before stores were counted: their loops held at most
	 * one, and said so in "what" */
	const char *what = json_string_value(json_object_get(o, "what"));
	if (get_uint_or(o, "nstore", 128, what && strstr(what, " store,") ? 1 : 0, &x->nstore,
			name, e) ||
	    get_uint_or(o, "chain", 16, 0, &x->chain, name, e))
		return -1;
	snprintf(x->name, sizeof x->name, "%s", name);
	x->entry = json_is_true(json_object_get(o, "entry"));
	read_state(o, x);
	if (!json_is_array(pts) || json_array_size(pts) == 0 ||
	    json_array_size(pts) > CALIB_SPAN)
		return err_set(e, "%s: \"points\" is not a list of 1 to %d", name, CALIB_SPAN);
	json_array_foreach(pts, i, v) {
		x->npt = i + 1;
		if (read_point(v, &x->pt[i], i, e))
			return -1;
	}
	return 0;
}

static int read_machine(json_t *m, struct host *h, struct err *e)
{
	const char *vendor = json_string_value(json_object_get(m, "vendor"));
	const char *name = json_string_value(json_object_get(m, "model_name"));
	const char *arch = json_string_value(json_object_get(m, "arch"));

	memset(h, 0, sizeof *h);
	if (!json_is_object(m) || !vendor || get_uint(m, "family", 0xffff, &h->family, "machine", e) ||
	    get_uint(m, "model", 0xffff, &h->model, "machine", e) ||
	    get_uint(m, "stepping", 0xffff, &h->stepping, "machine", e))
		return err_set(e, "no \"machine\" with vendor, family, model and stepping");
	snprintf(h->vendor, sizeof h->vendor, "%s", vendor);
	snprintf(h->model_name, sizeof h->model_name, "%s", name ? name : "");
	if (arch && strcmp(arch, "aarch64") == 0)
		h->profile = profile_for_midr((uint32_t)strtoul(vendor, NULL, 16) << 24 |
					      (h->model & 0xfff) << 4);
	else
		h->profile = profile_for_x86(h->vendor, h->family, h->model);
	snprintf(h->why, sizeof h->why, "recorded %s family 0x%x model 0x%x", h->vendor,
		 h->family, h->model);
	return 0;
}

int results_calibration_of(const char *path, const json_t *doc, struct host *h,
			   json_t **machine, struct calib_experiment **out, size_t *n, struct err *e)
{
	const json_t *exps, *v;
	struct err inner;
	size_t i;

	*out = NULL;
	*n = 0;
	if (machine)
		*machine = NULL;
	if (read_machine(json_object_get(doc, "machine"), h, &inner))
		return err_set(e, "%s: %s", path, inner.msg);
	if (machine)
		*machine = json_deep_copy(json_object_get(doc, "machine"));
	exps = json_object_get(doc, "experiments");
	if (!json_is_array(exps) || json_array_size(exps) == 0)
		return err_set(e, "%s: no \"experiments\"", path);
	*out = xcalloc(json_array_size(exps), sizeof **out);
	json_array_foreach(exps, i, v) {
		*n = i + 1;
		if (read_experiment((json_t *)v, &(*out)[i], &inner))
			return err_set(e, "%s: experiment %zu: %s", path, i, inner.msg);
	}
	return 0;
}

int results_calibration_read(const char *path, struct host *h, json_t **machine,
			     struct calib_experiment **out, size_t *n, struct err *e)
{
	json_t *doc = load_doc(path, e);
	int rc;

	*out = NULL;
	*n = 0;
	if (machine)
		*machine = NULL;
	if (!doc)
		return -1;
	rc = results_calibration_of(path, doc, h, machine, out, n, e);
	json_decref(doc);
	return rc;
}
