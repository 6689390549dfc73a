/* JSON documents and their atomic writing. */
#include "json.h"
#include "head.h"
#include "scan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

json_t *results_new(const char *command)
{
	return json_pack("{s:i, s:s, s:s}", "schema", 1, "command", command,
			 "tool_version", STRADDLE_VERSION);
}

json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	size_t n = strlen(s), w = 0;
	char *fixed;

	if (j)
		return j;
	/* Symbol names and paths are bytes: each byte that is not UTF-8
	 * becomes U+FFFD, so the document stays JSON. */
	fixed = xmalloc(3 * n + 1);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_length((const unsigned char *)s + i, n - i);

		if (len) {
			memcpy(fixed + w, s + i, len);
			w += len;
			i += len;
		} else {
			memcpy(fixed + w, "\xef\xbf\xbd", 3);
			w += 3;
			i++;
		}
	}
	fixed[w] = 0;
	j = json_string(fixed);
	free(fixed);
	return j ? j : json_string("");
}

/* The one shape of a hazard is results_write_hazard's; a jansson value of
 * it for the documents built as values (sweep's result file). */
json_t *results_hazard(const struct hazard *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;
	json_t *v;

	if (!f)
		return json_null();
	jw_init(&w, f);
	results_write_hazard(&w, NULL, h);
	fclose(f);
	v = json_loadb(buf, len, 0, NULL);
	free(buf);
	return v ? v : json_null();
}

void results_scan_file(struct json_stream *s, struct elf_image *img,
		       const struct scan_result *r, bool source_lines, size_t input)
{
	json_t *head = json_pack("{s:o, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I}",
		"path", json_text(img->path), "input", (json_int_t)input,
		"arch", arch_name(img->arch), "elf_type", elf_type_name(img->type),
		"functions_total", (json_int_t)r->funcs.n,
		"functions_scanned", (json_int_t)r->functions_scanned,
		"padding_symbols", (json_int_t)r->padding_symbols,
		"instructions", (json_int_t)r->instructions,
		"loops_total", (json_int_t)r->loops_total,
		"symbols_skipped", (json_int_t)r->funcs.skipped);
	json_t *profiles = json_array();
	const char *key;
	json_t *v;

	if (img->arch == ARCH_AARCH64)
		json_object_set_new(head, "undecoded_words", json_integer((json_int_t)r->undecoded));
	json_object_set_new(head, "jump_tables", json_integer((json_int_t)r->jump_tables));
	json_object_set_new(head, "indirect_jumps_unresolved", json_integer((json_int_t)r->unresolved));
	if (r->functions_too_large)
		json_object_set_new(head, "functions_too_large",
				    json_integer((json_int_t)r->functions_too_large));
	if (img->build_id_len) {
		char id[129];

		json_object_set_new(head, "build_id", json_string(elf_build_id_hex(img, id)));
	}
	for (size_t i = 0; i < r->nprofile; i++)
		json_array_append_new(profiles, json_string(r->profile[i]->name));
	json_object_set_new(head, "profiles", profiles);
	if (r->back_end[0][0]) {
		json_t *be = json_object();

		for (size_t i = 0; i < r->nprofile; i++)
			json_object_set_new(be, r->profile[i]->name, json_string(r->back_end[i]));
		json_object_set_new(head, "back_end", be);
	}
	if (r->hot)
		json_object_set_new(head, "samples", json_pack("{s:I, s:I}", "file",
			(json_int_t)r->file_samples, "run", (json_int_t)r->run_samples));
	jstream_open(s, NULL, '{');
	json_object_foreach(head, key, v)
		jstream_put(s, key, json_incref(v));
	json_decref(head);
	jstream_open(s, "functions", '[');
	for (size_t i = 0; i < r->nfunc; i++) {
		struct jw w;

		/* A function's symbol and name are far from the last one's
		 * in memory, and a load that missed the caches on them was
		 * a third of the writing's samples (perf, libLLVM-14): ask
		 * for the symbol two functions ahead and the name of the
		 * next, whose symbol the last round asked for. */
		if (i + 2 < r->nfunc)
			__builtin_prefetch(&r->funcs.v[r->func[i + 2].func]);
		if (i + 1 < r->nfunc)
			__builtin_prefetch(r->funcs.v[r->func[i + 1].func].name);
		jstream_raw(s, NULL, &w);
		results_write_function(&w, img, r, &r->func[i], source_lines);
	}
	jstream_close(s);
	jstream_close(s);
}

/* A new line indented by depth (below 8: struct json_stream), by hand:
 * fprintf's "%*s", once per function, was 2.5% of the instructions of writing
 * libLLVM-14's scan (callgrind). */
static void newline(struct json_stream *s, int depth)
{
	fputc('\n', s->f);
	fwrite("        ", 1, (size_t)depth, s->f);
}

