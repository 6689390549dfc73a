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
 * within 2 GiB of everything the copies reach. */
#ifndef STRADDLE_RELOCATE_PLAN_H
#define STRADDLE_RELOCATE_PLAN_H

#include <stdint.h>

#define PLAN_MAGIC "STRDPLN1"
#define PLAN_MAX_OBJECTS 64
/* What the library reports on the descriptor STRADDLE_PLACE_FD names, one
 * line each: "applied INDEX COPIES ARENA_HEX NS PID" for each object it
 * moved (NS: how long applying its plan took, plan read not included; PID:
 * the process, whose /tmp/perf-PID.map lists the copies),
 * "error MESSAGE" before it exits with PLAN_EXIT. */
#define PLAN_EXIT 125

struct plan_header {
	char magic[8];
	uint32_t nobjects;
	uint32_t flags;                 /* 0 */
};

struct plan_object {
	uint8_t build_id[64];
	uint32_t build_id_len;
	uint32_t path_len;              /* the file's path, for messages */
	uint64_t arena_size;            /* a multiple of 4096 */
	uint64_t span_lo, span_hi;      /* the object's lowest and highest vaddr */
	uint32_t nfixup, npatch;
	uint32_t nfunc;                 /* copies in the arena (perf map lines) */
	uint32_t nmap;                  /* struct plan_map records after the patches */
};

/* Where a fix-up's field is, and what its value is relative to. */
enum plan_where {
	PLAN_IN_COPY = 0,               /* an offset in the arena: B + x */
	PLAN_IN_OBJECT = 1,             /* an ELF vaddr of the object: L + x */
	PLAN_ABSOLUTE = 2,              /* ref only: the field holds value itself */
};

/* field := value - ref, written as `size` bytes (4: must fit int32). */
struct plan_fixup {
	uint64_t at;
	uint64_t value;
	uint64_t ref;
	uint8_t at_in, value_in, ref_in;        /* enum plan_where */
	uint8_t size;                           /* 4 or 8 */
	uint32_t pad;
};

/* Bytes written over the object's own code, at ELF vaddr `at`: the jump
 * at each moved function's entry (its rel32 is a fix-up). At most 8. */
struct plan_patch {
	uint64_t at;
	uint8_t bytes[8];
	uint32_t len;
	uint32_t pad;
};

/* One copy, for /tmp/perf-PID.map: arena offset, size, the original
 * function's ELF vaddr; its name (name_len bytes, padded to 8) follows. */
struct plan_map {
	uint64_t offset, size, orig;
	uint32_t name_len;
	uint32_t pad;
};

#endif
