/* The sections of layout results on the page of `straddle report`: scan,
 * diff and record (issue 14). They read the documents results/ writes
 * (scan --json, diff --json, record -o) and show the worst first, the way
 * the text tables of scan and diff do, with the counts a reviewer asks
 * for first: by rule, by profile, by section. Long tables are cut (a
 * vmlinux has thousands of hazards) and say how many rows are left out. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Rows shown per table; the page of a whole vmlinux stays a few hundred KB. */
enum { HTML_ROWS = 50, LAYOUT_LOOPS = 12 };

static long long int_of(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* Addresses are "0x..." strings (jw_hex: above 2^53 for a kernel). */
static uint64_t addr_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? strtoull(s, NULL, 0) : 0;
}

/* The fields of a hazard the table helpers of hazard.c read, from its JSON
 * (results_write_hazard): one way to say a fix, in the terminal and here. */
static void hazard_of(const json_t *j, struct hazard *h)
{
	const json_t *fix = json_object_get(j, "fix"), *pl = json_object_get(j, "placements");
	int rule = rule_from_name(doc_str(j, "rule", "-"));

	memset(h, 0, sizeof *h);
	h->rule = rule < 0 ? 0 : (uint8_t)rule;
	h->severity = (uint8_t)int_of(j, "severity");
	h->window = (uint16_t)int_of(j, "window");
	h->certain = json_is_true(json_object_get(j, "certain"));
	h->slowdown = (float)json_number_value(json_object_get(j, "slowdown"));
	h->slowdown_at_most = json_is_true(json_object_get(j, "slowdown_at_most"));
	h->bad_placements = (uint16_t)int_of(pl, "hazardous");
	h->all_placements = (uint16_t)int_of(pl, "possible");
	h->fix_align = (uint16_t)int_of(fix, "align");
	h->fix_pad = (uint16_t)int_of(fix, "pad");
	h->fix_clean = json_is_true(json_object_get(fix, "clean"));
	h->here_align = (uint16_t)int_of(fix, "here_align");
	h->here_pad = (uint16_t)int_of(fix, "here_pad");
	h->here_clean = json_is_true(json_object_get(fix, "here_clean"));
	h->fix_layout = json_is_true(json_object_get(fix, "layout"));
	h->branch = addr_of(j, "branch");
	h->pair = json_object_get(j, "pair") ? addr_of(j, "pair") : h->branch;
}

/* One hazard of a loop or a function entry, or (diff) of a change. */
struct hrow {
	const json_t *func;             /* scan: the function; diff: the change */
	const json_t *loop;             /* scan: the loop, NULL for an entry hazard */
	const json_t *haz;
	const char *name;
	bool cold;
	uint64_t addr, bytes, samples;
	size_t order;                   /* in the document: profiles in their order */
	struct hazard h;                /* folded: the worst of the row's (worst_hazard) */
	struct hazard priced;           /* ... the one priced highest (costliest_hazard) */
	struct strbuf profiles;         /* the profiles of the row, each once */
	char windows[48];               /* "16,64" */
	char detail[96];                /* "2/1,2/1", or the branch */
	char fix[320];                  /* one fix for all (format_fix_all) */
};

struct hrows {
	struct hrow *v;
	size_t n, cap;
	uint64_t run_samples;           /* scan --hot: the run's samples, else 0 */
};

static void add_row(struct hrows *rs, const json_t *func, const json_t *loop, const json_t *haz,
		    const char *name, bool cold, uint64_t addr, uint64_t bytes, uint64_t samples)
{
	struct hrow *r;

	GROW(rs->v, rs->cap, rs->n + 1);
	r = &rs->v[rs->n++];
	*r = (struct hrow){ .func = func, .loop = loop, .haz = haz, .name = name, .cold = cold,
			    .addr = addr, .bytes = bytes, .samples = samples, .order = rs->n - 1 };
	hazard_of(haz, &r->h);
}

/* Worst first, as scan's text (cmd/scan.c by_worst): hot text before
 * cold, the hottest first when there are samples, then severity, certain
 * before possible, tighter loops, address; the document's order last (the
 * profiles in the order given), so the same verdict under several profiles
 * is adjacent. */
static int by_worst(const void *a, const void *b)
{
	const struct hrow *x = a, *y = b;

	if (x->cold != y->cold)
		return x->cold ? 1 : -1;
	if (x->samples != y->samples || x->h.slowdown != y->h.slowdown) {
		double kx = hazard_saves(&x->h, (double)x->samples), ky = hazard_saves(&y->h, (double)y->samples);

		if (kx != ky)
			return kx > ky ? -1 : 1;
	}
	if (x->h.severity != y->h.severity)
		return x->h.severity > y->h.severity ? -1 : 1;
	if (x->h.certain != y->h.certain)
		return x->h.certain ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->loop != y->loop)
		return x->loop ? -1 : 1;
	if (x->h.rule != y->h.rule)
		return x->h.rule < y->h.rule ? -1 : 1;
	if (x->h.window != y->h.window)
		return x->h.window < y->h.window ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* The rows of one subject and rule are one row (cmd/scan.c's and diff's:
 * issue 24), whatever their profiles and windows. */
static int by_subject(const void *a, const void *b)
{
	const struct hrow *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->loop != y->loop)
		return x->loop < y->loop ? -1 : 1;
	if (x->h.rule != y->h.rule)
		return x->h.rule < y->h.rule ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static bool same_subject(const struct hrow *x, const struct hrow *y)
{
	return x->func == y->func && x->loop == y->loop && x->h.rule == y->h.rule;
}

static void format_detail(const struct hrow *r, const unsigned *w, size_t nw, char *buf,
			  size_t n);

