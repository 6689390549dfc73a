/* Synthetic loops for `straddle calibrate`, generated at run time from a
 * table of instruction forms per architecture. They live in kernels/
 * because they are kernels in every sense the measuring layer uses (the
 * clear convention, placeable, a hot loop at known offsets) and go through
 * the same arena and sweep; generating bytes from a fixed table is not
 * reading code, so nothing here needs decode/ (which alone interprets
 * opcodes found in files). tests/unit/test_synth.c decodes what is made
 * here and checks it against the geometry this file reports.
 *
 * Shape (both architectures):
 *	prologue      count = len / 8 (x86: rcx; AArch64: x1 = len, step 8)
 *	loop:         [store] [advance] filler nops  count-down [sep] branch
 *	epilogue      return 0
 *	callee        (entry experiments) filler nops, return
 * A store to dst per iteration makes the loop seed 000's __clear_user;
 * without one it is a pure front-end loop; a chain of imuls (x86) makes it
 * a latency-bound one, 3 cycles an imul. `sep` (a nop) between the
 * count-down and the branch stops them fusing. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* One instruction form of a template table. */
struct form {
	uint8_t len;
	uint8_t b[16];
};

/* The roles a template table fills, in the same order for every arch. */
enum role {
	R_PROLOGUE,     /* x86: mov %rsi,%rcx; shr $3,%rcx; xor %eax,%eax; mov $8,%r8d */
	R_STORE_IMM,    /* an immediate store to dst */
	R_STORE_REG,    /* a register store to dst */
	R_STORE_AGAIN,  /* another store to dst, not advancing it */
	R_ADVANCE,      /* dst += 8, after an immediate store */
	R_ADVANCE_REG,  /* dst += 8 by a register, after a register store */
	R_COUNT,        /* the count-down that sets the flags */
	R_SEP,          /* a one-instruction nop: keeps count and branch apart */
	R_RET,          /* return (rax/x0 already 0) */
	R_SAVE_LR,      /* AArch64: keep x30 across the bl; x86: nothing */
	R_RESTORE_LR,
	R_LEAF_RET,     /* the callee's return: touches no register */
	R_CHAIN,        /* a link of a dependency chain (x86: r9 *= r9) */
	NROLES
};

struct template_table {
	enum arch arch;
	uint8_t align;                  /* instruction alignment */
	struct form role[NROLES];
	struct form nop[9];             /* nop[k]: a k-byte nop (x86 1..8; AArch64 4) */
	uint8_t branch_len, call_len;
};

/* x86-64: Intel SDM vol. 2B, NOP, the recommended multi-byte forms. */
static const struct template_table x86 = {
	.arch = ARCH_X86_64, .align = 1,
	.role = {
		[R_PROLOGUE] = { 15, { 0x48, 0x89, 0xf1, 0x48, 0xc1, 0xe9, 0x03, 0x31, 0xc0,
				       0x41, 0xb8, 0x08, 0x00, 0x00, 0x00 } },
		[R_STORE_IMM] = { 7, { 0x48, 0xc7, 0x07, 0, 0, 0, 0 } },   /* movq $0,(%rdi) */
		[R_STORE_REG] = { 3, { 0x48, 0x89, 0x07 } },               /* movq %rax,(%rdi) */
		[R_STORE_AGAIN] = { 3, { 0x48, 0x89, 0x07 } },             /* movq %rax,(%rdi) */
		[R_ADVANCE] = { 4, { 0x48, 0x83, 0xc7, 0x08 } },           /* addq $8,%rdi */
		[R_ADVANCE_REG] = { 3, { 0x4c, 0x01, 0xc7 } },             /* addq %r8,%rdi */
		[R_COUNT] = { 2, { 0xff, 0xc9 } },                         /* decl %ecx */
		[R_SEP] = { 1, { 0x90 } },
		[R_RET] = { 1, { 0xc3 } },
		[R_LEAF_RET] = { 1, { 0xc3 } },
		/* imul %r9,%r9: 3 cycles' latency on every x86-64 core since
		 * Core 2 and K10 (Agner Fog's instruction tables, uops.info) */
		[R_CHAIN] = { 4, { 0x4d, 0x0f, 0xaf, 0xc9 } },
	},
	.nop = {
		[1] = { 1, { 0x90 } },
		[2] = { 2, { 0x66, 0x90 } },
		[3] = { 3, { 0x0f, 0x1f, 0x00 } },
		[4] = { 4, { 0x0f, 0x1f, 0x40, 0x00 } },
		[5] = { 5, { 0x0f, 0x1f, 0x44, 0x00, 0x00 } },
		[6] = { 6, { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 } },
		[7] = { 7, { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 } },
		[8] = { 8, { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 } },
	},
	.branch_len = 2, .call_len = 5,     /* jnz rel8; call rel32 */
};

