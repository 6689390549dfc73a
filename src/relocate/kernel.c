/* A kernel's leaf routine made a user-space copy: the code its entry
 * reaches, what the kernel patches at boot done to it as edits, its
 * exception-table entries and alternatives in the copy's offsets, and its
 * loops. relocate.h says what is refused and why. */
#include "internal.h"
#include "../cfg/cfg.h"
#include "../inputs/inputs.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How far from its entry a routine's code may lie: the copy holds every
 * byte between its first and its last instruction. */
#define REACH (64 * 1024)
#define X86_TRAP_PF 14

/* The x86 features whose alternatives the user-copy routines hold, by
 * their X86_FEATURE_ number (arch/x86/include/asm/cpufeatures.h: the
 * words of cpuid bits keep their numbers across releases; word 3 is
 * Linux's own, REP_GOOD and ALWAYS unchanged since 2.6) and the host
 * kernel's /proc/cpuinfo name (NULL: the kernel always sets it). */
static const struct kfeature {
	uint16_t number;
	const char *name, *flag;
} kfeatures[] = {
	{ 0 * 32 + 26, "XMM2", "sse2" },
	{ 3 * 32 + 16, "REP_GOOD", "rep_good" },
	{ 3 * 32 + 21, "ALWAYS", NULL },
	{ 9 * 32 + 9, "ERMS", "erms" },
	{ 9 * 32 + 20, "SMAP", "smap" },
	{ 12 * 32 + 10, "FZRM", "fzrm" },
	{ 12 * 32 + 11, "FSRS", "fsrs" },
	{ 12 * 32 + 12, "FSRC", "fsrc" },
	{ 16 * 32 + 16, "LA57", "la57" },
	{ 18 * 32 + 4, "FSRM", "fsrm" },
};

#define NFEATURES (sizeof kfeatures / sizeof kfeatures[0])

const char *kfeature_name(uint16_t feature, char buf[static 16])
{
	for (size_t i = 0; i < NFEATURES; i++)
		if (kfeatures[i].number == feature)
			return kfeatures[i].name;
	snprintf(buf, 16, "%u*32+%u", feature / 32, feature % 32);
	return buf;
}

const char *kfeature_flag(uint16_t feature)
{
	for (size_t i = 0; i < NFEATURES; i++)
		if (kfeatures[i].number == feature)
			return kfeatures[i].flag;
	return "";
}

int kfeature_from_name(const char *name)
{
	unsigned word, bit;
	char tail;

	for (size_t i = 0; i < NFEATURES; i++)
		if (strcasecmp(kfeatures[i].name, name) == 0)
			return kfeatures[i].number;
	if (sscanf(name, "%u*32+%u%c", &word, &bit, &tail) == 2 && word < 2048 && bit < 32)
		return (int)(word * 32 + bit);
	return -1;
}

/* ---- reading the image ---- */

struct ex_entry {
	uint64_t insn, fixup;
	int32_t data;
	uint64_t handler;       /* before 5.16 the third field named a handler */
};

struct alt_entry {
	uint64_t site, repl;
	uint16_t feature;
	bool inverted, call;
	uint8_t len, rlen;
	bool applied;
	uint32_t pool_at;       /* applied: its relocated replacement in the pool */
};

struct walk {
	struct kroutine *k;
	struct elf_image img;
	struct decoder *dec;
	struct err *e;
	uint64_t lo, hi;        /* the window: the entry's section, within REACH */
	uint8_t *view;          /* its bytes, chosen alternatives applied */
	uint8_t *seen;          /* 1 at the first byte of each reached instruction */
	uint64_t *todo;
	size_t ntodo, todo_cap;
	struct ex_entry *ex;
	size_t nex;
	bool old_extable;
	struct alt_entry *alts;
	size_t nalts;
	struct insn *insn;      /* reached, in the order met */
	size_t ninsn, insn_cap, edit_cap;
	uint8_t *pool;          /* relocated replacements of applied alternatives */
	size_t npool;
	struct kmodule mod;     /* a module's link: its symbols outside it, what was not applied */
	bool module;
};

static const struct elf_section *section_of(const struct elf_image *img, const char *name)
{
	for (size_t i = 0; i < img->nsec; i++)
		if (img->sec[i].name && strcmp(img->sec[i].name, name) == 0)
			return &img->sec[i];
	return NULL;
}

static int fail(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct walk *w, const char *fmt, ...)
{
	char msg[sizeof w->e->msg];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(w->e, "%s: %s: %s", w->k->path, w->k->name, msg);
}

/* "0xffffffff81e01d30 (__x86_return_thunk)" or the address alone. */
static const char *where(struct walk *w, uint64_t a, char *buf, size_t n)
{
	const char *s = elf_symbol_at(&w->img, a);

	if (s)
		snprintf(buf, n, "%#llx (%s)", (unsigned long long)a, s);
	else
		snprintf(buf, n, "%#llx", (unsigned long long)a);
	return buf;
}

static int32_t le32(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;

	return (int32_t)v;
}