/* v[0..n), one subject's hazards of one rule, into *out (which may be v[0]). */
static void fold_group(struct hrow *v, size_t n, struct hrow *out)
{
	const struct hazard *hp[64] = { 0 };
	struct profile names[64];
	struct hrow r = v[0];
	unsigned w[16];
	size_t k = n < 64 ? n : 64, nw;

	r.profiles = (struct strbuf){ 0 };
	for (size_t i = 0; i < k; i++) {
		names[i] = (struct profile){ .name = doc_str(v[i].haz, "profile", "-") };
		v[i].h.profile = &names[i];
		hp[i] = &v[i].h;
	}
	format_profiles(hp, k, &r.profiles);
	format_window_list(hp, k, r.windows, sizeof r.windows);
	format_fix_all(hp, k, r.fix, sizeof r.fix);
	nw = hazard_windows(hp, k, w);
	for (size_t i = 0; i < k; i++)
		if (hp[i] == worst_hazard(hp, k)) {
			r.h = v[i].h;
			r.haz = v[i].haz;       /* the detail's branch kind, the row's section */
		}
	r.priced = *costliest_hazard(hp, k);
	r.priced.profile = NULL;
	r.h.profile = NULL;             /* names[] is this frame's */
	format_detail(&r, w, nw, r.detail, sizeof r.detail);
	*out = r;
}

/* Fold each subject's hazards of one rule into a row, then sort the rows
 * worst first. */
static void fold_rows(struct hrows *rs)
{
	size_t out = 0;

	if (!rs->n)
		return;
	qsort(rs->v, rs->n, sizeof *rs->v, by_subject);
	for (size_t i = 0, j; i < rs->n; i = j) {
		for (j = i + 1; j < rs->n && same_subject(&rs->v[i], &rs->v[j]); j++)
			;
		fold_group(rs->v + i, j - i, &rs->v[out++]);
	}
	rs->n = out;
	qsort(rs->v, rs->n, sizeof *rs->v, by_worst);
}

static void free_rows(struct hrows *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		sb_free(&rs->v[i].profiles);
	free(rs->v);
}

/* "2/1,2/1": windows the subject touches and the fewest any placement
 * needs, in each of the row's windows; for a branch rule the branch (and
 * the first byte of its fused pair). */
static void format_detail(const struct hrow *r, const unsigned *w, size_t nw, char *buf,
			  size_t n)
{
	const char *kind = doc_str(r->haz, "branch_kind", "-");
	int k = 0;

	if (r->h.branch && r->h.pair != r->h.branch)
		snprintf(buf, n, "%s %#" PRIx64 " pair %#" PRIx64, kind, r->h.branch, r->h.pair);
	else if (r->h.branch)
		snprintf(buf, n, "%s %#" PRIx64, kind, r->h.branch);
	else if (!r->h.window)
		snprintf(buf, n, "-");  /* not a window straddle's document */
	else
		for (size_t i = 0; i < nw && k >= 0 && (size_t)k < n; i++)
			k += snprintf(buf + k, n - (size_t)k, "%s%u/%u", i ? "," : "",
				      windows_touched(r->addr, r->addr + r->bytes, w[i]),
				      r->h.rule == RULE_ENTRY_MISALIGNED ? 1 : windows_best(r->bytes, w[i]));
}

/* ---- counts ---- */

#define MAX_KEYS 64

struct counts {
	const char *key[MAX_KEYS];
	size_t n[MAX_KEYS][4];          /* all, then by severity high, medium, low */
	size_t nkeys, other;            /* other: keys past MAX_KEYS */
};

/* 0 high, 1 medium, 2 low (severity_name's words) */
static size_t severity_index(long long severity)
{
	return severity >= 3 ? 0 : severity == 2 ? 1 : 2;
}

static void count(struct counts *c, const char *key, unsigned severity)
{
	size_t i = 0;

	while (i < c->nkeys && strcmp(c->key[i], key))
		i++;
	if (i == c->nkeys) {
		if (c->nkeys == MAX_KEYS) {
			c->other++;
			return;
		}
		c->key[c->nkeys++] = key;
	}
	c->n[i][0]++;
	c->n[i][1 + severity_index(severity)]++;
}

static void counts_table(FILE *out, const struct counts *c, const char *what, const char *class)
{
	static const char *const cols[] = { "", ">hazards", ">high", ">medium", ">low" };
	struct table t;

	table_init(&t, 5, cols);
	t.head[0] = what;
	for (size_t i = 0; i < c->nkeys; i++) {
		char v[4][24];

		for (int k = 0; k < 4; k++)
			snprintf(v[k], sizeof v[k], "%zu", c->n[i][k]);
		table_row(&t, c->key[i], v[0], v[1], v[2], v[3]);
	}
	table_html(&t, out, class);
	table_free(&t);
	if (c->other)
		fprintf(out, "<p class=\"more\">%zu hazards in further %ss not counted here.</p>\n",
			c->other, what);
}

/* ---- scan ---- */

/* Every hazard of a scanned file: its loops', then its entry's (loop NULL). */
typedef void hazard_fn(void *ctx, const json_t *func, const json_t *loop, const json_t *haz);

static void each_hazard(const json_t *file, hazard_fn *fn, void *ctx)
{
	const json_t *f, *l, *h;
	size_t i, j, k;

	json_array_foreach(json_object_get(file, "functions"), i, f) {
		json_array_foreach(json_object_get(f, "loops"), j, l)
			json_array_foreach(json_object_get(l, "hazards"), k, h)
				fn(ctx, f, l, h);
		json_array_foreach(json_object_get(f, "hazards"), k, h)
			fn(ctx, f, NULL, h);
	}
}

static void add_scan_row(void *ctx, const json_t *f, const json_t *l, const json_t *h)
{
	const json_t *at = l ? l : f;

	add_row(ctx, f, l, h, doc_str(f, "name", "-"), json_is_true(json_object_get(f, "cold_text")),
		addr_of(at, l ? "start" : "addr"), (uint64_t)int_of(at, l ? "bytes" : "size"),
		(uint64_t)int_of(at, "samples"));
}

