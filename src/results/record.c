/* The result file of straddle record: samples per file, function and loop,
 * and every sampled address with its count, so that scan --hot attributes
 * them again to whatever loops a later scan finds. Addresses are the file's
 * own virtual addresses. */
#include "json.h"
#include "head.h"
#include "scan.h"
#include "record.h"
#include "kinds.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *hex(uint64_t v)
{
	char b[20];

	return json_string(hex_addr(b, v));
}

static json_t *addresses(const struct sample_hist *h)
{
	json_t *a = json_array();

	for (size_t i = 0; i < h->n; i++)
		json_array_append_new(a, json_pack("[o, I]", hex(h->v[i].key),
						   (json_int_t)h->v[i].count));
	return a;
}

/* Rows with samples, most first; the array keeps them in that order. */
static int by_samples_desc(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "samples"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "samples"));

	return (x < y) - (x > y);
}

static json_t *sorted(json_t **v, size_t n)
{
	json_t *a = json_array();

	qsort(v, n, sizeof *v, by_samples_desc);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, v[i]);
	free(v);
	return a;
}

static json_t *functions(const struct scan_result *r)
{
	json_t **v = xcalloc(r->nfunc + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < r->nfunc; i++) {
		const struct elf_func *f = &r->funcs.v[r->func[i].func];

		if (r->func[i].samples)
			v[n++] = json_pack("{s:o, s:o, s:I}", "name", json_text(f->shown),
					   "addr", hex(f->addr), "samples", (json_int_t)r->func[i].samples);
	}
	return sorted(v, n);
}

/* The hot loop's hazards as the record's scan saw them, so a report of
 * the record says what is wrong with the code the samples fell in. */
static json_t *loop_hazards_json(const struct scan_result *r, const struct loop_report *l)
{
	json_t *a = json_array();

	for (uint32_t h = l->hazard; h < l->hazard + l->nhazard; h++)
		json_array_append_new(a, results_hazard(&r->hazard[h]));
	return a;
}

static json_t *loops(const struct scan_result *r)
{
	json_t **v = xcalloc(r->nloop + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < r->nfunc; i++) {
		const struct func_report *f = &r->func[i];

		for (uint32_t k = f->loop; k < f->loop + f->nloop; k++)
			if (r->loop[k].samples)
				v[n++] = json_pack("{s:o, s:o, s:o, s:I, s:I, s:o}", "function",
						   json_text(r->funcs.v[f->func].shown),
						   "start", hex(r->loop[k].start), "end", hex(r->loop[k].end),
						   "depth", (json_int_t)r->loop[k].depth,
						   "samples", (json_int_t)r->loop[k].samples,
						   "hazards", loop_hazards_json(r, &r->loop[k]));
	}
	return sorted(v, n);
}

static json_t *file_json(const struct hot_file *f, struct scan_result *r, const char *error)
{
	json_t *o = json_pack("{s:o, s:I}", "path", json_text(f->path),
			      "samples", (json_int_t)f->samples);

	if (f->build_id[0])
		json_object_set_new(o, "build_id", json_string(f->build_id));
	if (error)
		json_object_set_new(o, "error", json_text(error));
	if (r) {
		hot_attribute(r, f, f->samples);
		json_object_set_new(o, "functions", functions(r));
		json_object_set_new(o, "loops", loops(r));
	}
	json_object_set_new(o, "addresses", addresses(&f->addrs));
	return o;
}

static json_t *kernel_json(const struct hot_run *h)
{
	json_t *o = json_pack("{s:s, s:s, s:I}", "release", h->kernel_release,
			      "build_id", h->kernel_build_id,
			      "samples", (json_int_t)h->kernel.samples);
	json_t **v = xcalloc(h->nksym + 1, sizeof *v);
	size_t n = 0;

	if (h->kernel_text)
		json_object_set_new(o, "text", hex(h->kernel_text));
	for (size_t i = 0; i < h->nksym; i++)
		if (h->ksym[i].samples)
			v[n++] = json_pack("{s:o, s:o, s:I}", "name", json_text(h->ksym[i].name),
					   "addr", hex(h->ksym[i].addr),
					   "samples", (json_int_t)h->ksym[i].samples);
	json_object_set_new(o, "functions", sorted(v, n));
	json_object_set_new(o, "addresses", addresses(&h->kernel.addrs));
	return o;
}

/* ---- reading a record back ---- */

static int read_hex(json_t *v, uint64_t *out)
{
	const char *s = json_string_value(v);
	char *end;

	if (!s || strncmp(s, "0x", 2) != 0)
		return -1;
	*out = strtoull(s + 2, &end, 16);
	return *end || end == s + 2 ? -1 : 0;
}

static int read_addresses(json_t *a, struct sample_hist *h, uint64_t *total, const char *what,
			  struct err *e)
{
	size_t i;
	json_t *p;

