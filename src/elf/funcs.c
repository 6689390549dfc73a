/* Function ranges: STT_FUNC symbols of .symtab (else .dynsym), then the
 * FDEs of .eh_frame for code no symbol names (stripped objects). */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is_code(const struct elf_section *s)
{
	return s->type == SHT_PROGBITS && (s->flags & SHF_EXECINSTR);
}

/* The function lies inside its code section's bytes. In a relocatable
 * object symbol values are section offsets; elsewhere virtual addresses. */
static bool func_fits(const struct elf_image *img, const struct elf_func *f)
{
	const struct elf_section *s = &img->sec[f->sec];
	uint64_t base = img->type == ET_REL ? 0 : s->addr;

	return f->addr >= base && f->size <= s->size &&
	       f->addr - base <= s->size - f->size;
}

const uint8_t *elf_func_bytes(const struct elf_image *img, const struct elf_func *f)
{
	const struct elf_section *s;

	if (f->sec >= img->nsec || !is_code(&img->sec[f->sec]) || !func_fits(img, f))
		return NULL;
	s = &img->sec[f->sec];
	return img->data + s->offset + (f->addr - (img->type == ET_REL ? 0 : s->addr));
}

/* The section holding [addr, addr+size) in a loaded image, or 0. */
static uint32_t section_of(const struct elf_image *img, uint64_t addr, uint64_t size)
{
	for (uint32_t i = 1; i < img->nsec; i++) {
		const struct elf_section *s = &img->sec[i];

		if (is_code(s) && addr >= s->addr && size <= s->size &&
		    addr - s->addr <= s->size - size)
			return i;
	}
	return 0;
}

/* Symbols of `symtab`, a section of `from` (the image itself, or its
 * debug file, whose section indices are then mapped by address). */
static void read_symbols(const struct elf_image *img, const struct elf_image *from,
			 const struct elf_section *symtab, struct elf_funcs *out, size_t *cap,
			 size_t *label_cap)
{
	const struct elf_section *strtab;
	size_t count;
	Elf64_Sym sym;

	strtab = &from->sec[symtab->link];     /* checked by symtab_ok */
	count = symtab->size / sizeof sym;
	for (size_t i = 1; i < count; i++) {
		struct elf_func f = { 0 };

		memcpy(&sym, from->data + symtab->offset + i * sizeof sym, sizeof sym);
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= from->nsec)
			continue;
		f.addr = sym.st_value;
		f.size = sym.st_size;
		f.name = elf_string(from, strtab, sym.st_name);
		f.sec = from == img ? sym.st_shndx : section_of(img, f.addr, f.size);
		f.source = symtab->type == SHT_SYMTAB ? FROM_SYMTAB : FROM_DYNSYM;
		f.local = ELF64_ST_BIND(sym.st_info) == STB_LOCAL;
		if (f.sec >= img->nsec || !is_code(&img->sec[f.sec]) || !func_fits(img, &f)) {
			out->skipped++;
			continue;
		}
		if (f.size == 0) {      /* an assembler label typed as a function */
			GROW(out->labels, *label_cap, out->nlabels + 1);
			out->labels[out->nlabels++] = f;
			continue;
		}
		GROW(out->v, *cap, out->n + 1);
		out->v[out->n++] = f;
	}
}

static int by_place(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Among aliases keep symbols before FDEs, globals before locals. */
	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	if (x->local != y->local)
		return x->local - y->local;
	return strcmp(x->name, y->name);
}

/* Aliases (same section and start) become one function: the first after
 * sorting, with the largest size among them; the other symbols' names are
 * kept as its aliases (an FDE's is no name). */
static void fold_aliases(struct elf_funcs *f)
{
	size_t w = 0;

	for (size_t r = 0; r < f->n; r++) {
		struct elf_func *kept = w ? &f->v[w - 1] : NULL;

		if (kept && kept->sec == f->v[r].sec && kept->addr == f->v[r].addr) {
			if (f->v[r].source == FROM_FDE || !strcmp(f->v[r].name, kept->name))
				continue;
			if (f->v[r].size > kept->size)
				kept->size = f->v[r].size;
			GROW(f->alias_name, f->alias_cap, f->nalias + 1);
			if (!kept->nalias)
				kept->alias = (uint32_t)f->nalias;
			f->alias_name[f->nalias++] = f->v[r].name;
			kept->nalias++;
			continue;
		}
		f->v[w] = f->v[r];
		f->v[w].alias = f->v[w].nalias = 0;
		w++;
	}
	f->n = w;
}