static void scan_rows(const json_t *file, struct hrows *rs)
{
	rs->run_samples = (uint64_t)int_of(json_object_get(file, "samples"), "run");
	each_hazard(file, add_scan_row, rs);
	fold_rows(rs);
}

static void hazard_table(FILE *out, const struct hrows *rs)
{
	static const char *const cols[] = { ">samples %", ">saves %", "severity", "function",
		"section", "address", "source", ">bytes", ">window", "detail", "rule", "profiles",
		"placement", "cost", "fix" };
	const size_t first = rs->run_samples ? 0 : 2;
	size_t shown = rs->n < HTML_ROWS ? rs->n : HTML_ROWS;
	struct table t;

	table_init(&t, 15 - first, cols + first);
	t.max[3 - first] = 48;          /* C++ names: scan's text cuts them there too */
	t.max[6 - first] = 48;
	/* what may wrap: all but numbers, addresses and single words */
	for (size_t c = 3; c < 15; c++)
		t.wrap[c - first] = c != 5 && c != 7 && c != 8 && c != 13;
	for (size_t i = 0; i < shown; i++) {
		const struct hrow *r = &rs->v[i];
		char pct[16], saves[16], addr[20], bytes[24], place[48], cost[16];
		double share = rs->run_samples ? (double)r->samples / (double)rs->run_samples : 0.0;
		const char *src = r->loop ? doc_str(r->loop, "source", "-") : "-";

		snprintf(pct, sizeof pct, "%.1f", 100.0 * share);
		if (r->priced.slowdown > 0)
			snprintf(saves, sizeof saves, "%.1f", 100.0 * hazard_saves(&r->priced, share));
		else
			snprintf(saves, sizeof saves, "-");
		hex_addr(addr, r->addr);
		snprintf(bytes, sizeof bytes, "%" PRIu64, r->bytes);
		format_loop_placement(&r->h, r->loop && json_is_false(json_object_get(r->loop,
				      "span_certain")), place, sizeof place);
		format_cost(&r->priced, cost, sizeof cost);
		const char *all[15] = { pct, saves, severity_name(r->h.severity), r->name,
			doc_str(r->haz, "section", "-"), addr, src, bytes, r->windows, r->detail,
			doc_str(r->haz, "rule", "-"), sb_str(&r->profiles), place, cost, r->fix };
		table_row_v(&t, all + first);
	}
	table_html(&t, out, "hazards");
	table_free(&t);
	html_more(out, shown, rs->n, "hazard rows");
}

struct scan_counts {
	struct counts rule, profile, section;
};

static void count_hazard(void *ctx, const json_t *f, const json_t *l, const json_t *h)
{
	struct scan_counts *c = ctx;
	unsigned sev = (unsigned)int_of(h, "severity");

	(void)l;
	count(&c->rule, doc_str(h, "rule", "-"), sev);
	count(&c->profile, doc_str(h, "profile", "-"), sev);
	count(&c->section, doc_str(f, "section", "-"), sev);
}

static void scan_counts(FILE *out, const json_t *file)
{
	struct scan_counts c = { 0 };

	each_hazard(file, count_hazard, &c);
	fputs("<h4>Hazards by rule, profile and section (every profile's hazard counted)</h4>\n"
	      "<div class=\"counts\">\n", out);
	counts_table(out, &c.rule, "rule", "by-rule");
	counts_table(out, &c.profile, "profile", "by-profile");
	counts_table(out, &c.section, "section", "by-section");
	fputs("</div>\n", out);
}

/* The strings of a JSON array, ", " between them. */
static void text_list(FILE *out, const json_t *array)
{
	const json_t *v;
	size_t i;

	json_array_foreach(array, i, v) {
		fputs(i ? ", " : "", out);
		html_text(out, json_string_value(v));
	}
}

static void scan_summary(FILE *out, const json_t *file)
{
	const json_t *s = json_object_get(file, "samples");

	fputs("<p class=\"summary\">", out);
	html_field(out, file, "arch");
	fputs(" ", out);
	html_field(out, file, "elf_type");
	fprintf(out, ": %lld of %lld functions scanned, %lld instructions, %lld loops; profiles ",
		int_of(file, "functions_scanned"), int_of(file, "functions_total"),
		int_of(file, "instructions"), int_of(file, "loops_total"));
	text_list(out, json_object_get(file, "profiles"));
	if (s)
		fprintf(out, "; %lld of the run's %lld samples in this file", int_of(s, "file"),
			int_of(s, "run"));
	fputs(".</p>\n", out);
}

/* The worst loops' bytes against the 16, 32 and 64 B windows: a row per
 * loop over the 64 B lines it touches, the loop hatched, the branch at
 * fault a triangle. Lines and patterns, not colour, tell them apart. */
enum { LAYOUT_W = 1200, LABEL_W = 330, ROW_H = 30, TOP = 34 };

struct layout_loop {
	const char *name, *side;        /* side: "old" or "new" in a diff, else "" */
	uint64_t addr, bytes, branch;   /* branch: the one at fault, 0 none */
	uint64_t from, to;              /* the 64 B lines it touches */
	char hazard[64];                /* "branch-crosses-window 32 B", "-" */
};

static void layout_set(struct layout_loop *L, const char *name, const char *side,
		       uint64_t addr, uint64_t bytes, const struct hrow *r)
{
	L->name = name;
	L->side = side;
	L->addr = addr;
	L->bytes = bytes;
	L->branch = r ? r->h.branch : 0;
	L->from = addr & ~(uint64_t)63;
	L->to = (addr + bytes + 63) & ~(uint64_t)63;
	if (r)
		snprintf(L->hazard, sizeof L->hazard, "%s %u B", doc_str(r->haz, "rule", "-"),
			 r->h.window);
	else
		snprintf(L->hazard, sizeof L->hazard, "-");
}

/* A loop the picture can draw: its bytes in a row of 16 B ticks. A
 * larger one (or a document's nonsense) is left to the table. */
