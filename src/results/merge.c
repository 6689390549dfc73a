/* straddle merge: the documents of a run's shards (scan --shard K/N,
 * diff --shard K/N; JSON or SARIF) joined into the document the run would
 * have written unsharded, byte for byte but for its time: the same head,
 * the files (or pairs, or results) in the run's one order (inputs.h:
 * operand, then path), the same tail.
 *
 * A scan document is tens of megabytes a library and a distribution's is
 * gigabytes, more than a jansson tree of it could hold (one of libLLVM's
 * took 520 MB). So a streamed document (json.c's json_stream) is read as
 * the lines its writer makes: the head's fields and the tail's one a line,
 * each file (pair) an element of the array between them whose own fields
 * are one a line, at known indentation. Only the lines that order the
 * elements are parsed; an element's bytes are copied, not rebuilt. A
 * document that ends before its closing line is a truncated shard, and
 * is refused. A SARIF log is written whole in one line: it is read whole. */
#include "json.h"
#include "diff.h"
#include "merge.h"
#include "sarif.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One element of a streamed shard's array: where its bytes are, and its
 * place in the run's order. */
struct element {
	off_t start;
	size_t len;
	long long input;                /* scan: the operand; diff: 0 */
	char *key;                      /* scan: its path; diff: its member */
	json_t *summary;                /* diff: the pair's */
};

struct shard_doc {
	const char *path;
	FILE *f;
	json_t *head, *tail;            /* a streamed document's fields; SARIF: head the log */
	const char *array;              /* "files" or "pairs" */
	struct element *el;
	size_t nel, cap;
	struct shard_info info;
};

struct merge {
	struct shard_doc *doc;
	size_t n;
	bool sarif;
};

/* ---- reading a streamed document's lines ---- */

struct lines {
	FILE *f;
	char *s;
	size_t cap, len, no;
	off_t at;                       /* offset of the line s holds */
	off_t next;
};

static bool next_line(struct lines *l)
{
	ssize_t n = getline(&l->s, &l->cap, l->f);

	if (n <= 0 || l->s[n - 1] != '\n')
		return false;
	l->at = l->next;
	l->next += n;
	l->len = (size_t)n - 1;
	l->s[l->len] = 0;
	l->no++;
	return true;
}

static size_t indent(const char *s)
{
	size_t i = 0;

	while (s[i] == ' ')
		i++;
	return i;
}

/* ` "key":value` (a trailing ',' left off) as one field of obj. */
static bool read_field(const char *line, json_t *obj)
{
	size_t n = strlen(line) - (line[strlen(line) - 1] == ',');
	char *wrapped = xmalloc(n + 3);
	json_t *one;
	const char *key;
	json_t *v;

	wrapped[0] = '{';
	memcpy(wrapped + 1, line, n);
	wrapped[n + 1] = '}';
	wrapped[n + 2] = 0;
	one = json_loads(wrapped, 0, NULL);
	free(wrapped);
	if (!json_is_object(one) || json_object_size(one) != 1) {
		json_decref(one);
		return false;
	}
	json_object_foreach(one, key, v)
		json_object_set(obj, key, v);
	json_decref(one);
	return true;
}

static int bad_line(const struct shard_doc *d, const struct lines *l, struct err *e)
{
	return err_set(e, "%s: line %zu is not what straddle writes there", d->path, l->no);
}

/* A field of an element that orders it: its path and operand (scan) or
 * its member and summary (diff). */
static bool element_field(struct element *el, const char *line)
{
	json_t *o = json_object();
	bool ok = read_field(line, o);
	json_t *v;

	if ((v = json_object_get(o, "path")) && json_is_string(v))
		el->key = xstrdup(json_string_value(v));
	if ((v = json_object_get(o, "member")) && json_is_string(v))
		el->key = xstrdup(json_string_value(v));
	if ((v = json_object_get(o, "input")))
		el->input = json_integer_value(v);
	if ((v = json_object_get(o, "summary")))
		el->summary = json_incref(v);
	json_decref(o);
	return ok;
}

