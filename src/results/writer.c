/* A compact JSON writer straight to a FILE, for the big documents (a scan
 * of libLLVM is 40 MB): building them as jansson values and dumping them
 * cost a second of the scan's three, formatting them directly a tenth.
 * The loops, functions and hazards of scan and diff are written here, and
 * only here; small documents (heads, result files) stay jansson values. */
#include "json.h"
#include "scan.h"
#include "../model/hot.h"

#include <inttypes.h>
#include <string.h>

/* Bytes are staged in the jw's own buffer and go to the FILE in blocks: a
 * libLLVM scan writes 33 MB of JSON in a few million small pieces, and a
 * stdio call for each (even _unlocked, after flockfile) was a fifth of the
 * scan's CPU time with --json. One fwrite per block also takes the stream's
 * lock once per block, not once per byte. */
static void flush(struct jw *w)
{
	fwrite(w->buf, 1, w->len, w->f);
	w->len = 0;
}

/* Room for n more bytes (n at most the buffer's size): the bytes staged
 * go out first when they would not fit. Each value asks once for all it
 * may write and then stores its bytes unchecked. */
static char *room(struct jw *w, size_t n)
{
	if (w->len + n > sizeof w->buf)
		flush(w);
	return w->buf + w->len;
}

static void put(struct jw *w, char c)
{
	*room(w, 1) = c;
	w->len++;
}

static void put_text(struct jw *w, const char *s, size_t n)
{
	if (n > sizeof w->buf) {        /* a name longer than the buffer */
		flush(w);
		fwrite(s, 1, n, w->f);
		return;
	}
	memcpy(room(w, n), s, n);
	w->len += n;
}

/* The decimal digits of u, ending at end; returns their first byte.
 * By hand: fprintf's format parsing was the next cost after the lock,
 * for the millions of small numbers of a scan. */
static char *digits(char *end, unsigned long long u)
{
	do
		*--end = (char)('0' + u % 10);
	while (u /= 10);
	return end;
}

/* The comma before a value (none before the first of its object or array) and
 * its key, with room for `value` more bytes: returns where the value goes, to
 * be ended by done(). A key is the program's own short plain-ASCII name
 * (json.h), copied as it is: keys are 19 of the 26 MB of a libLLVM-14 scan,
 * and quote()'s scan of each for escapes was the writer's largest cost. */
static char *begin(struct jw *w, const char *key, size_t value)
{
	size_t n = key ? strlen(key) : 0;
	char *p = room(w, 1 + n + 3 + value);

	if (!w->first[w->depth])
		*p++ = ',';
	w->first[w->depth] = false;
	if (key) {
		*p++ = '"';
		memcpy(p, key, n);
		p += n;
		*p++ = '"';
		*p++ = ':';
	}
	return p;
}

static void done(struct jw *w, const char *end)
{
	w->len = (size_t)(end - w->buf);
}

/* Bytes a JSON string holds as they are: printable ASCII but '"' and '\\'
 * (not NUL either, so a run of them stops at the string's end). */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* A JSON string of bytes that need not be UTF-8 (symbol names, paths):
 * escapes as RFC 8259 asks, each invalid byte as U+FFFD. Runs of plain
 * bytes are copied whole; nearly every string is one such run. */
static void quote(struct jw *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	put(w, '"');
	while (*p) {
		size_t len = 0;

		while (plain(p[len]))
			len++;
		if (len) {
			put_text(w, (const char *)p, len);
		} else if (*p == '"' || *p == '\\') {
			put(w, '\\');
			put(w, (char)*p);
			len = 1;
		} else if (*p < 0x20) {
			char esc[8];

			snprintf(esc, sizeof esc, "\\u%04x", *p);
			put_text(w, esc, 6);
			len = 1;
		} else if ((len = utf8_length(p, strnlen((const char *)p, 4))) != 0) {
			put_text(w, (const char *)p, len);
		} else {
			put_text(w, "\xef\xbf\xbd", 3);
			len = 1;
		}
		p += len;
	}
	put(w, '"');
}

void jw_init(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->first[0] = true;
	w->len = 0;             /* the buffer itself needs no clearing */
}

void jw_open(struct jw *w, const char *key, char bracket)
{
	char *p = begin(w, key, 1);

	*p++ = bracket;
	done(w, p);
	if (w->depth + 1 < (int)(sizeof w->first / sizeof w->first[0]))
		w->depth++;
	w->first[w->depth] = true;
}

/* Closing the outermost bracket ends the value: it goes to the FILE. */
void jw_close(struct jw *w, char bracket)
{
	put(w, bracket);
	if (w->depth > 0 && --w->depth == 0)
		flush(w);
}

void jw_string(struct jw *w, const char *key, const char *v)
{
	done(w, begin(w, key, 0));
	quote(w, v);
}