static bool layout_fits(uint64_t addr, uint64_t bytes)
{
	return bytes > 0 && bytes <= 4096 && addr <= UINT64_MAX - 8192;
}

/* The loops of the worst rows, each once (its worst hazard). */
static size_t pick_layout_loops(const struct hrows *rs, struct layout_loop *v, size_t max)
{
	const json_t *seen[LAYOUT_LOOPS];
	size_t n = 0;

	for (size_t i = 0; i < rs->n && n < max && n < LAYOUT_LOOPS; i++) {
		const struct hrow *r = &rs->v[i];
		bool dup = false;

		if (!r->loop || !layout_fits(r->addr, r->bytes))
			continue;
		for (size_t k = 0; k < n; k++)
			dup |= seen[k] == r->loop;
		if (dup)
			continue;
		seen[n] = r->loop;
		layout_set(&v[n++], r->name, "", r->addr, r->bytes, r);
	}
	return n;
}

static void layout_row(FILE *out, const struct layout_loop *L, size_t row)
{
	double y = TOP + (double)row * ROW_H, bar = LAYOUT_W - LABEL_W - 10;
	double scale = bar / (double)(L->to - L->from);
	double x0 = LABEL_W + (double)(L->addr - L->from) * scale;
	char addr[20];

	fprintf(out, "<text x=\"%d\" y=\"%.0f\" class=\"lay-lbl\">", LABEL_W - 6, y + 18);
	html_text(out, L->name);
	fprintf(out, "%s%s %s</text>\n", *L->side ? " " : "", L->side, hex_addr(addr, L->addr));
	fprintf(out, "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" height=\"22\" class=\"lay-line\"/>\n",
		LABEL_W, y + 2, bar);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"22\" class=\"lay-loop\"/>\n",
		x0, y + 2, (double)L->bytes * scale);
	for (uint64_t a = L->from; a <= L->to; a += 16) {
		double x = LABEL_W + (double)(a - L->from) * scale;
		const char *cls = a % 64 == 0 ? "lay-w64" : a % 32 == 0 ? "lay-w32" : "lay-w16";

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" class=\"%s\"/>\n",
			x, y, x, y + 26, cls);
	}
	if (L->branch >= L->from && L->branch < L->to) {
		double x = LABEL_W + (double)(L->branch - L->from) * scale;

		fprintf(out, "<path d=\"M%.1f %.0f l-5 -7 h10 z\" class=\"lay-br\"/>\n", x, y + 9);
	}
}

static void layout_table(FILE *out, const struct layout_loop *v, size_t n)
{
	static const char *const cols[] = { "function", "side", "start", "end", ">bytes",
		">16 B windows", ">32 B windows", ">64 B windows", "worst hazard", "branch" };
	const bool diff = *v[0].side;   /* the side column in a diff only */
	const char *used[10];
	size_t nc = 0;
	struct table t;

	for (size_t c = 0; c < 10; c++)
		if (c != 1 || diff)
			used[nc++] = cols[c];
	table_init(&t, nc, used);
	t.wrap[0] = true;
	for (size_t i = 0; i < n; i++) {
		const struct layout_loop *L = &v[i];
		char s[20], e[20], b[24], w[MODEL_NWINDOWS][24], br[20];

		hex_addr(s, L->addr);
		hex_addr(e, L->addr + L->bytes);
		snprintf(b, sizeof b, "%" PRIu64, L->bytes);
		for (size_t k = 0; k < MODEL_NWINDOWS; k++)
			snprintf(w[k], sizeof w[k], "%u/%u",
				 windows_touched(L->addr, L->addr + L->bytes, model_windows[k]),
				 windows_best(L->bytes, model_windows[k]));
		const char *all[10] = { L->name, L->side, s, e, b, w[0], w[1], w[2], L->hazard,
					L->branch ? hex_addr(br, L->branch) : "-" }, *cells[10];

		nc = 0;
		for (size_t c = 0; c < 10; c++)
			if (c != 1 || diff)
				cells[nc++] = all[c];
		table_row_v(&t, cells);
	}
	fputs("<details><summary>data</summary>\n", out);
	table_html(&t, out, "layout");
	fputs("</details>\n", out);
	table_free(&t);
}

/* The loops against the windows: a row per loop over the 64 B lines it
 * touches (thin: 16 B, dashed: 32 B, thick: 64 B boundaries), the loop
 * hatched, the branch at fault a triangle; the table behind it after it. */
static void layout_plot(FILE *out, const char *id, const char *heading,
			const struct layout_loop *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "<h4>%s</h4>\n", heading);
	html_svg_begin(out, id, "Loops' bytes (hatched) against 16 B (thin), 32 B (dashed) and "
		       "64 B (thick) boundaries; triangle: the branch at fault",
		       LAYOUT_W, TOP + (unsigned)n * ROW_H + 26);
	fprintf(out, "<defs><pattern id=\"%s-hatch\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" "
		"height=\"6\" fill=\"#bbb\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
		"stroke=\"#222\" stroke-width=\"2\"/></pattern></defs>\n", id);
	/* an inline SVG's style is the page's: class names of their own */
	fprintf(out, "<style>.lay-lbl{font:12px monospace;text-anchor:end}.lay-line{fill:#fff;"
		"stroke:#888}.lay-w16{stroke:#999;stroke-width:1}.lay-w32{stroke:#444;"
		"stroke-width:1.5;stroke-dasharray:4 3}.lay-w64{stroke:#000;stroke-width:3}"
		".lay-br{fill:#000}.lay-key{font:12px sans-serif}</style>\n"
		"<style>#%s .lay-loop{fill:url(#%s-hatch);stroke:#000;stroke-width:1.5}</style>\n",
		id, id);
	fprintf(out, "<text x=\"%d\" y=\"20\" class=\"lay-key\">each row: the 64 B lines the "
		"loop touches; thin: 16 B, dashed: 32 B, thick: 64 B boundary</text>\n", LABEL_W);
	for (size_t i = 0; i < n; i++)
		layout_row(out, &v[i], i);
	fputs("</svg>\n", out);
	layout_table(out, v, n);
}

