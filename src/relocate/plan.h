/* The plan file: what `straddle place` computed before the run and the
 * preload library (preload.c) applies in the program before main. It is
 * the only thing the two share, so the library needs no decoder, no ELF
 * reader and no libc beyond its start-up: every byte of every copy is in
 * the plan, and each address that depends on where things land at run
 * time is a fix-up with the formula below.
 *
 * Layout, little endian, every record 8-byte aligned:
 *   struct plan_header
 *   per object: struct plan_object, then `path_len` bytes of path (padded
 *   to 8), `arena_size` bytes of arena image (padded to 8), `nfixup`
 *   struct plan_fixup, `npatch` struct plan_patch, `nmap` struct plan_map
 *   each followed by its name.
 *
 * At run time the object (matched by build-id) is loaded with bias L (its
 * ELF vaddr v is at L + v) and the arena is mapped at B, page aligned,
 * within 2 GiB of everything the copies reach. The arena's code ends at
 * data_at; from there to its end it is data, made read-only: an ELF image
 * of symfile_size bytes naming each copy (for gdb's JIT interface), whose
 * .eh_frame at eh_frame_at describes the copies to the unwinder. */
#ifndef STRADDLE_RELOCATE_PLAN_H
#define STRADDLE_RELOCATE_PLAN_H

#include <stdint.h>

#define PLAN_MAGIC "STRDPLN3"
#define PLAN_MAX_OBJECTS 64
/* What the library reports on the descriptor STRADDLE_PLACE_FD names, one
 * line each: "applied INDEX COPIES ARENA_HEX NS PID MAP LIVE" for each
 * object it moved (NS: how long applying its plan took, plan read not
 * included; PID: the process; MAP 1 when /tmp/perf-PID.map lists the
 * copies, 0 when that name was another's and left alone; LIVE 1 when its
 * code was written while other threads ran, poke.c),
 * "error MESSAGE" before it exits with PLAN_EXIT. */
#define PLAN_EXIT 125

struct plan_header {
	char magic[8];
	uint32_t nobjects;
	uint32_t flags;                 /* PLAN_REPLAY, or 0 */
};

/* The plan also holds a loop to replay (replay.c): after the objects, a
 * struct plan_replay, its ncopies struct plan_replay_copy and its ntrap
 * struct plan_replay_trap. */
#define PLAN_REPLAY 1

struct plan_object {
	uint8_t build_id[64];
	uint32_t build_id_len;
	uint32_t path_len;              /* the file's path, for messages */
	uint64_t arena_size;            /* a multiple of 4096 */
	uint64_t span_lo, span_hi;      /* the object's lowest and highest vaddr */
	uint32_t nfixup, npatch;
	uint32_t nfunc;                 /* copies in the arena (perf map lines) */
	uint32_t nmap;                  /* struct plan_map records after the patches */
	uint64_t data_at;               /* the read-only part: a page boundary */
	uint64_t eh_frame_at;           /* the copies' .eh_frame, in it */
	uint64_t symfile_size;          /* the ELF image from data_at */
};

/* Where a fix-up's field is, and what its value is relative to. */
enum plan_where {
	PLAN_IN_COPY = 0,               /* an offset in the arena: B + x */
	PLAN_IN_OBJECT = 1,             /* an ELF vaddr of the object: L + x */
	PLAN_ABSOLUTE = 2,              /* ref only: the field holds value itself */
	/* value only: the thread pointer's offset of the preload library's
	 * replay slot number `value` (enum plan_slot), as %fs:disp32 reads it */
	PLAN_IN_TLS = 3,
};

/* field := value - ref, written as `size` bytes (4: must fit int32). */
struct plan_fixup {
	uint64_t at;
	uint64_t value;
	uint64_t ref;
	uint8_t at_in, value_in, ref_in;        /* enum plan_where */
	uint8_t size;                           /* 4 or 8, or a PLAN_A64_ form */
	uint32_t pad;
};

