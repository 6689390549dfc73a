/* Reading what users already have: the text of `perf script -F ip,dso,sym`
 * (or its default output), so that a perf.data recorded on another machine
 * ranks scan --hot's rows like a record does.
 *
 * perf script prints runtime addresses. An executable (ET_EXEC) runs at its
 * own addresses; a PIE or a library runs at its own address plus a load bias,
 * a multiple of the page size, which the text does not say. It is recovered
 * from the samples: the symbol perf names contains the sample, and a loaded
 * image keeps every address mod 4096, so each sample allows one bias per page
 * of its symbol; the bias most samples allow is the one. With sym+off (the
 * default output) a sample gives its bias exactly. A symbol is any of the
 * file's names for its function (aliases: perf picks one of them).
 *
 * With --show-mmap-events the text says where each file was mapped
 * ("PERF_RECORD_MMAP2 pid/tid: [0xSTART(0xLEN) @ 0xPGOFF ...]: r-xp PATH"):
 * the bias is then exact, and a stripped PIE none of whose samples names a
 * symbol is placed too (22% of a sort profile was dropped). The kernel's
 * "[kernel.kallsyms]_text" map is where _text ran (KASLR). */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct script_sample {
	uint64_t ip;
	uint64_t off;                   /* from "sym+0x..", when has_off */
	bool has_off;
	char *sym;                      /* NULL: [unknown] */
};

struct script_dso {
	char *path;
	struct script_sample *v;
	size_t n, cap;
};

/* A file's executable mapping, from an mmap event. */
struct script_map {
	char *path;
	uint64_t start, pgoff;
};

struct script {
	struct script_dso *dso;
	size_t n, cap;
	struct script_map *map;
	size_t nmap, map_cap;
	uint64_t kernel_text;           /* 0: no kernel map event */
	uint64_t total, unknown;
};

static bool is_hex(const char *s, size_t n)
{
	if (n == 0 || n > 16)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static struct script_dso *dso_named(struct script *s, const char *path, size_t n)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->dso[i].path) == n && memcmp(s->dso[i].path, path, n) == 0)
			return &s->dso[i];
	GROW(s->dso, s->cap, s->n + 1);
	s->dso[s->n] = (struct script_dso){ .path = xmalloc(n + 1) };
	memcpy(s->dso[s->n].path, path, n);
	s->dso[s->n].path[n] = 0;
	return &s->dso[s->n++];
}

/* "IP SYM[+0xOFF] (DSO)" at p (the ip field first); 0, or -1 when the line
 * is not a sample. */
static int parse_sample(struct script *s, char *p)
{
	char *end = p + strlen(p), *open, *ipend, *sym, *plus;
	struct script_sample x = { 0 };
	struct script_dso *d;

	while (end > p && isspace((unsigned char)end[-1]))
		*--end = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (end == p || end[-1] != ')' || !(open = strrchr(p, '(')))
		return -1;
	for (ipend = p; *ipend && !isspace((unsigned char)*ipend); ipend++)
		;
	if (!is_hex(p, (size_t)(ipend - p)) || ipend > open)
		return -1;
	x.ip = strtoull(p, NULL, 16);
	sym = ipend;
	while (isspace((unsigned char)*sym))
		sym++;
	/* the symbol runs to the space before the last "(" */
	if (sym < open) {
		char *se = open;

		while (se > sym && isspace((unsigned char)se[-1]))
			se--;
		*se = 0;
		if ((plus = strrchr(sym, '+')) && plus[1] == '0' && plus[2] == 'x') {
			x.off = strtoull(plus + 3, NULL, 16);
			x.has_off = true;
			*plus = 0;
		}
		if (*sym && strcmp(sym, "[unknown]") != 0)
			x.sym = xstrdup(sym);
	}
	s->total++;
	d = dso_named(s, open + 1, (size_t)(end - 1 - (open + 1)));
	GROW(d->v, d->cap, d->n + 1);
	d->v[d->n++] = x;
	return 0;
}

