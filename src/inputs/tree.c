/* A directory's regular files, as a distribution's tree holds them:
 * /usr/lib/x86_64-linux-gnu has libfoo.so -> libfoo.so.1 -> libfoo.so.1.2.3,
 * and /usr/bin/perl is a hard link of perl5.36.0. Symbolic links are
 * followed, each file is listed once by (device, inode), under the name
 * that reaches it without a symbolic link when one does (else the first
 * by name), and a directory is entered once, so a link to an ancestor
 * ends. Directories reached only through a link are walked after the
 * tree itself, so their files keep their own names when they have any.
 * Every choice depends on names, never on readdir's order: each shard of
 * a run lists the same files. */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct found {
	char *rel, *path;
	dev_t dev;
	ino_t ino;
	bool via_link;
};

struct walk {
	struct operand *op;
	struct found *f;
	size_t nf, capf;
	/* directories entered, by (st_dev, st_ino): an open-addressed set,
	 * a power of two at most half full (a whole distribution's tree has
	 * ~10^5 directories) */
	struct dir_id { dev_t dev; ino_t ino; bool used; } *seen;
	size_t nseen, capseen;
	struct found *links;            /* directories reached by a link, walked last */
	size_t nlinks, caplinks;
};

static char *joined(const char *a, const char *sep, const char *b)
{
	size_t na = strlen(a), ns = strlen(sep), nb = strlen(b);
	char *s = xmalloc(na + ns + nb + 1);

	memcpy(s, a, na);
	memcpy(s + na, sep, ns);
	memcpy(s + na + ns, b, nb + 1);
	return s;
}

static struct dir_id *slot(struct dir_id *set, size_t cap, dev_t dev, ino_t ino)
{
	size_t i = (size_t)((uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev) & (cap - 1);

	while (set[i].used && (set[i].dev != dev || set[i].ino != ino))
		i = (i + 1) & (cap - 1);
	return &set[i];
}

/* First entry into the directory of st: true; again: false. */
static bool enter(struct walk *w, const struct stat *st)
{
	struct dir_id *d;

	if (2 * (w->nseen + 1) > w->capseen) {
		size_t cap = w->capseen ? 2 * w->capseen : 64;
		struct dir_id *set = xcalloc(cap, sizeof *set);

		for (size_t i = 0; i < w->capseen; i++)
			if (w->seen[i].used)
				*slot(set, cap, w->seen[i].dev, w->seen[i].ino) = w->seen[i];
		free(w->seen);
		w->seen = set;
		w->capseen = cap;
	}
	d = slot(w->seen, w->capseen, st->st_dev, st->st_ino);
	if (d->used)
		return false;
	*d = (struct dir_id){ st->st_dev, st->st_ino, true };
	w->nseen++;
	return true;
}

static void add_found(struct found **v, size_t *n, size_t *cap, struct found f)
{
	GROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = f;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a directory, sorted; NULL (errno set) when it cannot be read. */
static char **names_in(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			GROW(v, cap, *n + 1);
			v[(*n)++] = xstrdup(de->d_name);
		}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, by_name);
	return v ? v : xcalloc(1, sizeof *v);
}

static void walk_dir(struct walk *w, const char *path, const char *rel, bool via_link);

/* One name of a directory: a file is found, a directory entered, a link
 * to a directory kept for later, anything else left. */
static void walk_entry(struct walk *w, char *path, char *rel, bool via_link)
{
	struct stat l, s;

	if (lstat(path, &l) != 0 || (S_ISLNK(l.st_mode) && stat(path, &s) != 0))
		goto skip;
	if (S_ISLNK(l.st_mode) && S_ISDIR(s.st_mode)) {
		add_found(&w->links, &w->nlinks, &w->caplinks, (struct found){ .rel = rel, .path = path });
		return;
	}
	if (S_ISLNK(l.st_mode) && S_ISREG(s.st_mode)) {
		add_found(&w->f, &w->nf, &w->capf,
			  (struct found){ rel, path, s.st_dev, s.st_ino, true });
		return;
	}
	if (S_ISDIR(l.st_mode) && enter(w, &l)) {
		char *sub = joined(rel, "/", "");

		walk_dir(w, path, sub, via_link);
		free(sub);
	}
	if (S_ISREG(l.st_mode)) {
		add_found(&w->f, &w->nf, &w->capf,
			  (struct found){ rel, path, l.st_dev, l.st_ino, via_link });
		return;
	}
skip:
	free(path);
	free(rel);
}

/* rel: the directory's path inside the tree, "" or ending in '/'. */
static void walk_dir(struct walk *w, const char *path, const char *rel, bool via_link)
{
	size_t n;
	char **names = names_in(path, &n);

	if (!names) {
		struct member *m = operand_add(w->op, *rel ? rel : ".");

		m->error = joined("cannot read the directory: ", "", strerror(errno));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		walk_entry(w, joined(path, strcmp(path, "/") ? "/" : "", names[i]),
			   joined(rel, "", names[i]), via_link);
		free(names[i]);
	}
	free(names);
}

/* Same file: the name without a link first, then the smallest name. */
static int by_file(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->via_link != y->via_link)
		return x->via_link ? 1 : -1;
	return strcmp(x->rel, y->rel);
}

static void keep_each_once(struct walk *w)
{
	if (w->nf)
		qsort(w->f, w->nf, sizeof *w->f, by_file);
	for (size_t i = 0; i < w->nf; i++) {
		if (i && w->f[i].dev == w->f[i - 1].dev && w->f[i].ino == w->f[i - 1].ino) {
			free(w->f[i].rel);
			free(w->f[i].path);
			continue;
		}
		operand_add(w->op, w->f[i].rel)->path = w->f[i].path;
		free(w->f[i].rel);
	}
}

void tree_walk(struct operand *op)
{
	struct walk w = { .op = op };
	struct stat root;

	if (stat(op->arg, &root) == 0)
		enter(&w, &root);
	walk_dir(&w, op->arg, "", false);
	for (size_t i = 0; i < w.nlinks; i++) {
		struct found l = w.links[i];
		struct stat s;

		if (stat(l.path, &s) == 0 && enter(&w, &s)) {
			char *sub = joined(l.rel, "/", "");

			walk_dir(&w, l.path, sub, true);
			free(sub);
		}
		free(l.path);
		free(l.rel);
	}
	keep_each_once(&w);
	operand_sort(op);
	free(w.f);
	free(w.seen);
	free(w.links);
}
