/* A document of `straddle diff --json` read back into a layout_diff over two
 * scan_results holding what its changes name, so the page renders the rows of
 * report/rows.c as the terminal does. Absent fields are zero, as in
 * scan_read.c. */
#include "json.h"
#include "scan.h"
#include "diff.h"

#include <stdlib.h>
#include <string.h>

/* Room for every change's functions, loops, pieces and hazards on a side. */
static void count_side(const json_t *doc, const char *side, const char *which, size_t *loops,
		       size_t *hazards, size_t *pieces)
{
	const json_t *ch, *l;
	size_t i;

	json_array_foreach(json_object_get(doc, "loops"), i, ch) {
		l = json_object_get(ch, side);
		*hazards += json_array_size(json_object_get(ch, which));
		if (!json_is_object(l))
			continue;
		(*loops)++;
		*hazards += json_array_size(json_object_get(l, "hazards"));
		*pieces += json_array_size(json_object_get(l, "pieces"));
	}
	json_array_foreach(json_object_get(doc, "functions"), i, ch)
		*hazards += json_array_size(json_object_get(ch, which));
}

static void side_alloc(const json_t *doc, const char *side, const char *which,
		       struct scan_result *r)
{
	size_t funcs = json_array_size(json_object_get(doc, "loops")) +
		       json_array_size(json_object_get(doc, "functions"));
	size_t loops = 0, hazards = 0, pieces = 0;

	count_side(doc, side, which, &loops, &hazards, &pieces);
	r->funcs.v = xcalloc(funcs + 1, sizeof *r->funcs.v);
	r->func = xcalloc(funcs + 1, sizeof *r->func);
	r->loop = xcalloc(loops + 1, sizeof *r->loop);
	r->hazard = xcalloc(hazards + 1, sizeof *r->hazard);
	r->piece = xcalloc(pieces + 1, sizeof *r->piece);
}

/* A function of one side named by a change: its name, and for an entry
 * its address, size and alignment. */
static struct func_report *side_func(struct scan_result *r, const char *name, uint64_t addr,
				     uint64_t size, uint64_t samples)
{
	struct func_report *fr = &r->func[r->nfunc];

	r->funcs.v[r->funcs.n] = (struct elf_func){ .addr = addr, .size = size,
						    .name = name ? name : "-", .source = FROM_SYMTAB };
	r->funcs.v[r->funcs.n].shown = r->funcs.v[r->funcs.n].name;
	*fr = (struct func_report){ .func = r->funcs.n++, .samples = samples };
	r->nfunc++;
	return fr;
}

/* The hazards gained (from new's array) and lost (from old's), as refs. */
static void change_hazards(struct diff_read *out, const json_t *ch, struct layout_change *c)
{
	struct layout_diff *d = &out->d;
	const json_t *h;
	size_t i;

	c->added = (uint32_t)d->nrefs;
	json_array_foreach(json_object_get(ch, "added"), i, h)
		if (results_read_hazard(h, &out->names, &out->new.hazard[out->new.nhazard]))
			d->refs[d->nrefs++] = &out->new.hazard[out->new.nhazard++];
	c->nadded = (uint32_t)(d->nrefs - c->added);
	c->removed = (uint32_t)d->nrefs;
	json_array_foreach(json_object_get(ch, "removed"), i, h)
		if (results_read_hazard(h, &out->names, &out->old.hazard[out->old.nhazard]))
			d->refs[d->nrefs++] = &out->old.hazard[out->old.nhazard++];
	c->nremoved = (uint32_t)(d->nrefs - c->removed);
}

static const struct loop_report *side_loop(struct diff_read *out, struct scan_result *r,
					   const json_t *l)
{
	struct loop_report *lr = &r->loop[r->nloop];

	if (!json_is_object(l))
		return NULL;
	results_read_loop(l, &out->names, r, lr);
	r->nloop++;
	return lr;
}

static void read_loop_change(struct diff_read *out, const json_t *ch)
{
	struct layout_change *c = &out->d.v[out->d.n];
	const json_t *lo = json_object_get(ch, "old"), *ln = json_object_get(ch, "new");
	const char *name = doc_str(ch, "function");
	uint64_t samples = (uint64_t)doc_int(ch, "samples");
	int cause = cause_from_name(doc_str(ch, "cause") ? doc_str(ch, "cause") : "");

	*c = (struct layout_change){ .cold = json_is_true(json_object_get(ch, "cold")),
				     .cause = (uint8_t)(cause < 0 ? CAUSE_CHANGED : cause) };
	c->fold = side_func(&out->old, name, 0, 0, 0);
	c->fnew = side_func(&out->new, name, 0, 0, 0);
	c->lold = side_loop(out, &out->old, lo);
	c->lnew = side_loop(out, &out->new, ln);
	/* the samples are the change's (layout_change_samples) */
	if (c->lnew)
		((struct loop_report *)c->lnew)->samples = samples;
	else if (c->lold)
		((struct loop_report *)c->lold)->samples = samples;
	c->resized = c->lold && c->lnew && c->lold->bytes != c->lnew->bytes;
	out->source[out->d.n] = doc_str(c->lnew ? ln : lo, "source");
	change_hazards(out, ch, c);
	out->d.n++;
}