/* "... PERF_RECORD_MMAP2 7708/7708: [0x5573f8f2f000(0x12000) @ 0x3000 fe:00
 * 248060 0]: r-xp /usr/bin/sort" (PERF_RECORD_MMAP has no device fields);
 * only executable mappings place samples. 0, or -1 when it is not one. */
static int parse_mmap(struct script *s, const char *line)
{
	const char *p = strstr(line, ": [0x"), *q;
	char *end;
	struct script_map m;
	size_t n;

	if (!p)
		return -1;
	m.start = strtoull(p + 3, &end, 16);
	if (*end != '(' || !(p = strstr(end, " @ ")))
		return -1;
	m.pgoff = strtoull(p + 3, &end, 0);
	if (!(p = strstr(end, "]: ")))
		return -1;
	p += 3;
	q = p + strcspn(p, " \t");
	if (!memchr(p, 'x', (size_t)(q - p)))
		return 0;               /* data, not code */
	while (*q == ' ' || *q == '\t')
		q++;
	n = strcspn(q, "\r\n");
	while (n && isspace((unsigned char)q[n - 1]))
		n--;
	if (n >= 17 && !strncmp(q, "[kernel.kallsyms]", 17)) {
		s->kernel_text = m.start;
		return 0;
	}
	m.path = xmalloc(n + 1);
	memcpy(m.path, q, n);
	m.path[n] = 0;
	GROW(s->map, s->map_cap, s->nmap + 1);
	s->map[s->nmap++] = m;
	return 0;
}

/* Where the ip field starts: after the last field that ends with ':' (the
 * default output's "time:" and "event:"), else the first field. */
static char *ip_field(char *line)
{
	char *p = line, *after = line;

	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		char *f = p;

		while (*p && !isspace((unsigned char)*p))
			p++;
		if (p > f && p[-1] == ':' && !memchr(f, '(', (size_t)(p - f)))
			after = p;
		if (*p == '(' || (p > f && *f == '('))
			break;
	}
	return after;
}

static int read_lines(FILE *f, struct script *s, struct err *e)
{
	char line[8192];
	size_t lineno = 0, bad = 0, first_bad = 0;
	bool in_chain = false, chain_taken = false;

	while (fgets(line, sizeof line, f)) {
		char *p = line;

		lineno++;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p) {
			in_chain = false;
			continue;
		}
		if (*p == '#')
			continue;
		if (strstr(p, "PERF_RECORD_")) {        /* --show-mmap-events */
			parse_mmap(s, p);
			continue;
		}
		char *ip = ip_field(line);

		if (ip != line) {               /* a header: the default output */
			while (isspace((unsigned char)*ip))
				ip++;
			if (!*ip) {             /* callchain lines follow (perf record -g) */
				in_chain = true;
				chain_taken = false;
				continue;
			}
			in_chain = false;
		} else if (in_chain) {          /* the first frame is where the sample was */
			if (chain_taken)
				continue;
			chain_taken = true;
		}
		if (parse_sample(s, ip) && !bad++)
			first_bad = lineno;
	}
	if (ferror(f))
		return err_set(e, "read error: %s", strerror(errno));
	if (s->total == 0)
		return err_set(e, bad ? "line %zu: not perf script output (IP SYM (DSO))"
				      : "no samples in it", first_bad);
	return 0;
}

/* ---- runtime addresses to the files' own ---- */

static bool dso_is_kernel(const char *path)
{
	return strncmp(path, "[kernel", 7) == 0 || strcmp(path, "[guest.kernel.kallsyms]") == 0;
}

struct vote {
	uint64_t bias, n;
};

static void add_vote(struct vote **v, size_t *n, size_t *cap, uint64_t bias)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].bias == bias) {
			(*v)[i].n++;
			return;
		}
	GROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = (struct vote){ bias, 1 };
}

/* Where the functions a name names are: every function the list has by
 * that name, else the symbol of that name (an alias the list does not
 * keep; a versioned "name@@VER" as name). */