static bool in_window(const struct walk *w, uint64_t a)
{
	return a >= w->lo && a < w->hi;
}

/* A module's relocation not applied in [a, a + n) (module.c): its bytes
 * are the file's, not the loader's; the first such, or NULL. */
static const struct kmodule_reloc *unapplied_in(const struct walk *w, uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < w->mod.nunapplied; i++) {
		const struct kmodule_reloc *u = &w->mod.unapplied[i];

		if (u->place >= a && u->place < a + n)
			return u;
	}
	return NULL;
}

static int refuse_unapplied(struct walk *w, const struct kmodule_reloc *u)
{
	return fail(w, "a relocation %s of %s at %s (%#llx), which straddle does not apply",
		    u->why, u->sym, u->where, (unsigned long long)u->place);
}

/* A table every entry of which is read (__ex_table, .altinstructions):
 * any field not relocated refuses the module. */
static int table_relocated(struct walk *w, const struct elf_section *s)
{
	const struct kmodule_reloc *u = unapplied_in(w, s->addr, s->size);

	return u ? refuse_unapplied(w, u) : 0;
}

/* The entries of __ex_table whose instruction is in the window: three
 * 32-bit fields, each relative to its own address (x86's relative
 * extable since 4.6); on AArch64 (5.16 on) the third is two 16-bit ones,
 * the type and its data, read as one here and split by ex_action. */
static int read_extable(struct walk *w)
{
	const struct elf_section *s = section_of(&w->img, "__ex_table");
	const uint8_t *p;
	size_t cap = 0;

	if (!s || (w->img.arch == ARCH_AARCH64 && !s->size))
		return 0;
	if (table_relocated(w, s))
		return -1;
	p = elf_vaddr_bytes(&w->img, s->addr, s->size);
	if (!p || s->size % 12)
		return fail(w, "__ex_table of %llu bytes is not 12-byte entries",
			    (unsigned long long)s->size);
	for (uint64_t off = 0; off < s->size; off += 12) {
		uint64_t at = s->addr + off;
		struct ex_entry x = { at + (uint64_t)(int64_t)le32(p + off),
			at + 4 + (uint64_t)(int64_t)le32(p + off + 4), le32(p + off + 8),
			at + 8 + (uint64_t)(int64_t)le32(p + off + 8) };

		if (!in_window(w, x.insn))
			continue;
		GROW(w->ex, cap, w->nex + 1);
		w->ex[w->nex++] = x;
	}
	return 0;
}

static const struct ex_entry *extable_at(const struct walk *w, uint64_t a)
{
	for (size_t i = 0; i < w->nex; i++)
		if (w->ex[i].insn == a)
			return &w->ex[i];
	return NULL;
}

/* ---- alternatives ---- */

/* struct alt_instr: 12 bytes (s32 site, s32 replacement, u16 cpuid with
 * ALTINSTR_FLAG_INV in bit 15, u8 lengths; 5.x kept a u8 padlen: 13) or,
 * since 6.3, 14 (a u32 of cpuid and flags: ALT_FLAG_NOT 1, ALT_FLAG_
 * DIRECT_CALL 2). The size is the one whose every entry reads sanely. */
static bool alt_read(const struct walk *w, const uint8_t *p, uint64_t at, unsigned size,
		     struct alt_entry *a)
{
	uint32_t cpuid = size == 14 ? (uint32_t)le32(p + 8) : (uint32_t)(p[8] | p[9] << 8);
	const uint8_t *lens = p + (size == 14 ? 12 : 10);

	*a = (struct alt_entry){ at + (uint64_t)(int64_t)le32(p), at + 4 + (uint64_t)(int64_t)le32(p + 4),
		0, false, false, lens[0], lens[1], false, 0 };
	if (size == 14) {
		a->feature = (uint16_t)cpuid;
		a->inverted = cpuid >> 16 & 1;
		a->call = cpuid >> 17 & 1;
	} else {
		a->feature = cpuid & 0x7fff;
		a->inverted = cpuid >> 15 & 1;
	}
	return a->len && a->rlen <= a->len && elf_vaddr_is_code(&w->img, a->site) &&
	       (!a->rlen || elf_vaddr_bytes(&w->img, a->repl, a->rlen));
}

static unsigned alt_entry_size(const struct walk *w, const struct elf_section *s,
			       const uint8_t *p)
{
	static const unsigned sizes[] = { 14, 13, 12 };

	for (size_t k = 0; k < 3; k++) {
		unsigned size = sizes[k];
		bool ok = s->size % size == 0;

		for (uint64_t off = 0; ok && off < s->size; off += size) {
			struct alt_entry a;

			ok = alt_read(w, p + off, s->addr + off, size, &a);
		}
		if (ok)
			return size;
	}
	return 0;
}

