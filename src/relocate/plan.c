/* The arena: each moved function's block (its copy, the jump stubs of its
 * rel8 branches out, its tables) at the offset its placement asks, and
 * the fix-ups and patches that tie it to the object; written as a plan
 * (plan.h) for the preload library. */
#include "internal.h"
#include "plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define STUB_LEN 5              /* jmp rel32 */
#define A64_STUB_LEN 4          /* b imm26 */
#define A64_B 0x14000000u       /* b .: its imm26 a fix-up */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Copy, stubs, tables; a rel8 branch out (AArch64: a b.cond, cbz or tbz)
 * must reach its stub. */
void reloc_block_layout(struct reloc_file *rf, struct reloc_func *f)
{
	bool a64 = rf->img.arch == ARCH_AARCH64;
	uint64_t len = a64 ? A64_STUB_LEN : STUB_LEN;
	uint32_t stub = f->falls_off;
	uint64_t at;

	for (uint32_t i = f->first_fix; i < f->first_fix + f->nfix; i++) {
		const struct reloc_fix *x = &rf->fix[i];
		int64_t d = (int64_t)(f->size + len * stub) - (int64_t)(x->end - f->addr);

		if (x->kind != FIX_REL8_STUB && x->kind != FIX_A64_STUB)
			continue;
		if (a64 ? !plan_a64_fits(x->size, d) : d > 127) {
			f->refused = RELOC_SHORT_BRANCH_OUT, f->refused_at = a64 ? x->field : x->end - 2;
			return;
		}
		stub++;
	}
	f->nstub = stub - f->falls_off;
	f->block = f->size + len * stub;
	at = align_up(f->block, 8);
	f->tables_at = at;
	for (uint32_t t = f->first_table; t < f->first_table + f->ntable; t++) {
		rf->table[t].at = at;
		at = align_up(at + rf->table[t].shape.count * rf->table[t].shape.size, 8);
	}
	f->block_size = at;
}

/* ---- the arena of one file ---- */

static int by_addr(const void *a, const void *b)
{
	const struct reloc_copy *x = a, *y = b;

	return x->f->addr < y->f->addr ? -1 : x->f->addr > y->f->addr;
}

/* The moved function holding a, or NULL. */
static const struct reloc_copy *moved_at(const struct arena *a, uint64_t addr)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct reloc_func *f = a->p[mid].f;

		if (addr < f->addr)
			hi = mid;
		else if (addr >= f->addr + f->size)
			lo = mid + 1;
		else
			return &a->p[mid];
	}
	return NULL;
}

void arena_put_fix(struct arena *a, struct plan_fixup f)
{
	GROW(a->fix, a->fix_cap, a->nfix + 1);
	a->fix[a->nfix++] = f;
}

void arena_put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Where a reference to `target` goes: into a copy when it lands in a moved
 * function (a branch to one's entry too; a pointer to an entry stays on
 * the original, which jumps to the copy). */
static void value_of(const struct arena *a, uint64_t target, bool branch, uint64_t *value,
		     uint8_t *in)
{
	const struct reloc_copy *p = moved_at(a, target);

	if (p && (branch || target != p->f->addr)) {
		*value = p->at + (target - p->f->addr), *in = PLAN_IN_COPY;
		return;
	}
	*value = target, *in = PLAN_IN_OBJECT;
}

/* A field whose value is known now: both ends in the arena. */
static bool bake(struct arena *a, uint64_t field, uint64_t value, uint8_t value_in, uint64_t ref,
		 unsigned size)
{
	if (value_in != PLAN_IN_COPY)
		return false;
	arena_put_le(a->image + field, value - ref, size);
	return true;
}

