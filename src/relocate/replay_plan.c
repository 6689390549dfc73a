/* The copies a replay of one loop adds to its file's arena (plan.h, "a
 * loop replayed from the program's own state"): a timed copy of the
 * loop's function at each offset under test, a probe copy and a skip
 * copy, and the exit stubs and trampolines they jump to. The timed
 * copies keep every byte of the loop's own blocks: only the first bytes
 * of the blocks the loop leaves to (never run in a replay) become a jump
 * to an exit stub, and a branch out of the function from the loop goes
 * to one. x86-64 only. */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define JMP_LEN 5               /* jmp rel32 */
#define STUB_LEN 20             /* movl $exit, %fs:EXIT; jmp *%fs:LEAVE */
#define TRAMP_MAX 160           /* a trampoline: 61 bytes of its own, the moved instructions */

struct replay_build {
	const struct reloc_replay *rp;
	struct reloc_func_cfg c;
	uint32_t loop;                  /* the loop, in c.g */
	uint8_t *in_loop;               /* per block of c.g: 1 in the loop */
	uint64_t header;
	uint64_t *exit;                 /* where the loop leaves to, sorted: its exits' numbers */
	size_t nexit, exit_cap;
	size_t disp, ndisp;             /* the header's instructions the counter's jump takes */
	uint64_t disp_end;
	/* where each lies in the arena: the timed copies, then the probe (the
	 * function's first byte), and each one's exit stubs */
	uint64_t *copy, *stubs;
	struct exit_plan *way;          /* each exit's way to its stub */
	uint64_t skip, probe_tramp, skip_tramp, skip_trap, run;
	struct plan_replay_trap *trap;
	size_t ntrap, trap_cap;
};