static void read_entry_change(struct diff_read *out, const json_t *ch)
{
	struct layout_change *c = &out->d.v[out->d.n];
	const char *name = doc_str(ch, "name");
	uint64_t samples = (uint64_t)doc_int(ch, "samples");
	int cause = cause_from_name(doc_str(ch, "cause") ? doc_str(ch, "cause") : "");

	*c = (struct layout_change){ .entry = true, .cold = json_is_true(json_object_get(ch, "cold")),
				     .cause = (uint8_t)(cause < 0 ? CAUSE_CHANGED : cause) };
	if (json_is_string(json_object_get(ch, "old_addr")))
		c->fold = side_func(&out->old, name, results_addr(ch, "old_addr"),
				    (uint64_t)doc_int(ch, "old_size"), 0);
	if (json_is_string(json_object_get(ch, "new_addr")))
		c->fnew = side_func(&out->new, name, results_addr(ch, "new_addr"),
				    (uint64_t)doc_int(ch, "new_size"), samples);
	else if (c->fold)
		((struct func_report *)c->fold)->samples = samples;
	if (!c->fold && !c->fnew)       /* neither side: a document's nonsense */
		c->fnew = side_func(&out->new, name, 0, 0, samples);
	change_hazards(out, ch, c);
	out->d.n++;
}

static void read_profiles(const json_t *doc, struct diff_read *out)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "profiles"), i, p) {
		if (out->new.nprofile == sizeof out->new.profile / sizeof out->new.profile[0])
			break;
		out->new.profile[out->new.nprofile++] = results_named_profile(&out->names,
									   json_string_value(p));
	}
	out->old.nprofile = out->new.nprofile;
	memcpy(out->old.profile, out->new.profile, sizeof out->old.profile);
}

/* diff --hot: the run's samples, and each side's. */
static void read_samples(const json_t *doc, struct diff_read *out)
{
	const json_t *s = json_object_get(doc, "samples");
	const json_t *folded = json_object_get(json_object_get(doc, "summary"), "folded");

	out->new.hot = out->old.hot = json_is_object(s);
	out->new.run_samples = out->old.run_samples = (uint64_t)doc_int(s, "run");
	out->old.file_samples = (uint64_t)doc_int(s, "old");
	out->new.file_samples = (uint64_t)doc_int(s, "new");
	out->min_share = json_is_number(json_object_get(folded, "min_share")) ?
			 json_number_value(json_object_get(folded, "min_share")) : SCAN_MIN_SHARE;
	out->folded_new_rows = (size_t)doc_int(folded, "new_rows");
	out->folded_fixed_rows = (size_t)doc_int(folded, "fixed_rows");
}

/* Names of a JSON array as a mask of 1 << lookup(name). */
static unsigned mask_of(const json_t *list, int (*lookup)(const char *name))
{
	const json_t *v;
	unsigned m = 0;
	size_t i;

	json_array_foreach(list, i, v) {
		int k = json_is_string(v) ? lookup(json_string_value(v)) : -1;

		if (k >= 0 && k < 32)
			m |= 1u << k;
	}
	return m;
}

static void read_gate(const json_t *g, struct diff_read_gate *out)
{
	out->known = json_is_object(g);
	out->fails = json_is_true(json_object_get(g, "fails"));
	out->exit_status = (int)doc_int(g, "exit_status");
	out->rules = mask_of(json_object_get(g, "fail_on"), rule_from_name);
	out->causes = mask_of(json_object_get(g, "causes"), cause_from_name);
}

static void read_summary(const json_t *doc, struct diff_read *out)
{
	const json_t *s = json_object_get(doc, "summary"), *r;
	const json_t *nb = json_object_get(s, "new_by_cause"), *fb = json_object_get(s, "fixed_by_cause");
	struct layout_diff *d = &out->d;
	size_t i;

	d->hazards_added = (size_t)doc_int(s, "new_hazards");
	d->hazards_removed = (size_t)doc_int(s, "fixed_hazards");
	d->loops_resized = (size_t)doc_int(s, "loops_resized");
	d->loops_added = (size_t)doc_int(s, "loops_added");
	d->loops_removed = (size_t)doc_int(s, "loops_removed");
	d->funcs_matched = (size_t)doc_int(s, "functions_matched");
	d->funcs_unchanged = (size_t)doc_int(s, "functions_unchanged");
	d->funcs_only_old = (size_t)doc_int(s, "functions_only_old");
	d->funcs_only_new = (size_t)doc_int(s, "functions_only_new");
	d->funcs_cold_left_out = (size_t)doc_int(s, "functions_cold_left_out");
	for (int c = 0; c < NCAUSE; c++) {
		d->added_by[c] = (size_t)doc_int(nb, cause_name(c));
		d->removed_by[c] = (size_t)doc_int(fb, cause_name(c));
	}
	out->renamed = xcalloc(json_array_size(json_object_get(doc, "renamed")) + 1,
			       sizeof *out->renamed);
	json_array_foreach(json_object_get(doc, "renamed"), i, r)
		out->renamed[out->nrenamed++] = (struct diff_read_rename){
			doc_str(r, "old") ? doc_str(r, "old") : "-", doc_str(r, "new") ? doc_str(r, "new") : "-",
			doc_str(r, "by") ? doc_str(r, "by") : "-" };
	d->nrenamed = (size_t)doc_int(s, "functions_renamed");
}