static bool wanted_field(const char *s)
{
	return !strncmp(s, "\"path\":", 7) || !strncmp(s, "\"member\":", 9) ||
	       !strncmp(s, "\"input\":", 8) || !strncmp(s, "\"summary\":", 10);
}

/* One element: "  {", fields at 3 (their arrays' lines deeper), "  }". */
static int read_element(struct shard_doc *d, struct lines *l, struct err *e)
{
	struct element el = { .start = l->at + 2, .input = -1 };
	int open = 0;

	while (next_line(l)) {
		size_t in = indent(l->s);
		const char *t = l->s + in;

		if (in == 2 && (!strcmp(t, "}") || !strcmp(t, "},")) && !open) {
			el.len = (size_t)(l->at + 3 - el.start);
			if (!el.key) {
				json_decref(el.summary);
				return err_set(e, "%s: line %zu: an element without its path", d->path, l->no);
			}
			GROW(d->el, d->cap, d->nel + 1);
			d->el[d->nel++] = el;
			return 0;
		}
		if (in < 3 || (in > 3 && !open))
			break;
		if (in == 3 && (t[0] == ']' || t[0] == '}'))
			open--;
		else if (in == 3 && (l->s[l->len - 1] == '[' || l->s[l->len - 1] == '{'))
			open++;
		else if (in == 3 && wanted_field(t) && !element_field(&el, t))
			break;
		if (open < 0)
			break;
	}
	free(el.key);
	json_decref(el.summary);
	return feof(l->f) ? err_set(e, "%s: truncated: it ends inside an element (a shard cut short)",
				    d->path) : bad_line(d, l, e);
}

/* The array of a scan's files or a diff's pairs, after its opening line. */
static int read_array(struct shard_doc *d, struct lines *l, struct err *e)
{
	while (next_line(l)) {
		if (!strcmp(l->s, "  {")) {
			if (read_element(d, l, e))
				return -1;
		} else if (!strcmp(l->s, " ]") || !strcmp(l->s, " ],")) {
			return 0;
		} else {
			return bad_line(d, l, e);
		}
	}
	return err_set(e, "%s: truncated: it ends inside \"%s\" (a shard cut short)", d->path, d->array);
}

/* Head fields, the array, tail fields, "}" and nothing after. */
static int read_streamed(struct shard_doc *d, struct err *e)
{
	struct lines l = { .f = d->f };
	json_t *fields = d->head = json_object();
	int rc = 0;

	d->tail = json_object();
	if (!next_line(&l) || strcmp(l.s, "{"))
		rc = err_set(e, "%s: not a straddle document", d->path);
	while (!rc && next_line(&l)) {
		if (!strcmp(l.s, "}")) {
			rc = fgetc(d->f) == EOF ? 1 : bad_line(d, &l, e);
			break;
		}
		if (fields == d->head && (!strcmp(l.s, " \"files\":[") || !strcmp(l.s, " \"pairs\":["))) {
			d->array = l.s[2] == 'f' ? "files" : "pairs";
			rc = read_array(d, &l, e);
			fields = d->tail;
		} else if (indent(l.s) != 1 || !read_field(l.s + 1, fields)) {
			rc = bad_line(d, &l, e);
		}
	}
	free(l.s);
	if (rc == 0)
		rc = err_set(e, "%s: truncated: it ends before the document does (a shard cut short)",
			     d->path);
	return rc < 0 ? -1 : 0;
}

/* ---- what a shard says of its run ---- */

/* The fields every shard of a run must agree on, wherever its kind of
 * document keeps them. */
struct view {
	const char *kind;               /* "scan", "diff", "sarif" */
	const char *version;
	const json_t *profiles, *argv, *shard;
};

