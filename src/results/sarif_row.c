/* A row of scan or diff (model/rows.h: a subject's hazards of one rule)
 * as a SARIF result, in the words the tables use (model/words.c), with a
 * fingerprint that survives a relink; sarif.c writes the log. */
#include "sarif.h"

#include <inttypes.h>
#include <string.h>

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (const unsigned char *b = p; n--; b++)
		h = (h ^ *b) * 0x100000001b3ull;
	return h;
}

/* ---- which of the functions of one name (or one shape) a function is ---- */

struct ordinal_sort {
	const struct scan_result *r;
	bool by_shape;
};

static int by_key(const void *a, const void *b, void *ctx)
{
	const struct ordinal_sort *o = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = 0;

	if (o->by_shape) {
		uint64_t sx = o->r->func[x].shape.shape, sy = o->r->func[y].shape.shape;

		c = (sx > sy) - (sx < sy);
	} else {
		c = strcmp(o->r->funcs.v[x].name, o->r->funcs.v[y].name);
	}
	return c ? c : (x > y) - (x < y);       /* then in address order */
}

static bool same_key(const struct ordinal_sort *o, uint32_t x, uint32_t y)
{
	return o->by_shape ? o->r->func[x].shape.shape == o->r->func[y].shape.shape
			   : !strcmp(o->r->funcs.v[x].name, o->r->funcs.v[y].name);
}

static uint32_t *ordinals(const struct scan_result *r, size_t n, bool by_shape)
{
	struct ordinal_sort o = { r, by_shape };
	uint32_t *idx = xcalloc(n + 1, sizeof *idx), *nth = xcalloc(n + 1, sizeof *nth);

	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	qsort_r(idx, n, sizeof *idx, by_key, &o);
	for (size_t i = 1; i < n; i++)
		if (same_key(&o, idx[i - 1], idx[i]))
			nth[idx[i]] = nth[idx[i - 1]] + 1;
	free(idx);
	return nth;
}

void sarif_ordinals(const struct scan_result *r, struct sarif_ordinals *o)
{
	o->by_name = ordinals(r, r->funcs.n, false);
	o->by_shape = ordinals(r, r->nfunc, true);
}

void sarif_ordinals_free(struct sarif_ordinals *o)
{
	free(o->by_name);
	free(o->by_shape);
}

/* The rule, the function (by name and which of that name it is, local
 * functions of two units sharing one; an fde@ name is an address, so by
 * the shape of its code), the loop's mnemonic sequence and which of the
 * function's loops of that sequence it is: nothing that moves when only
 * the layout does. */
static uint64_t fingerprint(const struct sarif_row *s)
{
	const struct elf_func *f = &s->r->funcs.v[s->func->func];
	const char *rule = rule_name(s->h[0]->rule);
	uint64_t h = fnv(0xcbf29ce484222325ull, rule, strlen(rule) + 1);
	uint32_t nth = 0, which;

	if (f->source == FROM_FDE) {
		h = fnv(h, &s->func->shape.shape, sizeof s->func->shape.shape);
		which = s->ord->by_shape[s->func - s->r->func];
	} else {
		h = fnv(h, f->name, strlen(f->name) + 1);
		which = s->ord->by_name[s->func->func];
	}
	h = fnv(h, &which, sizeof which);
	if (!s->loop)
		return h;
	for (uint32_t k = s->func->loop; &s->r->loop[k] != s->loop; k++)
		nth += s->r->loop[k].shape_hash == s->loop->shape_hash;
	h = fnv(h, &s->loop->shape_hash, sizeof s->loop->shape_hash);
	return fnv(h, &nth, sizeof nth);
}

/* "under skylake,zen5: touches 2 windows of 16 B (1 needed), ..." */
static void describe(const struct sarif_row *s, const struct elf_func *f, const char *profiles,
		     const char *fix, const char *cfix, struct strbuf *m)
{
	const struct hazard *lead = worst_hazard(s->h, s->n);
	uint64_t start = s->loop ? s->loop->start : f->addr;
	uint64_t bytes = s->loop ? s->loop->end - s->loop->start : f->size;
	const struct scan_row row = { .func = s->func, .loop = s->loop, .lead = lead,
				      .priced = costliest_hazard(s->h, s->n), .h = s->h, .nh = s->n };
	struct row_window w[16];
	size_t nw = scan_row_windows(s->r, &row, w);

	if (s->loop)
		sb_addf(m, "The %" PRIu64 "-byte loop at %#" PRIx64 " in %s", bytes, start, f->shown);
	else
		sb_addf(m, "%s (%" PRIu64 " bytes at %#" PRIx64 ")", f->shown, bytes, start);
	if (lead->branch)
		sb_addf(m, ": its %s at %#" PRIx64 "%s %s a boundary of", branch_kind_name(lead->branch_kind),
			lead->branch, lead->pair != lead->branch ? " (fused pair)" : "",
			lead->rule == RULE_BRANCH_ENDS ? "ends on" : "crosses");
	else
		sb_addf(m, " touches");
	for (size_t i = 0; i < nw; i++) {
		if (lead->branch)
			sb_addf(m, "%s %u B", i ? "," : "", w[i].window);
		else
			sb_addf(m, "%s %u windows of %u B (%u needed)", i ? "," : "", w[i].touched,
				w[i].window, w[i].best);
	}
	sb_addf(m, " under %s.", profiles);
	if (s->cause)
		sb_addf(m, " New in this build: %s.", !strcmp(s->cause, "moved") ? "the same bytes moved" :
			!strcmp(s->cause, "changed") ? "its bytes changed" : "it is new");
	sb_addf(m, " Fix: %s%s%s.", fix, *cfix ? "; " : "", cfix);
}