static void scan_layout(FILE *out, const struct report_input *in, size_t file,
			const struct hrows *rs)
{
	struct layout_loop v[LAYOUT_LOOPS];
	char id[64];

	snprintf(id, sizeof id, "%s-%zu-layout-%zu", in->command, in->index, file + 1);
	layout_plot(out, id, "The worst loops against the windows", v,
		    pick_layout_loops(rs, v, LAYOUT_LOOPS));
}

static void scan_file(FILE *out, const struct report_input *in, size_t index,
		      const json_t *file, bool several)
{
	struct hrows rs = { 0 };

	if (several) {
		fputs("<h3 class=\"file path\">", out);
		html_text(out, doc_str(file, "path", "-"));
		fputs("</h3>\n", out);
	}
	scan_summary(out, file);
	scan_rows(file, &rs);
	if (!rs.n) {
		fputs("<p class=\"none\">No hazard.</p>\n", out);
		free_rows(&rs);
		return;
	}
	fprintf(out, "<h4>Worst hazards first%s</h4>\n",
		rs.run_samples ? " (the hottest first: share of the run's samples)" : "");
	hazard_table(out, &rs);
	scan_counts(out, file);
	scan_layout(out, in, index, &rs);
	free_rows(&rs);
}

static void scan_errors(FILE *out, const json_t *errors)
{
	const json_t *e;
	size_t i;

	if (!json_array_size(errors))
		return;
	fputs("<h4>Files not scanned</h4>\n<ul class=\"errors\">\n", out);
	json_array_foreach(errors, i, e) {
		fputs("<li><span class=\"path\">", out);
		html_text(out, doc_str(e, "path", "-"));
		fputs("</span>: ", out);
		html_text(out, doc_str(e, "error", "-"));
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* n[0]: all, n[1 + severity_index]: of each severity */
static void count_severity(void *ctx, const json_t *f, const json_t *l, const json_t *h)
{
	size_t *n = ctx;

	(void)f, (void)l;
	n[0]++;
	n[1 + severity_index(int_of(h, "severity"))]++;
}

/* A scan of many files: one row each first (a scan of /usr/lib is
 * hundreds), then the details of the first FILES_DETAILED with hazards. */
enum { FILES_DETAILED = 10 };

static void scan_files_table(FILE *out, const json_t *files)
{
	static const char *const cols[] = { "file", "arch", ">functions", ">loops", ">hazards",
		">high", ">medium", ">low" };
	size_t n = json_array_size(files), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct table t;

	table_init(&t, 8, cols);
	t.wrap[0] = true;
	for (size_t i = 0; i < shown; i++) {
		const json_t *f = json_array_get(files, i);
		size_t sev[4] = { 0 };
		char v[6][24];

		each_hazard(f, count_severity, sev);
		snprintf(v[0], sizeof v[0], "%lld", int_of(f, "functions_scanned"));
		snprintf(v[1], sizeof v[1], "%lld", int_of(f, "loops_total"));
		for (int k = 0; k < 4; k++)
			snprintf(v[2 + k], sizeof v[2 + k], "%zu", sev[k]);
		table_row(&t, doc_str(f, "path", "-"), doc_str(f, "arch", "-"), v[0], v[1], v[2], v[3], v[4],
			  v[5]);
	}
	table_html(&t, out, "scanned");
	table_free(&t);
	html_more(out, shown, n, "files");
}

void html_section_scan(FILE *out, const struct report_input *in)
{
	const json_t *files = json_object_get(in->doc, "files"), *f;
	size_t i, detailed = 0, left = 0, n = json_array_size(files);

	html_section_begin(out, in, "scan");
	if (json_object_get(in->doc, "host")) {
		fputs("<p class=\"host\">", out);
		html_field(out, in->doc, "host");
		fputs("</p>\n", out);
	}
	if (n > 1)
		scan_files_table(out, files);
	json_array_foreach(files, i, f) {
		size_t sev[4] = { 0 };

		each_hazard(f, count_severity, sev);
		if (n > 1 && !sev[0])
			continue;
		if (detailed == FILES_DETAILED) {
			left++;
			continue;
		}
		detailed++;
		scan_file(out, in, i, f, n > 1);
	}
	if (left)
		fprintf(out, "<p class=\"more\">%zu more files with hazards not detailed here.</p>\n",
			left);
	scan_errors(out, json_object_get(in->doc, "errors"));
	html_section_end(out);
}

/* ---- diff ---- */

/* The hazards a change gained (added) or lost (removed): one row each,
 * the loop of the side that has it. */
static void diff_rows(const json_t *doc, const char *which, struct hrows *rs)
{
	const json_t *ch, *h;
	size_t i, k;

	json_array_foreach(json_object_get(doc, "loops"), i, ch) {
		const json_t *l = json_object_get(ch, strcmp(which, "added") ? "old" : "new");

		json_array_foreach(json_object_get(ch, which), k, h)
			add_row(rs, ch, l, h, doc_str(ch, "function", "-"),
				json_is_true(json_object_get(ch, "cold")), addr_of(l, "start"),
				(uint64_t)int_of(l, "bytes"), 0);
	}
	json_array_foreach(json_object_get(doc, "functions"), i, ch) {
		const char *side = strcmp(which, "added") ? "old_addr" : "new_addr";

		json_array_foreach(json_object_get(ch, which), k, h)
			add_row(rs, ch, NULL, h, doc_str(ch, "name", "-"),
				json_is_true(json_object_get(ch, "cold")), addr_of(ch, side), 0, 0);
	}
	fold_rows(rs);
}

static void side_addr(const struct hrow *r, const char *side, char buf[static 20])
{
	const json_t *l = r->loop ? json_object_get(r->func, side) : NULL;
	char key[16];

	if (r->loop) {
		if (json_is_object(l))
			hex_addr(buf, addr_of(l, "start"));
		else
			strcpy(buf, "-");
		return;
	}
	snprintf(key, sizeof key, "%s_addr", side);
	if (json_is_string(json_object_get(r->func, key)))
		hex_addr(buf, addr_of(r->func, key));
	else
		strcpy(buf, "-");
}

static void side_bytes(const struct hrow *r, const char *side, char *buf, size_t n)
{
	const json_t *l = r->loop ? json_object_get(r->func, side) : NULL;

	if (json_is_object(l))
		snprintf(buf, n, "%lld", int_of(l, "bytes"));
	else
		snprintf(buf, n, "-");
}

static void diff_table(FILE *out, const struct hrows *rs, const char *class)
{
	static const char *const cols[] = { "cause", "severity", "function", "old address",
		"new address", ">old bytes", ">new bytes", ">window", "rule", "profiles", "source",
		"fix" };
	size_t shown = rs->n < HTML_ROWS ? rs->n : HTML_ROWS;
	struct table t;

	table_init(&t, 12, cols);
	t.max[2] = 48;
	t.max[10] = 48;
	t.wrap[2] = t.wrap[8] = t.wrap[9] = t.wrap[10] = t.wrap[11] = true;
	for (size_t i = 0; i < shown; i++) {
		const struct hrow *r = &rs->v[i];
		char oa[20], na[20], ob[24], nb[24];
		const char *src = r->loop ? doc_str(r->loop, "source", "-") : "-";

		side_addr(r, "old", oa);
		side_addr(r, "new", na);
		side_bytes(r, "old", ob, sizeof ob);
		side_bytes(r, "new", nb, sizeof nb);
		table_row(&t, doc_str(r->func, "cause", "-"), severity_name(r->h.severity), r->name, oa,
			  na, ob, nb, r->windows, doc_str(r->haz, "rule", "-"), sb_str(&r->profiles), src,
			  r->fix);
	}
	table_html(&t, out, class);
	table_free(&t);
	html_more(out, shown, rs->n, "rows");
}

/* The loops of the worst new hazards, each change once: its old side (if
 * any) above its new, so what moved or grew shows against the windows. */
static size_t pick_diff_loops(const struct hrows *added, struct layout_loop *v, size_t max)
{
	const json_t *seen[LAYOUT_LOOPS];
	size_t n = 0, nseen = 0;

	for (size_t i = 0; i < added->n && n + 2 <= max && nseen < LAYOUT_LOOPS; i++) {
		const struct hrow *r = &added->v[i];
		const json_t *old = json_object_get(r->func, "old");
		bool dup = false;

		if (!r->loop || !layout_fits(r->addr, r->bytes))
			continue;
		for (size_t k = 0; k < nseen; k++)
			dup |= seen[k] == r->func;
		if (dup)
			continue;
		seen[nseen++] = r->func;
		if (json_is_object(old) && layout_fits(addr_of(old, "start"),
						       (uint64_t)int_of(old, "bytes")))
			layout_set(&v[n++], r->name, "old", addr_of(old, "start"),
				   (uint64_t)int_of(old, "bytes"), NULL);
		layout_set(&v[n++], r->name, "new", r->addr, r->bytes, r);
	}
	return n;
}

/* The gate as diff's exit status gave it; the rows that fail it counted
 * from the file itself (the rules and causes it was asked to fail on). */
static void diff_verdict(FILE *out, const json_t *doc, const struct hrows *added)
{
	const json_t *g = json_object_get(doc, "gate");
	size_t failing = 0;

	for (size_t i = 0; i < added->n; i++) {
		const char *cause = doc_str(added->v[i].func, "cause", "-");

		if (!g || (doc_list_has(json_object_get(g, "fail_on"), doc_str(added->v[i].haz, "rule", "-")) &&
			   doc_list_has(json_object_get(g, "causes"), cause)))
			failing++;
	}
	if (!g) {
		fprintf(out, "<p class=\"verdict %s\">%s: %zu new hazard rows (the gate's rules "
			"were not recorded in this file)</p>\n", failing ? "fail" : "pass",
			failing ? "New hazards" : "No new hazard", failing);
		return;
	}
	if (json_is_true(json_object_get(g, "fails")))
		fprintf(out, "<p class=\"verdict fail\">The gate fails (exit status %lld): %zu "
			"new hazard row%s of a selected rule and cause.</p>\n",
			int_of(g, "exit_status"), failing, failing == 1 ? "" : "s");
	else
		fprintf(out, "<p class=\"verdict pass\">The gate passes (exit status %lld): no "
			"new hazard of a selected rule and cause.</p>\n", int_of(g, "exit_status"));
	fputs("<p class=\"gate\">Fails on rules: ", out);
	text_list(out, json_object_get(g, "fail_on"));
	fputs("; causes: ", out);
	text_list(out, json_object_get(g, "causes"));
	fputs(".</p>\n", out);
}

static void diff_summary(FILE *out, const json_t *s)
{
	static const char *const cols[] = { "", ">count" };
	static const char *const keys[] = { "new_hazards", "fixed_hazards", "loops_resized",
		"loops_added", "loops_removed", "functions_matched", "functions_unchanged",
		"functions_renamed", "functions_only_old", "functions_only_new",
		"functions_cold_left_out" };
	const char *cause[] = { "changed", "moved", "new", "removed" };
	struct table t;

	table_init(&t, 2, cols);
	t.head[0] = "summary";
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		char v[24], name[48];

		snprintf(v, sizeof v, "%lld", int_of(s, keys[i]));
		snprintf(name, sizeof name, "%s", keys[i]);
		for (char *u = strchr(name, '_'); u; u = strchr(u, '_'))
			*u = ' ';       /* the JSON's key, in words */
		table_row(&t, name, v);
	}
	for (int side = 0; side < 2; side++) {
		const json_t *by = json_object_get(s, side ? "fixed_by_cause" : "new_by_cause");

		for (size_t k = 0; k < 4; k++) {
			char name[48], v[24];

			if (!json_object_get(by, cause[k]))
				continue;
			snprintf(name, sizeof name, "%s hazards, %s", side ? "fixed" : "new", cause[k]);
			snprintf(v, sizeof v, "%lld", int_of(by, cause[k]));
			table_row(&t, name, v);
		}
	}
	table_html(&t, out, "summary");
	table_free(&t);
}

static void diff_renamed(FILE *out, const json_t *renamed)
{
	static const char *const cols[] = { "old name", "new name", "matched by" };
	size_t n = json_array_size(renamed), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct table t;

	if (!n)
		return;
	table_init(&t, 3, cols);
	for (size_t i = 0; i < shown; i++) {
		const json_t *r = json_array_get(renamed, i);

		table_row(&t, doc_str(r, "old", "-"), doc_str(r, "new", "-"), doc_str(r, "by", "-"));
	}
	fputs("<h4>Functions matched under another name</h4>\n", out);
	table_html(&t, out, "renamed");
	table_free(&t);
	html_more(out, shown, n, "renamed functions");
}

void html_section_diff(FILE *out, const struct report_input *in)
{
	struct hrows added = { 0 }, removed = { 0 };

	html_section_begin(out, in, "diff");
	diff_rows(in->doc, "added", &added);
	diff_rows(in->doc, "removed", &removed);
	diff_verdict(out, in->doc, &added);
	fputs("<p class=\"sides\">old <span class=\"path\">", out);
	html_field(out, in->doc, "old");
	fputs("</span>, new <span class=\"path\">", out);
	html_field(out, in->doc, "new");
	fputs("</span></p>\n", out);
	diff_summary(out, json_object_get(in->doc, "summary"));
	fputs("<h4>New hazards, worst first (changed: its own bytes changed; moved: the same "
	      "bytes at a new address; new: only in the new build)</h4>\n", out);
	if (added.n)
		diff_table(out, &added, "added");
	else
		fputs("<p class=\"none\">None.</p>\n", out);
	if (added.n) {
		struct layout_loop v[LAYOUT_LOOPS];
		char id[48];

		snprintf(id, sizeof id, "%s-%zu-layout", in->command, in->index);
		layout_plot(out, id, "The loops of the worst new hazards, old above new", v,
			    pick_diff_loops(&added, v, LAYOUT_LOOPS));
	}
	fputs("<h4>Fixed hazards</h4>\n", out);
	if (removed.n)
		diff_table(out, &removed, "removed");
	else
		fputs("<p class=\"none\">None.</p>\n", out);
	diff_renamed(out, json_object_get(in->doc, "renamed"));
	free_rows(&added);
	free_rows(&removed);
	html_section_end(out);
}

/* ---- record ---- */

static void share(char *buf, size_t n, long long part, long long whole)
{
	snprintf(buf, n, "%.1f", whole > 0 ? 100.0 * (double)part / (double)whole : 0.0);
}

/* "loop-straddles-window 64 B (zen5): .p2align 4 (+6 B)", one per hazard
 * the record's scan saw. */
static void hazard_list(const json_t *hazards, struct strbuf *b)
{
	const json_t *j;
	size_t i;

	json_array_foreach(hazards, i, j) {
		struct hazard h;
		char fix[128];

		hazard_of(j, &h);
		format_fix(&h, fix, sizeof fix);
		sb_addf(b, "%s%s %lld B (%s): %s", i ? "; " : "", doc_str(j, "rule", "-"),
			int_of(j, "window"), doc_str(j, "profile", "-"), fix);
	}
}

struct hot_row {
	const json_t *file, *row;       /* a loop or a function of the record */
	long long samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct hot_row *x = a, *y = b;

	return (x->samples < y->samples) - (x->samples > y->samples);
}

/* Every file's loops (or functions), hottest first across the files. */
static size_t hottest(const json_t *files, const char *key, struct hot_row **out)
{
	const json_t *f, *l;
	size_t i, j, n = 0, cap = 0;
	struct hot_row *v = NULL;

	json_array_foreach(files, i, f)
		json_array_foreach(json_object_get(f, key), j, l) {
			GROW(v, cap, n + 1);
			v[n++] = (struct hot_row){ f, l, int_of(l, "samples") };
		}
	if (n)
		qsort(v, n, sizeof *v, by_samples);
	*out = v;
	return n;
}

static void record_files(FILE *out, const json_t *files, long long total)
{
	static const char *const cols[] = { "file", ">samples", ">% of all", "build id", "note" };
	size_t n = json_array_size(files), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct table t;

	table_init(&t, 5, cols);
	t.wrap[0] = t.wrap[4] = true;
	for (size_t i = 0; i < shown; i++) {
		const json_t *f = json_array_get(files, i);
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", int_of(f, "samples"));
		share(p, sizeof p, int_of(f, "samples"), total);
		table_row(&t, doc_str(f, "path", "-"), s, p, doc_str(f, "build_id", "-"),
			  json_object_get(f, "error") ? doc_str(f, "error", "-") : "");
	}
	table_html(&t, out, "files");
	table_free(&t);
	html_more(out, shown, n, "files");
}

static void record_loops_plot(FILE *out, const struct report_input *in, const struct hot_row *v,
			      size_t n, long long total)
{
	enum { W = 1000, LBL = 330, BAR_H = 22 };
	size_t shown = n < 10 ? n : 10;
	char id[48];

	snprintf(id, sizeof id, "%s-%zu-loops", in->command, in->index);
	html_svg_begin(out, id, "The hottest loops' share of all samples", W,
		       (unsigned)(shown * BAR_H + 30));
	fputs("<style>.rec-lbl{font:12px monospace;text-anchor:end}.rec-bar{fill:#555;stroke:#000}"
	      ".rec-val{font:12px sans-serif}.rec-axis{stroke:#000}</style>\n", out);
	for (size_t i = 0; i < shown; i++) {
		double pct = total > 0 ? 100.0 * (double)v[i].samples / (double)total : 0;
		double y = 4 + (double)i * BAR_H;

		fprintf(out, "<text x=\"%d\" y=\"%.0f\" class=\"rec-lbl\">", LBL - 6, y + 15);
		html_text(out, doc_str(v[i].row, "function", "-"));
		fprintf(out, " %s</text>\n", doc_str(v[i].row, "start", "-"));
		fprintf(out, "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" class=\"rec-bar\"/>\n",
			LBL, y + 2, pct / 100.0 * (W - LBL - 70), BAR_H - 6);
		fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"rec-val\">%.1f%%</text>\n",
			LBL + pct / 100.0 * (W - LBL - 70) + 4, y + 15, pct);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%zu\" class=\"rec-axis\"/>\n", LBL, LBL,
		shown * BAR_H + 6);
	fputs("</svg>\n", out);
}