/* One diff: a document's, or a pair's of it (its profiles the document's). */
static void read_one(const json_t *doc, const json_t *top, struct diff_read *out)
{
	const json_t *loops = json_object_get(doc, "loops"), *funcs = json_object_get(doc, "functions");
	size_t n = json_array_size(loops) + json_array_size(funcs), nrefs = 0, i;
	const json_t *ch;

	memset(out, 0, sizeof *out);
	side_alloc(doc, "old", "removed", &out->old);
	side_alloc(doc, "new", "added", &out->new);
	json_array_foreach(loops, i, ch)
		nrefs += json_array_size(json_object_get(ch, "added")) +
			 json_array_size(json_object_get(ch, "removed"));
	json_array_foreach(funcs, i, ch)
		nrefs += json_array_size(json_object_get(ch, "added")) +
			 json_array_size(json_object_get(ch, "removed"));
	out->d.v = xcalloc(n + 1, sizeof *out->d.v);
	out->d.refs = xcalloc(nrefs + 1, sizeof *out->d.refs);
	out->source = xcalloc(n + 1, sizeof *out->source);
	read_profiles(top, out);
	read_samples(doc, out);
	json_array_foreach(loops, i, ch)
		read_loop_change(out, ch);
	json_array_foreach(funcs, i, ch)
		read_entry_change(out, ch);
	out->old_path = doc_str(doc, "old") ? doc_str(doc, "old") : "-";
	out->new_path = doc_str(doc, "new") ? doc_str(doc, "new") : "-";
	read_gate(json_object_get(doc, "gate"), &out->gate);
	read_summary(doc, out);
}

static const char **strings_of(const json_t *list, size_t *n)
{
	const char **v = xcalloc(json_array_size(list) + 1, sizeof *v);
	const json_t *x;
	size_t i;

	*n = 0;
	json_array_foreach(list, i, x)
		if (json_is_string(x))
			v[(*n)++] = json_string_value(x);
	return v;
}

static void read_pairs(const json_t *doc, struct diff_read *out)
{
	const json_t *pairs = json_object_get(doc, "pairs"), *p;
	size_t i;

	out->of_pairs = true;
	out->pair = xcalloc(json_array_size(pairs) + 1, sizeof *out->pair);
	out->member = xcalloc(json_array_size(pairs) + 1, sizeof *out->member);
	json_array_foreach(pairs, i, p) {
		read_one(p, doc, &out->pair[out->npair]);
		out->member[out->npair++] = doc_str(p, "member") ? doc_str(p, "member") : "-";
	}
	out->only[0] = strings_of(json_object_get(doc, "only_old"), &out->nonly[0]);
	out->only[1] = strings_of(json_object_get(doc, "only_new"), &out->nonly[1]);
	out->errors = xcalloc(json_array_size(json_object_get(doc, "errors")) + 1, sizeof *out->errors);
	json_array_foreach(json_object_get(doc, "errors"), i, p)
		out->errors[out->nerrors++] = (struct scan_read_error){
			doc_str(p, "path") ? doc_str(p, "path") : "-",
			doc_str(p, "error") ? doc_str(p, "error") : "-" };
}

void results_read_diff(const json_t *doc, struct diff_read *out)
{
	read_one(doc, doc, out);
	if (json_is_array(json_object_get(doc, "pairs")))
		read_pairs(doc, out);
}

static void free_side(struct scan_result *r)
{
	free(r->funcs.v);
	free(r->func);
	free(r->loop);
	free(r->hazard);
	free(r->piece);
}

void results_diff_read_free(struct diff_read *r)
{
	for (size_t i = 0; i < r->npair; i++)
		results_diff_read_free(&r->pair[i]);
	free(r->pair);
	free(r->member);
	free(r->only[0]);
	free(r->only[1]);
	free(r->errors);
	free_side(&r->old);
	free_side(&r->new);
	free(r->d.v);
	free(r->d.refs);
	free(r->source);
	free(r->renamed);
	results_profile_names_free(&r->names);
	memset(r, 0, sizeof *r);
}
