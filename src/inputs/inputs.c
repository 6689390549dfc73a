/* The operands of a run: classified, checked before anything is scanned,
 * counted into units, and handed out one file at a time in the run's one
 * order (inputs.h). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int err_prefix(struct err *e, const char *what)
{
	struct err why = *e;

	return err_set(e, "%s: %s", what, why.msg);
}

struct member *operand_add(struct operand *op, const char *rel)
{
	GROW(op->m, op->cap, op->n + 1);
	op->m[op->n] = (struct member){ .rel = xstrdup(rel) };
	return &op->m[op->n++];
}

static int by_rel(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->rel, ((const struct member *)b)->rel);
}

void operand_sort(struct operand *op)
{
	if (op->n)
		qsort(op->m, op->n, sizeof *op->m, by_rel);
}

static void members_free(struct operand *op)
{
	for (size_t i = 0; i < op->n; i++) {
		free(op->m[i].rel);
		free(op->m[i].path);
		free(op->m[i].bytes);
		free(op->m[i].error);
	}
	free(op->m);
	op->m = NULL;
	op->n = op->cap = 0;
}

void operand_free(struct operand *op)
{
	members_free(op);
	free(op->arg);
	free(op->package);
	free(op->rel);
	free(op->error);
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);

	return n > k && strcmp(s + n - k, end) == 0;
}

static bool is_package_name(const char *s)
{
	return ends_with(s, ".deb") || ends_with(s, ".udeb") || ends_with(s, ".ddeb");
}

/* PACKAGE:PATH where PACKAGE is a package that exists. */
static bool split_member(const char *arg, struct operand *op)
{
	for (const char *c = strchr(arg, ':'); c; c = strchr(c + 1, ':')) {
		char *pkg = xstrdup(arg);
		struct stat st;

		pkg[c - arg] = 0;
		if (is_package_name(pkg) && stat(pkg, &st) == 0 && S_ISREG(st.st_mode)) {
			const char *rel = c + 1;

			while (*rel == '/')
				rel++;
			op->package = pkg;
			op->rel = xstrdup(rel);
			free(op->arg);
			op->arg = xmalloc(strlen(pkg) + strlen(rel) + 3);
			sprintf(op->arg, "%s:/%s", pkg, rel);
			return true;
		}
		free(pkg);
	}
	return false;
}

static void classify(const char *arg, struct operand *op)
{
	struct stat st;
	size_t n = strlen(arg);

	op->arg = xstrdup(arg);
	if (strcmp(arg, "vdso") == 0) {
		op->kind = OP_VDSO;
	} else if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		op->kind = OP_TREE;
		while (n > 1 && op->arg[n - 1] == '/')
			op->arg[--n] = 0;
	} else if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
		op->kind = is_package_name(arg) ? OP_PACKAGE :
			   is_compressed_module(arg) ? OP_MODULE : OP_FILE;
	} else {
		op->kind = split_member(arg, op) ? OP_MEMBER : OP_FILE;
	}
}

bool input_is_many(const char *op)
{
	struct operand o = { 0 };
	bool many;

	classify(op, &o);
	many = o.kind == OP_TREE || o.kind == OP_PACKAGE;
	operand_free(&o);
	return many;
}

/* A member's name in the run: DIR/PATH, PACKAGE:/PATH. */
static char *member_name(const struct operand *op, const char *rel)
{
	bool package = op->kind == OP_PACKAGE || op->kind == OP_MEMBER;
	const char *base = op->kind == OP_MEMBER ? op->package : op->arg;
	const char *sep = package ? ":/" : strcmp(base, "/") ? "/" : "";
	size_t n = strlen(base) + strlen(sep) + strlen(rel) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s%s", base, sep, rel);
	return s;
}

/* ---- reading a package's ELF files ---- */

struct package_read {
	struct operand *op;
	const struct shard *shard;      /* NULL: every file; else by path inside (diff) */
	const char *only;               /* OP_MEMBER: the one path wanted */
	bool found, elf;
};

