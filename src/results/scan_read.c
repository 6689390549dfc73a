/* A document of `straddle scan --json` read back into the structs the scan
 * made: each file's scan_result, so the page renders the rows of
 * report/rows.c exactly as the terminal does. What the document lacks is zero
 * (a hand-edited file renders "-", never garbage); nothing here frees through
 * scan_result_free, which is for a scan's own memory. */
#include "json.h"
#include "scan.h"
#include "prove.h"

#include <stdlib.h>
#include <string.h>

/* Addresses are "0x..." strings (jw_hex: above 2^53 for a kernel). */
uint64_t results_addr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? strtoull(s, NULL, 0) : 0;
}

static bool is_true(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static int branch_kind_of(const char *name)
{
	for (int k = BR_NONE; k <= BR_INVALID; k++)
		if (name && !strcmp(branch_kind_name(k), name))
			return k;
	return BR_NONE;
}

const struct profile *results_named_profile(struct profile_names *p, const char *name)
{
	if (!name)
		name = "-";
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i]->name, name))
			return p->v[i];
	GROW(p->v, p->cap, p->n + 1);
	p->v[p->n] = xcalloc(1, sizeof *p->v[p->n]);
	p->v[p->n]->name = name;
	return p->v[p->n++];
}

void results_profile_names_free(struct profile_names *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof *p);
}

bool results_read_hazard(const json_t *j, struct profile_names *names, struct hazard *h)
{
	const json_t *fix = json_object_get(j, "fix"), *pl = json_object_get(j, "placements");
	int rule = rule_from_name(doc_str(j, "rule") ? doc_str(j, "rule") : "");

	memset(h, 0, sizeof *h);
	h->profile = results_named_profile(names, doc_str(j, "profile"));
	h->rule = rule < 0 ? 0 : (uint8_t)rule;
	h->severity = (uint8_t)doc_int(j, "severity");
	h->window = (uint16_t)doc_int(j, "window");
	h->certain = is_true(j, "certain");
	h->bad_placements = (uint16_t)doc_int(pl, "hazardous");
	h->all_placements = (uint16_t)doc_int(pl, "possible");
	h->section = doc_str(j, "section");
	h->branch = results_addr(j, "branch");
	h->pair = json_object_get(j, "pair") ? results_addr(j, "pair") : h->branch;
	h->branch_kind = (uint8_t)branch_kind_of(doc_str(j, "branch_kind"));
	h->fix_align = (uint16_t)doc_int(fix, "align");
	h->fix_pad = (uint16_t)doc_int(fix, "pad");
	h->fix_clean = is_true(fix, "clean");
	h->here_align = (uint16_t)doc_int(fix, "here_align");
	h->here_pad = (uint16_t)doc_int(fix, "here_pad");
	h->here_clean = is_true(fix, "here_clean");
	h->fix_layout = is_true(fix, "layout");
	h->slowdown = (float)json_number_value(json_object_get(j, "slowdown"));
	h->slowdown_at_most = is_true(j, "slowdown_at_most");
	return rule >= 0;
}

int results_cost_bound(const char *name)
{
	for (int b = 0; b < NCOST_BOUND; b++)
		if (name && !strcmp(cost_bound_name(b), name))
			return b;
	return COST_AT_BEST;
}

/* Room for everything of one file, counted before anything points in. */
struct scan_counts_read {
	size_t funcs, loops, hazards, pieces;
};

static void count_file(const json_t *file, struct scan_counts_read *c)
{
	const json_t *f, *l;
	size_t i, j;

	json_array_foreach(json_object_get(file, "functions"), i, f) {
		c->funcs++;
		c->hazards += json_array_size(json_object_get(f, "hazards"));
		json_array_foreach(json_object_get(f, "loops"), j, l) {
			c->loops++;
			c->hazards += json_array_size(json_object_get(l, "hazards"));
			c->pieces += json_array_size(json_object_get(l, "pieces"));
		}
	}
}

static void read_hazards(const json_t *list, struct profile_names *names, struct scan_result *r,
			 uint32_t *first, uint32_t *n)
{
	const json_t *h;
	size_t i;

	*first = (uint32_t)r->nhazard;
	json_array_foreach(list, i, h)
		r->nhazard += results_read_hazard(h, names, &r->hazard[r->nhazard]);
	*n = (uint32_t)(r->nhazard - *first);
}

