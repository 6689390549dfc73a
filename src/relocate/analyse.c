/* What moving one function takes: its instructions' address fields sorted
 * into fix-ups, its dispatch tables, and the reasons it cannot move. */
#include "internal.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

/* The function's instructions; false on bytes that do not decode. */
static bool decode_func(struct reloc_file *rf, const struct reloc_func *f, struct insn **insn,
			size_t *n)
{
	const uint8_t *code = f->code;
	size_t used = 0;

	*insn = xcalloc(f->size + 1, sizeof **insn);
	*n = decode_run(rf->dec, code, f->size, f->addr, *insn, f->size + 1, &used);
	for (size_t i = 0; i < *n; i++)
		if ((*insn)[i].kind == BR_INVALID || (*insn)[i].addr + (*insn)[i].len > f->addr + f->size)
			return false;
	return true;
}

static bool inside(const struct reloc_func *f, uint64_t a)
{
	return a >= f->addr && a < f->addr + f->size;
}

void reloc_add_fix(struct reloc_file *rf, struct reloc_func *f, struct reloc_fix fx)
{
	GROW(rf->fix, rf->fix_cap, rf->nfix + 1);
	rf->fix[rf->nfix++] = fx;
	f->nfix++;
}

void reloc_refuse(struct reloc_func *f, enum reloc_refusal why, uint64_t at)
{
	if (f->refused == RELOC_OK)
		f->refused = why, f->refused_at = at;
}

/* Each indirect jump: a tail call through a slot (its RIP-relative field
 * is fixed like any other), or a dispatch whose table is copied. x86's
 * tables are GCC's and Clang's two forms: 4-byte entries relative to the
 * table (PIC) or 8-byte absolute addresses (fixed-address code). */
static void find_tables(struct reloc_file *rf, struct reloc_func *f, const struct insn *insn,
			size_t n)
{
	struct jump_targets jt = { 0 };

	f->first_table = (uint32_t)rf->ntable;
	for (size_t j = 0; j < n; j++) {
		struct table_shape t = { 0 };
		enum jump_kind k;

		if (insn[j].kind != BR_JUMP_IND)
			continue;
		k = decode_jump_table_shape(rf->dec, &rf->img, f->code, insn, n, j, &jt, &t);
		if (k == JUMP_SLOT)
			continue;
		if (k != JUMP_TABLE) {
			/* a tail call through a pointer, unless the function names
			 * a table of its own code it could not read (checked with
			 * its operands, dispatch_suspect) */
			if (!f->unresolved_jump)
				f->unresolved_jump = insn[j].addr;
			continue;
		}
		bool pic = t.size == 4 && t.sign && t.shift == 0 && t.base == t.table;
		bool absolute = t.size == 8 && t.base == 0 && t.shift == 0;
		if (!pic && !absolute) {
			reloc_refuse(f, RELOC_TABLE_FORM, insn[j].addr);
			continue;
		}
		GROW(rf->table, rf->table_cap, rf->ntable + 1);
		rf->table[rf->ntable++] = (struct reloc_table){ t,
			elf_vaddr_bytes(&rf->img, t.table, t.count * t.size), 0 };
		f->ntable++;
	}
	free(jt.v);
}

static int table_at(const struct reloc_file *rf, const struct reloc_func *f, uint64_t a)
{
	for (uint32_t t = f->first_table; t < f->first_table + f->ntable; t++)
		if (rf->table[t].shape.table == a)
			return (int)t;
	return -1;
}

/* Does the data at a hold an offset or address into f, as an entry of a
 * dispatch table it could not resolve would (PIC: a 4-byte offset from
 * the table; fixed-address: an 8-byte address)? */
static bool names_own_code(const struct reloc_file *rf, const struct reloc_func *f, uint64_t a)
{
	const uint8_t *p = elf_vaddr_bytes(&rf->img, a, 8);
	int32_t rel;
	uint64_t abs;

	if (!p)
		return false;
	memcpy(&rel, p, 4), memcpy(&abs, p, 8);
	return inside(f, a + (uint64_t)(int64_t)rel) || inside(f, abs);
}

/* Is ptr inside one of f's own resolved tables (those are copied)? */
static bool in_own_table(const struct reloc_file *rf, const struct reloc_func *f, uint64_t at)
{
	for (uint32_t t = f->first_table; t < f->first_table + f->ntable; t++) {
		const struct table_shape *s = &rf->table[t].shape;

		if (at >= s->table && at < s->table + s->count * s->size)
			return true;
	}
	return false;
}