static void record_loops(FILE *out, const struct report_input *in, const json_t *files,
			 long long total)
{
	static const char *const cols[] = { "file", "function", "start", "end", ">bytes",
		">depth", ">samples", ">% of all", ">% of file", "hazards" };
	struct hot_row *v;
	size_t n = hottest(files, "loops", &v), shown = n < HTML_ROWS ? n : HTML_ROWS;
	struct strbuf hz = { 0 };
	struct table t;

	fputs("<h4>Hottest loops</h4>\n", out);
	if (!n) {
		fputs("<p class=\"none\">No sample in a loop.</p>\n", out);
		free(v);
		return;
	}
	record_loops_plot(out, in, v, n, total);
	table_init(&t, 10, cols);
	t.wrap[0] = t.wrap[1] = t.wrap[9] = true;
	for (size_t i = 0; i < shown; i++) {
		const json_t *l = v[i].row;
		char b[24], d[24], s[24], p[16], pf[16];

		snprintf(b, sizeof b, "%" PRIu64, addr_of(l, "end") - addr_of(l, "start"));
		snprintf(d, sizeof d, "%lld", int_of(l, "depth"));
		snprintf(s, sizeof s, "%lld", v[i].samples);
		share(p, sizeof p, v[i].samples, total);
		share(pf, sizeof pf, v[i].samples, int_of(v[i].file, "samples"));
		sb_reset(&hz);
		hazard_list(json_object_get(l, "hazards"), &hz);
		table_row(&t, doc_str(v[i].file, "path", "-"), doc_str(l, "function", "-"), doc_str(l, "start", "-"),
			  doc_str(l, "end", "-"), b, d, s, p, pf, hz.len ? sb_str(&hz) : "none");
	}
	table_html(&t, out, "loops");
	table_free(&t);
	html_more(out, shown, n, "loops");
	sb_free(&hz);
	free(v);
}