static const json_t *sarif_run(const json_t *log)
{
	return json_array_get(json_object_get(log, "runs"), 0);
}

static const json_t *sarif_invocation(const json_t *log)
{
	return json_array_get(json_object_get(sarif_run(log), "invocations"), 0);
}

static void view_of(const struct shard_doc *d, bool sarif, struct view *v)
{
	const json_t *run = sarif_run(d->head), *props = json_object_get(run, "properties");

	if (sarif) {
		*v = (struct view){ "sarif", json_string_value(json_object_get(json_object_get(
			json_object_get(run, "tool"), "driver"), "version")),
			json_object_get(props, "profiles"),
			json_object_get(sarif_invocation(d->head), "arguments"),
			json_object_get(props, "shard") };
		return;
	}
	*v = (struct view){ doc_str(d->head, "command"), doc_str(d->head, "tool_version"),
			    json_object_get(d->head, "profiles"), json_object_get(d->head, "command_line"),
			    json_object_get(d->head, "shard") };
}

/* The command line without its --shard K/N: what every shard ran. */
static json_t *without_shard(const json_t *argv)
{
	json_t *v = json_array();
	size_t i;
	const json_t *a;

	json_array_foreach(argv, i, a) {
		const char *s = json_string_value(a);

		if (s && !strcmp(s, "--shard") && i + 1 < json_array_size(argv))
			i++;
		else if (!s || strncmp(s, "--shard=", 8))
			json_array_append(v, (json_t *)a);
	}
	return v;
}

static int shard_of(struct shard_doc *d, const struct view *v, struct err *e)
{
	const json_t *s = v->shard;

	if (!v->kind || !v->version || !json_is_array(v->argv))
		return err_set(e, "%s: not a document of straddle scan or diff", d->path);
	if (!json_is_object(s))
		return err_set(e, "%s: not a shard (its run had no --shard K/N)", d->path);
	d->info = (struct shard_info){ { (uint32_t)doc_int(s, "index"), (uint32_t)doc_int(s, "count") },
				       (size_t)doc_int(s, "units"), (size_t)doc_int(s, "units_total") };
	if (!d->info.shard.count || d->info.shard.index >= d->info.shard.count)
		return err_set(e, "%s: its shard %u/%u is none", d->path, d->info.shard.index,
			       d->info.shard.count);
	return 0;
}

/* Shard d against the first: one run of one straddle. */
static int same_run(const struct shard_doc *a, const struct view *va, const struct shard_doc *d,
		    const struct view *v, struct err *e)
{
	json_t *x = without_shard(va->argv), *y = without_shard(v->argv);
	bool same_argv = json_equal(x, y);

	json_decref(x);
	json_decref(y);
	if (strcmp(va->kind, v->kind))
		return err_set(e, "%s: a %s document, but %s is a %s one", d->path, v->kind, a->path,
			       va->kind);
	if (strcmp(va->version, v->version))
		return err_set(e, "%s: written by straddle %s, but %s by straddle %s", d->path,
			       v->version, a->path, va->version);
	if (!json_equal(va->profiles, v->profiles)) {
		char *x_s = json_dumps(v->profiles, JSON_COMPACT | JSON_ENCODE_ANY);
		char *y_s = json_dumps(va->profiles, JSON_COMPACT | JSON_ENCODE_ANY);

		err_set(e, "%s: its profiles are %.60s, but those of %s %.60s", d->path,
			x_s ? x_s : "none", a->path, y_s ? y_s : "none");
		free(x_s);
		free(y_s);
		return -1;
	}
	if (!same_argv)
		return err_set(e, "%s: its command line is not that of %s (but for --shard)", d->path,
			       a->path);
	if (d->info.shard.count != a->info.shard.count || d->info.units_total != a->info.units_total)
		return err_set(e, "%s: shard %u/%u of %zu units, but %s is %u/%u of %zu", d->path,
			       d->info.shard.index, d->info.shard.count, d->info.units_total, a->path,
			       a->info.shard.index, a->info.shard.count, a->info.units_total);
	return 0;
}