/* The source file relative to the root when it is under it. */
static const char *relative_to(const char *path, const char *root, bool *relative)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	*relative = n && !strncmp(path, root, n) && path[n] == '/';
	return *relative ? path + n + 1 : path;
}

void sarif_add_row(struct sarif_log *log, const struct sarif_row *s)
{
	const struct elf_func *f = &s->r->funcs.v[s->func->func];
	const struct hazard *lead = worst_hazard(s->h, s->n), *cost = costliest_hazard(s->h, s->n);
	uint64_t addr = s->loop ? s->loop->start : f->addr;
	struct strbuf profiles = { 0 }, msg = { 0 };
	char fix[256], cfix[256], place[32], file[4096];
	unsigned w[16];
	int line = 0;
	bool has_line = s->lines && elf_source_file(s->img, f->sec, addr, file, sizeof file, &line);
	struct sarif_result res = {
		.rule = lead->rule, .severity = lead->severity, .function = f->shown,
		.section = lead->section, .address = addr,
		.bytes = s->loop ? s->loop->end - s->loop->start : f->size,
		.windows = w, .nwindows = hazard_windows(s->h, s->n, w),
		.placement = place, .fix = fix, .compiler_fix = cfix, .cause = s->cause,
		.fingerprint = fingerprint(s), .line = has_line ? line : 0,
		.slowdown = cost->slowdown, .slowdown_at_most = cost->slowdown_at_most,
	};

	res.uri = relative_to(has_line ? file : s->img->path, s->source_root, &res.relative);
	res.file = s->img->path;
	res.input = s->input;
	/* a binary's place for a code-scanning tool: the bytes in the file */
	res.in_file = !has_line && elf_file_offset(s->img, f->sec, addr, &res.byte_offset) == 0;
	res.byte_length = res.bytes;
	format_profiles(s->h, s->n, &profiles);
	format_fix_all(s->h, s->n, fix, sizeof fix);
	format_placement(lead, place, sizeof place);
	compiler_fix(s->img, f->sec, addr, fix_align_all(s->h, s->n), s->loop != NULL, lead, cfix,
		     sizeof cfix);
	describe(s, f, sb_str(&profiles), fix, cfix, &msg);
	res.profiles = sb_str(&profiles);
	res.message = sb_str(&msg);
	sarif_add(log, &res);
	sb_free(&profiles);
	sb_free(&msg);
}

void sarif_add_scan(struct sarif_log *log, struct elf_image *img, const struct scan_result *r,
		    const struct sarif_rows *o)
{
	struct scan_rows rows;
	struct sarif_ordinals ord;

	scan_rows(r, 0, o->min_share, false, &rows);
	sarif_ordinals(r, &ord);
	for (size_t i = 0; i < rows.n; i++)
		sarif_add_row(log, &(struct sarif_row){ .img = img, .r = r, .func = rows.v[i].func,
			.loop = rows.v[i].loop, .h = rows.v[i].h, .n = rows.v[i].nh,
			.source_root = o->source_root, .lines = o->lines, .ord = &ord,
			.input = o->input });
	sarif_ordinals_free(&ord);
	scan_rows_free(&rows);
}

void sarif_add_diff(struct sarif_log *log, struct elf_image *img, const struct scan_result *r,
		    const struct layout_diff *d, const struct sarif_rows *o)
{
	struct diff_rows rows;
	struct sarif_ordinals ord;

	diff_rows(d, r, true, o->min_share, &rows);
	sarif_ordinals(r, &ord);
	for (size_t i = 0; i < rows.n; i++) {
		const struct layout_change *ch = rows.v[i].ch;

		sarif_add_row(log, &(struct sarif_row){ .img = img, .r = r, .func = ch->fnew,
			.loop = ch->entry ? NULL : ch->lnew, .h = rows.v[i].h, .n = rows.v[i].n,
			.cause = cause_name(ch->cause), .source_root = o->source_root,
			.lines = o->lines, .ord = &ord, .input = o->input });
	}
	sarif_ordinals_free(&ord);
	diff_rows_free(&rows);
}