struct named {
	const char *name;
	struct { uint64_t addr, size; } *at;
	size_t n, cap;
};

static void resolve(const struct elf_image *img, const struct elf_funcs *fs, struct named *nm)
{
	char base[512];
	uint64_t a, sz;

	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].name, nm->name)) {
			GROW(nm->at, nm->cap, nm->n + 1);
			nm->at[nm->n].addr = fs->v[i].addr;
			nm->at[nm->n++].size = fs->v[i].size;
		}
	snprintf(base, sizeof base, "%.*s", (int)strcspn(nm->name, "@"), nm->name);
	if (!nm->n && !elf_function_symbol(img, base, &a, &sz) && sz) {
		GROW(nm->at, nm->cap, 1);
		nm->at[0].addr = a;
		nm->at[0].size = sz;
		nm->n = 1;
	}
}

/* The resolved name of a sample's symbol (resolved once per name). */
static const struct named *named_of(const struct elf_image *img, const struct elf_funcs *fs,
				    struct named **v, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	GROW(*v, *cap, *n + 1);
	(*v)[*n] = (struct named){ .name = name };
	resolve(img, fs, &(*v)[*n]);
	return &(*v)[(*n)++];
}

/* Every bias that puts x inside a function named like its symbol. */
static void vote_sample(const struct named *nm, const struct script_sample *x,
			struct vote **v, size_t *n, size_t *cap)
{
	for (size_t i = 0; i < nm->n; i++) {
		uint64_t addr = nm->at[i].addr, size = nm->at[i].size;

		if (x->has_off) {
			add_vote(v, n, cap, x->ip - (addr + x->off));
			continue;
		}
		/* the first address of f with the sample's page offset */
		for (uint64_t a = addr + ((x->ip - addr) & 4095); a < addr + size; a += 4096)
			add_vote(v, n, cap, x->ip - a);
	}
}

/* The bias of the file's executable mapping named by mmap events, when
 * they name one (every map of it at one bias); -1 otherwise. */
static int mmap_bias(const struct elf_image *img, const struct script *s, const char *path,
		     uint64_t *bias)
{
	bool found = false;

	for (size_t i = 0; i < s->nmap; i++) {
		uint64_t vaddr, b;

		if (strcmp(s->map[i].path, path) || elf_offset_vaddr(img, s->map[i].pgoff, &vaddr))
			continue;
		b = s->map[i].start - vaddr;
		if (found && b != *bias)
			return -1;      /* several processes, several places: vote */
		*bias = b;
		found = true;
	}
	return found ? 0 : -1;
}

static int load_bias(const struct elf_image *img, const struct script *s,
		     const struct script_dso *d, uint64_t *bias, struct err *e)
{
	struct elf_funcs fs;
	struct vote *v = NULL, best = { 0, 0 };
	struct named *names = NULL;
	size_t n = 0, cap = 0, nn = 0, ncap = 0;

	*bias = 0;
	if (img->type == ET_EXEC || mmap_bias(img, s, d->path, bias) == 0)
		return 0;
	if (elf_functions(img, &fs, e))
		return -1;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sym)
			vote_sample(named_of(img, &fs, &names, &nn, &ncap, d->v[i].sym), &d->v[i], &v,
				    &n, &cap);
	for (size_t i = 0; i < n; i++)
		if (v[i].n > best.n || (v[i].n == best.n && v[i].bias < best.bias))
			best = v[i];
	for (size_t i = 0; i < nn; i++)
		free(names[i].at);
	free(names);
	free(v);
	elf_funcs_free(&fs);
	if (!best.n)
		return err_set(e, "no sample names a symbol of the file and no mmap event "
			       "(perf script --show-mmap-events) says where it was: its load address is unknown");
	*bias = best.bias;
	return 0;
}

