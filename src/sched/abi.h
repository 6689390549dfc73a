/* sched/abi.h: what libstraddle-sched.so (llvm.cpp, C++) and straddle
 * (load.c) hand each other: plain structs and the functions the library
 * exports, so that the C++ file needs nothing else of straddle's. Part of
 * sched.h's interface, which includes it. */
#ifndef STRADDLE_SCHED_ABI_H
#define STRADDLE_SCHED_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Per instruction, at most this many of each: larger instructions (a few
 * AVX-512 gathers, string instructions' implicit operands) keep the first
 * ones and are flagged SCHED_TRUNCATED. */
#define SCHED_MAX_WRITES 6
#define SCHED_MAX_READS 12
#define SCHED_MAX_RES 16
#define SCHED_MAX_RESOURCES 96          /* resource kinds of one model */

enum sched_flag {
	SCHED_LOAD = 1 << 0,
	SCHED_STORE = 1 << 1,
	SCHED_BARRIER = 1 << 2,         /* a fence, or unmodelled side effects */
	SCHED_CALL = 1 << 3,
	SCHED_RETURN = 1 << 4,
	SCHED_BRANCH = 1 << 5,
	SCHED_ZERO_IDIOM = 1 << 6,      /* reads nothing (xor eax, eax) */
	SCHED_MOVE_ELIMINATED = 1 << 7, /* renamed away: no latency, no port */
	SCHED_BEGIN_GROUP = 1 << 8,     /* must begin a dispatch group */
	SCHED_END_GROUP = 1 << 9,       /* must end one */
	SCHED_UNSUPPORTED = 1 << 10,    /* the model has no data for it */
	SCHED_INVALID = 1 << 11,        /* LLVM could not decode it */
	SCHED_TRUNCATED = 1 << 12,      /* more operands than the arrays hold */
	SCHED_VARIANT_MEM = 1 << 13,    /* a memory operand other than base+index*scale+disp */
	SCHED_DIVIDE = 1 << 14,         /* a divide or square root */
	SCHED_STRING = 1 << 15,         /* x86's string instructions: no model holds them */
};

/* A register as the dependency chains see it: LLVM's register number of
 * the largest register holding it (AL, AX, EAX are RAX; XMM0 is ZMM0), and
 * the bytes of it [lo, hi) the instruction reads or writes. A write that
 * clears the rest of the register (EAX's of RAX, a VEX write of XMM0) is
 * of all of it, [0, SCHED_WHOLE): others (AL, a legacy SSE write of XMM0)
 * leave the rest as it was, as llvm-mca's register file does. */
#define SCHED_WHOLE 255

struct sched_write {
	uint16_t reg;
	uint16_t latency;               /* cycles until a reader may use it */
	uint16_t write_resource;        /* what ReadAdvance entries match */
	uint8_t lo, hi;
};

struct sched_read {
	uint16_t reg;
	uint16_t sched_class, use_index; /* for sched_read_advance */
	uint8_t lo, hi;
};

struct sched_resource {
	uint8_t index;                  /* into sched_cpu.resource */
	uint16_t cycles;
};

/* A memory operand's address: base + index * scale + disp (segment). Two
 * with equal fields name the same address while their registers hold the
 * same values. */
struct sched_address {
	uint16_t base, index, segment;
	uint8_t scale;
	int64_t disp;
};

struct sched_insn {
	uint8_t len;
	uint8_t nwrite, nread, nres;
	uint16_t uops;
	uint16_t flags;                 /* enum sched_flag */
	uint16_t sched_class;
	uint16_t latency;               /* its longest: what it holds a queue entry */
	struct sched_write write[SCHED_MAX_WRITES];
	struct sched_read read[SCHED_MAX_READS];
	struct sched_resource res[SCHED_MAX_RES];
	struct sched_address mem;       /* with SCHED_LOAD or SCHED_STORE */
	char name[24];                  /* LLVM's opcode name, for messages */
};

/* One CPU model of LLVM's. */
struct sched_cpu_info {
	char mcpu[32];
	int arch;                       /* enum arch */
	unsigned dispatch_width;        /* micro-ops dispatched a cycle */
	unsigned retire_width;          /* retired a cycle, 0 no limit */
	unsigned rob;                   /* micro-ops in flight, 0 unknown */
	unsigned load_latency;          /* the model's load-to-use latency */
	unsigned load_queue, store_queue; /* entries, 0 unbounded */
	unsigned nresource;
	struct {
		char name[32];
		unsigned units;         /* how many it has: pressure / units */
		/* the units it stands for, one bit each: a group's are its
		 * members'; 0 when the model has more than 64 */
		uint64_t unit_mask;
	} resource[SCHED_MAX_RESOURCES];
};

/* Bytes of a loop as an iteration runs them, one run of them. */
struct sched_piece {
	const uint8_t *code;
	size_t n;
	uint64_t addr;
};

/* The library's functions (llvm.cpp), found by load.c with dlsym. The
 * ABI version changes whenever a struct above does: a library of another
 * version is refused. */
#define SCHED_ABI_VERSION 3

unsigned straddle_sched_abi(void);
const char *straddle_sched_llvm_version(void);
/* triple: "x86_64-unknown-linux-gnu" or "aarch64-unknown-linux-gnu". */
void *straddle_sched_open(const char *triple, const char *mcpu, struct sched_cpu_info *info,
			  char *err, size_t errlen);
void straddle_sched_close(void *h);
size_t straddle_sched_describe(void *h, const uint8_t *code, size_t n, uint64_t addr,
			       struct sched_insn *out, size_t max);
/* llvm-mca's own simulation of the pieces run `iterations` times, in
 * process: its Total Cycles, 0 when an instruction has no data. The
 * reference the bounds are held against (doc/scan.md). */
unsigned long straddle_sched_simulate(void *h, const struct sched_piece *p, size_t np,
				      unsigned iterations);
unsigned straddle_sched_read_advance(void *h, unsigned sched_class, unsigned use_index,
				     unsigned write_resource);

#ifdef __cplusplus
}
#endif

#endif