/* AArch64 (little endian words): Arm ARM C6. x1 counts bytes down by 8. */
static const struct template_table a64 = {
	.arch = ARCH_AARCH64, .align = 4,
	.role = {
		[R_PROLOGUE] = { 0, { 0 } },
		[R_STORE_IMM] = { 4, { 0x1f, 0x84, 0x00, 0xf8 } },  /* str xzr,[x0],#8 */
		[R_STORE_REG] = { 4, { 0x1f, 0x84, 0x00, 0xf8 } },  /* (no immediate store) */
		[R_STORE_AGAIN] = { 4, { 0x1f, 0x00, 0x00, 0xf9 } },/* str xzr,[x0] */
		[R_ADVANCE] = { 0, { 0 } },                         /* the store advances */
		[R_ADVANCE_REG] = { 0, { 0 } },
		[R_COUNT] = { 4, { 0x21, 0x20, 0x00, 0xf1 } },      /* subs x1,x1,#8 */
		[R_SEP] = { 4, { 0x1f, 0x20, 0x03, 0xd5 } },        /* nop */
		[R_RET] = { 8, { 0x00, 0x00, 0x80, 0xd2,            /* mov x0,#0 */
				 0xc0, 0x03, 0x5f, 0xd6 } },        /* ret */
		[R_SAVE_LR] = { 4, { 0xe9, 0x03, 0x1e, 0xaa } },    /* mov x9,x30 */
		[R_RESTORE_LR] = { 4, { 0xfe, 0x03, 0x09, 0xaa } }, /* mov x30,x9 */
		[R_LEAF_RET] = { 4, { 0xc0, 0x03, 0x5f, 0xd6 } },   /* ret */
	},
	.nop = { [4] = { 4, { 0x1f, 0x20, 0x03, 0xd5 } } },
	.branch_len = 4, .call_len = 4,     /* b.ne; bl */
};

static const struct template_table *table_for(enum arch a)
{
	return a == ARCH_X86_64 ? &x86 : a == ARCH_AARCH64 ? &a64 : NULL;
}

struct emitter {
	struct synth_kernel *s;
	uint32_t at;
	bool full;
};

static void put(struct emitter *m, const uint8_t *b, uint32_t n)
{
	if (m->at + n > sizeof m->s->code) {
		m->full = true;
		return;
	}
	memcpy(m->s->code + m->at, b, n);
	m->at += n;
}

static void put_form(struct emitter *m, const struct form *f)
{
	put(m, f->b, f->len);
}

static void put_le32(struct emitter *m, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(m, b, 4);
}

/* `bytes` of nops, in pieces of `piece` bytes (the last one shorter);
 * returns how many instructions. */
static uint32_t fill(struct emitter *m, const struct template_table *t, uint32_t bytes,
		     uint32_t piece)
{
	uint32_t n = 0;

	if (t->arch == ARCH_AARCH64)
		piece = 4;
	while (bytes) {
		uint32_t k = bytes < piece ? bytes : piece;

		put_form(m, &t->nop[k]);
		bytes -= k;
		n++;
	}
	return n;
}