	if (!json_is_array(a))
		return err_set(e, "%s: no \"addresses\" array", what);
	json_array_foreach(a, i, p) {
		uint64_t addr;
		json_t *c = json_array_get(p, 1);

		if (!json_is_array(p) || json_array_size(p) != 2 || read_hex(json_array_get(p, 0), &addr) ||
		    !json_is_integer(c) || json_integer_value(c) < 1)
			return err_set(e, "%s: address %zu is not [\"0x...\", count]", what, i);
		GROW(h->v, h->cap, h->n + 1);
		h->v[h->n++] = (struct sample_count){ addr, (uint64_t)json_integer_value(c) };
		*total += (uint64_t)json_integer_value(c);
	}
	sample_hist_merge(h);
	return 0;
}

static void copy_string(char *dst, size_t n, json_t *v)
{
	snprintf(dst, n, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static int read_kernel(json_t *k, struct hot_run *h, struct err *e)
{
	size_t i;
	json_t *f;

	if (!k)
		return 0;
	if (!json_is_object(k))
		return err_set(e, "\"kernel\" is not an object");
	h->kernel.path = xstrdup("[kernel]");
	copy_string(h->kernel_release, sizeof h->kernel_release, json_object_get(k, "release"));
	copy_string(h->kernel_build_id, sizeof h->kernel_build_id, json_object_get(k, "build_id"));
	if (json_object_get(k, "text") && read_hex(json_object_get(k, "text"), &h->kernel_text))
		return err_set(e, "kernel: \"text\" is not a \"0x...\" address");
	if (read_addresses(json_object_get(k, "addresses"), &h->kernel.addrs, &h->kernel.samples,
			   "kernel", e))
		return -1;
	json_array_foreach(json_object_get(k, "functions"), i, f) {
		const char *name = json_string_value(json_object_get(f, "name"));
		uint64_t addr;

		if (!name || read_hex(json_object_get(f, "addr"), &addr))
			return err_set(e, "kernel: function %zu has no name or address", i);
		GROW(h->ksym, h->ksym_cap, h->nksym + 1);
		h->ksym[h->nksym++] = (struct hot_ksym){ xstrdup(name), addr,
			(uint64_t)json_integer_value(json_object_get(f, "samples")) };
	}
	return 0;
}

static int read_files(json_t *files, struct hot_run *h, struct err *e)
{
	size_t i;
	json_t *o;

	if (!json_is_array(files))
		return err_set(e, "no \"files\" array in a record");
	json_array_foreach(files, i, o) {
		const char *path = json_string_value(json_object_get(o, "path"));
		struct hot_file *f;
		char what[64];

		if (!path || !*path)
			return err_set(e, "file %zu has no \"path\"", i);
		f = hot_run_file(h, path);
		copy_string(f->build_id, sizeof f->build_id, json_object_get(o, "build_id"));
		snprintf(what, sizeof what, "file %zu", i);
		if (json_object_get(o, "error")) {     /* its samples could not be placed */
			f->samples += (uint64_t)json_integer_value(json_object_get(o, "samples"));
			continue;
		}
		if (read_addresses(json_object_get(o, "addresses"), &f->addrs, &f->samples, what, e))
			return -1;
	}
	return 0;
}

int results_read_record(const char *path, struct hot_run *h, struct err *e)
{
	json_t *doc, *total;
	struct err why;
	int rc = -1;

	memset(h, 0, sizeof *h);
	h->source = xstrdup(path);
	if (!(doc = results_open(path, 1u << RESULT_RECORD, NULL, e)))
		return -1;
	total = json_object_get(json_object_get(doc, "samples"), "total");
	if (!json_is_integer(total) || json_integer_value(total) < 0)
		err_set(e, "%s: no \"samples\": {\"total\": N} in the record", path);
	else if (read_files(json_object_get(doc, "files"), h, &why) ||
		 read_kernel(json_object_get(doc, "kernel"), h, &why))
		err_set(e, "%s: %s", path, why.msg);
	else {
		h->total = (uint64_t)json_integer_value(total);
		rc = 0;
	}
	json_decref(doc);
	return rc;
}

void results_record_add_file(struct record_doc *d, const struct hot_file *f,
			     struct scan_result *r, const char *error)
{
	if (!d->files)
		d->files = json_array();
	json_array_append_new(d->files, file_json(f, r, error));
}

void results_record_set_kernel(struct record_doc *d, const struct hot_run *h)
{
	json_decref(d->kernel);
	d->kernel = kernel_json(h);
}

json_t *results_record(const struct record_doc *d)
{
	const struct sampling *s = d->s;
	json_t *doc = results_run_info("record", d->argc, d->argv), *notes = json_array();

	if (s->event_note[0])
		json_array_append_new(notes, json_string(s->event_note));
	if (s->kernel_note[0])
		json_array_append_new(notes, json_string(s->kernel_note));
	if (d->few && d->few[0])
		json_array_append_new(notes, json_string(d->few));
	if (d->kernel && d->ksyms_hidden)
		json_array_append_new(notes, json_string("kernel symbols hidden (/proc/kallsyms "
							 "shows no addresses): kernel samples by address only"));
	json_object_set_new(doc, "event", json_string(s->event));
	json_object_set_new(doc, "frequency", json_integer((json_int_t)d->hz));
	json_object_set_new(doc, "frequency_auto", json_boolean(d->hz_auto));
	json_object_set_new(doc, "sample_cost_ns", d->sample_cost_ns < 0 ? json_null() :
			    json_integer((json_int_t)llround(d->sample_cost_ns)));
	json_object_set_new(doc, "exit_status", json_integer(d->exit_status));
	json_object_set_new(doc, "samples", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}",
		"total", (json_int_t)s->samples, "user", (json_int_t)(s->samples - s->kernel_samples),
		"kernel", (json_int_t)s->kernel_samples, "unmapped", (json_int_t)s->unmapped,
		"outside_segments", (json_int_t)d->outside, "lost", (json_int_t)s->lost));
	json_object_set_new(doc, "files", d->files ? d->files : json_array());
	if (d->kernel)
		json_object_set_new(doc, "kernel", d->kernel);
	json_object_set_new(doc, "notes", notes);
	return doc;
}