void jw_int(struct jw *w, const char *key, long long v)
{
	char buf[24], *end = buf + sizeof buf;
	char *d = digits(end, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
	char *p = begin(w, key, sizeof buf);

	if (v < 0)
		*--d = '-';
	memcpy(p, d, (size_t)(end - d));
	done(w, p + (end - d));
}

void jw_hex(struct jw *w, const char *key, uint64_t v)
{
	char buf[24], *end = buf + sizeof buf, *d = end;
	char *p = begin(w, key, sizeof buf);

	*--d = '"';
	do
		*--d = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--d = 'x';
	*--d = '0';
	*--d = '"';
	memcpy(p, d, (size_t)(end - d));
	done(w, p + (end - d));
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	char *p = begin(w, key, 5);

	memcpy(p, v ? "true" : "false", 5);
	done(w, p + (v ? 4 : 5));
}

/* A ratio or a count of cycles: three decimals, as the text shows them. */
void jw_real(struct jw *w, const char *key, double v)
{
	char *p = begin(w, key, 32);
	int n = snprintf(p, 32, "%.3f", v);

	done(w, p + (n > 0 && n < 32 ? n : 0));
}

void jw_null(struct jw *w, const char *key)
{
	char *p = begin(w, key, 4);

	memcpy(p, "null", 4);
	done(w, p + 4);
}

/* fix: the .p2align that holds wherever the subject lands with it (align
 * and pad null when none does), and here_align/here_pad: a smaller one
 * that holds only at today's address (null when there is none); layout:
 * no alignment fixes a loop in pieces, the exit between them must move. */
static void write_fix(struct jw *w, const struct hazard *h)
{
	if (!h->fix_align && !h->here_align && !h->fix_layout) {
		jw_null(w, "fix");
		return;
	}
	jw_open(w, "fix", '{');
	if (h->fix_align) {
		jw_int(w, "align", h->fix_align);
		jw_int(w, "pad", h->fix_pad);
		jw_bool(w, "clean", h->fix_clean);
	} else {
		jw_null(w, "align");
		jw_null(w, "pad");
		jw_null(w, "clean");
	}
	if (h->here_align) {
		jw_int(w, "here_align", h->here_align);
		jw_int(w, "here_pad", h->here_pad);
		jw_bool(w, "here_clean", h->here_clean);
	} else {
		jw_null(w, "here_align");
		jw_null(w, "here_pad");
		jw_null(w, "here_clean");
	}
	jw_bool(w, "layout", h->fix_layout);
	jw_close(w, '}');
}

void results_write_hazard(struct jw *w, const char *key, const struct hazard *h)
{
	jw_open(w, key, '{');
	jw_string(w, "profile", h->profile->name);
	jw_string(w, "rule", rule_name(h->rule));
	jw_int(w, "window", h->window);
	jw_int(w, "severity", h->severity);
	jw_bool(w, "certain", h->certain);
	jw_open(w, "placements", '{');
	jw_int(w, "hazardous", h->bad_placements);
	jw_int(w, "possible", h->all_placements);
	jw_close(w, '}');
	if (h->section)
		jw_string(w, "section", h->section);
	if (h->branch) {
		jw_hex(w, "branch", h->branch);
		jw_string(w, "branch_kind", branch_kind_name(h->branch_kind));
		if (h->pair != h->branch)
			jw_hex(w, "pair", h->pair);
	}
	write_fix(w, h);
	if (h->slowdown > 0)
		jw_real(w, "slowdown", h->slowdown);
	else
		jw_null(w, "slowdown");
	if (h->slowdown_at_most)
		jw_bool(w, "slowdown_at_most", true);
	jw_close(w, '}');
}

void results_write_hazards(struct jw *w, const char *key, const struct hazard *const *h,
			   const struct hazard *v, size_t n)
{
	jw_open(w, key, '[');
	for (size_t i = 0; i < n; i++)
		results_write_hazard(w, NULL, h ? h[i] : &v[i]);
	jw_close(w, ']');
}

/* A loop's windows, its pieces' together. */
static void write_windows(struct jw *w, const struct scan_result *r, const struct loop_report *l)
{
	jw_open(w, "windows", '{');
	for (size_t i = 0; i < MODEL_NWINDOWS; i++) {
		char key[8];

		key[sizeof key - 1] = '\0';
		jw_open(w, digits(key + sizeof key - 1, model_windows[i]), '{');
		jw_int(w, "touched", loop_touched(r, l, model_windows[i]));
		jw_int(w, "best", windows_best(l->bytes, model_windows[i]));
		jw_close(w, '}');
	}
	jw_close(w, '}');
}

/* "cost": the predicted slowdown at today's placement against the best, the
 * bound that decides it, the cycles behind it, and with samples the share of
 * the run aligning would save. Null when the scan was not priced (diff). */
static void write_cost(struct jw *w, const struct scan_result *r, const struct loop_report *l)
{
	const struct loop_cost *c = &l->cost;

	if (!c->slowdown) {
		jw_null(w, "cost");
		return;
	}
	jw_open(w, "cost", '{');
	jw_real(w, "slowdown", c->slowdown);
	jw_string(w, "bound", cost_bound_name(c->bound));
	jw_string(w, "profile", r->profile[c->profile]->name);
	if (c->window) {
		jw_int(w, "window", c->window);
		jw_real(w, "front_end", c->front_end);
		jw_real(w, "front_end_best", c->front_end_best);
	} else {
		jw_null(w, "window");
	}
	if (c->back_end > 0)
		jw_real(w, "back_end", c->back_end);
	else
		jw_null(w, "back_end");
	if (c->branch > 0)      /* only where a branch hazard is priced */
		jw_real(w, "branch", c->branch);
	jw_string(w, "back_end_source", cost_source_name(c->source));
	if (c->at_most)         /* a bound from above: the back end not modelled */
		jw_bool(w, "at_most", true);
	if (r->hot)             /* the share of the run aligning would save */
		jw_real(w, "saves", hot_saves(r, l));
	jw_close(w, '}');
}

void results_write_loop(struct jw *w, const char *key, struct elf_image *img,
			const struct scan_result *r, const struct loop_report *l, bool lines)
{
	char src[256];

	jw_open(w, key, '{');
	jw_hex(w, "start", l->start);
	jw_hex(w, "end", l->end);
	jw_int(w, "bytes", (long long)l->bytes);
	jw_open(w, "pieces", '[');
	for (uint32_t k = l->piece; k < l->piece + l->npiece; k++) {
		jw_open(w, NULL, '{');
		jw_hex(w, "start", r->piece[k].start);
		jw_hex(w, "end", r->piece[k].end);
		jw_int(w, "bytes", (long long)(r->piece[k].end - r->piece[k].start));
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_int(w, "depth", l->depth);
	jw_bool(w, "innermost", l->innermost);
	jw_bool(w, "has_call", l->has_call);
	jw_bool(w, "in_loop_buffer", l->in_loop_buffer);
	jw_bool(w, "back_end_bound", l->back_end_bound);
	jw_int(w, "instructions", l->ninsn);
	jw_int(w, "cold_blocks", l->cold_blocks);
	jw_int(w, "cold_bytes", (long long)l->cold_bytes);
	jw_bool(w, "irreducible", l->irreducible);
	jw_bool(w, "spin", l->spin);
	jw_int(w, "same_span_loops", l->same_span);
	if (l->branch)
		jw_hex(w, "branch", l->branch);
	else
		jw_null(w, "branch");
	if (lines && *elf_source_line(img, l->sec, l->start, src, sizeof src))
		jw_string(w, "source", src);
	write_windows(w, r, l);
	jw_bool(w, "span_certain", !l->span_uncertain);
	write_cost(w, r, l);
	if (r->hot)
		jw_int(w, "samples", (long long)l->samples);
	results_write_hazards(w, "hazards", NULL, l->nhazard ? r->hazard + l->hazard : NULL,
			      l->nhazard);
	jw_close(w, '}');
}

static const char *source_name(uint8_t s)
{
	return s == FROM_SYMTAB ? "symtab" : s == FROM_DYNSYM ? "dynsym" : "eh_frame";
}

void results_write_function(struct jw *w, struct elf_image *img, const struct scan_result *r,
			    const struct func_report *fr, bool lines)
{
	const struct elf_func *f = &r->funcs.v[fr->func];

	jw_open(w, NULL, '{');
	jw_string(w, "name", f->shown);
	if (f->shown != f->name)
		jw_string(w, "symbol", f->name);
	jw_hex(w, "addr", f->addr);
	jw_int(w, "size", (long long)f->size);
	jw_int(w, "entry_align", (long long)fr->entry_align);
	jw_string(w, "section", img->sec[f->sec].name);
	jw_bool(w, "cold_text", fr->cold_text);
	jw_string(w, "from", source_name(f->source));
	jw_int(w, "instructions", fr->ninsn);
	jw_int(w, "jump_tables", fr->jump_tables);
	jw_int(w, "indirect_jumps_unresolved", fr->unresolved);
	if (r->hot)
		jw_int(w, "samples", (long long)fr->samples);
	jw_open(w, "loops", '[');
	for (uint32_t i = fr->loop; i < fr->loop + fr->nloop; i++)
		results_write_loop(w, NULL, img, r, &r->loop[i], lines);
	jw_close(w, ']');
	jw_open(w, "irreducible", '[');
	for (uint32_t i = fr->irr; i < fr->irr + fr->nirr; i++) {
		jw_open(w, NULL, '{');
		jw_hex(w, "entry", r->irr[i].entry);
		jw_hex(w, "from", r->irr[i].from);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	/* no hazard in the whole image: r->hazard is NULL, no offset from it */
	results_write_hazards(w, "hazards", NULL, fr->nhazard ? r->hazard + fr->hazard : NULL,
			      fr->nhazard);
	jw_close(w, '}');
}