static int by_index(const void *a, const void *b)
{
	const struct shard_doc *x = a, *y = b;

	return (x->info.shard.index > y->info.shard.index) - (x->info.shard.index < y->info.shard.index);
}

/* Every shard once, each of the same run, their units the run's. */
static int check_shards(struct merge *m, struct err *e)
{
	struct view v0 = { 0 }, v;
	size_t units = 0;

	for (size_t i = 0; i < m->n; i++) {
		view_of(&m->doc[i], m->sarif, &v);
		if (shard_of(&m->doc[i], &v, e) || (i && same_run(&m->doc[0], &v0, &m->doc[i], &v, e)))
			return -1;
		if (!i)
			v0 = v;
	}
	qsort(m->doc, m->n, sizeof *m->doc, by_index);
	for (size_t i = 0; i < m->n; i++) {
		if (i && m->doc[i].info.shard.index == m->doc[i - 1].info.shard.index)
			return err_set(e, "%s and %s are both shard %u/%u", m->doc[i - 1].path,
				       m->doc[i].path, m->doc[i].info.shard.index, m->doc[i].info.shard.count);
		units += m->doc[i].info.units;
	}
	for (uint32_t k = 0, i = 0; k < m->doc[0].info.shard.count; k++, i++)
		if (i >= m->n || m->doc[i].info.shard.index != k)
			return err_set(e, "shard %u/%u is missing", k, m->doc[0].info.shard.count);
	if (units != m->doc[0].info.units_total)
		return err_set(e, "the shards took %zu units of their run's %zu", units,
			       m->doc[0].info.units_total);
	return 0;
}

/* ---- opening ---- */

static int open_doc(struct shard_doc *d, bool *sarif, struct err *e)
{
	struct stat st;
	json_error_t je;
	int fd = open_input(d->path, &st, e), c0, c1;
	struct err why = *e;

	if (fd < 0)
		return err_set(e, "%s: %s", d->path, why.msg);
	if (!(d->f = fdopen(fd, "r"))) {
		close(fd);
		return err_set(e, "%s: cannot read", d->path);
	}
	c0 = fgetc(d->f);
	c1 = fgetc(d->f);
	rewind(d->f);
	*sarif = c0 == '{' && c1 == '"';
	if (!*sarif)
		return read_streamed(d, e);
	if (!(d->head = json_loadf(d->f, 0, &je)))
		return err_set(e, "%s: not JSON (line %d: %s): a shard cut short?", d->path, je.line,
			       je.text);
	if (!json_is_array(json_object_get(sarif_run(d->head), "results")))
		return err_set(e, "%s: not a SARIF log of straddle", d->path);
	return 0;
}

struct merge *results_merge_open(char *const *paths, size_t n, struct err *e)
{
	struct merge *m = xcalloc(1, sizeof *m);

	m->doc = xcalloc(n + 1, sizeof *m->doc);
	m->n = n;
	for (size_t i = 0; i < n; i++) {
		bool sarif;

		m->doc[i].path = paths[i];
		if (open_doc(&m->doc[i], &sarif, e))
			goto fail;
		if (i && sarif != m->sarif) {
			err_set(e, "%s: %s, but %s is %s", paths[i], sarif ? "SARIF" : "JSON",
				paths[0], m->sarif ? "SARIF" : "JSON");
			goto fail;
		}
		m->sarif = sarif;
		if (!sarif && !m->doc[i].array) {
			err_set(e, "%s: not a document of straddle scan or diff", paths[i]);
			goto fail;
		}
	}
	if (n && check_shards(m, e) == 0)
		return m;
fail:
	results_merge_free(m);
	return NULL;
}

