/* The sections of layout results on the page of `straddle report`: the
 * loops against the windows, a picture scan's and diff's sections share
 * (html_scan.c, html_diff.c). */
#include "internal.h"

#include <inttypes.h>
#include <string.h>

enum { LAYOUT_W = 1200, LABEL_W = 330, ROW_H = 30, TOP = 34 };

/* The worst loops' bytes against the 16, 32 and 64 B windows: a row per
 * loop over the 64 B lines it touches, the loop hatched, the branch at
 * fault a triangle. Lines and patterns, not colour, tell them apart. */
void layout_set(struct layout_loop *L, const char *name, const char *side, uint64_t addr,
		uint64_t bytes, const struct hazard *lead)
{
	L->name = name;
	L->side = side;
	L->addr = addr;
	L->bytes = bytes;
	L->branch = lead ? lead->branch : 0;
	L->from = addr & ~(uint64_t)63;
	L->to = (addr + bytes + 63) & ~(uint64_t)63;
	if (lead)
		snprintf(L->hazard, sizeof L->hazard, "%s %u B", rule_name(lead->rule), lead->window);
	else
		snprintf(L->hazard, sizeof L->hazard, "-");
}

/* A loop the picture can draw: its bytes in a row of 16 B ticks. A
 * larger one (or a document's nonsense) is left to the table. */
bool layout_fits(uint64_t addr, uint64_t bytes)
{
	return bytes > 0 && bytes <= 4096 && addr <= UINT64_MAX - 8192;
}

/* scale: pixels a byte, one for every row of a plot (a loop of 10 bytes drawn
 * as wide as one of 15 hid what grew). */
static void layout_row(FILE *out, const struct layout_loop *L, size_t row, double scale)
{
	double y = TOP + (double)row * ROW_H;
	double x0 = LABEL_W + (double)(L->addr - L->from) * scale;
	char addr[20];

	fprintf(out, "<text x=\"%d\" y=\"%.0f\" class=\"lay-lbl\">", LABEL_W - 6, y + 18);
	html_text(out, L->name);
	fprintf(out, "%s%s %s</text>\n", *L->side ? " " : "", L->side, hex_addr(addr, L->addr));
	fprintf(out, "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" height=\"22\" class=\"lay-line\"/>\n",
		LABEL_W, y + 2, (double)(L->to - L->from) * scale);
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
void layout_plot(FILE *out, const char *id, const char *heading, const struct layout_loop *v,
		 size_t n)
{
	uint64_t widest = 64;

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
		widest = v[i].to - v[i].from > widest ? v[i].to - v[i].from : widest;
	for (size_t i = 0; i < n; i++)
		layout_row(out, &v[i], i, (LAYOUT_W - LABEL_W - 10) / (double)widest);
	fputs("</svg>\n", out);
	layout_table(out, v, n);
}