/* A code address in data that lands in f's middle: something may jump
 * there, and would run the original. */
static void check_pointers(const struct reloc_file *rf, struct reloc_func *f)
{
	size_t lo = 0, hi = rf->nptr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rf->ptr[mid].value <= f->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < rf->nptr && rf->ptr[lo].value < f->addr + f->size; lo++)
		if (!in_own_table(rf, f, rf->ptr[lo].at))
			reloc_refuse(f, RELOC_POINTED_INTO, rf->ptr[lo].at);
}

/* One instruction's address fields as fix-ups. A reference to the
 * function's own entry stays on the original (which jumps to the copy) so
 * that a function pointer taken here equals the one taken anywhere else. */
static void fields_of(struct reloc_file *rf, struct reloc_func *f, const struct insn *in,
		      const uint8_t *p, bool *table_seen)
{
	struct address_fields a;
	uint64_t end = in->addr + in->len;
	int t;

	if (!decode_address_fields(rf->dec, p, in->len, in->addr, &a)) {
		reloc_refuse(f, RELOC_UNDECODABLE, in->addr);
		return;
	}
	if (a.rel_at && !inside(f, a.rel_target))
		reloc_add_fix(rf, f, (struct reloc_fix){ a.rel_size == 4 ? FIX_REL32 : FIX_REL8_STUB,
			a.rel_size, 0, in->addr + a.rel_at, end, a.rel_target, true });
	if (a.rip_at && (t = table_at(rf, f, a.rip_target)) >= 0) {
		reloc_add_fix(rf, f, (struct reloc_fix){ FIX_RIP_TABLE, 4, (uint32_t)t,
			in->addr + a.rip_at, end, a.rip_target, false });
		table_seen[t - f->first_table] = true;
	} else if (a.rip_at && (!inside(f, a.rip_target) || a.rip_target == f->addr)) {
		reloc_add_fix(rf, f, (struct reloc_fix){ FIX_REL32, 4, 0, in->addr + a.rip_at, end,
			a.rip_target, false });
		if (f->unresolved_jump && names_own_code(rf, f, a.rip_target))
			reloc_refuse(f, RELOC_INDIRECT_JUMP, f->unresolved_jump);
	}
	if (!a.abs_at || !rf->fixed_address)
		return;
	if ((t = table_at(rf, f, a.abs_value)) >= 0) {
		reloc_add_fix(rf, f, (struct reloc_fix){ FIX_ABS_TABLE, a.abs_size, (uint32_t)t,
			in->addr + a.abs_at, end, a.abs_value, false });
		table_seen[t - f->first_table] = true;
	} else if (inside(f, a.abs_value) && a.abs_value != f->addr)
		reloc_add_fix(rf, f, (struct reloc_fix){ FIX_ABS_SELF, a.abs_size, 0,
			in->addr + a.abs_at, end, a.abs_value, false });
}

/* A rel8 branch from elsewhere into the middle cannot be redirected: its
 * reach is 127 bytes. (rel32 ones are, when the plan is written.) */
size_t reloc_xrefs_into(const struct reloc_xrefs *x, const struct reloc_func *f)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].target <= f->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void check_xrefs(struct reloc_func *f, const struct reloc_xrefs *x)
{
	for (size_t lo = reloc_xrefs_into(x, f); lo < x->n && x->v[lo].target < f->addr + f->size;
	     lo++)
		if (x->v[lo].size != 4 && x->v[lo].size != PLAN_A64_IMM26)
			reloc_refuse(f, RELOC_SHORT_BRANCH_IN, x->v[lo].field);
}