/* AArch64: the field is the immediate of the instruction word at `at`,
 * `ref` that word's own address (the PC). The word is re-encoded: value
 * - ref in words (b/bl imm26 +-128 MiB; b.cond, cbz, ldr literal imm19
 * +-1 MiB; tbz imm14 +-32 KiB), in bytes (adr, +-1 MiB), or in pages
 * of 4 KiB (adrp: page(value) - page(ref), +-4 GiB); out of reach, or
 * not a multiple of 4 where words are counted, it cannot be written.
 * Arm ARM C4.1; the planner and the preload library share this code. */
enum {
	PLAN_A64_IMM26 = 0x81,
	PLAN_A64_IMM19,
	PLAN_A64_IMM14,
	PLAN_A64_ADR,
	PLAN_A64_ADRP,
};

static inline int plan_a64_form(uint8_t size)
{
	return size >= PLAN_A64_IMM26 && size <= PLAN_A64_ADRP;
}

/* The field's number: words, bytes or pages. */
static inline int64_t plan_a64_delta(uint8_t form, uint64_t value, uint64_t ref)
{
	if (form == PLAN_A64_ADRP)
		return (int64_t)(value >> 12) - (int64_t)(ref >> 12);
	return (int64_t)(value - ref);
}

/* Does delta fit the form's immediate? */
static inline int plan_a64_fits(uint8_t form, int64_t delta)
{
	int bits = form == PLAN_A64_IMM26 ? 26 : form == PLAN_A64_IMM19 ? 19 :
		   form == PLAN_A64_IMM14 ? 14 : 21;

	if (form != PLAN_A64_ADR && form != PLAN_A64_ADRP) {
		if (delta % 4)
			return 0;
		delta /= 4;
	}
	return delta >= -(1ll << (bits - 1)) && delta < (1ll << (bits - 1));
}

/* The word with its immediate set to delta (which fits). */
static inline uint32_t plan_a64_encode(uint32_t word, uint8_t form, int64_t delta)
{
	uint64_t v = (uint64_t)delta;

	switch (form) {
	case PLAN_A64_IMM26:
		return (word & ~0x3ffffffu) | (uint32_t)((v >> 2) & 0x3ffffffu);
	case PLAN_A64_IMM19:
		return (word & ~(0x7ffffu << 5)) | (uint32_t)(((v >> 2) & 0x7ffffu) << 5);
	case PLAN_A64_IMM14:
		return (word & ~(0x3fffu << 5)) | (uint32_t)(((v >> 2) & 0x3fffu) << 5);
	default:        /* adr, adrp: immhi (23:5), immlo (30:29) */
		return (word & ~(0x7ffffu << 5 | 3u << 29)) | (uint32_t)(((v >> 2) & 0x7ffffu) << 5) |
		       (uint32_t)((v & 3u) << 29);
	}
}

/* Where a fix-up's field or value lies at run time: the arena at `arena`,
 * the object at load bias `bias`; an absolute ref counts 0. */
static inline uint64_t plan_address(uint8_t in, uint64_t x, uint64_t bias, uint64_t arena)
{
	return in == PLAN_IN_COPY ? arena + x : in == PLAN_IN_OBJECT ? bias + x : 0;
}

/* What fix-up f writes with the object at `bias` and the arena at
 * `arena`: value - ref, or an AArch64 form's number (plan_a64_delta), in
 * *out. 0; -1 when the field cannot hold it (4 bytes: int32; an AArch64
 * form: its reach); -2 when its size is none a field has. The one
 * evaluation of a fix-up: the preload library's, and the planner's image
 * of an arena for the tests (reloc_image). */
static inline int plan_fixup_value(const struct plan_fixup *f, uint64_t bias, uint64_t arena,
				   uint64_t *out)
{
	uint64_t value = plan_address(f->value_in, f->value, bias, arena);
	uint64_t ref = plan_address(f->ref_in, f->ref, bias, arena);
	int64_t s = (int64_t)(value - ref);

	*out = value - ref;
	if (plan_a64_form(f->size)) {
		s = plan_a64_delta(f->size, value, ref);
		*out = (uint64_t)s;
		return plan_a64_fits(f->size, s) ? 0 : -1;
	}
	if (f->size == 4)
		return s >= INT32_MIN && s <= INT32_MAX ? 0 : -1;
	return f->size == 8 ? 0 : -2;
}