/* An ELF file straddle reads, or a compressed module (checked once read). */
static bool wanted(void *ctx, const char *rel, const uint8_t *head, size_t n)
{
	struct package_read *r = ctx;

	if (r->only) {
		r->found |= strcmp(rel, r->only) == 0;
		return strcmp(rel, r->only) == 0;
	}
	return is_compressed_module(rel) || elf_header_ok(head, n);
}

static void got(void *ctx, const char *rel, void *bytes, size_t n)
{
	struct package_read *r = ctx;
	struct member *m = operand_add(r->op, rel);

	m->taken = !r->shard || shard_takes(r->shard, rel);
	if (m->taken) {
		m->bytes = bytes;
		m->size = n;
	} else {
		free(bytes);
	}
}

static int read_package(struct operand *op, const struct shard *by_member, struct err *e)
{
	struct package_read r = { op, by_member, NULL, false, false };
	int rc = package_read(op->arg, &(struct package_visit){ wanted, got, &r }, e);

	op->read = true;
	if (rc)
		members_free(op);       /* a package read in part gives no files */
	operand_sort(op);
	return rc;
}

/* Decompressed, when the member is a compressed module; then whether
 * straddle reads it: 1 yes, 0 no, -1 error. */
static int member_bytes(struct member *m, struct err *e)
{
	void *out;
	size_t n;

	if (is_compressed_module(m->rel) && !m->inflated) {
		if (module_decompress(m->bytes, m->size, &out, &n, e))
			return -1;
		free(m->bytes);
		m->bytes = out;
		m->size = n;
		m->inflated = true;
	}
	return elf_header_ok(m->bytes, m->size);
}

/* OP_MEMBER: the one file read now, so that a member that is not there
 * or not ELF stops the run before any output. */
static int read_member(struct operand *op, struct err *e)
{
	struct package_read r = { op, NULL, op->rel, false, false };
	struct err why;

	if (package_read(op->package, &(struct package_visit){ wanted, got, &r }, e))
		return err_prefix(e, op->package);
	if (!r.found)
		return err_set(e, "%s: no such file in %s", op->arg, op->package);
	op->m[0].taken = true;
	if (member_bytes(&op->m[0], &why) <= 0)
		return err_set(e, "%s: %s", op->arg, op->m[0].size ? "not an ELF file straddle reads"
			       " (ELF64 of x86-64 or AArch64)" : "empty file");
	return 0;
}

/* ---- a directory's files ---- */

/* A file of a directory: 1 opened, 0 not an ELF file straddle reads, -1
 * error. Its first bytes are read before it is mapped: most of a tree is
 * no ELF file. */
static int open_tree_file(struct member *m, struct elf_image *img, struct err *e)
{
	uint8_t head[ELF_HEADER_BYTES];
	struct stat st;
	void *bytes;
	size_t n;
	int fd;
	ssize_t got_n;

	if (m->error)
		return err_set(e, "%s", m->error);
	if (is_compressed_module(m->rel)) {
		if (module_read(m->path, &bytes, &n, e))
			return -1;
		if (!elf_header_ok(bytes, n)) {
			free(bytes);
			return 0;
		}
		return elf_open_owned(img, bytes, n, m->path, e) ? -1 : 1;
	}
	if ((fd = open_input(m->path, &st, e)) < 0)
		return -1;
	got_n = pread(fd, head, sizeof head, 0);
	close(fd);
	if (got_n != (ssize_t)sizeof head || !elf_header_ok(head, sizeof head))
		return 0;
	return elf_open_file(img, m->path, e) ? -1 : 1;
}

/* A member of a directory or package: 1 opened, 0 no input, -1 error. */
static int open_member(const struct operand *op, struct member *m, const char *name,
		       struct elf_image *img, struct err *e)
{
	int ok;