static void read_cost(const json_t *c, const struct scan_result *r, struct loop_cost *out)
{
	const char *profile = doc_str(c, "profile");

	if (!json_is_object(c))
		return;
	out->slowdown = (float)json_number_value(json_object_get(c, "slowdown"));
	out->bound = (uint8_t)results_cost_bound(doc_str(c, "bound"));
	out->window = (uint16_t)doc_int(c, "window");
	out->front_end = (float)json_number_value(json_object_get(c, "front_end"));
	out->front_end_best = (float)json_number_value(json_object_get(c, "front_end_best"));
	out->back_end = (float)json_number_value(json_object_get(c, "back_end"));
	out->branch = (float)json_number_value(json_object_get(c, "branch"));
	out->at_most = is_true(c, "at_most");
	for (size_t i = 0; profile && i < r->nprofile; i++)
		if (!strcmp(r->profile[i]->name, profile))
			out->profile = (uint8_t)i;
}

void results_read_loop(const json_t *j, struct profile_names *names, struct scan_result *r,
		       struct loop_report *l)
{
	const json_t *p;
	size_t i;

	memset(l, 0, sizeof *l);
	l->start = results_addr(j, "start");
	l->end = results_addr(j, "end");
	l->bytes = (uint64_t)doc_int(j, "bytes");
	l->piece = (uint32_t)r->npiece;
	json_array_foreach(json_object_get(j, "pieces"), i, p)
		r->piece[r->npiece++] = (struct loop_piece){ results_addr(p, "start"),
							     results_addr(p, "end") };
	l->npiece = (uint32_t)(r->npiece - l->piece);
	l->depth = (uint32_t)doc_int(j, "depth");
	l->innermost = is_true(j, "innermost");
	l->has_call = is_true(j, "has_call");
	l->in_loop_buffer = is_true(j, "in_loop_buffer");
	l->back_end_bound = is_true(j, "back_end_bound");
	l->ninsn = (uint32_t)doc_int(j, "instructions");
	l->cold_blocks = (uint32_t)doc_int(j, "cold_blocks");
	l->cold_bytes = (uint64_t)doc_int(j, "cold_bytes");
	l->irreducible = is_true(j, "irreducible");
	l->spin = is_true(j, "spin");
	l->same_span = (uint32_t)doc_int(j, "same_span_loops");
	l->branch = results_addr(j, "branch");
	l->span_uncertain = json_is_false(json_object_get(j, "span_certain"));
	l->samples = (uint64_t)doc_int(j, "samples");
	read_cost(json_object_get(j, "cost"), r, &l->cost);
	read_hazards(json_object_get(j, "hazards"), names, r, &l->hazard, &l->nhazard);
}

static void read_function(const json_t *j, struct profile_names *names, struct scan_read_file *out)
{
	struct scan_result *r = &out->r;
	struct elf_func *f = &r->funcs.v[r->funcs.n];
	struct func_report *fr = &r->func[r->nfunc];
	const char *from = doc_str(j, "from");
	const json_t *l;
	size_t i;

	*f = (struct elf_func){ .addr = results_addr(j, "addr"), .size = (uint64_t)doc_int(j, "size"),
				.name = doc_str(j, "symbol") ? doc_str(j, "symbol") :
					doc_str(j, "name") ? doc_str(j, "name") : "-",
				.shown = doc_str(j, "name") ? doc_str(j, "name") : "-",
				.source = from && !strcmp(from, "symtab") ? FROM_SYMTAB :
					  from && !strcmp(from, "dynsym") ? FROM_DYNSYM : FROM_FDE };
	*fr = (struct func_report){ .func = r->funcs.n, .entry_align = (uint64_t)doc_int(j, "entry_align"),
		.loop = (uint32_t)r->nloop, .ninsn = (uint32_t)doc_int(j, "instructions"),
		.jump_tables = (uint32_t)doc_int(j, "jump_tables"),
		.unresolved = (uint32_t)doc_int(j, "indirect_jumps_unresolved"),
		.samples = (uint64_t)doc_int(j, "samples"), .cold_text = is_true(j, "cold_text") };
	json_array_foreach(json_object_get(j, "loops"), i, l) {
		out->loop_source[r->nloop] = doc_str(l, "source");
		results_read_loop(l, names, r, &r->loop[r->nloop++]);
	}
	fr->nloop = (uint32_t)(r->nloop - fr->loop);
	read_hazards(json_object_get(j, "hazards"), names, r, &fr->hazard, &fr->nhazard);
	r->funcs.n++;
	r->nfunc++;
}

