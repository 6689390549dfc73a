/* results/json.h: JSON as every document is written and read: the head
 * of every document and its atomic writing, streamed documents (json.c),
 * a compact writer to a FILE (writer.c), a document's fields as the
 * readers take them (fields.c). */
#ifndef STRADDLE_RESULTS_JSON_H
#define STRADDLE_RESULTS_JSON_H

#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

#include "../base/base.h"

/* A JSON string of bytes that may not be UTF-8 (symbol names, paths):
 * invalid bytes become U+FFFD. */
json_t *json_text(const char *s);

/* A field of a document as the readers take it (fields.c): an integer (0
 * when absent or not one), a number (NAN), element i of an array of
 * numbers (NAN), a string (NULL). doc_: a document's field; jansson's own
 * json_ prefix is not ours to use. */
long long doc_int(const json_t *o, const char *key);
double doc_num(const json_t *o, const char *key);
double doc_num_at(const json_t *o, const char *key, size_t i);
const char *doc_str(const json_t *o, const char *key);
/* A cost model's figure as every document holds it: 3 decimals (the
 * scan's writer.c prints them so). */
double doc_three_places(double x);

/* A compact JSON writer to a FILE (writer.c), for the documents that can
 * be tens of megabytes. A jw writes one value (jw_open first); its bytes
 * reach the FILE in blocks, the last when that value's bracket closes.
 * Keys are NULL inside arrays, else the program's own names: plain ASCII
 * (no '"', '\\' or control bytes), short, written without escaping. */
struct jw {
	FILE *f;
	int depth;
	bool first[16];
	size_t len;             /* bytes of buf not yet written */
	char buf[4096];
};

void jw_init(struct jw *w, FILE *f);
void jw_open(struct jw *w, const char *key, char bracket);
void jw_close(struct jw *w, char bracket);
void jw_string(struct jw *w, const char *key, const char *v);
void jw_int(struct jw *w, const char *key, long long v);
void jw_hex(struct jw *w, const char *key, uint64_t v);   /* "0x...": > 2^53 */
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
void jw_real(struct jw *w, const char *key, double v);   /* three decimals */

/* {"schema":1,"command":name,"tool_version":...}: the head of every document. */
json_t *results_new(const char *command);
/* "jansson 2.14": the JSON library straddle was built with. */
const char *results_library_version(void);

/* A JSON document written as it is made: fields and array elements are
 * jansson values dumped one at a time, so a scan of a 100 MB library never
 * holds its whole document in memory (a jansson tree of libLLVM's scan
 * took 520 MB and four seconds). Elements go one per line. */
struct json_stream {
	FILE *f;
	int depth;
	bool first[8];
	char closer[8];
	bool failed;
};

/* "{" and the fields of `head` (stolen). */
void jstream_begin(struct json_stream *s, FILE *f, json_t *head);
/* Open an array ('[') or object ('{'), as field `key` or (key NULL) as an
 * element of the enclosing array. */
void jstream_open(struct json_stream *s, const char *key, char bracket);
/* A field (key) or element (key NULL); steals v. */
void jstream_put(struct json_stream *s, const char *key, json_t *v);
/* The same, to be written by a jw: the separator and key, then *w set up
 * to write exactly one value. */
struct jw;
void jstream_raw(struct json_stream *s, const char *key, struct jw *w);
void jstream_close(struct json_stream *s);
/* An element (key NULL) whose bytes are from[start, start+n): a value
 * this writer wrote at the same depth (merge.c copies shards' files). */
void jstream_copy(struct json_stream *s, FILE *from, off_t start, size_t n);
/* Close the document; 0, or -1 when a write failed. */
int jstream_end(struct json_stream *s);

/* Write `doc` to stdout ("-") or atomically to path. */
int results_write(json_t *doc, const char *path, struct err *e);

#endif