	if (op->kind == OP_TREE)
		return open_tree_file(m, img, e);
	if ((ok = member_bytes(m, e)) <= 0)
		return ok;
	ok = elf_open_owned(img, m->bytes, m->size, name, e);
	m->bytes = NULL;        /* the image's now, freed with it */
	return ok ? -1 : 1;
}

/* ---- operands listed in a file ---- */

static void add_lines(char *text, size_t len, char ***ops, size_t *n, size_t *cap)
{
	for (char *line = text, *end; line < text + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len;
		*end = 0;
		if (!*line)
			continue;
		GROW(*ops, *cap, *n + 1);
		(*ops)[(*n)++] = xstrdup(line);
	}
}

int inputs_list(const char *path, const char *const *given, size_t ngiven, char ***ops, size_t *n,
		struct err *e)
{
	char *text = NULL;
	size_t len = 0, cap = 0;

	*ops = NULL;
	*n = 0;
	GROW(*ops, cap, ngiven + 1);
	for (; *n < ngiven; (*n)++)
		(*ops)[*n] = xstrdup(given[*n]);
	if (strcmp(path, "-") == 0) {
		FILE *mem = open_memstream(&text, &len);
		int c;

		while (mem && (c = getchar()) != EOF)
			fputc(c, mem);
		if (!mem || fclose(mem) != 0 || ferror(stdin)) {
			free(text);
			inputs_list_free(*ops, *n);
			return err_set(e, "cannot read the standard input");
		}
	} else if (read_input(path, INPUT_LIMIT, &text, &len, e)) {
		inputs_list_free(*ops, *n);
		return -1;
	}
	add_lines(text, len, ops, n, &cap);
	free(text);
	return 0;
}

void inputs_list_free(char **ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ops[i]);
	free(ops);
}

/* ---- checking the operands ---- */

static int check_operand(struct operand *op, const struct shard *s, struct err *e)
{
	if (op->kind == OP_PACKAGE && package_check(op->arg, e))
		return err_prefix(e, op->arg);
	if (op->kind == OP_MEMBER && read_member(op, e))
		return -1;
	if (op->kind == OP_TREE) {
		tree_walk(op);
		for (size_t i = 0; i < op->n; i++) {
			char *name = member_name(op, op->m[i].rel);

			op->m[i].taken = shard_takes(s, name);
			op->m[i].path = op->m[i].path ? op->m[i].path : xstrdup(name);
			free(name);
		}
	}
	op->taken = op->kind != OP_TREE && shard_takes(s, op->kind == OP_VDSO ? "vdso" : op->arg);
	return 0;
}

int inputs_open(struct inputs *in, char *const *ops, size_t n, const struct shard *s,
		const char *debug_dir, struct err *e)
{
	memset(in, 0, sizeof *in);
	in->op = xcalloc(n + 1, sizeof *in->op);
	in->nop = n;
	in->shard = *s;
	in->debug_dir = debug_dir;
	for (size_t i = 0; i < n; i++) {
		struct operand *op = &in->op[i];

		classify(ops[i], op);
		if (check_operand(op, s, e))
			return -1;
		in->units_total += op->kind == OP_TREE ? op->n : 1;
		in->units += op->kind == OP_TREE ? 0 : op->taken;
		for (size_t k = 0; op->kind == OP_TREE && k < op->n; k++)
			in->units += op->m[k].taken;
	}
	return 0;
}

/* ---- the files one at a time ---- */

static void forget(struct inputs *in)
{
	elf_close(&in->img);    /* a zeroed image closes as nothing */
	free(in->name);
	free(in->error);
	in->name = in->error = NULL;
}