static void read_profiles(const json_t *file, struct profile_names *names, struct scan_result *r)
{
	const json_t *p, *be = json_object_get(file, "back_end");
	size_t i;

	json_array_foreach(json_object_get(file, "profiles"), i, p) {
		const char *b = doc_str(be, json_string_value(p) ? json_string_value(p) : "");

		if (r->nprofile == sizeof r->profile / sizeof r->profile[0])
			break;
		if (b)
			snprintf(r->back_end[r->nprofile], sizeof r->back_end[0], "%s", b);
		r->profile[r->nprofile++] = results_named_profile(names, json_string_value(p));
	}
}

static void read_file(const json_t *file, struct profile_names *names, struct scan_read_file *out)
{
	struct scan_counts_read c = { 0 };
	struct scan_result *r = &out->r;
	const json_t *s = json_object_get(file, "samples"), *f;
	size_t i;

	count_file(file, &c);
	out->path = doc_str(file, "path") ? doc_str(file, "path") : "-";
	out->arch = doc_str(file, "arch") ? doc_str(file, "arch") : "-";
	out->elf_type = doc_str(file, "elf_type") ? doc_str(file, "elf_type") : "-";
	out->functions_total = (size_t)doc_int(file, "functions_total");
	r->funcs.v = xcalloc(c.funcs + 1, sizeof *r->funcs.v);
	r->func = xcalloc(c.funcs + 1, sizeof *r->func);
	r->loop = xcalloc(c.loops + 1, sizeof *r->loop);
	out->loop_source = xcalloc(c.loops + 1, sizeof *out->loop_source);
	r->hazard = xcalloc(c.hazards + 1, sizeof *r->hazard);
	r->piece = xcalloc(c.pieces + 1, sizeof *r->piece);
	read_profiles(file, names, r);
	r->functions_scanned = (size_t)doc_int(file, "functions_scanned");
	r->padding_symbols = (size_t)doc_int(file, "padding_symbols");
	r->instructions = (uint64_t)doc_int(file, "instructions");
	r->loops_total = (uint64_t)doc_int(file, "loops_total");
	r->undecoded = (uint64_t)doc_int(file, "undecoded_words");
	r->jump_tables = (uint64_t)doc_int(file, "jump_tables");
	r->unresolved = (uint64_t)doc_int(file, "indirect_jumps_unresolved");
	r->hot = json_is_object(s);
	r->file_samples = (uint64_t)doc_int(s, "file");
	r->run_samples = (uint64_t)doc_int(s, "run");
	json_array_foreach(json_object_get(file, "functions"), i, f)
		read_function(f, names, out);
}

void results_read_scan(const json_t *doc, struct scan_read *out)
{
	const json_t *files = json_object_get(doc, "files"), *errors = json_object_get(doc, "errors");
	const json_t *f;
	size_t i;

	memset(out, 0, sizeof *out);
	out->host = doc_str(doc, "host");
	out->error = xcalloc(json_array_size(errors) + 1, sizeof *out->error);
	json_array_foreach(errors, i, f)
		out->error[out->nerror++] = (struct scan_read_error){
			doc_str(f, "path") ? doc_str(f, "path") : "-",
			doc_str(f, "error") ? doc_str(f, "error") : "-" };
	out->file = xcalloc(json_array_size(files) + 1, sizeof *out->file);
	out->min_share = json_is_number(json_object_get(doc, "min_share")) ?
			 json_number_value(json_object_get(doc, "min_share")) : SCAN_MIN_SHARE;
	json_array_foreach(files, i, f)
		read_file(f, &out->names, &out->file[out->nfile++]);
}

static void free_file(struct scan_read_file *f)
{
	free(f->r.funcs.v);
	free(f->r.func);
	free(f->r.loop);
	free(f->r.hazard);
	free(f->r.piece);
	free(f->loop_source);
	memset(f, 0, sizeof *f);
}

void results_scan_read_free(struct scan_read *s)
{
	for (size_t i = 0; i < s->nfile; i++)
		free_file(&s->file[i]);
	free(s->file);
	free(s->error);
	results_profile_names_free(&s->names);
	memset(s, 0, sizeof *s);
}