static void place_dso(struct hot_run *h, const struct script *s, const struct script_dso *d)
{
	struct hot_file *f = hot_run_file(h, d->path);
	struct elf_image img;
	struct err e = { "" };
	uint64_t bias;
	int rc = strcmp(d->path, "[vdso]") == 0 ? elf_open_vdso(&img, &e)
						 : elf_open_file(&img, d->path, &e);

	f->samples += d->n;
	if (rc || load_bias(&img, s, d, &bias, &e)) {
		fputs("straddle: ", stderr);
		fputs_escaped(d->path, stderr);
		fprintf(stderr, ": %s; its %zu samples are not placed in loops\n", e.msg, d->n);
		elf_close(&img);
		return;
	}
	elf_build_id_hex(&img, f->build_id);
	elf_close(&img);
	for (size_t i = 0; i < d->n; i++) {
		GROW(f->addrs.v, f->addrs.cap, f->addrs.n + 1);
		f->addrs.v[f->addrs.n++] = (struct sample_count){ d->v[i].ip - bias, 1 };
	}
	sample_hist_merge(&f->addrs);
}

static void add_ksym(struct hot_run *h, const struct script_sample *x)
{
	const char *name = x->sym ? x->sym : "[unknown]";

	for (size_t i = 0; i < h->nksym; i++)
		if (strcmp(h->ksym[i].name, name) == 0) {
			h->ksym[i].samples++;
			return;
		}
	GROW(h->ksym, h->ksym_cap, h->nksym + 1);
	h->ksym[h->nksym++] = (struct hot_ksym){ xstrdup(name),
		x->has_off ? x->ip - x->off : 0, 1 };
}

static int by_samples_desc(const void *a, const void *b)
{
	const struct hot_ksym *x = a, *y = b;

	return (x->samples < y->samples) - (x->samples > y->samples);
}

static void place_kernel(struct hot_run *h, const struct script_dso *d)
{
	if (!h->kernel.path)
		h->kernel.path = xstrdup("[kernel]");
	h->kernel.samples += d->n;
	for (size_t i = 0; i < d->n; i++) {
		GROW(h->kernel.addrs.v, h->kernel.addrs.cap, h->kernel.addrs.n + 1);
		h->kernel.addrs.v[h->kernel.addrs.n++] = (struct sample_count){ d->v[i].ip, 1 };
		add_ksym(h, &d->v[i]);
	}
	sample_hist_merge(&h->kernel.addrs);
	qsort(h->ksym, h->nksym, sizeof *h->ksym, by_samples_desc);
}

static void script_free(struct script *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->dso[i].n; k++)
			free(s->dso[i].v[k].sym);
		free(s->dso[i].v);
		free(s->dso[i].path);
	}
	free(s->dso);
	for (size_t i = 0; i < s->nmap; i++)
		free(s->map[i].path);
	free(s->map);
}

int results_read_perf_script(const char *path, struct hot_run *h, struct err *e)
{
	struct script s = { 0 };
	struct stat st;
	/* open_input: a FIFO waited for a writer, /dev/zero never ended. No
	 * size bound: perf script of a long run is large, and it is read a
	 * line at a time. */
	int fd = open_input(path, &st, e);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	int rc;

	memset(h, 0, sizeof *h);
	h->source = xstrdup(path);
	if (fd < 0)
		return -1;
	if (!f) {
		close(fd);
		return err_set(e, "cannot open: %s", strerror(errno));
	}
	rc = read_lines(f, &s, e);
	fclose(f);
	for (size_t i = 0; rc == 0 && i < s.n; i++) {
		const struct script_dso *d = &s.dso[i];

		if (dso_is_kernel(d->path))
			place_kernel(h, d);
		else if (d->path[0] == '/' || strcmp(d->path, "[vdso]") == 0)
			place_dso(h, &s, d);
		/* [unknown], //anon, JIT maps: counted in the total only */
	}
	h->total = s.total;
	if (s.kernel_text)
		h->kernel_text = s.kernel_text;
	script_free(&s);
	return rc;
}