/* The C++ ABI's demangler (libstdc++'s, as elfutils' nm uses it). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);

char *elf_demangle(const char *symbol)
{
	int status;

	if (strncmp(symbol, "_Z", 2) != 0)
		return NULL;
	return __cxa_demangle(symbol, NULL, NULL, &status);
}

/* Where a demangled name's parameter list opens: the '(' matching its
 * last ')' ("f(int) const", "ns::g<int>(long)"), or its end. */
static size_t params_at(const char *d)
{
	size_t end = strlen(d), depth = 0;

	for (size_t i = end; i-- > 0;) {
		if (d[i] == ')')
			depth++;
		else if (d[i] == '(' && depth && --depth == 0)
			return i;
	}
	return end;
}

/* The name without its parameters, a GCC clone's suffix kept ("f(int)
 * [clone .cold]" is "f [clone .cold]", as f.cold is not f). */
static bool shown_matches(const char *glob, const char *shown)
{
	const char *clone = strstr(shown, " [clone ");
	size_t end = clone ? (size_t)(clone - shown) : strlen(shown);
	char *base = xmalloc(strlen(shown) + 1);
	bool m;

	memcpy(base, shown, end);
	base[end] = 0;
	base[params_at(base)] = 0;
	if (clone)
		strcat(base, clone);
	m = glob_match(glob, shown) || (strcmp(base, shown) && glob_match(glob, base));
	free(base);
	return m;
}

static bool symbol_matches(const char *glob, const char *symbol)
{
	char *d;
	bool m;

	if (glob_match(glob, symbol))
		return true;
	if (!(d = elf_demangle(symbol)))
		return false;
	m = shown_matches(glob, d);
	free(d);
	return m;
}

bool elf_func_matches(const struct elf_funcs *fs, const struct elf_func *f, const char *glob)
{
	if (glob_match(glob, f->name) || (f->shown != f->name && shown_matches(glob, f->shown)))
		return true;
	for (uint32_t i = f->alias; i < f->alias + f->nalias; i++)
		if (symbol_matches(glob, fs->alias_name[i]))
			return true;
	return false;
}

/* Every function's shown name, demangled once here: 33,000 of
 * libLLVM-19's symbols take 0.02 s. */
static void demangle_all(struct elf_funcs *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		char *d = elf_demangle(fs->v[i].name);

		fs->v[i].shown = d ? d : fs->v[i].name;
		if (d) {
			GROW(fs->demangled, fs->demangled_cap, fs->ndemangled + 1);
			fs->demangled[fs->ndemangled++] = d;
		}
	}
}

/* FDE ranges inside a named function are that function's own unwind info
 * (or a part of it); only code no symbol covers becomes "fde@0x...". */