/* v into the field at p: `size` bytes, least significant first; an
 * AArch64 form's into its instruction word's immediate. */
static inline void plan_store(volatile uint8_t *p, uint64_t v, uint8_t size)
{
	unsigned n = size;

	if (plan_a64_form(size)) {
		uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[3] << 24;

		v = plan_a64_encode(w, size, (int64_t)v);
		n = 4;
	}
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* An instruction written over the object's own code, at ELF vaddr `at`:
 * the jump at each moved function's entry, or a branch from elsewhere
 * into a moved function's middle made to go to the copy's; the fix-ups
 * whose field lies in it complete it. The whole instruction, so that it
 * can be written while other threads run the code (preload's poke.c): a
 * thread is never inside one instruction, only between two. */
enum plan_patch_kind {
	PLAN_PATCH_ENTRY = 1,           /* jmp copy (b copy): a thread there goes to the copy */
	PLAN_PATCH_BRANCH = 2,          /* a branch of the object, retargeted */
};

/* The entry jump overwrites more than its first instruction, and a branch
 * of the function's own lands in those bytes: a thread inside the
 * original could come back there, so it is not written while others run. */
#define PLAN_PATCH_INNER_TARGET 1

struct plan_patch {
	uint64_t at;
	uint8_t bytes[16];
	uint8_t len;                    /* at most 15 */
	uint8_t kind;                   /* enum plan_patch_kind */
	uint8_t flags;                  /* PLAN_PATCH_INNER_TARGET */
	uint8_t pad[5];
};

/* One copy, for /tmp/perf-PID.map: arena offset, size, the original
 * function's ELF vaddr; its name (name_len bytes, padded to 8) follows. */
struct plan_map {
	uint64_t offset, size, orig;
	uint32_t name_len;
	uint32_t pad;
};

/* ---- a loop replayed from the program's own state (replay.c) ----
 *
 * Beside the moved functions the arena holds, for the one loop to replay:
 * a timed copy of its function for each offset under test (the loop's
 * first byte at `offset` of its line), whose every exit is a jump to an
 * exit stub (or, with no room for one, an int3); a probe copy, the same
 * with a counter at the loop's header, whose run counts the iterations
 * and finds the pages they touch; and a skip copy, the function whole
 * with a countdown at the header, in which the program runs a random
 * number of iterations before a snapshot is taken (an int3 in the
 * countdown's trampoline, at skip_trap). Counters, the exit's number and
 * the exit routine's address are the preload library's thread-local
 * slots, reached as %fs:disp32 (flags and registers untouched). */
enum plan_slot {
	PLAN_SLOT_SAVE,                 /* %rcx while a trampoline runs */
	PLAN_SLOT_COUNT,                /* arrivals at the header */
	PLAN_SLOT_DOWN,                 /* arrivals left before the skip copy traps */
	PLAN_SLOT_EXIT,                 /* the exit taken (32 bits) */
	PLAN_SLOT_LEAVE,                /* where an exit stub jumps */
	PLAN_SLOTS
};

#define PLAN_REPLAY_MAX_COPIES 128

struct plan_replay {
	uint32_t object;                /* the plan's object holding the function */
	uint32_t ncopies;               /* timed copies */
	uint64_t func, func_size;       /* the function, ELF vaddr */
	uint64_t header;                /* the loop's header, ELF vaddr */
	uint64_t run;                   /* arena offsets of the function's first byte: */
	uint64_t skip, probe;           /*   the running copy's, the skip copy's, the probe's */
	uint64_t skip_trap;             /* arena offset of the skip trampoline's int3 */
	uint32_t nexit;                 /* the loop's exits, numbered from 0 */
	uint32_t ntrap;                 /* exits with no room for a jump: int3s */
};

struct plan_replay_copy {
	uint64_t at;                    /* arena offset of the function's first byte */
	uint32_t offset;                /* the loop's first byte's offset in its line */
	uint32_t pad;
};

struct plan_replay_trap {
	uint64_t at;                    /* arena offset of the int3 */
	uint32_t exit;                  /* its exit's number */
	uint32_t copy;                  /* its copy; ncopies: the probe */
};

#endif