/* The same forms for a kernel routine's copy: whole 8-byte nops, the
 * rest in one. */
void kernels_x86_nops(uint8_t *p, size_t n)
{
	while (n) {
		size_t k = n < 8 ? n : 8;

		memcpy(p, x86.nop[k].b, k);
		p += k, n -= k;
	}
}

/* The conditional branch back to `target` from m->at. */
static void branch_back(struct emitter *m, const struct template_table *t, uint32_t target)
{
	int32_t rel = (int32_t)target - (int32_t)(m->at + (t->arch == ARCH_X86_64 ? 2 : 0));

	if (t->arch == ARCH_X86_64) {
		uint8_t b[2] = { 0x75, (uint8_t)(int8_t)rel };     /* jnz rel8 */

		put(m, b, 2);
	} else {        /* b.ne: imm19 words, cond 0001 */
		put_le32(m, 0x54000001u | (((uint32_t)(rel / 4) & 0x7ffff) << 5));
	}
}

static void call_to(struct emitter *m, const struct template_table *t, uint32_t target)
{
	if (t->arch == ARCH_X86_64) {
		uint8_t op = 0xe8;

		put(m, &op, 1);
		put_le32(m, (uint32_t)((int32_t)target - (int32_t)(m->at + 4)));
	} else {        /* bl: imm26 words */
		put_le32(m, 0x94000000u | (((uint32_t)((int32_t)(target - m->at) / 4)) & 0x3ffffff));
	}
}

/* Trap bytes up to `to`: padding that is never run. */
static void pad_to(struct emitter *m, const struct template_table *t, uint32_t to)
{
	static const uint8_t int3 = 0xcc, brk[4] = { 0x00, 0x00, 0x20, 0xd4 };

	while (m->at < to && !m->full) {
		if (t->arch == ARCH_X86_64)
			put(m, &int3, 1);
		else
			put(m, brk, 4);
	}
}

static int check_spec(const struct template_table *t, const struct synth_spec *sp,
		      uint32_t fixed, struct err *e)
{
	if (!t)
		return err_set(e, "no synthetic-loop templates for %s", arch_name(sp->arch));
	if (sp->bytes < fixed || sp->bytes > 128)
		return err_set(e, "%s: a loop of %u bytes cannot hold its %u fixed bytes (at most 128)",
			       sp->name, sp->bytes, fixed);
	if ((sp->bytes - fixed) % t->align || sp->func_bytes % t->align ||
	    sp->func_offset % t->align)
		return err_set(e, "%s: sizes must be multiples of %u on %s", sp->name, t->align,
			       arch_name(sp->arch));
	if (sp->chain && !t->role[R_CHAIN].len)
		return err_set(e, "%s: no dependency-chain form on %s", sp->name, arch_name(sp->arch));
	if (sp->func_bytes && (sp->func_bytes < t->role[R_LEAF_RET].len || sp->func_bytes > 64 ||
			       sp->func_offset > 63))
		return err_set(e, "%s: a callee of %u bytes at %u (%u to 64 bytes, at 0 to 63)",
			       sp->name, sp->func_bytes, sp->func_offset, t->role[R_LEAF_RET].len);
	return 0;
}

/* Stores per iteration. The extra ones go to the same address: the
 * buffer is only as long as the count says, and a store's cost to the
 * back end does not depend on its address. */
static uint32_t store_count(const struct synth_spec *sp)
{
	return !sp->store ? 0 : sp->stores ? sp->stores : 1;
}