/* Does a named function (out->v[0..named), sorted) overlap the FDE's range? */
static bool fde_covered(const struct elf_funcs *out, size_t named, const struct elf_func *f)
{
	size_t lo = 0, hi = named;

	/* the first named function starting after f */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (out->v[mid].sec < f->sec ||
		    (out->v[mid].sec == f->sec && out->v[mid].addr <= f->addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < named && out->v[lo].sec == f->sec && out->v[lo].addr < f->addr + f->size)
		return true;
	for (size_t k = lo; k-- > 0 && out->v[k].sec == f->sec && k + 64 >= lo;)
		if (out->v[k].addr + out->v[k].size > f->addr)
			return true;
	return false;
}

/* A zero-size function symbol inside the FDE's range is the code's real
 * start and name: glibc's __restore_rt (size 0) has its FDE begin one byte
 * early, inside the nop before it, for the unwinder's sake; decoding from
 * the FDE's start would cut that nop in two. */
static bool take_label(const struct elf_funcs *out, struct elf_func *f)
{
	for (size_t i = 0; i < out->nlabels; i++) {
		const struct elf_func *l = &out->labels[i];

		if (l->addr >= f->addr && l->addr < f->addr + f->size) {
			f->size -= l->addr - f->addr;
			f->addr = l->addr;
			f->name = l->name;
			f->source = l->source;
			f->local = l->local;
			return true;
		}
	}
	return false;
}

/* FDE ranges that no named function overlaps become functions of their
 * own, named by a zero-size symbol inside them or "fde@0x...". */
static void add_uncovered_fdes(const struct elf_image *img, struct elf_funcs *out,
			       size_t *cap)
{
	struct elf_func *fde = NULL;
	size_t nfde = 0, fcap = 0, named = out->n, pool_len = 0;

	elf_fde_ranges(img, &fde, &nfde, &fcap);
	if (named)
		qsort(out->v, named, sizeof *out->v, by_place);
	out->pool = xmalloc(nfde * 24 + 1);
	for (size_t i = 0; i < nfde; i++) {
		struct elf_func f = fde[i];

		f.sec = section_of(img, f.addr, f.size);
		if (!f.sec || fde_covered(out, named, &f))
			continue;
		if (!take_label(out, &f)) {
			char *name = out->pool + pool_len;

			pool_len += (size_t)snprintf(name, 24, "fde@0x%" PRIx64, f.addr) + 1;
			f.name = name;
			f.source = FROM_FDE;
		}
		GROW(out->v, *cap, out->n + 1);
		out->v[out->n++] = f;
	}
	free(fde);
}

static int symtab_ok(const struct elf_image *img, const struct elf_section *s, struct err *e)
{
	if (s->entsize != sizeof(Elf64_Sym))
		return err_set(e, "symbol table %s: entry size %llu, not %zu", s->name,
			       (unsigned long long)s->entsize, sizeof(Elf64_Sym));
	if (s->link == 0 || s->link >= img->nsec || img->sec[s->link].type != SHT_STRTAB)
		return err_set(e, "symbol table %s: its string table (section %u) is not one",
			       s->name, s->link);
	return 0;
}

/* The .symtab of the installed debug file with the same build-id. */
static const struct elf_section *debug_symtab(const struct elf_image *img,
					      struct elf_funcs *out)
{
	char path[4200];
	struct err e;

	if (img->type == ET_REL || !elf_debug_file_path(img, path, sizeof path))
		return NULL;
	out->debug = xcalloc(1, sizeof *out->debug);
	if (elf_open_file(out->debug, path, &e) == 0 && out->debug->arch == img->arch)
		for (size_t i = 0; i < out->debug->nsec; i++)
			if (out->debug->sec[i].type == SHT_SYMTAB &&
			    symtab_ok(out->debug, &out->debug->sec[i], &e) == 0)
				return &out->debug->sec[i];
	elf_close(out->debug);
	free(out->debug);
	out->debug = NULL;
	return NULL;
}

int elf_functions(const struct elf_image *img, struct elf_funcs *out, struct err *e)
{
	const struct elf_section *symtab = NULL, *dynsym = NULL;
	size_t cap = 0, label_cap = 0;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < img->nsec; i++) {
		if (img->sec[i].type == SHT_SYMTAB && !symtab)
			symtab = &img->sec[i];
		if (img->sec[i].type == SHT_DYNSYM && !dynsym)
			dynsym = &img->sec[i];
	}
	if ((symtab && symtab_ok(img, symtab, e)) || (dynsym && symtab_ok(img, dynsym, e)))
		return -1;
	if (!symtab)
		symtab = debug_symtab(img, out);
	if (symtab)
		read_symbols(img, out->debug ? out->debug : img, symtab, out, &cap, &label_cap);
	if (out->n == 0 && dynsym)
		read_symbols(img, img, dynsym, out, &cap, &label_cap);
	/* Relocatable objects: FDE addresses are unrelocated zeros, and the
	 * symbols are complete anyway. */
	if (img->type != ET_REL)
		add_uncovered_fdes(img, out, &cap);
	if (out->n) {
		qsort(out->v, out->n, sizeof *out->v, by_place);
		fold_aliases(out);
	}
	demangle_all(out);
	return 0;
}

void elf_funcs_free(struct elf_funcs *f)
{
	free(f->v);
	free(f->pool);
	free(f->labels);
	free(f->alias_name);
	for (size_t i = 0; i < f->ndemangled; i++)
		free(f->demangled[i]);
	free(f->demangled);
	if (f->debug) {
		elf_close(f->debug);
		free(f->debug);
	}
	memset(f, 0, sizeof *f);
}
