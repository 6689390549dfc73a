/* What moving an AArch64 function takes: its PC-relative immediates sorted
 * into fix-ups, its dispatch tables checked, and the reasons it cannot move.
 * Every field is a word's immediate (decode/'s a64_form), re-encoded where
 * the copy lands (plan.h, PLAN_A64_):
 * - b, bl out: rebased (imm26, +-128 MiB: the arena is mapped beside the
 *   object); b.cond, cbz, tbz out (imm19 +-1 MiB, imm14 +-32 KiB): to a
 *   `b target` stub after the copy, which clobbers no register (x16/x17
 *   may be live on the way to a .cold part);
 * - adrp: rebased to the same page, so the add or ldr :lo12: that pairs
 *   with it needs no change; one naming a page of the function's own code
 *   is refused when the :lo12: after it makes an address of its middle;
 * - adr and ldr (literal) within the function move with it; one reaching
 *   out (+-1 MiB of the original, not necessarily of the copy) is refused,
 *   and so is a literal within it that holds a word read as a field (the
 *   pool is decoded as code, as a stripped file has no $d mapping symbols);
 * - a dispatch table (GCC's: entries relative to an `adr` label in the
 *   function) whose every entry leads into the function is read where it
 *   is: base and targets move together. One with an entry out is refused. */
#include "internal.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static bool inside(const struct reloc_func *f, uint64_t a)
{
	return a >= f->addr && a < f->addr + f->size;
}

static uint8_t plan_form(uint8_t a64_form)
{
	switch (a64_form) {
	case A64_IMM26: return PLAN_A64_IMM26;
	case A64_IMM19: return PLAN_A64_IMM19;
	case A64_IMM14: return PLAN_A64_IMM14;
	case A64_ADR: return PLAN_A64_ADR;
	default: return PLAN_A64_ADRP;
	}
}

/* Does every entry of the table lead into f? (decode_jump_table_shape
 * leaves those leading elsewhere out of its targets.) */
static bool entries_inside(const struct reloc_file *rf, const struct reloc_func *f,
			   const struct table_shape *t)
{
	const uint8_t *p = elf_vaddr_bytes(&rf->img, t->table, t->count * t->size);

	if (!p || !inside(f, t->base))
		return false;
	for (uint64_t e = 0; e < t->count; e++) {
		uint64_t v = 0, m = 1ull << (8 * t->size - 1);

		for (unsigned k = 0; k < t->size; k++)
			v |= (uint64_t)p[e * t->size + k] << (8 * k);
		if (t->sign && t->size < 8)
			v = (v ^ m) - m;
		if (!inside(f, t->base + (v << t->shift)))
			return false;
	}
	return true;
}

static void check_tables(struct reloc_file *rf, struct reloc_func *f, const struct insn *insn,
			 size_t n)
{
	struct jump_targets jt = { 0 };

	for (size_t j = 0; j < n; j++) {
		struct table_shape t = { 0 };

		if (insn[j].kind != BR_JUMP_IND)
			continue;
		if (decode_jump_table_shape(rf->dec, &rf->img, f->code, insn, n, j, &jt, &t) != JUMP_TABLE) {
			struct address_fields a;

			/* GCC's tail call through a pointer goes by x16 or x17
			 * (its TAILCALL_ADDR_REGS, the only ones BTI lets a br
			 * reach a `bti c` from); another br is a computed jump
			 * (glibc's vfprintf: `add x0, x27, x0; br x0`) whose
			 * targets, reached from the copy, would be the
			 * original's. A tail call is refused only when the
			 * function takes an address of its own code (below). */
			decode_address_fields(rf->dec, f->code + (insn[j].addr - f->addr), insn[j].len,
					      insn[j].addr, &a);
			if (a.a64_reg != 16 && a.a64_reg != 17)
				reloc_refuse(f, RELOC_INDIRECT_JUMP, insn[j].addr);
			else if (!f->unresolved_jump)
				f->unresolved_jump = insn[j].addr;
		} else if (!entries_inside(rf, f, &t)) {
			reloc_refuse(f, RELOC_TABLE_FORM, insn[j].addr);
		}
	}
	free(jt.v);
}