void results_merge_free(struct merge *m)
{
	for (size_t i = 0; m && i < m->n; i++) {
		struct shard_doc *d = &m->doc[i];

		for (size_t k = 0; k < d->nel; k++) {
			free(d->el[k].key);
			json_decref(d->el[k].summary);
		}
		free(d->el);
		json_decref(d->head);
		json_decref(d->tail);
		if (d->f)
			fclose(d->f);
	}
	if (m)
		free(m->doc);
	free(m);
}

/* ---- the run's order ---- */

/* A file, pair, error or SARIF result: its operand (-1 none) and path
 * (or member), then where it came from, so equal keys keep their order. */
struct keyed {
	long long input;
	const char *key;
	size_t shard, seq;
	const void *item;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = x->input != y->input ? (x->input < y->input ? -1 : 1) : strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->shard != y->shard)
		return x->shard < y->shard ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* An error of scan (input, path), of diff (its pair's member: either
 * side's path may be named), a SARIF result or notification (properties:
 * input, file, or a diff's member). */
static struct keyed key_of(const json_t *o, size_t shard, size_t seq)
{
	const json_t *p = json_object_get(o, "properties");
	const json_t *src = p ? p : o;
	const char *k = doc_str(src, "member");
	const json_t *in = json_object_get(src, "input");

	if (!k)
		k = doc_str(src, p ? "file" : "path");
	return (struct keyed){ in && !doc_str(src, "member") ? json_integer_value(in) : -1,
			       k ? k : "", shard, seq, o };
}

/* The arrays at `key` of every shard's object `of(doc)`, in the run's
 * order (strings: by themselves). */
static json_t *merged_array(const struct merge *m, const json_t *(*of)(const struct shard_doc *d),
			    const char *key)
{
	struct keyed *v = NULL;
	size_t n = 0, cap = 0, i;
	json_t *out = json_array();
	const json_t *x;

	for (size_t s = 0; s < m->n; s++)
		json_array_foreach(json_object_get(of(&m->doc[s]), key), i, x) {
			GROW(v, cap, n + 1);
			v[n] = json_is_string(x) ? (struct keyed){ -1, json_string_value(x), s, i, x }
						 : key_of(x, s, i);
			n++;
		}
	if (n)
		qsort(v, n, sizeof *v, by_key);
	for (i = 0; i < n; i++)
		json_array_append(out, (json_t *)v[i].item);
	free(v);
	return out;
}

/* ---- writing the run's document ---- */

static const json_t *tail_of(const struct shard_doc *d)
{
	return d->tail;
}

static const json_t *run_of_doc(const struct shard_doc *d)
{
	return sarif_run(d->head);
}

static const json_t *invocation_of_doc(const struct shard_doc *d)
{
	return sarif_invocation(d->head);
}

/* The first shard's head without its place, its command line without
 * --shard; and when the shards ran on more than one machine, each one's. */
static json_t *merged_head(const struct merge *m)
{
	json_t *h = json_deep_copy(m->doc[0].head), *machines = json_array();
	bool differ = false;

	json_object_del(h, "shard");
	json_object_set_new(h, "command_line", without_shard(json_object_get(h, "command_line")));
	for (size_t i = 0; i < m->n; i++) {
		const json_t *mi = json_object_get(m->doc[i].head, "machine");

		differ |= !json_equal(mi, json_object_get(m->doc[0].head, "machine"));
		json_array_append(machines, (json_t *)mi);
	}
	if (differ)
		json_object_set(h, "shard_machines", machines);
	json_decref(machines);
	return h;
}

/* diff's gate of the run: it fails if a shard's does; its exit status
 * the worst (2 an error, 1 the gate, 0). */
static json_t *merged_gate(const struct merge *m)
{
	json_t *g = json_deep_copy(json_object_get(m->doc[0].tail, "gate"));
	bool fails = false;
	long long status = 0;

	for (size_t i = 0; i < m->n; i++) {
		const json_t *gi = json_object_get(m->doc[i].tail, "gate");

		fails |= json_is_true(json_object_get(gi, "fails"));
		if (doc_int(gi, "exit_status") > status)
			status = doc_int(gi, "exit_status");
	}
	json_object_set_new(g, "fails", json_boolean(fails));
	json_object_set_new(g, "exit_status", json_integer(status));
	return g;
}

/* Every shard's elements in the run's order. */
static struct keyed *elements_in_order(const struct merge *m, size_t *n)
{
	struct keyed *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t s = 0; s < m->n; s++)
		for (size_t i = 0; i < m->doc[s].nel; i++) {
			const struct element *el = &m->doc[s].el[i];

			GROW(v, cap, *n + 1);
			v[(*n)++] = (struct keyed){ el->input, el->key, s, i, el };
		}
	if (*n)
		qsort(v, *n, sizeof *v, by_key);
	return v;
}

