/* The ELF file whose functions are moved: what it must be, the functions
 * chosen from it, their loops. */
#include "internal.h"
#include "../cfg/cfg.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

static const char *const refusal_names[RELOC_NREFUSALS] = {
	[RELOC_OK] = "movable",
	[RELOC_TOO_SHORT] = "shorter than the entry jump",
	[RELOC_UNDECODABLE] = "bytes that do not decode",
	[RELOC_INDIRECT_JUMP] = "an indirect jump not resolved as a table",
	[RELOC_TABLE_FORM] = "a jump table it cannot rebase",
	[RELOC_SHORT_BRANCH_IN] = "a short branch into its middle from outside",
	[RELOC_SHORT_BRANCH_OUT] = "a short branch out beyond a stub's reach",
	[RELOC_POINTED_INTO] = "data points into its middle",
	[RELOC_NEAR_REF_OUT] = "an adr or literal load of something outside it",
	[RELOC_ADRP_OWN_PAGE] = "an adrp of a page of its own code",
	[RELOC_POOL_FIELD] = "a literal it loads reads as an address field",
	[RELOC_UNWIND] = "unwind data a copy cannot be given",
};

const char *reloc_refusal_name(enum reloc_refusal r)
{
	return r < RELOC_NREFUSALS ? refusal_names[r] : "?";
}

static const struct elf_section *section_named(const struct elf_image *img, const char *name)
{
	for (size_t i = 0; i < img->nsec; i++)
		if (img->sec[i].name && strcmp(img->sec[i].name, name) == 0)
			return &img->sec[i];
	return NULL;
}

/* The preload library enters only a dynamically linked program: an
 * executable with an interpreter, or a shared object. */
static int check_movable_file(const struct elf_image *img, struct err *e)
{
	if (img->arch != ARCH_X86_64 && img->arch != ARCH_AARCH64)
		return err_set(e, "%s: %s code: place moves x86-64 and AArch64 code only", img->path,
			       arch_name(img->arch));
	if (img->type == ET_REL)
		return err_set(e, "%s: a relocatable object runs in no program; give the executable "
			       "or library built from it", img->path);
	if (img->type == ET_EXEC && !section_named(img, ".interp"))
		return err_set(e, "%s: a static executable: the preload library cannot enter it",
			       img->path);
	if (img->type == ET_DYN && !section_named(img, ".dynamic"))
		return err_set(e, "%s: a static executable: the preload library cannot enter it",
			       img->path);
	if (img->type != ET_EXEC && img->type != ET_DYN)
		return err_set(e, "%s: not an executable or a shared object", img->path);
	if (!img->build_id_len)
		return err_set(e, "%s: no build-id: the running program's copy could not be told "
			       "from another build", img->path);
	return 0;
}

int reloc_open(struct reloc_file *rf, const char *path, struct err *e)
{
	*rf = (struct reloc_file){ 0 };
	if (elf_open_file(&rf->img, path, e))
		return -1;
	if (check_movable_file(&rf->img, e) || elf_functions(&rf->img, &rf->funcs, e)) {
		elf_close(&rf->img);
		return -1;
	}
	rf->dec = decoder_new(rf->img.arch);
	elf_eh_read(&rf->img, &rf->eh);
	rf->fixed_address = rf->img.type == ET_EXEC;
	return 0;
}

int reloc_open_vdso(struct reloc_file *rf, struct err *e)
{
	*rf = (struct reloc_file){ 0 };
	if (elf_open_vdso(&rf->img, e))
		return -1;
	if (rf->img.arch != ARCH_X86_64 || elf_functions(&rf->img, &rf->funcs, e)) {
		if (rf->img.arch != ARCH_X86_64)
			err_set(e, "[vdso]: %s: moving it is done on x86-64 only",
				arch_name(rf->img.arch));
		elf_close(&rf->img);
		return -1;
	}
	rf->dec = decoder_new(rf->img.arch);
	return 0;
}