static int refuse(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool in_func(const struct reloc_func *f, uint64_t a)
{
	return a >= f->addr && a < f->addr + f->size;
}

/* The block holding address a (blocks sorted by start), CFG_NONE none. */
static uint32_t block_of(const struct cfg *g, uint64_t a)
{
	size_t lo = 0, hi = g->nblock;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->block[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && a < g->block[lo - 1].end ? (uint32_t)(lo - 1) : CFG_NONE;
}

static bool loop_byte(const struct replay_build *rb, uint64_t a)
{
	uint32_t b = block_of(&rb->c.g, a);

	return b != CFG_NONE && rb->in_loop[b];
}

static void add_exit(struct replay_build *rb, uint64_t target)
{
	for (size_t i = 0; i < rb->nexit; i++)
		if (rb->exit[i] == target)
			return;
	GROW(rb->exit, rb->exit_cap, rb->nexit + 1);
	rb->exit[rb->nexit++] = target;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t exit_number(const struct replay_build *rb, uint64_t target)
{
	const uint64_t *p = bsearch(&target, rb->exit, rb->nexit, sizeof *rb->exit, by_u64);

	return p ? (size_t)(p - rb->exit) : SIZE_MAX;
}

/* The loop of f spanning [start, end) (of equal spans the outermost: the
 * one place measures) and its body. An irreducible cycle is replayed from
 * its header, the block its retreating edge enters: every trip around it
 * passes there, and a replay ends where the body is left, so a way in
 * through its other entry is never taken inside a replay (bc's 0xbc4d:
 * 1..353 iterations a replay, every snapshot alike at every offset). */
static int find_loop(struct replay_build *rb, const struct reloc_func *f, uint64_t start,
		     uint64_t end, char *why, size_t n)
{
	const struct cfg *g = &rb->c.g;
	uint32_t pick = CFG_NONE;

	for (uint32_t i = 0; i < g->nloop; i++)
		if (g->loop[i].start == start && g->loop[i].end == end &&
		    (pick == CFG_NONE || g->loop[i].depth < g->loop[pick].depth))
			pick = i;
	if (pick == CFG_NONE)
		return refuse(why, n, "no loop of %s spans those bytes", f->name);
	rb->loop = pick;
	rb->in_loop = xcalloc(g->nblock + 1, 1);
	for (uint32_t k = 0; k < g->loop[pick].nbody; k++)
		rb->in_loop[g->members[g->loop[pick].body + k]] = 1;
	rb->header = g->block[g->loop[pick].header].start;
	return 0;
}

/* Every way out of the loop: a successor outside it, a branch out of the
 * function. A way a copy cannot catch refuses the loop. */
static int find_exits(struct replay_build *rb, const struct reloc_func *f, char *why, size_t n)
{
	const struct cfg *g = &rb->c.g;

	for (uint32_t b = 0; b < g->nblock; b++) {
		const struct cfg_block *k = &g->block[b];
		const struct insn *last;

		if (!rb->in_loop[b])
			continue;
		last = cfg_block_last(g, b);
		for (uint32_t i = 0; i < 2 + k->nxsucc; i++) {
			uint32_t s = i < 2 ? k->succ[i] : g->xsucc[k->xsucc + i - 2];

			if (s != CFG_NONE && !rb->in_loop[s])
				add_exit(rb, g->block[s].start);
		}
		if ((last->kind == BR_COND || last->kind == BR_JUMP) && !in_func(f, last->target))
			add_exit(rb, last->target);
		if (last->kind == BR_JUMP_IND && !k->nxsucc)
			return refuse(why, n, "an indirect jump at %#llx leaves it where no copy can "
				      "stop it", (unsigned long long)last->addr);
		if (last->kind != BR_JUMP && last->kind != BR_JUMP_IND && last->kind != BR_RET &&
		    last->kind != BR_STOP && last->addr + last->len >= f->addr + f->size)
			return refuse(why, n, "it falls off its function's end");
	}
	if (!rb->nexit)
		return refuse(why, n, "it has no way out but a call (exit, longjmp, a throw): "
			      "nothing would end a replay");
	qsort(rb->exit, rb->nexit, sizeof *rb->exit, by_u64);
	return 0;
}

/* The header's first instructions, at least the 5 bytes of the jump to
 * a counter's trampoline, each movable there: no branch lands among them
 * (after the first), none calls or jumps indirectly, none names the
 * function's own bytes, and a short branch has a long form. */
static int find_displaced(struct replay_build *rb, struct reloc_file *rf,
			  const struct reloc_func *f, char *why, size_t n)
{
	const struct cfg *g = &rb->c.g;
	size_t i = g->block[g->loop[rb->loop].header].first;
	uint64_t at = rb->header;

	rb->disp = i;
	for (; at < rb->header + JMP_LEN; i++) {
		const struct insn *in = &rb->c.insn[i];
		const uint8_t *p = f->code + (in->addr - f->addr);
		struct address_fields a;

		if (i >= rb->c.n)
			return refuse(why, n, "its header lies within 5 bytes of its function's end");
		if (in->addr != rb->header && cfg_block_at(g, in->addr) != CFG_NONE)
			return refuse(why, n, "a branch lands within the first 5 bytes of its header, "
				      "where the jump to its iteration counter goes");
		if (in->kind != BR_NONE && in->kind != BR_COND && in->kind != BR_JUMP)
			return refuse(why, n, "a call, an indirect branch or a return lies in the first "
				      "5 bytes of its header, where the jump to its iteration counter "
				      "goes");
		if (!decode_address_fields(rf->dec, p, in->len, in->addr, &a))
			return refuse(why, n, "its header's bytes at %#llx do not decode",
				      (unsigned long long)in->addr);
		if ((a.rip_at && in_func(f, a.rip_target)) ||
		    (a.abs_at && rf->fixed_address && in_func(f, a.abs_value)))
			return refuse(why, n, "its header's first instructions name its function's own "
				      "bytes");
		if (in->kind != BR_NONE && a.rel_size == 1 && !(p[a.rel_at - 1] >= 0x70 &&
		    p[a.rel_at - 1] <= 0x7f) && p[a.rel_at - 1] != 0xeb)
			return refuse(why, n, "its header's branch at %#llx has no long form (loop, "
				      "jrcxz)", (unsigned long long)in->addr);
		at += in->len;
	}
	rb->ndisp = i - rb->disp;
	rb->disp_end = at;
	return 0;
}

static int analyse(struct replay_build *rb, struct reloc_file *rf, const struct reloc_func *f,
		   uint64_t start, uint64_t end, char *why, size_t n)
{
	if (rf->img.arch != ARCH_X86_64)
		return refuse(why, n, "replay runs x86-64 code only");
	if (f->refused != RELOC_OK)
		return refuse(why, n, "its function cannot be copied: %s", reloc_refusal_name(f->refused));
	reloc_func_cfg(rf, f, &rb->c);
	if (find_loop(rb, f, start, end, why, n) || find_exits(rb, f, why, n) ||
	    find_displaced(rb, rf, f, why, n))
		return -1;
	return 0;
}

void replay_build_free(struct replay_build *rb)
{
	if (!rb)
		return;
	reloc_func_cfg_free(&rb->c);
	free(rb->in_loop), free(rb->exit), free(rb->copy), free(rb->stubs), free(rb->trap);
	free(rb->way);
	free(rb);
}

int reloc_replay_check(struct reloc_file *rf, const struct reloc_func *f, uint64_t start,
		       uint64_t end, char *why, size_t n)
{
	struct replay_build *rb = xcalloc(1, sizeof *rb);
	int rc = analyse(rb, rf, f, start, end, why, n);

	replay_build_free(rb);
	return rc;
}

static void plan_exits(struct replay_build *rb);

struct replay_build *replay_build_new(struct reloc_file *rf, const struct reloc_replay *rp,
				      struct err *e)
{
	struct replay_build *rb = xcalloc(1, sizeof *rb);
	char why[256];

	rb->rp = rp;
	if (!rp->noffset || analyse(rb, rf, rp->f, rp->loop_start, rp->loop_end, why, sizeof why)) {
		err_set(e, "%s: its loop cannot be replayed: %s", rp->f->name,
			rp->noffset ? why : "no offset to replay it at");
		replay_build_free(rb);
		return NULL;
	}
	plan_exits(rb);
	return rb;
}

/* ---- layout ---- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* The first place from cursor where the loop's first byte lies at
 * `offset` of its line. */
static uint64_t placed(const struct replay_build *rb, uint64_t cursor, uint64_t offset)
{
	const struct reloc_replay *rp = rb->rp;
	uint64_t anchor = rp->loop_start - rp->f->addr, al = rp->align;

	return cursor + (offset + al - (cursor + anchor) % al) % al;
}

uint64_t replay_layout(struct replay_build *rb, uint64_t cursor)
{
	const struct reloc_replay *rp = rb->rp;
	const struct reloc_func *f = rp->f;
	size_t k;

	rb->copy = xcalloc(rp->noffset + 2, sizeof *rb->copy);
	rb->stubs = xcalloc(rp->noffset + 2, sizeof *rb->stubs);
	for (k = 0; k <= rp->noffset; k++) {    /* the last: the probe */
		rb->copy[k] = placed(rb, cursor, rp->offset[k < rp->noffset ? k : 0]);
		rb->stubs[k] = rb->copy[k] + f->block_size;        /* as plan_exits reckons */
		cursor = rb->stubs[k] + rb->nexit * STUB_LEN;
	}
	rb->probe_tramp = align_up(cursor, 16);
	cursor = rb->probe_tramp + TRAMP_MAX;
	/* the skip copy runs in the program: at the running copy's offset */
	rb->skip = placed(rb, cursor, rp->offset[0]);
	rb->skip_tramp = align_up(rb->skip + f->block_size, 16);
	return rb->skip_tramp + TRAMP_MAX;
}

struct reloc_copy replay_skip_copy(const struct replay_build *rb)
{
	return (struct reloc_copy){ rb->rp->f, rb->skip };
}

/* ---- writing ---- */

static void put_tls(struct arena *a, uint64_t field, enum plan_slot slot)
{
	arena_put_fix(a, (struct plan_fixup){ .at = field, .at_in = PLAN_IN_COPY, .value = slot,
		.value_in = PLAN_IN_TLS, .ref_in = PLAN_ABSOLUTE, .size = 4 });
}

/* An instruction reading or writing a slot, %fs:disp32: its bytes, the
 * slot's field their last four. */
static uint64_t put_slot_insn(struct arena *a, uint64_t at, const uint8_t *bytes, size_t n,
			      enum plan_slot slot)
{
	memcpy(a->image + at, bytes, n);
	put_tls(a, at + n, slot);
	return at + n + 4;
}

/* movl $exit, %fs:EXIT; jmp *%fs:LEAVE */
static void put_stub(struct arena *a, uint64_t at, uint32_t exit)
{
	static const uint8_t movl[] = { 0x64, 0xc7, 0x04, 0x25 }, jmp[] = { 0x64, 0xff, 0x24, 0x25 };

	at = put_slot_insn(a, at, movl, sizeof movl, PLAN_SLOT_EXIT);
	arena_put_le(a->image + at, exit, 4);
	put_slot_insn(a, at + 4, jmp, sizeof jmp, PLAN_SLOT_LEAVE);
}

/* Where a branch of copy `base` leaving its loop goes: its exit stub. */
struct copy_ctx {
	const struct replay_build *rb;
	uint64_t stubs;
};

static uint64_t exit_stub_of(const void *ctx, uint64_t field, uint64_t target)
{
	const struct copy_ctx *x = ctx;
	const struct reloc_func *f = x->rb->rp->f;
	size_t e = exit_number(x->rb, target);
	uint32_t b = block_of(&x->rb->c.g, field);

	if (in_func(f, target) || e == SIZE_MAX || b == CFG_NONE || !x->rb->in_loop[b])
		return 0;
	const struct insn *last = cfg_block_last(&x->rb->c.g, b);

	/* a call out of the loop comes back: only its branches leave */
	if (last->kind != BR_COND && last->kind != BR_JUMP)
		return 0;
	return x->stubs + e * STUB_LEN;
}

/* How a copy's exit inside the function reaches its stub: a jmp rel32
 * where five bytes are free, else a jmp rel8 to the stub or to a slot of
 * five free bytes within its reach holding a jmp rel32 (bytes no replay
 * runs: outside the loop, after the exits' own jumps), else an int3 (the
 * kernel's time then in the span, the same at every offset). Planned once,
 * from the function's first byte: the same in every copy. */
enum exit_way { EXIT_OUT, EXIT_JMP32, EXIT_JMP8, EXIT_SLOT, EXIT_TRAP };

struct exit_plan {
	uint8_t way;                    /* enum exit_way */
	uint64_t slot;                  /* EXIT_SLOT: from the function's first byte */
};

static uint64_t free_run(const uint8_t *used, uint64_t at, uint64_t size)
{
	uint64_t n = 0;

	while (at + n < size && !used[at + n] && n < JMP_LEN)
		n++;
	return n;
}

static bool rel8_reaches(uint64_t from_end, uint64_t to)
{
	int64_t d = (int64_t)(to - from_end);

	return d >= -128 && d <= 127;
}

static void plan_exit(struct replay_build *rb, uint8_t *used, size_t e, struct exit_plan *x)
{
	const struct reloc_func *f = rb->rp->f;
	uint64_t t = rb->exit[e] - f->addr, stub = f->block_size + e * STUB_LEN;
	uint64_t room = 1 + free_run(used, t + 1, f->size);

	if (!in_func(f, rb->exit[e])) {
		x->way = EXIT_OUT;
		return;
	}
	x->way = room >= JMP_LEN ? EXIT_JMP32 : room < 2 ? EXIT_TRAP :
		 rel8_reaches(t + 2, stub) ? EXIT_JMP8 : EXIT_TRAP;
	for (uint64_t s = t + 2 > 128 ? t + 2 - 128 : 0; x->way == EXIT_TRAP && room >= 2 &&
	     s + JMP_LEN <= f->size && rel8_reaches(t + 2, s); s++)
		if (free_run(used, s, f->size) == JMP_LEN && (s >= t + 2 || s + JMP_LEN <= t)) {
			x->way = EXIT_SLOT, x->slot = s;
			memset(used + s, 1, JMP_LEN);
		}
	memset(used + t, 1, x->way == EXIT_JMP32 ? JMP_LEN : x->way == EXIT_TRAP ? 1 : 2);
}

static void plan_exits(struct replay_build *rb)
{
	const struct reloc_func *f = rb->rp->f;
	uint8_t *used = xcalloc(f->size + 1, 1);

	for (uint64_t a = 0; a < f->size; a++)
		used[a] = loop_byte(rb, f->addr + a) || exit_number(rb, f->addr + a) != SIZE_MAX;
	rb->way = xcalloc(rb->nexit + 1, sizeof *rb->way);
	for (size_t e = 0; e < rb->nexit; e++)
		plan_exit(rb, used, e, &rb->way[e]);
	free(used);
}

/* A jump written over a copy's bytes [lo, hi) takes them from the fix-ups
 * that would write there when the plan is applied. */
static void drop_fixes(struct arena *a, uint64_t lo, uint64_t hi)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nfix; i++) {
		const struct plan_fixup *x = &a->fix[i];

		if (!(x->at_in == PLAN_IN_COPY && x->at < hi && x->at + x->size > lo))
			a->fix[n++] = *x;
	}
	a->nfix = n;
}

static void put_jmp8(struct arena *a, uint64_t at, uint64_t to)
{
	drop_fixes(a, at, at + 2);
	a->image[at] = 0xeb;
	a->image[at + 1] = (uint8_t)(to - (at + 2));
}

static void put_jmp32(struct arena *a, uint64_t at, uint64_t to)
{
	drop_fixes(a, at, at + JMP_LEN);
	a->image[at] = 0xe9;
	arena_put_le(a->image + at + 1, to - (at + JMP_LEN), 4);
}

/* Copy k (the probe: ncopies) with its exits made stubs. */
static void put_replay_copy(struct arena *a, const struct reloc_file *rf, struct replay_build *rb,
			    size_t k)
{
	const struct reloc_func *f = rb->rp->f;
	struct copy_ctx ctx = { rb, rb->stubs[k] };
	struct exit_redirect out = { exit_stub_of, &ctx };
	uint64_t base = rb->copy[k];

	arena_copy(a, rf, &(struct reloc_copy){ f, base }, &out);
	for (size_t e = 0; e < rb->nexit; e++) {
		uint64_t at = base + (rb->exit[e] - f->addr), stub = rb->stubs[k] + e * STUB_LEN;
		const struct exit_plan *x = &rb->way[e];

		put_stub(a, stub, (uint32_t)e);
		if (x->way == EXIT_JMP32) {
			put_jmp32(a, at, stub);
		} else if (x->way == EXIT_JMP8) {
			put_jmp8(a, at, stub);
		} else if (x->way == EXIT_SLOT) {
			put_jmp8(a, at, base + x->slot);
			put_jmp32(a, base + x->slot, stub);
		} else if (x->way == EXIT_TRAP) {
			drop_fixes(a, at, at + 1);
			a->image[at] = 0xcc;
			GROW(rb->trap, rb->trap_cap, rb->ntrap + 1);
			rb->trap[rb->ntrap++] = (struct plan_replay_trap){ at, (uint32_t)e, (uint32_t)k };
		}
	}
}

/* Where a trampoline's moved branch, or its fall-through, goes: in the
 * skip copy its own copy of the target (the function whole); in the
 * probe the probe's bytes while in the loop, else the exit's stub. */
static void branch_to(struct arena *a, const struct replay_build *rb, bool probe, uint64_t field,
		      uint64_t target, uint64_t ref)
{
	const struct reloc_func *f = rb->rp->f;
	size_t k = rb->rp->noffset;

	if (probe && !loop_byte(rb, target))
		arena_put_le(a->image + field, rb->stubs[k] + exit_number(rb, target) * STUB_LEN - ref, 4);
	else if (in_func(f, target))
		arena_put_le(a->image + field, (probe ? rb->copy[k] : rb->skip) + (target - f->addr) - ref,
			     4);
	else
		arena_rel32(a, field, target, true, ref);
}

/* One moved instruction at `at`, a short branch made long: its end. */
static uint64_t put_moved(struct arena *a, const struct reloc_file *rf, const struct replay_build *rb,
			  bool probe, const struct insn *in, uint64_t at)
{
	const uint8_t *p = rb->rp->f->code + (in->addr - rb->rp->f->addr);
	struct address_fields x;
	uint64_t field;

	decode_address_fields(rf->dec, p, in->len, in->addr, &x);   /* it did: analyse */
	if (in->kind == BR_NONE) {
		memcpy(a->image + at, p, in->len);
		if (x.rip_at)
			arena_rel32(a, at + x.rip_at, x.rip_target, false, at + in->len);
		return at + in->len;
	}
	memcpy(a->image + at, p, x.rel_at);
	field = at + x.rel_at;
	if (x.rel_size == 1) {
		uint8_t op = p[x.rel_at - 1];

		field = at + x.rel_at - 1;
		if (op == 0xeb) {
			a->image[field++] = 0xe9;
		} else {
			a->image[field++] = 0x0f;
			a->image[field++] = (uint8_t)(0x80 | (op & 0xf));
		}
	}
	branch_to(a, rb, probe, field, x.rel_target, field + 4);
	return field + 4;
}

/* The counter's trampoline at `at`, reached by a jmp over the header's
 * first bytes of copy `base`: %rcx kept, no flag changed; each arrival
 * counted and the countdown taken, an int3 when it is spent (its
 * address in *trap); then the header's moved instructions and a jump to
 * the rest. */
static void put_trampoline(struct arena *a, const struct reloc_file *rf, struct replay_build *rb,
			   bool probe, uint64_t base, uint64_t at, uint64_t *trap)
{
	static const uint8_t save[] = { 0x64, 0x48, 0x89, 0x0c, 0x25 },   /* mov %rcx, %fs:X */
		load[] = { 0x64, 0x48, 0x8b, 0x0c, 0x25 },                  /* mov %fs:X, %rcx */
		inc[] = { 0x48, 0x8d, 0x49, 0x01 }, dec[] = { 0x48, 0x8d, 0x49, 0xff };
	const struct reloc_func *f = rb->rp->f;
	uint64_t jrcxz, hdr = base + (rb->header - f->addr);
	const struct insn *last = &rb->c.insn[rb->disp + rb->ndisp - 1];

	drop_fixes(a, hdr, rb->disp_end + (base - f->addr));
	memset(a->image + hdr, 0xcc, rb->disp_end - rb->header);
	a->image[hdr] = 0xe9;
	arena_put_le(a->image + hdr + 1, at - (hdr + JMP_LEN), 4);
	at = put_slot_insn(a, at, save, sizeof save, PLAN_SLOT_SAVE);
	at = put_slot_insn(a, at, load, sizeof load, PLAN_SLOT_COUNT);
	memcpy(a->image + at, inc, sizeof inc), at += sizeof inc;
	at = put_slot_insn(a, at, save, sizeof save, PLAN_SLOT_COUNT);
	at = put_slot_insn(a, at, load, sizeof load, PLAN_SLOT_DOWN);
	jrcxz = at, at += 2;
	memcpy(a->image + at, dec, sizeof dec), at += sizeof dec;
	at = put_slot_insn(a, at, save, sizeof save, PLAN_SLOT_DOWN);
	at = put_slot_insn(a, at, load, sizeof load, PLAN_SLOT_SAVE);
	for (size_t i = rb->disp; i < rb->disp + rb->ndisp; i++)
		at = put_moved(a, rf, rb, probe, &rb->c.insn[i], at);
	if (last->kind != BR_JUMP) {
		a->image[at] = 0xe9;
		branch_to(a, rb, probe, at + 1, rb->disp_end, at + JMP_LEN);
		at += JMP_LEN;
	}
	a->image[jrcxz] = 0xe3;
	a->image[jrcxz + 1] = (uint8_t)(at - (jrcxz + 2));
	at = put_slot_insn(a, at, load, sizeof load, PLAN_SLOT_SAVE);
	a->image[at] = 0xcc;
	*trap = at;
}

void replay_write(struct arena *a, const struct reloc_file *rf, struct replay_build *rb,
		  uint64_t run)
{
	size_t k = rb->rp->noffset;
	uint64_t probe_trap;

	rb->run = run;
	for (size_t i = 0; i <= k; i++)
		put_replay_copy(a, rf, rb, i);
	put_trampoline(a, rf, rb, true, rb->copy[k], rb->probe_tramp, &probe_trap);
	arena_copy(a, rf, &(struct reloc_copy){ rb->rp->f, rb->skip }, NULL);
	put_trampoline(a, rf, rb, false, rb->skip, rb->skip_tramp, &rb->skip_trap);
}

int replay_put(FILE *f, const struct replay_build *rb, uint32_t object)
{
	const struct reloc_replay *rp = rb->rp;
	struct plan_replay r = { .object = object, .ncopies = (uint32_t)rp->noffset,
		.func = rp->f->addr, .func_size = rp->f->size, .header = rb->header, .run = rb->run,
		.skip = rb->skip, .probe = rb->copy[rp->noffset], .skip_trap = rb->skip_trap,
		.nexit = (uint32_t)rb->nexit, .ntrap = (uint32_t)rb->ntrap };
	int rc = plan_put(f, &r, sizeof r);

	for (size_t k = 0; k < rp->noffset; k++) {
		struct plan_replay_copy c = { rb->copy[k], rp->offset[k], 0 };

		rc |= plan_put(f, &c, sizeof c);
	}
	if (rb->ntrap)
		rc |= plan_put(f, rb->trap, rb->ntrap * sizeof *rb->trap);
	return rc;
}