void reloc_analyse(struct reloc_file *rf, struct reloc_func *f, const struct reloc_xrefs *x)
{
	struct insn *insn;
	size_t n;
	const uint8_t *code = f->code;

	f->first_fix = (uint32_t)rf->nfix;
	f->first_table = (uint32_t)rf->ntable;
	if (f->size < (rf->img.arch == ARCH_AARCH64 ? 4 : 5))
		reloc_refuse(f, RELOC_TOO_SHORT, f->addr);
	if (!decode_func(rf, f, &insn, &n))
		reloc_refuse(f, RELOC_UNDECODABLE, f->addr);
	if (f->refused == RELOC_OK && n) {
		enum branch_kind last = insn[n - 1].kind;

		f->falls_off = last == BR_NONE || last == BR_COND || last == BR_CALL ||
			       last == BR_CALL_IND;
	}
	if (f->refused == RELOC_OK && rf->img.arch == ARCH_AARCH64) {
		reloc_a64_analyse(rf, f, insn, n);
		check_xrefs(f, x);
		check_pointers(rf, f);
	} else if (f->refused == RELOC_OK) {
		find_tables(rf, f, insn, n);
		bool *seen = xcalloc(f->ntable + 1, sizeof *seen);

		for (size_t i = 0; i < n; i++)
			if (!insn[i].padding || insn[i].kind != BR_NONE)
				fields_of(rf, f, &insn[i], code + (insn[i].addr - f->addr), seen);
		/* a table no instruction names would be read where it was: the
		 * copy would jump back into the original */
		for (uint32_t t = 0; t < f->ntable; t++)
			if (!seen[t])
				reloc_refuse(f, RELOC_TABLE_FORM, rf->table[f->first_table + t].shape.table);
		free(seen);
		check_xrefs(f, x);
		check_pointers(rf, f);
	}
	/* the entry jump overwrites 5 bytes (jmp rel32): a branch of its own
	 * that lands in them, or a call whose return does; AArch64's b is one
	 * word, which nothing can land inside */
	for (size_t i = 0; i < n && f->refused == RELOC_OK && rf->img.arch == ARCH_X86_64; i++) {
		uint64_t back = insn[i].addr + insn[i].len;

		if (((insn[i].kind == BR_COND || insn[i].kind == BR_JUMP) && insn[i].target > f->addr &&
		     insn[i].target < f->addr + 5) ||
		    ((insn[i].kind == BR_CALL || insn[i].kind == BR_CALL_IND) && back < f->addr + 5))
			f->entry_is_target = true;
	}
	free(insn);
	if (f->refused == RELOC_OK)
		reloc_unwind_check(rf, f);
	if (f->refused == RELOC_OK)
		reloc_block_layout(rf, f);
}

/* ---- branches into functions' middles, over the whole file ---- */

static int by_target(const void *a, const void *b)
{
	const struct reloc_xref *x = a, *y = b;

	return x->target < y->target ? -1 : x->target > y->target;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool is_start(const uint64_t *starts, size_t n, uint64_t a)
{
	return bsearch(&a, starts, n, sizeof *starts, by_u64) != NULL;
}

/* Every direct branch or call whose target is in another function but not
 * at its start. A function's cold part returning into its body is the
 * common case (GCC's foo.cold). */
void reloc_find_xrefs(struct reloc_file *rf, struct reloc_xrefs *x)
{
	const struct elf_funcs *fs = &rf->funcs;
	uint64_t *starts = xcalloc(fs->n + 1, sizeof *starts);
	struct insn *insn = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < fs->n; i++)
		starts[i] = fs->v[i].addr;
	qsort(starts, fs->n, sizeof *starts, by_u64);
	for (size_t i = 0; i < fs->n; i++) {
		const struct elf_func *f = &fs->v[i];
		const uint8_t *code = elf_func_bytes(&rf->img, f);
		size_t used = 0, n;

		if (!code || !f->size)
			continue;
		GROW(insn, cap, f->size + 1);
		n = decode_run(rf->dec, code, f->size, f->addr, insn, f->size + 1, &used);
		for (size_t k = 0; k < n; k++) {
			const struct insn *in = &insn[k];

			if (in->kind != BR_COND && in->kind != BR_JUMP && in->kind != BR_CALL)
				continue;
			struct address_fields a;

			if ((in->target >= f->addr && in->target < f->addr + f->size) ||
			    is_start(starts, fs->n, in->target) || !elf_vaddr_is_code(&rf->img, in->target) ||
			    !decode_address_fields(rf->dec, code + (in->addr - f->addr), in->len, in->addr,
						   &a) || (!a.rel_at && !a.a64_form))
				continue;
			GROW(x->v, x->cap, x->n + 1);
			/* AArch64: the word is the field and its PC the reference */
			x->v[x->n++] = a.a64_form ? (struct reloc_xref){ in->addr, in->addr, in->addr,
					in->target, f->addr, a.a64_form == A64_IMM26 ? PLAN_A64_IMM26 : 1 } :
				(struct reloc_xref){ in->addr, in->addr + a.rel_at, in->addr + in->len,
					in->target, f->addr, a.rel_size };
		}
	}
	if (x->n)
		qsort(x->v, x->n, sizeof *x->v, by_target);
	free(insn);
	free(starts);
}