/* The operand's single file (not a directory or package): -1 error, 1. */
static int open_single(struct inputs *in, struct operand *op, struct err *e)
{
	void *bytes;
	size_t n;

	if (op->kind == OP_VDSO)
		return elf_open_vdso(&in->img, e) ? -1 : 1;
	if (op->kind == OP_FILE)
		return elf_open_file(&in->img, op->arg, e) ? -1 : 1;
	if (op->kind == OP_MODULE) {
		if (module_read(op->arg, &bytes, &n, e))
			return -1;
		return elf_open_owned(&in->img, bytes, n, op->arg, e) ? -1 : 1;
	}
	return open_member(op, &op->m[0], op->arg, &in->img, e);
}

/* A file handed out: its name (taken), opened or (ok < 0) why not. */
static int found(struct inputs *in, char *name, int ok, const struct err *e)
{
	in->name = name;
	if (ok < 0)
		in->error = xstrdup(e->msg);
	return 1;
}

/* The next file of operand op in the shard: 1 (opened or in error), 0
 * when it has none left. A package is read when its turn comes, and
 * one that cannot be read whole is one error, none of its files. */
static int next_of(struct inputs *in, struct operand *op)
{
	struct err e = { "" };

	if (op->kind != OP_TREE && op->kind != OP_PACKAGE) {
		if (!op->taken || in->member++)
			return 0;
		return found(in, xstrdup(op->kind == OP_VDSO ? "[vdso]" : op->arg),
			     open_single(in, op, &e), &e);
	}
	if (op->kind == OP_PACKAGE && op->taken && !op->read && read_package(op, NULL, &e))
		return found(in, xstrdup(op->arg), -1, &e);
	while (in->member < op->n) {
		struct member *m = &op->m[in->member++];
		char *name;
		int ok;

		if (!m->taken)
			continue;
		name = member_name(op, m->rel);
		if ((ok = open_member(op, m, name, &in->img, &e)) != 0)
			return found(in, name, ok, &e);
		free(name);
	}
	return 0;
}

int inputs_next(struct inputs *in, struct input_file *f)
{
	forget(in);
	for (; in->at < in->nop; in->at++, in->member = 0)
		if (next_of(in, &in->op[in->at])) {
			in->img.debug_dir = in->debug_dir;
			*f = (struct input_file){ in->name, in->at, in->error ? NULL : &in->img,
						  in->error };
			return 1;
		}
	return 0;
}

void inputs_close(struct inputs *in)
{
	forget(in);
	for (size_t i = 0; i < in->nop; i++)
		operand_free(&in->op[i]);
	free(in->op);
	memset(in, 0, sizeof *in);
}

/* e's line begun with the operand's name, once. */
static int named(struct err *e, const char *op)
{
	size_t n = strlen(op);

	if (strncmp(e->msg, op, n) == 0 && e->msg[n] == ':')
		return -1;
	return err_prefix(e, op);
}

int inputs_open_one(const char *op, struct elf_image *img, struct err *e)
{
	struct operand o = { 0 };
	struct shard whole = { 0, 0 };
	struct inputs in;
	struct input_file f;
	char *ops[1] = { (char *)op };
	int rc;

	classify(op, &o);
	rc = o.kind == OP_TREE || o.kind == OP_PACKAGE || o.kind == OP_VDSO;
	operand_free(&o);
	if (rc)
		return err_set(e, "%s: not one file (a member of a package is PACKAGE:/path/in/it)",
			       op);
	if (inputs_open(&in, ops, 1, &whole, NULL, e)) {
		inputs_close(&in);      /* what it opened before it failed */
		return named(e, op);
	}
	rc = inputs_next(&in, &f);
	if (rc == 1 && f.img) {
		*img = in.img;
		memset(&in.img, 0, sizeof in.img);
		rc = 0;
	} else {
		err_set(e, "%s", rc == 1 ? f.error : "no ELF file");
		rc = named(e, op);
	}
	inputs_close(&in);
	return rc;
}

/* ---- two operands' files matched by path (diff) ---- */