void arena_rel32(struct arena *a, uint64_t field, uint64_t target, bool branch, uint64_t ref)
{
	struct plan_fixup f = { .at = field, .ref = ref, .size = 4, .at_in = PLAN_IN_COPY,
				.ref_in = PLAN_IN_COPY };

	value_of(a, target, branch, &f.value, &f.value_in);
	if (!bake(a, field, f.value, f.value_in, ref, 4))
		arena_put_fix(a, f);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The AArch64 word at `field` of the arena refers to `value`: its
 * immediate set now when both lie in the arena (which is page aligned,
 * so even adrp's pages are known), else a fix-up. An adrp stays on the
 * original's page: the :lo12: after it is of that page. */
static void a64_field(struct arena *a, uint64_t field, uint64_t target, bool branch, uint8_t form)
{
	struct plan_fixup f = { .at = field, .ref = field, .size = form, .at_in = PLAN_IN_COPY,
				.ref_in = PLAN_IN_COPY, .value = target, .value_in = PLAN_IN_OBJECT };
	int64_t d;

	if (form != PLAN_A64_ADRP)
		value_of(a, target, branch, &f.value, &f.value_in);
	d = plan_a64_delta(form, f.value, field);
	if (f.value_in == PLAN_IN_COPY && plan_a64_fits(form, d))
		arena_put_le(a->image + field, plan_a64_encode(get_le32(a->image + field), form, d), 4);
	else
		arena_put_fix(a, f);
}

static void copy_fixes(struct arena *a, const struct reloc_file *rf, const struct reloc_copy *p,
		       const struct exit_redirect *out)
{
	const struct reloc_func *f = p->f;
	uint64_t stub = p->at + f->size;

	/* falling off the copy's end goes where falling off the original's
	 * would */
	if (f->falls_off && rf->img.arch == ARCH_AARCH64) {
		arena_put_le(a->image + stub, A64_B, 4);
		a64_field(a, stub, f->addr + f->size, true, PLAN_A64_IMM26);
		stub += A64_STUB_LEN;
	} else if (f->falls_off) {
		a->image[stub] = 0xe9;
		arena_rel32(a, stub + 1, f->addr + f->size, true, stub + STUB_LEN);
		stub += STUB_LEN;
	}
	for (uint32_t i = f->first_fix; i < f->first_fix + f->nfix; i++) {
		const struct reloc_fix *x = &rf->fix[i];
		uint64_t field = p->at + (x->field - f->addr), end = p->at + (x->end - f->addr);
		bool of_table = x->kind == FIX_RIP_TABLE || x->kind == FIX_ABS_TABLE;
		uint64_t table = of_table ? p->at + rf->table[x->table].at : 0;

		uint64_t exit = out && x->branch ? out->stub(out->ctx, x->field, x->target) : 0;

		switch (x->kind) {
		case FIX_REL32:
			if (exit)
				arena_put_le(a->image + field, exit - end, 4);
			else
				arena_rel32(a, field, x->target, x->branch, end);
			break;
		case FIX_REL8_STUB:
			a->image[field] = (uint8_t)(int8_t)(stub - end);
			a->image[stub] = 0xe9;
			if (exit)
				arena_put_le(a->image + stub + 1, exit - (stub + STUB_LEN), 4);
			else
				arena_rel32(a, stub + 1, x->target, true, stub + STUB_LEN);
			stub += STUB_LEN;
			break;
		case FIX_A64:
			a64_field(a, field, x->target, x->branch, x->size);
			break;
		case FIX_A64_STUB:      /* within reach: reloc_block_layout */
			arena_put_le(a->image + field, plan_a64_encode(get_le32(a->image + field), x->size,
								 (int64_t)(stub - field)), 4);
			arena_put_le(a->image + stub, A64_B, 4);
			a64_field(a, stub, x->target, true, PLAN_A64_IMM26);
			stub += A64_STUB_LEN;
			break;
		case FIX_RIP_TABLE:
			arena_put_le(a->image + field, table - end, 4);
			break;
		case FIX_ABS_SELF:
		case FIX_ABS_TABLE:
			arena_put_fix(a, (struct plan_fixup){ .at = field, .at_in = PLAN_IN_COPY,
				.value = x->kind == FIX_ABS_TABLE ? table :
					 p->at + (x->target - f->addr),
				.value_in = PLAN_IN_COPY, .ref_in = PLAN_ABSOLUTE, .size = x->size });
			break;
		}
	}
}

/* Tables: PIC entries are rebased to the copied table; absolute ones are
 * the copies' addresses, known at run time. */
static void copy_tables(struct arena *a, const struct reloc_file *rf, const struct reloc_copy *p)
{
	const struct reloc_func *f = p->f;

	for (uint32_t t = f->first_table; t < f->first_table + f->ntable; t++) {
		const struct reloc_table *tb = &rf->table[t];
		uint64_t at = p->at + tb->at;

		for (uint64_t e = 0; e < tb->shape.count; e++) {
			const uint8_t *q = tb->bytes + e * tb->shape.size;
			uint64_t field = at + e * tb->shape.size, raw = 0;
			struct plan_fixup fx = { .at = field, .at_in = PLAN_IN_COPY,
						 .size = tb->shape.size };

			for (unsigned k = 0; k < tb->shape.size; k++)
				raw |= (uint64_t)q[k] << (8 * k);
			if (tb->shape.size == 4) {
				value_of(a, tb->shape.table + (uint64_t)(int64_t)(int32_t)raw, true,
					 &fx.value, &fx.value_in);
				fx.ref = at, fx.ref_in = PLAN_IN_COPY;
				if (!bake(a, field, fx.value, fx.value_in, at, 4))
					arena_put_fix(a, fx);
			} else {
				value_of(a, raw, true, &fx.value, &fx.value_in);
				fx.ref_in = PLAN_ABSOLUTE;
				arena_put_fix(a, fx);
			}
		}
	}
}

void arena_copy(struct arena *a, const struct reloc_file *rf, const struct reloc_copy *p,
		const struct exit_redirect *x)
{
	memcpy(a->image + p->at, p->f->code, p->f->size);
	copy_fixes(a, rf, p, x);
	copy_tables(a, rf, p);
}

static void put_patch(struct arena *a, struct plan_patch p)
{
	GROW(a->patch, a->patch_cap, a->npatch + 1);
	a->patch[a->npatch++] = p;
}

/* The entry becomes `jmp copy`; branches from code not moved into the
 * middle go to the copy's middle. */
static void object_patches(struct arena *a, const struct reloc_file *rf, const struct reloc_copy *p)
{
	const struct reloc_func *f = p->f;
	const struct reloc_xrefs *x = rf->xrefs;

	if (rf->img.arch == ARCH_AARCH64) {      /* b copy */
		put_patch(a, (struct plan_patch){ .at = f->addr, .bytes = { 0, 0, 0, A64_B >> 24 },
			.len = 4, .kind = PLAN_PATCH_ENTRY });
		arena_put_fix(a, (struct plan_fixup){ .at = f->addr, .at_in = PLAN_IN_OBJECT, .value = p->at,
			.value_in = PLAN_IN_COPY, .ref = f->addr, .ref_in = PLAN_IN_OBJECT,
			.size = PLAN_A64_IMM26 });
	} else {
		put_patch(a, (struct plan_patch){ .at = f->addr, .bytes = { 0xe9 }, .len = 5,
			.kind = PLAN_PATCH_ENTRY,
			.flags = f->entry_is_target ? PLAN_PATCH_INNER_TARGET : 0 });
		arena_put_fix(a, (struct plan_fixup){ .at = f->addr + 1, .at_in = PLAN_IN_OBJECT, .value = p->at,
			.value_in = PLAN_IN_COPY, .ref = f->addr + 5, .ref_in = PLAN_IN_OBJECT, .size = 4 });
	}
	/* x is sorted by target: only f's run of it, not every branch of the
	 * file for every moved function */
	for (size_t i = reloc_xrefs_into(x, f); i < x->n && x->v[i].target < f->addr + f->size; i++) {
		const struct reloc_xref *r = &x->v[i];

		if (moved_at(a, r->from))
			continue;
		struct plan_patch in = { .at = r->insn, .kind = PLAN_PATCH_BRANCH,
			.len = (uint8_t)(rf->img.arch == ARCH_AARCH64 ? 4 : r->end - r->insn) };
		const uint8_t *orig = elf_vaddr_bytes(&rf->img, r->insn, in.len);

		if (orig && in.len <= sizeof in.bytes)  /* both: it was decoded there */
			memcpy(in.bytes, orig, in.len);
		put_patch(a, in);
		arena_put_fix(a, (struct plan_fixup){ .at = r->field, .at_in = PLAN_IN_OBJECT,
			.value = p->at + (r->target - f->addr), .value_in = PLAN_IN_COPY,
			.ref = r->end, .ref_in = PLAN_IN_OBJECT, .size = r->size });
	}
}

static void arena_free(struct arena *a)
{
	replay_build_free(a->replay);
	free(a->image), free(a->p), free(a->fix), free(a->patch);
	*a = (struct arena){ 0 };
}

/* Each block where its placement asks, one after the other; int3 around;
 * then a replay's copies (rp, or NULL). */
static int arena_build(struct arena *a, struct reloc_file *rf, const struct reloc_place *place,
		       size_t n, const struct reloc_replay *rp, uint64_t *start, struct err *e)
{
	uint64_t cursor = 64, run = 0;
	struct reloc_tail tail;
	struct reloc_copy *told;

	*a = (struct arena){ 0 };
	a->p = xcalloc(n + 1, sizeof *a->p);
	for (size_t i = 0; i < n; i++) {
		const struct reloc_func *f = place[i].f;
		uint64_t anchor = place[i].anchor - f->addr, al = place[i].align;

		if (f->refused != RELOC_OK || !al || al > 4096 || al & (al - 1) || place[i].offset >= al)
			return err_set(e, "%s: cannot be placed so", f->name);
		if (rf->img.arch == ARCH_AARCH64 && place[i].offset % 4)
			return err_set(e, "%s: AArch64 code lies at a multiple of 4, not at %u", f->name,
				       place[i].offset);
		a->p[i].f = f;
		a->p[i].at = cursor + (place[i].offset + al - (cursor + anchor) % al) % al;
		start[i] = a->p[i].at;
		if (rp && f == rp->f)
			run = a->p[i].at;
		cursor = a->p[i].at + f->block_size;
	}
	a->n = n;
	qsort(a->p, n, sizeof *a->p, by_addr);
	for (size_t i = 0; i + 1 < n; i++)
		if (a->p[i].f == a->p[i + 1].f)
			return err_set(e, "%s: placed twice", a->p[i].f->name);
	if (rp && !(a->replay = replay_build_new(rf, rp, e)))
		return -1;
	if (a->replay)
		cursor = replay_layout(a->replay, cursor);
	/* the unwinder and debuggers are told of every copy that runs in the
	 * program: the moved ones and a replay's skip copy */
	told = xcalloc(n + 2, sizeof *told);
	memcpy(told, a->p, n * sizeof *told);
	if (a->replay)
		told[n] = replay_skip_copy(a->replay);
	a->data_at = align_up(cursor + 64, 4096);
	reloc_tail_build(rf, told, n + (a->replay != NULL), a->data_at, &tail);
	free(told);
	a->eh_frame_at = a->data_at + tail.eh_frame, a->symfile_size = tail.size;
	a->size = a->data_at + align_up(tail.size, 4096);
	a->image = xmalloc(a->size);
	memset(a->image, 0xcc, a->data_at);
	memset(a->image + a->data_at, 0, a->size - a->data_at);
	memcpy(a->image + a->data_at, tail.bytes, tail.size);
	for (size_t i = 0; i < tail.nfix; i++)
		arena_put_fix(a, tail.fix[i]);
	reloc_tail_free(&tail);
	for (size_t i = 0; i < n; i++) {
		arena_copy(a, rf, &a->p[i], NULL);
		object_patches(a, rf, &a->p[i]);
	}
	if (a->replay)
		replay_write(a, rf, a->replay, run);
	return 0;
}

/* ---- the plan file ---- */

struct plan_job {
	const struct reloc_plan_part *part;
	size_t nparts;
	struct arena *arena;
	uint64_t **start;
	const struct reloc_replay *replay;
};

int plan_put(FILE *f, const void *p, size_t n)
{
	static const uint8_t zero[8];
	size_t pad = (8 - n % 8) % 8;

	return fwrite(p, 1, n, f) != n || fwrite(zero, 1, pad, f) != pad ? -1 : 0;
}

static void object_span(const struct elf_image *img, uint64_t *lo, uint64_t *hi)
{
	*lo = UINT64_MAX, *hi = 0;
	for (size_t i = 0; i < img->nsec; i++)
		if (img->sec[i].flags & 2 /* SHF_ALLOC */ && img->sec[i].addr) {
			if (img->sec[i].addr < *lo)
				*lo = img->sec[i].addr;
			if (img->sec[i].addr + img->sec[i].size > *hi)
				*hi = img->sec[i].addr + img->sec[i].size;
		}
	if (*lo > *hi)
		*lo = *hi = 0;
}

static int put_object(FILE *f, const struct reloc_plan_part *part, const struct arena *a,
		      const uint64_t *start)
{
	const struct elf_image *img = &part->rf->img;
	struct plan_object o = { .build_id_len = (uint32_t)img->build_id_len,
		.path_len = (uint32_t)strlen(img->path) + 1, .arena_size = a->size,
		.nfixup = (uint32_t)a->nfix, .npatch = (uint32_t)a->npatch,
		.nfunc = (uint32_t)part->n, .nmap = (uint32_t)part->n + (a->replay != NULL),
		.data_at = a->data_at,
		.eh_frame_at = a->eh_frame_at, .symfile_size = a->symfile_size };
	int rc;

	memcpy(o.build_id, img->build_id, img->build_id_len);
	object_span(img, &o.span_lo, &o.span_hi);
	rc = plan_put(f, &o, sizeof o) | plan_put(f, img->path, o.path_len) | plan_put(f, a->image, a->size) |
	     plan_put(f, a->fix, a->nfix * sizeof *a->fix) | plan_put(f, a->patch, a->npatch * sizeof *a->patch);
	for (size_t i = 0; i < part->n; i++) {
		const struct reloc_func *fn = part->place[i].f;
		struct plan_map m = { start[i], fn->block, fn->addr, (uint32_t)strlen(fn->name), 0 };

		rc |= plan_put(f, &m, sizeof m) | plan_put(f, fn->name, m.name_len);
	}
	if (a->replay) {        /* the skip copy runs in the program: perf names it too */
		struct reloc_copy k = replay_skip_copy(a->replay);
		struct plan_map m = { k.at, k.f->block, k.f->addr, (uint32_t)strlen(k.f->name), 0 };

		rc |= plan_put(f, &m, sizeof m) | plan_put(f, k.f->name, m.name_len);
	}
	return rc;
}

static int write_plan(FILE *f, void *ctx)
{
	const struct plan_job *j = ctx;
	struct plan_header h = { PLAN_MAGIC, (uint32_t)j->nparts, j->replay ? PLAN_REPLAY : 0 };
	int rc = plan_put(f, &h, sizeof h);

	for (size_t i = 0; i < j->nparts; i++)
		rc |= put_object(f, &j->part[i], &j->arena[i], j->start[i]);
	for (size_t i = 0; i < j->nparts; i++)
		if (j->arena[i].replay)
			rc |= replay_put(f, j->arena[i].replay, (uint32_t)i);
	return rc;
}

/* Does the part place rp's function? */
static bool holds(const struct reloc_plan_part *part, const struct reloc_replay *rp)
{
	for (size_t i = 0; rp && i < part->n; i++)
		if (part->place[i].f == rp->f)
			return true;
	return false;
}

int reloc_plan_write_replay(const struct reloc_plan_part *part, size_t nparts,
			    const struct reloc_replay *rp, FILE *f, struct err *e)
{
	struct arena *a = xcalloc(nparts + 1, sizeof *a);
	uint64_t **start = xcalloc(nparts + 1, sizeof *start);
	struct plan_job job = { part, nparts, a, start, rp };
	size_t replayed = 0;
	int rc = 0;

	if (nparts > PLAN_MAX_OBJECTS)
		rc = err_set(e, "a plan moves code of at most %d files", PLAN_MAX_OBJECTS);
	for (size_t i = 0; i < nparts && !rc; i++) {
		const struct reloc_replay *here = holds(&part[i], rp) && !replayed++ ? rp : NULL;

		start[i] = xcalloc(part[i].n + 1, sizeof **start);
		rc = arena_build(&a[i], part[i].rf, part[i].place, part[i].n, here, start[i], e);
	}
	if (!rc && rp && !replayed)
		rc = err_set(e, "%s: the loop to replay is in no function the plan moves", rp->f->name);
	if (!rc && (write_plan(f, &job) || fflush(f)))
		rc = err_set(e, "cannot write the plan");
	for (size_t i = 0; i < nparts; i++)
		arena_free(&a[i]), free(start[i]);
	free(a), free(start);
	return rc;
}

int reloc_plan_write(const struct reloc_plan_part *part, size_t nparts, FILE *f,
		     struct err *e)
{
	return reloc_plan_write_replay(part, nparts, NULL, f, e);
}

int reloc_image(struct reloc_file *rf, const struct reloc_place *place, size_t n, uint64_t bias,
		uint64_t arena, uint8_t **image, size_t *size, uint64_t *start, struct err *e)
{
	struct arena a;

	if (arena_build(&a, rf, place, n, NULL, start, e)) {
		arena_free(&a);
		return -1;
	}
	for (size_t i = 0; i < a.nfix; i++) {
		const struct plan_fixup *f = &a.fix[i];
		uint64_t v;

		if (f->at_in != PLAN_IN_COPY)
			continue;
		if (plan_fixup_value(f, bias, arena, &v)) {
			uint64_t at = f->at;

			arena_free(&a);
			return err_set(e, "a fix-up at arena offset %#" PRIx64 " is out of reach", at);
		}
		plan_store(a.image + f->at, v, f->size);
	}
	*image = a.image, *size = a.size;
	a.image = NULL;
	arena_free(&a);
	return 0;
}