static int read_alternatives(struct walk *w)
{
	const struct elf_section *s = section_of(&w->img, ".altinstructions"),
				 *r = section_of(&w->img, ".altinstr_replacement");
	const uint8_t *p;
	unsigned size;
	size_t cap = 0;

	/* AArch64's entries name cpucaps, not x86 features: the file's bytes run */
	if (!s || !s->size || w->img.arch == ARCH_AARCH64)
		return 0;
	if (table_relocated(w, s) || (r && table_relocated(w, r)))
		return -1;
	p = elf_vaddr_bytes(&w->img, s->addr, s->size);
	if (!p || !(size = alt_entry_size(w, s, p)))
		return fail(w, ".altinstructions of %llu bytes: entries of no known size",
			    (unsigned long long)s->size);
	for (uint64_t off = 0; off < s->size; off += size) {
		struct alt_entry a;

		alt_read(w, p + off, s->addr + off, size, &a);
		if (!in_window(w, a.site) || a.site + a.len > w->hi)
			continue;
		GROW(w->alts, cap, w->nalts + 1);
		w->alts[w->nalts++] = a;
	}
	return 0;
}

static bool wanted(const struct alt_entry *a, const struct kroutine_opts *o)
{
	for (size_t i = 0; i < o->nalternatives; i++) {
		const char *n = o->alternatives[i];
		bool inv = n[0] == '!';

		if (inv == a->inverted && kfeature_from_name(n + inv) == a->feature)
			return true;
	}
	return false;
}

/* The replacement at the site: a displacement to anything outside it
 * re-aimed from there (the kernel's apply_relocation); *out its bytes. */
static int relocate_replacement(struct walk *w, const struct alt_entry *a, uint8_t *out)
{
	const uint8_t *r = elf_vaddr_bytes(&w->img, a->repl, a->rlen);
	uint32_t off = 0;

	memcpy(out, r, a->rlen);
	while (off < a->rlen) {
		struct insn in;
		struct address_fields f;
		uint64_t target;
		int64_t d;

		decode_one(w->dec, out + off, a->rlen - off, a->repl + off, &in);
		if (in.kind == BR_INVALID || !decode_address_fields(w->dec, out + off, in.len,
								    a->repl + off, &f))
			return fail(w, "the alternative at %#llx does not decode",
				    (unsigned long long)a->site);
		uint8_t at = f.rel_at ? f.rel_at : f.rip_at, size = f.rel_at ? f.rel_size : 4;
		target = f.rel_at ? f.rel_target : f.rip_target;
		if (at && (target < a->repl || target >= a->repl + a->rlen)) {
			d = (int64_t)(target - (a->site + off + in.len));
			if (size == 1 && (d < -128 || d > 127))
				return fail(w, "the alternative at %#llx: a short branch out of reach",
					    (unsigned long long)a->site);
			for (unsigned b = 0; b < size; b++)
				out[off + at + b] = (uint8_t)((uint64_t)d >> (8 * b));
		}
		off += in.len;
	}
	return 0;
}

/* Apply the chosen alternatives to the window's bytes, in table order as
 * the kernel does (a later entry for the same site wins); the rest of a
 * site after its replacement reads as one-byte nops here, the copy gets
 * the recommended forms (kernels/). */
static int apply_alternatives(struct walk *w, const struct kroutine_opts *o)
{
	for (size_t i = 0; i < w->nalts; i++) {
		struct alt_entry *a = &w->alts[i];
		uint8_t *at = w->view + (a->site - w->lo);

		if (!wanted(a, o))
			continue;
		if (a->call)
			return fail(w, "the alternative at %#llx calls a kernel function",
				    (unsigned long long)a->site);
		if (relocate_replacement(w, a, w->pool + w->npool))
			return -1;
		memcpy(at, w->pool + w->npool, a->rlen);
		memset(at + a->rlen, 0x90, a->len - a->rlen);
		a->applied = true;
		a->pool_at = (uint32_t)w->npool;
		w->npool += a->rlen;
	}
	return 0;
}

/* ---- the walk from the entry ---- */

static void push(struct walk *w, uint64_t a)
{
	GROW(w->todo, w->todo_cap, w->ntodo + 1);
	w->todo[w->ntodo++] = a;
}

static void add_edit(struct walk *w, const struct insn *in, enum kedit_kind kind, uint8_t reg,
		     const char *what)
{
	struct kroutine *k = w->k;

	GROW(k->edit, w->edit_cap, k->nedit + 1);
	/* offsets from the window for now; from the copy's start at the end */
	k->edit[k->nedit] = (struct kedit){ (uint32_t)(in->addr - w->lo), in->len, (uint8_t)kind,
					    reg, 0, 0, "" };
	snprintf(k->edit[k->nedit++].what, sizeof k->edit[0].what, "%s", what);
}