static void add(struct reloc_file *rf, struct reloc_func *f, enum fix_kind k, uint8_t form,
		const struct insn *in, uint64_t target, bool branch)
{
	reloc_add_fix(rf, f, (struct reloc_fix){ .kind = (uint8_t)k, .size = form, .field = in->addr,
		.end = in->addr, .target = target, .branch = branch });
}

/* The registers holding, from an adrp, a page of f's own code: the
 * :lo12: half after one says whether the address is in f's middle (the
 * copy would have to name its own, and an adrp names the original's page).
 * Conservative: a register stays marked until an adrp sets it again, in
 * the order of the bytes, not of the paths (clearing it at a call, say,
 * would miss an adrp whose use lies past the call on another path), so a
 * later load through a reloaded register may be refused for nothing
 * (glibc's _IO_proc_close). */
struct own_pages {
	uint64_t page[32];
	bool set[32];
	/* the words its literal loads read, inside it (a literal pool) */
	uint64_t pool[64];
	size_t npool;
};

static void one_insn(struct reloc_file *rf, struct reloc_func *f, const struct insn *in,
		     struct own_pages *own)
{
	struct address_fields a;
	uint64_t t;

	if (!decode_address_fields(rf->dec, f->code + (in->addr - f->addr), in->len, in->addr, &a)) {
		reloc_refuse(f, RELOC_UNDECODABLE, in->addr);
		return;
	}
	t = a.a64_target;
	if (a.a64_lo12 && own->set[a.a64_reg]) {
		uint64_t full = own->page[a.a64_reg] + a.a64_lo12_off;

		if (inside(f, full) && full != f->addr)
			reloc_refuse(f, RELOC_ADRP_OWN_PAGE, in->addr);
	}
	switch (a.a64_form) {
	case A64_NONE:
		return;
	case A64_IMM26:
		if (!inside(f, t))
			add(rf, f, FIX_A64, PLAN_A64_IMM26, in, t, true);
		return;
	case A64_IMM19:
	case A64_IMM14:
		if (in->kind == BR_COND && !inside(f, t))
			add(rf, f, FIX_A64_STUB, plan_form(a.a64_form), in, t, true);
		else if (in->kind != BR_COND && (!inside(f, t) || t == f->addr))
			reloc_refuse(f, RELOC_NEAR_REF_OUT, in->addr);
		else if (in->kind != BR_COND && own->npool < sizeof own->pool / sizeof *own->pool)
			own->pool[own->npool++] = t;
		else if (in->kind != BR_COND)
			reloc_refuse(f, RELOC_POOL_FIELD, in->addr);     /* too many to check */
		return;
	case A64_ADR:
		/* its own entry as a pointer must stay the original's */
		if (!inside(f, t) || t == f->addr)
			reloc_refuse(f, RELOC_NEAR_REF_OUT, in->addr);
		else if (f->unresolved_jump)
			reloc_refuse(f, RELOC_INDIRECT_JUMP, f->unresolved_jump);
		return;
	default:        /* A64_ADRP */
		own->set[a.a64_reg] = t < f->addr + f->size && t + 4096 > f->addr;
		own->page[a.a64_reg] = t;
		add(rf, f, FIX_A64, PLAN_A64_ADRP, in, t, false);
		return;
	}
}

void reloc_a64_analyse(struct reloc_file *rf, struct reloc_func *f, const struct insn *insn,
		       size_t n)
{
	struct own_pages own = { 0 };

	check_tables(rf, f, insn, n);
	for (size_t i = 0; i < n; i++)
		one_insn(rf, f, &insn[i], &own);
	/* a literal (up to a q register's 16 bytes) is data the bytes before
	 * it decoded as code: a word of it that reads as a branch or an adrp
	 * would be "fixed up" in the copy */
	for (uint32_t i = f->first_fix; i < f->first_fix + f->nfix; i++)
		for (size_t k = 0; k < own.npool; k++)
			if (rf->fix[i].field >= own.pool[k] && rf->fix[i].field < own.pool[k] + 16)
				reloc_refuse(f, RELOC_POOL_FIELD, rf->fix[i].field);
}