static void record_functions(FILE *out, const json_t *files, const json_t *kernel,
			     long long total)
{
	static const char *const cols[] = { "file", "function", "address", ">samples",
		">% of all" };
	struct hot_row *v;
	size_t n = hottest(files, "functions", &v), shown = n < HTML_ROWS ? n : HTML_ROWS;
	size_t nk = json_array_size(json_object_get(kernel, "functions"));
	struct table t;

	fputs("<h4>Hottest functions</h4>\n", out);
	table_init(&t, 5, cols);
	t.wrap[0] = t.wrap[1] = true;
	for (size_t i = 0; i < shown; i++) {
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", v[i].samples);
		share(p, sizeof p, v[i].samples, total);
		table_row(&t, doc_str(v[i].file, "path", "-"), doc_str(v[i].row, "name", "-"),
			  doc_str(v[i].row, "addr", "-"), s, p);
	}
	for (size_t i = 0; i < nk && i < HTML_ROWS; i++) {
		const json_t *f = json_array_get(json_object_get(kernel, "functions"), i);
		char s[24], p[16];

		snprintf(s, sizeof s, "%lld", int_of(f, "samples"));
		share(p, sizeof p, int_of(f, "samples"), total);
		table_row(&t, "[kernel]", doc_str(f, "name", "-"), doc_str(f, "addr", "-"), s, p);
	}
	table_html(&t, out, "functions");
	table_free(&t);
	html_more(out, shown, n, "functions");
	html_more(out, nk < HTML_ROWS ? nk : HTML_ROWS, nk, "kernel functions");
	free(v);
}

void html_section_record(FILE *out, const struct report_input *in)
{
	const json_t *s = json_object_get(in->doc, "samples"), *files = json_object_get(in->doc,
										   "files");
	const json_t *note;
	long long total = int_of(s, "total");
	size_t i;

	html_section_begin(out, in, "record");
	fprintf(out, "<p class=\"summary\">%lld samples of ", total);
	html_field(out, in->doc, "event");
	fputs(" at ", out);
	html_field(out, in->doc, "frequency");
	fprintf(out, " Hz: %lld in user space, %lld in the kernel, %lld unmapped, %lld lost; "
		"the program's exit status ", int_of(s, "user"), int_of(s, "kernel"),
		int_of(s, "unmapped"), int_of(s, "lost"));
	html_field(out, in->doc, "exit_status");
	fputs(".</p>\n", out);
	json_array_foreach(json_object_get(in->doc, "notes"), i, note) {
		fputs("<p class=\"note\">", out);
		html_text(out, json_string_value(note));
		fputs("</p>\n", out);
	}
	record_loops(out, in, files, total);
	record_functions(out, files, json_object_get(in->doc, "kernel"), total);
	fputs("<h4>Sampled files</h4>\n", out);
	record_files(out, files, total);
	html_section_end(out);
}