/* The tail's fields in the first shard's order: lists merged, diff's
 * summary summed over its pairs (results_diff_sum, as diff sums them),
 * its gate joined. */
static void put_tail(struct json_stream *s, const struct merge *m, const struct keyed *el,
		     size_t nel)
{
	const char *key;
	json_t *v;

	json_object_foreach(m->doc[0].tail, key, v) {
		if (!strcmp(key, "errors") || !strcmp(key, "only_old") || !strcmp(key, "only_new")) {
			jstream_put(s, key, merged_array(m, tail_of, key));
		} else if (!strcmp(key, "summary")) {
			json_t *sum = json_object();

			for (size_t i = 0; i < nel; i++)
				results_diff_sum(sum, ((const struct element *)el[i].item)->summary);
			jstream_put(s, key, sum);
		} else if (!strcmp(key, "gate")) {
			jstream_put(s, key, merged_gate(m));
		} else {
			jstream_put(s, key, json_incref(v));
		}
	}
}

static int write_streamed(FILE *f, const struct merge *m)
{
	size_t n;
	struct keyed *el = elements_in_order(m, &n);
	struct json_stream s;

	jstream_begin(&s, f, merged_head(m));
	jstream_open(&s, m->doc[0].array, '[');
	for (size_t i = 0; i < n; i++) {
		const struct element *x = el[i].item;

		jstream_copy(&s, m->doc[el[i].shard].f, x->start, x->len);
	}
	jstream_close(&s);
	put_tail(&s, m, el, n);
	free(el);
	return jstream_end(&s);
}

/* One run: results and notifications in the run's order, successful if
 * every shard was. GitHub code scanning takes one run per tool and
 * category and folds (or, since 2025, refuses) several: a run per shard
 * would be N uploads' worth of one analysis. */
static int write_sarif(FILE *f, const struct merge *m)
{
	json_t *log = json_deep_copy(m->doc[0].head);
	json_t *run = json_array_get(json_object_get(log, "runs"), 0);
	json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
	json_t *notes = merged_array(m, invocation_of_doc, "toolExecutionNotifications");
	bool ok = true;
	int rc;

	for (size_t i = 0; i < m->n; i++)
		ok &= json_is_true(json_object_get(sarif_invocation(m->doc[i].head), "executionSuccessful"));
	json_object_del(json_object_get(run, "properties"), "shard");
	json_object_set_new(inv, "executionSuccessful", json_boolean(ok));
	json_object_set_new(inv, "arguments", without_shard(json_object_get(inv, "arguments")));
	json_object_set_new(run, "results", merged_array(m, run_of_doc, "results"));
	if (json_array_size(notes))
		json_object_set(inv, "toolExecutionNotifications", notes);
	json_decref(notes);
	rc = sarif_dump(log, f);
	json_decref(log);
	return rc;
}

int results_merge_write(FILE *f, void *merge)
{
	const struct merge *m = merge;

	return m->sarif ? write_sarif(f, m) : write_streamed(f, m);
}