void reloc_close(struct reloc_file *rf)
{
	if (rf->xrefs)
		free(rf->xrefs->v);
	free(rf->xrefs);
	free(rf->ptr);
	free(rf->fn);
	free(rf->fix);
	free(rf->table);
	free(rf->noreturn.addr);
	decoder_free(rf->dec);
	elf_eh_free(&rf->eh);
	elf_funcs_free(&rf->funcs);
	elf_close(&rf->img);
	*rf = (struct reloc_file){ 0 };
}

/* Only code that runs: executable sections, and not the PLT (its stubs
 * are the linker's, reached through their slots). */
static bool choosable(const struct reloc_file *rf, const struct elf_func *f)
{
	const struct elf_section *s = &rf->img.sec[f->sec];

	return f->size && (s->flags & SHF_EXECINSTR) && s->name && strncmp(s->name, ".plt", 4) != 0;
}

static void add_pointer(struct reloc_file *rf, uint64_t value, uint64_t at)
{
	if (!elf_vaddr_is_code(&rf->img, value))
		return;
	GROW(rf->ptr, rf->ptr_cap, rf->nptr + 1);
	rf->ptr[rf->nptr++] = (struct reloc_pointer){ value, at };
}

static int by_value(const void *a, const void *b)
{
	const struct reloc_pointer *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* Code addresses in data: in a shared object or PIE each is a RELATIVE
 * relocation (its addend; the word in the file may be 0); in fixed-address
 * code, any aligned 8-byte word of the data that is one. */
static void find_pointers(struct reloc_file *rf)
{
	const struct elf_image *img = &rf->img;

	for (size_t i = 0; i < img->nsec; i++) {
		const struct elf_section *s = &img->sec[i];

		if (s->type == SHT_RELA && s->entsize == sizeof(Elf64_Rela) && s->offset <= img->size &&
		    s->size <= img->size - s->offset && rf->img.type == ET_DYN)
			for (uint64_t k = 0; k < s->size / sizeof(Elf64_Rela); k++) {
				Elf64_Rela r;

				memcpy(&r, img->data + s->offset + k * sizeof r, sizeof r);
				if (ELF64_R_TYPE(r.r_info) == (img->arch == ARCH_AARCH64 ?
							       R_AARCH64_RELATIVE : R_X86_64_RELATIVE))
					add_pointer(rf, (uint64_t)r.r_addend, r.r_offset);
			}
		if (rf->img.type == ET_EXEC && (s->flags & SHF_ALLOC) && !(s->flags & SHF_EXECINSTR) &&
		    s->type == SHT_PROGBITS && s->offset <= img->size && s->size <= img->size - s->offset)
			for (uint64_t k = (8 - s->addr % 8) % 8; k + 8 <= s->size; k += 8) {
				uint64_t v;

				memcpy(&v, img->data + s->offset + k, 8);
				add_pointer(rf, v, s->addr + k);
			}
	}
	if (rf->nptr)           /* qsort of NULL, even of 0 entries, is undefined */
		qsort(rf->ptr, rf->nptr, sizeof *rf->ptr, by_value);
}

static struct reloc_func *add_chosen(struct reloc_file *rf, const struct elf_func *f, size_t *cap)
{
	struct reloc_func *r;

	if (!rf->xrefs) {
		rf->xrefs = xcalloc(1, sizeof *rf->xrefs);
		reloc_find_xrefs(rf, rf->xrefs);
		find_pointers(rf);
	}
	GROW(rf->fn, *cap, rf->nfn + 1);
	r = &rf->fn[rf->nfn++];
	*r = (struct reloc_func){ .addr = f->addr, .size = f->size, .name = f->shown,
				  .symbol = f->name, .code = elf_func_bytes(&rf->img, f) };
	reloc_analyse(rf, r, rf->xrefs);
	rf->refused[r->refused]++;
	return r;
}

size_t reloc_choose(struct reloc_file *rf, const char *glob)
{
	size_t cap = rf->nfn, before = rf->nfn;

	for (size_t i = 0; i < rf->funcs.n; i++) {
		const struct elf_func *f = &rf->funcs.v[i];

		if (choosable(rf, f) && (!glob || elf_func_matches(&rf->funcs, f, glob)))
			add_chosen(rf, f, &cap);
	}
	return rf->nfn - before;
}

struct reloc_func *reloc_choose_at(struct reloc_file *rf, uint64_t addr)
{
	size_t cap = rf->nfn;

	for (size_t i = 0; i < rf->nfn; i++)
		if (addr >= rf->fn[i].addr && addr < rf->fn[i].addr + rf->fn[i].size)
			return &rf->fn[i];
	for (size_t i = 0; i < rf->funcs.n; i++) {
		const struct elf_func *f = &rf->funcs.v[i];

		if (choosable(rf, f) && addr >= f->addr && addr < f->addr + f->size)
			return add_chosen(rf, f, &cap);
	}
	return NULL;
}

static int by_start(const void *a, const void *b)
{
	const struct reloc_loop *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start ? 1 :
	       x->end > y->end ? -1 : x->end < y->end;
}

/* The function's instructions and its CFG with its resolved dispatch
 * tables and its calls that never return ending their paths, as the scan
 * builds it: what its loops are found in (reloc_loops) and what a replay
 * of one of them needs (replay_plan.c). */
void reloc_func_cfg(struct reloc_file *rf, const struct reloc_func *f, struct reloc_func_cfg *c)
{
	const uint8_t *code = f->code;
	size_t used;

	*c = (struct reloc_func_cfg){ .insn = xcalloc(f->size + 1, sizeof *c->insn),
		.jt = xcalloc(f->ntable + 1, sizeof *c->jt), .tg = xcalloc(f->ntable + 1, sizeof *c->tg) };
	c->n = decode_run(rf->dec, code, f->size, f->addr, c->insn, f->size + 1, &used);
	if (!rf->noreturn.addr)         /* 25 ms for libLLVM-14's 95,000 functions */
		noreturn_find(&rf->img, &rf->funcs, 1, &rf->noreturn);
	for (size_t j = 0; j < c->n; j++)
		noreturn_stop_call(&rf->noreturn, &c->insn[j]);
	for (size_t j = 0; j < c->n && c->nt < f->ntable; j++) {
		struct table_shape t;

		if (c->insn[j].kind == BR_JUMP_IND &&
		    decode_jump_table_shape(rf->dec, &rf->img, code, c->insn, c->n, j, &c->tg[c->nt],
					    &t) == JUMP_TABLE) {
			c->jt[c->nt] = (struct cfg_jump_table){ c->insn[j].addr, c->tg[c->nt].v,
								c->tg[c->nt].n };
			c->nt++;
		}
	}
	cfg_build_tables(&c->g, c->insn, c->n, c->jt, c->nt);
}

void reloc_func_cfg_free(struct reloc_func_cfg *c)
{
	cfg_free(&c->g);
	for (size_t t = 0; t < c->nt; t++)
		free(c->tg[t].v);
	free(c->tg), free(c->jt), free(c->insn);
	*c = (struct reloc_func_cfg){ 0 };
}

/* The loops as the scan sees them: the CFG with the function's resolved
 * dispatch tables, spans grown as the hazard model grows them. */
size_t reloc_loops(struct reloc_file *rf, const struct reloc_func *f, struct reloc_loop **out)
{
	struct reloc_func_cfg c;
	size_t n;

	reloc_func_cfg(rf, f, &c);
	*out = xcalloc(c.g.nloop + 1, sizeof **out);
	for (size_t i = 0; i < c.g.nloop; i++)
		(*out)[i] = (struct reloc_loop){ c.g.loop[i].start, c.g.loop[i].end,
			c.g.block[c.g.loop[i].header].start, c.g.loop[i].depth, c.g.loop[i].innermost };
	qsort(*out, c.g.nloop, sizeof **out, by_start);
	n = c.g.nloop;
	reloc_func_cfg_free(&c);
	return n;
}