static void separator(struct json_stream *s)
{
	if (!s->first[s->depth])
		fputc(',', s->f);
	s->first[s->depth] = false;
	newline(s, s->depth);
}

void jstream_begin(struct json_stream *s, FILE *f, json_t *head)
{
	const char *key;
	json_t *v;

	memset(s, 0, sizeof *s);
	s->f = f;
	fputc('{', f);
	s->depth = 1;
	s->first[1] = true;
	json_object_foreach(head, key, v)
		jstream_put(s, key, json_incref(v));
	json_decref(head);
}

static void put_key(struct json_stream *s, const char *key)
{
	separator(s);
	if (key) {
		json_t *k = json_text(key);

		if (json_dumpf(k, s->f, JSON_ENCODE_ANY) != 0)
			s->failed = true;
		fputc(':', s->f);
		json_decref(k);
	}
}

void jstream_open(struct json_stream *s, const char *key, char bracket)
{
	put_key(s, key);
	fputc(bracket, s->f);
	if (s->depth + 1 < (int)(sizeof s->first / sizeof s->first[0]))
		s->depth++;
	s->first[s->depth] = true;
	/* remember the closing bracket in the indentation's place */
	s->closer[s->depth] = bracket == '[' ? ']' : '}';
}

void jstream_raw(struct json_stream *s, const char *key, struct jw *w)
{
	put_key(s, key);
	jw_init(w, s->f);
}

void jstream_put(struct json_stream *s, const char *key, json_t *v)
{
	put_key(s, key);
	if (json_dumpf(v, s->f, JSON_COMPACT | JSON_ENCODE_ANY) != 0)
		s->failed = true;
	json_decref(v);
}

void jstream_copy(struct json_stream *s, FILE *from, off_t start, size_t n)
{
	char buf[1 << 16];

	put_key(s, NULL);
	if (fseeko(from, start, SEEK_SET) != 0) {
		s->failed = true;
		return;
	}
	while (n) {
		size_t k = fread(buf, 1, n < sizeof buf ? n : sizeof buf, from);

		if (k == 0 || fwrite(buf, 1, k, s->f) != k) {
			s->failed = true;
			return;
		}
		n -= k;
	}
}

void jstream_close(struct json_stream *s)
{
	char closer = s->closer[s->depth];

	s->depth--;
	newline(s, s->depth);
	fputc(closer, s->f);
}

int jstream_end(struct json_stream *s)
{
	fputs("\n}\n", s->f);
	if (fflush(s->f) != 0 || ferror(s->f))
		s->failed = true;
	return s->failed ? -1 : 0;
}

static int write_json(FILE *f, void *doc)
{
	return json_dumpf(doc, f, JSON_INDENT(1)) == 0 &&
	       fputc('\n', f) != EOF ? 0 : -1;
}

int results_write(json_t *doc, const char *path, struct err *e)
{
	if (strcmp(path, "-") == 0) {
		if (write_json(stdout, doc) != 0 || fflush(stdout) != 0)
			return err_set(e, "cannot write to standard output: %s", strerror(errno));
		return 0;
	}
	return write_atomic(path, write_json, doc, e);
}

const char *results_library_version(void)
{
	return "jansson " JANSSON_VERSION;
}

void results_scan_begin(struct scan_doc *d, FILE *f, const struct scan_head *h)
{
	json_t *head = results_run_info("scan", h->argc, h->argv), *names = json_array();

	for (size_t i = 0; i < h->nprofiles; i++)
		json_array_append_new(names, json_string(h->profiles[i]->name));
	json_object_set_new(head, "profiles", names);
	if (h->host && h->host[0])
		json_object_set_new(head, "host", json_text(h->host));
	/* what the text folds, so the page folds the same rows */
	if (h->hot)
		json_object_set_new(head, "min_share", json_real(h->min_share));
	if (h->shard)
		json_object_set_new(head, "shard", results_shard(h->shard));
	d->errors = json_array();
	jstream_begin(&d->out, f, head);
	jstream_open(&d->out, "files", '[');
}

void results_scan_error(struct scan_doc *d, const char *path, size_t input, const char *error)
{
	json_array_append_new(d->errors, json_pack("{s:o, s:I, s:o}", "path", json_text(path),
						   "input", (json_int_t)input, "error", json_text(error)));
}

json_t *results_shard(const struct shard_info *s)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "index", (json_int_t)s->shard.index,
			 "count", (json_int_t)s->shard.count, "units", (json_int_t)s->units,
			 "units_total", (json_int_t)s->units_total);
}

int results_scan_end(struct scan_doc *d)
{
	jstream_close(&d->out);
	jstream_put(&d->out, "errors", d->errors);
	d->errors = NULL;
	return jstream_end(&d->out);
}