/* The loop's fixed part: everything but the filler. */
static uint32_t fixed_bytes(const struct template_table *t, const struct synth_spec *sp)
{
	uint32_t n = t->role[R_COUNT].len + t->branch_len;

	if (sp->store)
		n += (store_count(sp) - 1) * t->role[R_STORE_AGAIN].len +
		     t->role[sp->imm ? R_STORE_IMM : R_STORE_REG].len +
		     t->role[sp->imm ? R_ADVANCE : R_ADVANCE_REG].len;
	if (!sp->fused)
		n += t->role[R_SEP].len;
	if (sp->func_bytes)
		n += t->call_len;
	return n + sp->chain * t->role[R_CHAIN].len;
}

static void emit_loop(struct emitter *m, const struct template_table *t,
		      const struct synth_spec *sp, uint32_t fixed, uint32_t callee)
{
	struct synth_kernel *s = m->s;

	s->k.loop_start = m->at;
	for (uint32_t k = 0; k < sp->chain; k++)
		put_form(m, &t->role[R_CHAIN]);
	s->ninsn += sp->chain;
	s->nchain = sp->chain;
	if (sp->func_bytes) {
		call_to(m, t, callee);
		s->ninsn++;
		s->nstore += t->arch == ARCH_X86_64;    /* the return address */
	}
	if (sp->store) {
		for (uint32_t k = 1; k < store_count(sp); k++)
			put_form(m, &t->role[R_STORE_AGAIN]);
		put_form(m, &t->role[sp->imm ? R_STORE_IMM : R_STORE_REG]);
		s->ninsn += store_count(sp);
		s->nstore += store_count(sp);
		enum role adv = sp->imm ? R_ADVANCE : R_ADVANCE_REG;

		if (t->role[adv].len) {
			put_form(m, &t->role[adv]);
			s->ninsn++;
		}
	}
	s->ninsn += fill(m, t, sp->bytes - fixed, sp->fill ? sp->fill : 8);
	s->pair = m->at - s->k.loop_start;
	put_form(m, &t->role[R_COUNT]);
	if (!sp->fused) {
		put_form(m, &t->role[R_SEP]);
		s->ninsn++;
	}
	s->branch = m->at - s->k.loop_start;
	if (!sp->fused)
		s->pair = s->branch;
	branch_back(m, t, s->k.loop_start);
	s->ninsn += 2;
	s->k.loop_end = m->at;
}

int synth_build(const struct synth_spec *sp, struct synth_kernel *s, struct err *e)
{
	const struct template_table *t = table_for(sp->arch);
	uint32_t fixed = t ? fixed_bytes(t, sp) : 0, callee = 0;
	struct emitter m = { .s = s };

	if (check_spec(t, sp, fixed, e))
		return -1;
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", sp->name);
	put_form(&m, &t->role[R_PROLOGUE]);
	if (sp->func_bytes) {
		put_form(&m, &t->role[R_SAVE_LR]);
		/* The caller's loop on a line of its own, the callee two lines
		 * on at func_offset: only the callee's entry moves. */
		fill(&m, t, 64 - m.at, 8);
		callee = 128 + sp->func_offset;
	}
	emit_loop(&m, t, sp, fixed, callee);
	if (sp->func_bytes)
		put_form(&m, &t->role[R_RESTORE_LR]);
	put_form(&m, &t->role[R_RET]);
	if (sp->func_bytes) {
		pad_to(&m, t, callee);
		s->func_start = callee;
		s->func_bytes = sp->func_bytes;
		fill(&m, t, sp->func_bytes - t->role[R_LEAF_RET].len, sp->fill ? sp->fill : 8);
		put_form(&m, &t->role[R_LEAF_RET]);
	}
	if (m.full)
		return err_set(e, "%s: more than %zu bytes of code", sp->name, sizeof s->code);
	s->bytes = s->k.loop_end - s->k.loop_start;
	s->k = (struct kernel){ .name = s->name, .kind = KERNEL_CLEAR, .arch = sp->arch,
		.seed = "-", .summary = "synthetic loop (straddle calibrate)", .placeable = true,
		.code = s->code, .size = m.at, .loop_start = s->k.loop_start,
		.loop_end = s->k.loop_end };
	return 0;
}