/* ---- a record read back whole, for the page ---- */

static void read_functions(const json_t *a, struct record_function_read **out, size_t *n)
{
	const json_t *o;
	size_t i;

	*n = json_array_size(a);
	*out = xcalloc(*n + 1, sizeof **out);
	json_array_foreach(a, i, o)
		(*out)[i] = (struct record_function_read){ doc_str(o, "name"), doc_str(o, "addr"),
							   doc_int(o, "samples") };
}

static void read_loop(const json_t *o, struct profile_names *names, struct record_loop_read *l)
{
	const json_t *a = json_object_get(o, "hazards"), *j;
	size_t i;

	*l = (struct record_loop_read){ doc_str(o, "function"), doc_str(o, "start"),
		doc_str(o, "end"), results_addr(o, "end") - results_addr(o, "start"),
		doc_int(o, "depth"), doc_int(o, "samples"), NULL, json_array_size(a) };
	l->hazard = xcalloc(l->nhazard + 1, sizeof *l->hazard);
	json_array_foreach(a, i, j) {
		struct record_hazard_read *h = &l->hazard[i];

		h->rule = doc_str(j, "rule");
		h->profile = doc_str(j, "profile");
		h->window = doc_int(j, "window");
		results_read_hazard(j, names, &h->h);
	}
}

static void read_file_doc(const json_t *o, struct profile_names *names, struct record_file_read *f)
{
	const json_t *loops = json_object_get(o, "loops");

	*f = (struct record_file_read){ doc_str(o, "path"), doc_str(o, "build_id"),
		doc_str(o, "error"), json_object_get(o, "error") != NULL, doc_int(o, "samples"),
		NULL, json_array_size(loops), NULL, 0 };
	read_functions(json_object_get(o, "functions"), &f->function, &f->nfunction);
	f->loop = xcalloc(f->nloop + 1, sizeof *f->loop);
	for (size_t i = 0; i < f->nloop; i++)
		read_loop(json_array_get(loops, i), names, &f->loop[i]);
}

void results_record_read(const json_t *doc, struct record_read *r)
{
	const json_t *s = json_object_get(doc, "samples"), *files = json_object_get(doc, "files");
	const json_t *notes = json_object_get(doc, "notes");

	memset(r, 0, sizeof *r);
	r->event = doc_str(doc, "event");
	r->has_frequency = json_is_integer(json_object_get(doc, "frequency"));
	r->frequency = doc_int(doc, "frequency");
	r->has_exit_status = json_is_integer(json_object_get(doc, "exit_status"));
	r->exit_status = doc_int(doc, "exit_status");
	r->has_sample_cost = json_is_number(json_object_get(doc, "sample_cost_ns"));
	r->sample_cost_ns = doc_num(doc, "sample_cost_ns");
	r->total = doc_int(s, "total");
	r->user = doc_int(s, "user");
	r->kernel = doc_int(s, "kernel");
	r->unmapped = doc_int(s, "unmapped");
	r->lost = doc_int(s, "lost");
	r->nnote = json_array_size(notes);
	r->note = xcalloc(r->nnote + 1, sizeof *r->note);
	for (size_t i = 0; i < r->nnote; i++)
		r->note[i] = json_string_value(json_array_get(notes, i));
	r->nfile = json_array_size(files);
	r->file = xcalloc(r->nfile + 1, sizeof *r->file);
	for (size_t i = 0; i < r->nfile; i++)
		read_file_doc(json_array_get(files, i), &r->names, &r->file[i]);
	read_functions(json_object_get(json_object_get(doc, "kernel"), "functions"),
		       &r->kernel_function, &r->nkernel_function);
}

int results_record_load(const char *path, struct record_read *r, json_t **doc, struct err *e)
{
	if (!(*doc = results_open(path, 1u << RESULT_RECORD, NULL, e)))
		return -1;
	results_record_read(*doc, r);
	return 0;
}

void results_record_read_free(struct record_read *r)
{
	for (size_t i = 0; i < r->nfile; i++) {
		for (size_t k = 0; k < r->file[i].nloop; k++)
			free(r->file[i].loop[k].hazard);
		free(r->file[i].loop);
		free(r->file[i].function);
	}
	free(r->file);
	free(r->note);
	free(r->kernel_function);
	results_profile_names_free(&r->names);
	memset(r, 0, sizeof *r);
}