static int open_side(struct pairs *p, int side, const struct member *m0, struct err *e)
{
	struct operand *op = p->side[side];
	struct member *m = (struct member *)m0;
	char *name = member_name(op, m->rel);
	int ok = open_member(op, m, name, &p->img[side], e);

	p->img[side].debug_dir = p->debug_dir;
	if (ok == 0)
		free(name);
	else
		p->name[side] = name;
	if (ok < 0)
		p->error[side] = xstrdup(e->msg);
	return ok;
}

static int open_many(struct operand *op, const char *arg, const struct shard *s, struct err *e)
{
	classify(arg, op);
	if (op->kind == OP_PACKAGE)
		return read_package(op, s, e) ? err_prefix(e, op->arg) : 0;
	if (op->kind != OP_TREE)
		return err_set(e, "%s: neither a directory nor a package", arg);
	tree_walk(op);
	for (size_t i = 0; i < op->n; i++) {
		op->m[i].taken = shard_takes(s, op->m[i].rel);
		if (!op->m[i].path)
			op->m[i].path = member_name(op, op->m[i].rel);
	}
	return 0;
}

/* Which of the two sides' next members comes first: -1 old's, 1 new's, 0 both. */
static int next_side(const struct pairs *p)
{
	const struct operand *a = p->side[0], *b = p->side[1];

	if (p->i == a->n)
		return 1;
	if (p->j == b->n)
		return -1;
	return strcmp(a->m[p->i].rel, b->m[p->j].rel);
}

int pairs_open(struct pairs *p, const char *old, const char *new, const struct shard *s,
	       const char *debug_dir, struct err *e)
{
	memset(p, 0, sizeof *p);
	p->shard = *s;
	p->debug_dir = debug_dir;
	for (int i = 0; i < 2; i++) {
		p->side[i] = xcalloc(1, sizeof *p->side[i]);
		if (open_many(p->side[i], i ? new : old, s, e))
			return -1;
	}
	while (p->i < p->side[0]->n || p->j < p->side[1]->n) {
		int c = next_side(p);
		const char *rel = c <= 0 ? p->side[0]->m[p->i].rel : p->side[1]->m[p->j].rel;

		p->units_total++;
		p->units += shard_takes(s, rel);
		p->i += c <= 0;
		p->j += c >= 0;
	}
	p->i = p->j = 0;
	return 0;
}

static void forget_pair(struct pairs *p)
{
	for (int i = 0; i < 2; i++) {
		elf_close(&p->img[i]);
		free(p->name[i]);
		free(p->error[i]);
		p->name[i] = p->error[i] = NULL;
	}
}

static struct input_file side_file(struct pairs *p, int side, int ok)
{
	return (struct input_file){ ok ? p->name[side] : NULL, (size_t)side,
				    ok > 0 ? &p->img[side] : NULL, p->error[side] };
}

int pairs_next(struct pairs *p, struct input_pair *out)
{
	struct err e = { "" };

	forget_pair(p);
	while (p->i < p->side[0]->n || p->j < p->side[1]->n) {
		int c = next_side(p), ok[2] = { 0, 0 };
		struct member *m[2] = { c <= 0 ? &p->side[0]->m[p->i++] : NULL,
					c >= 0 ? &p->side[1]->m[p->j++] : NULL };
		const char *rel = m[0] ? m[0]->rel : m[1]->rel;

		if (!shard_takes(&p->shard, rel))
			continue;
		for (int i = 0; i < 2; i++)
			if (m[i])
				ok[i] = open_side(p, i, m[i], &e);
		if (!ok[0] && !ok[1])
			continue;
		*out = (struct input_pair){ rel, side_file(p, 0, ok[0]), side_file(p, 1, ok[1]) };
		return 1;
	}
	return 0;
}

void pairs_close(struct pairs *p)
{
	forget_pair(p);
	for (int i = 0; i < 2; i++)
		if (p->side[i]) {
			operand_free(p->side[i]);
			free(p->side[i]);
		}
	memset(p, 0, sizeof *p);
}