/* "rax".."r15" after a thunk's prefix: its number, -1 when none. */
static int thunk_register(const char *s)
{
	static const char *const regs[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi",
		"rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };

	for (int r = 0; r < 16; r++)
		if (strcmp(s, regs[r]) == 0)
			return r;
	return -1;
}

static bool prefixed(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (!s || strncmp(s, prefix, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* A return thunk: the kernel's __x86_return_thunk and its mitigations'
 * variants, all a ret on a CPU that needs none. */
static bool return_thunk(const char *s)
{
	return s && (strcmp(s, "__x86_return_thunk") == 0 || strcmp(s, "retbleed_return_thunk") == 0 ||
		     strcmp(s, "srso_return_thunk") == 0 || strcmp(s, "srso_alias_return_thunk") == 0 ||
		     strcmp(s, "its_return_thunk") == 0 || strcmp(s, "call_depth_return_thunk") == 0);
}

/* A static call's trampoline that returns at once (a NULL static_call_cond,
 * ARCH_DEFINE_STATIC_CALL_NULL_TRAMP): the call is a nop. */
static bool returns_at_once(struct walk *w, uint64_t tramp)
{
	const uint8_t *p = elf_vaddr_bytes(&w->img, tramp, 5);
	struct insn in;

	if (!p)
		return false;
	decode_one(w->dec, p, 5, tramp, &in);
	return in.kind == BR_RET ||
	       (in.kind == BR_JUMP && return_thunk(elf_symbol_at(&w->img, in.target)));
}

/* A symbol the module does not define (module.c gave it an address). */
static bool is_extern(const struct walk *w, uint64_t a)
{
	return w->module && a >= w->mod.extern_lo && a < w->mod.extern_hi;
}

/* A direct jump: a ret through a return thunk, a tail call through a
 * retpoline (refused), or the routine's own code (followed). */
static int on_jump(struct walk *w, const struct insn *in)
{
	const char *s = elf_symbol_at(&w->img, in->target), *reg;
	char b[160];

	if (return_thunk(s)) {
		add_edit(w, in, KEDIT_RET, 0, s);
		return 0;
	}
	if (prefixed(s, "__x86_indirect_thunk_", &reg) ||
	    prefixed(s, "__x86_indirect_jump_thunk_", &reg))
		return fail(w, "a tail call through %%%s at %#llx: it leaves for code of the "
			    "running kernel", reg, (unsigned long long)in->addr);
	if (is_extern(w, in->target))
		return fail(w, "a tail call of %s at %#llx: it leaves for another kernel function",
			    where(w, in->target, b, sizeof b), (unsigned long long)in->addr);
	if (!in_window(w, in->target))
		return fail(w, "it reaches %s from %#llx, beyond %d KiB of its entry or its "
			    "section", where(w, in->target, b, sizeof b),
			    (unsigned long long)in->addr, REACH / 1024);
	push(w, in->target);
	return 0;
}

static int on_call(struct walk *w, const struct insn *in)
{
	const char *s = elf_symbol_at(&w->img, in->target), *rest;
	char b[160];
	int r;

	if (s && (strcmp(s, "__fentry__") == 0 || strcmp(s, "__mcount") == 0)) {
		add_edit(w, in, KEDIT_NOP, 0, s);
		return 0;
	}
	if (prefixed(s, "__x86_indirect_thunk_", &rest) && (r = thunk_register(rest)) >= 0) {
		add_edit(w, in, KEDIT_CALL_REG, (uint8_t)r, s);
		return 0;
	}
	if (prefixed(s, "__SCT__", &rest) && returns_at_once(w, in->target)) {
		add_edit(w, in, KEDIT_NOP, 0, s);
		return 0;
	}
	return fail(w, "it calls %s at %#llx: a routine that calls another kernel function "
		    "cannot run in user space", where(w, in->target, b, sizeof b),
		    (unsigned long long)in->addr);
}

/* What an instruction's operands name: kernel data (RIP-relative) or an
 * address of the image (an absolute operand) cannot be followed into
 * user space. */
static int check_operands(struct walk *w, const struct insn *in, const uint8_t *p)
{
	struct address_fields f;
	const char *priv;
	char b[160];

	if (decode_privileged(w->dec, p, in->len, &priv))
		return fail(w, "it holds %s at %#llx, which user space cannot run", priv,
			    (unsigned long long)in->addr);
	if (!decode_address_fields(w->dec, p, in->len, in->addr, &f))
		return fail(w, "the bytes at %#llx do not decode", (unsigned long long)in->addr);
	/* AArch64's adr, adrp and literal loads name an address of the image;
	 * its PC-relative branches move with the copy */
	if (f.a64_form == A64_ADR || f.a64_form == A64_ADRP ||
	    (f.a64_form == A64_IMM19 && in->kind == BR_NONE))
		return fail(w, "it reads %s%s at %#llx: kernel data, not in the copy",
			    f.a64_form == A64_ADRP ? "the page " : "",
			    where(w, f.a64_target, b, sizeof b), (unsigned long long)in->addr);
	if (f.rip_at)
		return fail(w, "it reads %s at %#llx: kernel data, not in the copy",
			    where(w, f.rip_target, b, sizeof b), (unsigned long long)in->addr);
	/* a 4-byte operand is sign-extended: $0x81000000 is 0xffffffff81000000;
	 * small numbers are no addresses, whatever lies there (vmlinux links
	 * its per-cpu section at 0) */
	uint64_t v = f.abs_size == 8 ? f.abs_value : (uint64_t)(int64_t)(int32_t)f.abs_value;
	if (f.abs_at && v >= 1u << 20 && elf_vaddr_bytes(&w->img, v, 1))
		return fail(w, "it holds the kernel address %s at %#llx: not in the copy",
			    where(w, v, b, sizeof b), (unsigned long long)in->addr);
	return 0;
}

/* One instruction reached: 1 to go on to the next, 0 to stop (a branch
 * that does not fall through), -1 refused. */
static int step(struct walk *w, const struct insn *in)
{
	const struct ex_entry *x = extable_at(w, in->addr);
	const struct kmodule_reloc *u = unapplied_in(w, in->addr, in->len);

	if (u)
		return refuse_unapplied(w, u);
	if (check_operands(w, in, w->view + (in->addr - w->lo)))
		return -1;
	if (x)
		push(w, x->fixup);
	switch (in->kind) {
	case BR_NONE:
		return 1;
	case BR_COND:
		if (!in_window(w, in->target))
			return on_jump(w, in) ? -1 : 1;
		push(w, in->target);
		return 1;
	case BR_JUMP:
		return on_jump(w, in) ? -1 : 0;
	case BR_CALL:
		return on_call(w, in) ? -1 : 1;
	case BR_JUMP_IND: case BR_CALL_IND:
		return fail(w, "an indirect %s at %#llx: its target is the running kernel's",
			    in->kind == BR_CALL_IND ? "call" : "jump", (unsigned long long)in->addr);
	default:
		return 0;               /* ret, int3, ud2 */
	}
}

static int walk_from(struct walk *w, uint64_t a)
{
	char b[160];

	for (;;) {
		struct insn in;
		int go;

		if (!in_window(w, a))
			return fail(w, "it runs on to %s, beyond %d KiB of its entry or its section",
				    where(w, a, b, sizeof b), REACH / 1024);
		if (w->seen[a - w->lo])
			return 0;
		decode_one(w->dec, w->view + (a - w->lo), (size_t)(w->hi - a), a, &in);
		if (in.kind == BR_INVALID)
			return fail(w, "the bytes at %#llx do not decode", (unsigned long long)a);
		w->seen[a - w->lo] = 1;
		GROW(w->insn, w->insn_cap, w->ninsn + 1);
		w->insn[w->ninsn++] = in;
		if ((go = step(w, &in)) <= 0)
			return go;
		a += in.len;
	}
}

static int walk(struct walk *w)
{
	push(w, w->k->entry_addr);
	while (w->ntodo)
		if (walk_from(w, w->todo[--w->ntodo]))
			return -1;
	return 0;
}

/* ---- the copy: its span, edits, exception table, alternatives, loops ---- */

/* AArch64's entry (arch/arm64/include/asm/asm-extable.h): the type in
 * the low 16 bits, its data in the high. The types were renumbered (5.16:
 * FIXUP 1, UACCESS_ERR_ZERO 2, BPF 3; 6.0 on: BPF 1, UACCESS_ERR_ZERO 2,
 * KACCESS_ERR_ZERO 3, LOAD_UNALIGNED_ZEROPAD 4): 2 means the same in every
 * release, and is the type of every user access. Its data: the register
 * set to -EFAULT in bits 0-4, the one zeroed in 5-9 (31: xzr, none);
 * ex_handler_uaccess_err_zero writes them, then goes to the fixup. */
static int ex_action_a64(struct walk *w, const struct ex_entry *x, struct kex *out)
{
	unsigned type = (unsigned)x->data & 0xffff, data = (unsigned)x->data >> 16;

	if (type != 2)
		return fail(w, "the exception-table entry of %#llx has type %u, which is not "
			    "UACCESS_ERR_ZERO (2), the user access straddle models on AArch64",
			    (unsigned long long)x->insn, type);
	*out = (struct kex){ .kind = KEX_ERR_ZERO, .reg = (uint8_t)(data & 31),
			     .imm = (int32_t)(data >> 5 & 31), .type = (uint8_t)type };
	return 0;
}

/* An entry's action. Since 5.16 the third field is EX_TYPE_ | reg << 8 |
 * flags << 12 | imm << 16 (arch/x86/include/asm/extable_fixup_types.h;
 * the numbers are kept when a type goes, COPY 4 stays unused); before, it
 * named a handler function. */
static int ex_action(struct walk *w, const struct ex_entry *x, struct kex *out)
{
	const char *h = elf_symbol_at(&w->img, x->handler), *rest;
	unsigned type = (unsigned)x->data & 0xff;

	if (w->img.arch == ARCH_AARCH64)
		return ex_action_a64(w, x, out);
	*out = (struct kex){ .reg = (uint8_t)((unsigned)x->data >> 8 & 0xf),
		.flags = (uint8_t)((unsigned)x->data >> 12 & 0xf), .type = (uint8_t)type,
		.imm = x->data >> 16 };
	if (prefixed(h, "ex_handler_", &rest)) {
		*out = (struct kex){ .kind = KEX_JUMP };
		if (strcmp(rest, "fault") == 0 || strcmp(rest, "copy") == 0)
			out->kind = KEX_FAULT_AX;
		else if (strcmp(rest, "default") != 0 && strcmp(rest, "uaccess") != 0)
			return fail(w, "the exception-table entry of %#llx goes through %s, which "
				    "straddle does not model", (unsigned long long)x->insn, h);
		return 0;
	}
	switch (type) {
	case 1: case 3: case 14:        /* DEFAULT, UACCESS, DEFAULT_MCE_SAFE */
		out->kind = KEX_JUMP;
		return 0;
	case 2: case 4: case 15:        /* FAULT, COPY, FAULT_MCE_SAFE */
		out->kind = KEX_FAULT_AX;
		out->imm = X86_TRAP_PF;
		return 0;
	case 16:
		out->kind = KEX_POP_IMM_REG;
		return 0;
	case 17:
		out->kind = KEX_IMM_REG;
		return 0;
	case 19:
		out->kind = KEX_UCOPY_LEN;
		return 0;
	case 20:
		out->kind = KEX_UNMODELLED;
		return 0;
	}
	return fail(w, "the exception-table entry of %#llx has type %u, which is not one of a "
		    "user copy straddle models", (unsigned long long)x->insn, type);
}

static int by_addr(const void *a, const void *b)
{
	const struct insn *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_at(const void *a, const void *b)
{
	const struct kedit *x = a, *y = b;

	/* an alternative first: an edit inside its replacement comes after */
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->kind != KEDIT_ALT) - (y->kind != KEDIT_ALT);
}

static int exceptions(struct walk *w)
{
	struct kroutine *k = w->k;

	k->ex = xcalloc(w->ninsn + 1, sizeof *k->ex);
	for (size_t i = 0; i < w->ninsn; i++) {
		const struct ex_entry *x = extable_at(w, w->insn[i].addr);

		if (!x)
			continue;
		if (ex_action(w, x, &k->ex[k->nex]))
			return -1;
		k->ex[k->nex].fault = (uint32_t)(x->insn - k->base);
		k->ex[k->nex].fixup = (uint32_t)(x->fixup - k->base);
		k->nex++;
	}
	return 0;
}

/* Its first instruction, a branch by its target's name: "rep movsb",
 * "jmp memset_erms". */
static void replacement_text(struct walk *w, const struct alt_entry *a, char *buf, size_t n)
{
	const uint8_t *p = elf_vaddr_bytes(&w->img, a->repl, a->rlen);
	const char *s;
	struct insn in;
	bool div;

	decode_one(w->dec, p, a->rlen, a->repl, &in);
	if ((in.kind == BR_JUMP || in.kind == BR_CALL) && (s = elf_symbol_at(&w->img, in.target)))
		snprintf(buf, n, "%s %s", in.kind == BR_JUMP ? "jmp" : "call", s);
	else if (!decode_asm_text(w->dec, p, in.len, a->repl, a->repl, buf, n, &div))
		snprintf(buf, n, "?");
}

/* The sites in the copy; an applied one's last replacement as an edit. */
static int alternatives(struct walk *w, const struct kroutine_opts *o)
{
	struct kroutine *k = w->k;
	size_t applied = 0;
	char fb[16];

	k->alt = xcalloc(w->nalts + 1, sizeof *k->alt);
	for (size_t i = 0; i < w->nalts; i++) {
		const struct alt_entry *a = &w->alts[i];
		struct kalt *t = &k->alt[k->nalt];

		if (a->site < k->base || a->site + a->len > k->base + k->size)
			continue;
		*t = (struct kalt){ (uint32_t)(a->site - k->base), a->len, a->feature, a->inverted,
				    a->applied, a->rlen, "" };
		if (a->rlen)
			replacement_text(w, a, t->repl_text, sizeof t->repl_text);
		else {
			snprintf(t->repl_text, sizeof t->repl_text, "nothing");
		}
		k->nalt++;
		if (!a->applied)
			continue;
		applied++;
		for (size_t e = 0; e < k->nedit; e++)   /* a later entry for the site wins */
			if (k->edit[e].kind == KEDIT_ALT && k->edit[e].at == t->at)
				k->edit[e] = k->edit[--k->nedit];
		GROW(k->edit, w->edit_cap, k->nedit + 1);
		k->edit[k->nedit] = (struct kedit){ t->at, a->len, KEDIT_ALT, 0, a->pool_at, a->rlen,
						    "" };
		snprintf(k->edit[k->nedit++].what, sizeof k->edit[0].what, "%s%s",
			 a->inverted ? "!" : "", kfeature_name(a->feature, fb));
	}
	if (o->nalternatives && !applied)
		return fail(w, "no alternative of %s%s in its code (without --alternative, "
			    "'straddle kernels' lists those it has)", o->alternatives[0],
			    o->nalternatives > 1 ? " or the others" : "");
	if (k->nedit)           /* AArch64's copy has none: no array at all */
		qsort(k->edit, k->nedit, sizeof *k->edit, by_at);
	return 0;
}

/* The reached instructions with what lies between them as stops, so that
 * cfg/ sees one contiguous run; a loop of the routine has its header
 * among the reached ones. */
static void loops(struct walk *w)
{
	struct kroutine *k = w->k;
	/* each gap: a stop per 255 bytes */
	struct insn *run = xcalloc(2 * w->ninsn + k->size / 255 + 2, sizeof *run);
	size_t n = 0;
	uint64_t at = k->base;
	struct cfg g = { 0 };

	for (size_t i = 0; i < w->ninsn; i++) {
		while (at < w->insn[i].addr) {
			uint64_t gap = w->insn[i].addr - at;

			run[n++] = (struct insn){ .addr = at, .len = (uint8_t)(gap > 255 ? 255 : gap),
						  .kind = BR_STOP, .padding = 1 };
			at += run[n - 1].len;
		}
		run[n++] = w->insn[i];
		at = w->insn[i].addr + w->insn[i].len;
	}
	cfg_build(&g, run, n);
	k->loop = xcalloc(g.nloop + 1, sizeof *k->loop);
	for (size_t i = 0; i < g.nloop; i++) {
		const struct cfg_loop *l = &g.loop[i];
		uint64_t h = g.block[l->header].start;

		if (l->irreducible || !in_window(w, h) || !w->seen[h - w->lo])
			continue;
		k->loop[k->nloop++] = (struct kroutine_loop){ (uint32_t)(l->start - k->base),
			(uint32_t)(l->end - k->base), l->depth, l->innermost };
	}
	cfg_free(&g);
	free(run);
}

static int finish(struct walk *w, const struct kroutine_opts *o)
{
	struct kroutine *k = w->k;
	uint64_t end = 0;
	const uint8_t *bytes;

	qsort(w->insn, w->ninsn, sizeof *w->insn, by_addr);
	for (size_t i = 0; i < w->ninsn; i++)
		if (w->insn[i].addr + w->insn[i].len > end)
			end = w->insn[i].addr + w->insn[i].len;
	k->base = w->insn[0].addr;
	k->size = (uint32_t)(end - k->base);
	k->entry = (uint32_t)(k->entry_addr - k->base);
	bytes = elf_vaddr_bytes(&w->img, k->base, k->size);
	k->code = xmalloc(k->size);
	memcpy(k->code, bytes, k->size);
	for (size_t i = 0; i < k->nedit; i++)
		k->edit[i].at -= (uint32_t)(k->base - w->lo);
	k->pool = w->pool, k->npool = w->npool;
	w->pool = NULL;
	if (exceptions(w) || alternatives(w, o))
		return -1;
	loops(w);
	return 0;
}

/* ---- opening ---- */

/* A module's release: the first word of its vermagic (.modinfo's
 * "vermagic=6.1.0-57-amd64 SMP preempt mod_unload modversions "). */
static void read_vermagic(struct walk *w)
{
	const struct elf_section *s = section_of(&w->img, ".modinfo");
	const char *p, *end;

	if (!s || s->type == SHT_NOBITS || s->offset > w->img.size ||
	    s->size > w->img.size - s->offset)
		return;
	p = (const char *)w->img.data + s->offset;
	end = p + s->size;
	for (; p < end; p += strnlen(p, (size_t)(end - p)) + 1)
		if ((size_t)(end - p) > 9 && strncmp(p, "vermagic=", 9) == 0) {
			size_t n = strcspn(p + 9, " ");

			if (n < sizeof w->k->release && p + 9 + n < end)
				snprintf(w->k->release, sizeof w->k->release, "%.*s", (int)n, p + 9);
			return;
		}
}

/* "6.1.0-57-amd64" from linux_banner ("Linux version 6.1.0-57-amd64 (...") */
static void read_release(struct walk *w)
{
	if (w->module) {
		read_vermagic(w);
		return;
	}
	uint64_t at;
	const uint8_t *p;
	char fmt[] = "Linux version %63s";

	size_t n = 96;

	if (elf_symbol_value(&w->img, "linux_banner", &at) != 0)
		return;
	while (n > 16 && !elf_vaddr_bytes(&w->img, at, n))     /* its section may end first */
		n--;
	if ((p = elf_vaddr_bytes(&w->img, at, n)) != NULL) {
		char line[97];

		memcpy(line, p, n);
		line[n] = '\0';
		if (sscanf(line, fmt, w->k->release) != 1)
			w->k->release[0] = '\0';
	}
}

static int check_image(struct walk *w, uint64_t *size)
{
	const struct elf_image *img = &w->img;

	if (img->arch != ARCH_X86_64 && img->arch != ARCH_AARCH64)
		return err_set(w->e, "%s: %s: straddle runs x86-64 and AArch64 kernels' routines "
			       "(this is %s)", w->k->path, w->k->name, arch_name(img->arch));
	/* arm64's vmlinux is linked -pie (CONFIG_RELOCATABLE, always on there):
	 * a PIE that holds the kernel's banner or exception table is one */
	uint64_t banner;
	if (img->type != ET_EXEC && (img->arch != ARCH_AARCH64 || img->type != ET_DYN ||
				     (elf_symbol_value(img, "linux_banner", &banner) != 0 &&
				      !section_of(img, "__ex_table"))))
		return err_set(w->e, "%s: a shared object or PIE, not a kernel image or module",
			       w->k->path);
	if (!section_of(img, ".symtab"))
		return err_set(w->e, "%s: no symbols: give the unstripped vmlinux (Debian's "
			       "linux-image-*-dbg)", w->k->path);
	/* an inner label is an entry too: 6.1's __put_user_nocheck_1
	 * (SYM_INNER_LABEL) has no type */
	if (elf_function_symbol(img, w->k->name, &w->k->entry_addr, size) != 0 &&
	    elf_symbol_value(img, w->k->name, &w->k->entry_addr) != 0)
		return err_set(w->e, "%s: no function named %s", w->k->path, w->k->name);
	if (!elf_vaddr_is_code(img, w->k->entry_addr))
		return err_set(w->e, "%s: %s is not in executable code", w->k->path, w->k->name);
	return 0;
}

/* The window: the entry's section, within REACH of the entry. */
static void window(struct walk *w)
{
	const struct elf_image *img = &w->img;
	uint64_t a = w->k->entry_addr;

	for (size_t i = 0; i < img->nsec; i++) {
		const struct elf_section *s = &img->sec[i];

		if (!(s->flags & SHF_EXECINSTR) || a < s->addr || a >= s->addr + s->size)
			continue;
		w->lo = a - s->addr > REACH ? a - REACH : s->addr;
		w->hi = s->addr + s->size - a > REACH ? a + REACH : s->addr + s->size;
	}
	w->view = xmalloc(w->hi - w->lo);
	memcpy(w->view, elf_vaddr_bytes(img, w->lo, w->hi - w->lo), w->hi - w->lo);
	w->seen = xcalloc(w->hi - w->lo, 1);
}

static void walk_free(struct walk *w)
{
	free(w->view), free(w->seen), free(w->todo), free(w->ex), free(w->alts);
	free(w->insn), free(w->pool);
	decoder_free(w->dec);
	elf_close(&w->img);
	kmodule_free(&w->mod);
}

/* The file's image (a compressed module decompressed, a package's
 * member read out of it); a module's linked (module.c). */
static int open_image(struct walk *w, const char *path, struct err *e)
{
	struct elf_image obj;
	int rc;

	if (inputs_open_one(path, &obj, e))
		return -1;
	if (obj.type != ET_REL) {
		w->img = obj;
		return 0;
	}
	w->module = true;
	rc = kmodule_link(&obj, &w->img, &w->mod, e);
	if (!rc && elf_changed(&obj))
		rc = err_set(e, "%s: changed while reading", path);
	elf_close(&obj);
	return rc;
}

int kroutine_open(const char *path, const struct kroutine_opts *o, struct kroutine *out,
		  struct err *e)
{
	struct walk w = { .k = out, .e = e };
	uint64_t size;
	int rc = -1;

	*out = (struct kroutine){ .path = xstrdup(path), .name = xstrdup(o->func) };
	for (size_t i = 0; i < o->nalternatives; i++) {
		const char *n = o->alternatives[i];

		if (kfeature_from_name(n + (n[0] == '!')) < 0) {
			err_set(e, "%s: no CPU feature named %s (ERMS, FSRM, REP_GOOD, ..., or "
				"WORD*32+BIT)", path, n + (n[0] == '!'));
			kroutine_free(out);
			return -1;
		}
	}
	if (open_image(&w, path, e)) {
		kroutine_free(out);
		return -1;
	}
	out->arch = w.img.arch;
	if (check_image(&w, &size))
		goto out;
	if (out->arch == ARCH_AARCH64 && o->nalternatives) {
		err_set(e, "%s: --alternative applies x86-64 features; an AArch64 image's "
			"routine runs the file's bytes", path);
		goto out;
	}
	w.dec = decoder_new(w.img.arch);
	window(&w);
	read_release(&w);
	if (read_extable(&w) || read_alternatives(&w))
		goto out;
	w.pool = xmalloc(w.nalts * 255 + 1);
	if (apply_alternatives(&w, o) || walk(&w) || finish(&w, o))
		goto out;
	if (elf_changed(&w.img)) {
		err_set(e, "%s: changed while reading", path);
		goto out;
	}
	rc = 0;
out:
	walk_free(&w);
	if (rc)
		kroutine_free(out);
	return rc;
}

void kroutine_free(struct kroutine *k)
{
	free(k->path), free(k->name), free(k->code), free(k->edit), free(k->ex), free(k->alt);
	free(k->loop), free(k->pool);
	*k = (struct kroutine){ 0 };
}
