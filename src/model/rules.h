/* model/rules.h: the hazard rules (rules.c): windows touched against the best, a
 * branch across or ending on a window, a small function's entry across a
 * line; a loop's geometry as the rules see it. */
#ifndef STRADDLE_MODEL_RULES_H
#define STRADDLE_MODEL_RULES_H

#include "profile.h"

enum rule {
	RULE_LOOP_STRADDLES,            /* loop-straddles-window */
	RULE_BRANCH_CROSSES,            /* branch-crosses-window */
	RULE_BRANCH_ENDS,               /* branch-ends-window */
	RULE_ENTRY_MISALIGNED,          /* entry-misaligned */
};

const char *rule_name(enum rule r);
int rule_from_name(const char *name);  /* -1 when unknown */
/* One sentence of what the rule finds, and a paragraph of why it costs
 * and what fixes it (SARIF's rule help). */
const char *rule_summary(enum rule r);
const char *rule_help(enum rule r);

/* A branch inside a loop's span and its fused partner, as offsets from
 * the loop's start. */
struct loop_branch {
	uint32_t pair;                  /* first byte of the fused pair, = branch if unfused */
	uint32_t branch;                /* first byte of the branch */
	uint32_t end;                   /* one past the branch */
	uint8_t kind;                   /* enum branch_kind */
	/* closes the loop: goes back to a block of the loop at or before it,
	 * or is a latch's branch to the header */
	bool back;
};

/* [start, end): a piece of a loop, as addresses, or as offsets from the
 * loop's start. */
struct loop_piece {
	uint64_t start, end;
};

/* What the rules need of a loop, independent of where it is placed. The
 * branch array belongs to the geometry and is reused from loop to loop
 * (loop_geometry_free releases it). */
struct loop_geometry {
	uint32_t bytes;                 /* its pieces' together */
	/* the pieces every iteration fetches (one for a loop in one run),
	 * as offsets from its start, and the index of each one's first
	 * instruction (the CFG's: geo->first is the loop's) */
	struct loop_piece *piece;
	uint32_t *piece_first;
	uint32_t npiece, first;         /* npiece 0: one run of `bytes` */
	size_t piece_cap, piece_first_cap;
	struct loop_branch *branch;     /* every branch in the span, in address order */
	uint32_t nbranch;
	size_t branch_cap;
	uint8_t *in_loop;               /* scratch: the loop's blocks */
	size_t in_loop_cap;
	bool fits_loop_buffer_shape;    /* innermost, no call */
	uint32_t ninsn;
	int32_t nstore;                 /* memory writes; -1 not counted (loop_count_stores) */
};

/* branch-crosses-window or branch-ends-window: judged branch by branch */
bool is_branch_rule(enum rule r);
/* A rule the cost model prices: a straddle, or a branch's. */
bool is_priced_rule(enum rule r);

/* How bad a hazard is: a branch rule's bubble every iteration, a loop on
 * a line more, a loop on a window more or a function's entry. A document
 * holds the number. */
enum severity { SEVERITY_LOW = 1, SEVERITY_MEDIUM = 2, SEVERITY_HIGH = 3 };

struct hazard {
	const struct profile *profile;
	uint8_t rule;                   /* enum rule */
	uint8_t severity;               /* enum severity */
	uint16_t window;
	bool certain;                   /* hazardous wherever it can be placed */
	uint16_t bad_placements;        /* when not certain: of all_placements */
	uint16_t all_placements;
	/* The fix: the smallest .p2align that removes the hazard wherever
	 * the subject lands with that alignment (a property of its bytes, so
	 * it holds in another build), 0 when none up to 64 does; the padding
	 * it costs at today's address. */
	uint16_t fix_align;
	uint16_t fix_pad;
	bool fix_clean;                 /* brings in no other hazard of the profile */
	/* no alignment fixes a loop in pieces: the exit laid out between
	 * them must move out of the way (the compiler's block layout) */
	bool fix_layout;
	/* a smaller .p2align that removes it only at today's address, 0 none */
	uint16_t here_align;
	uint16_t here_pad;
	bool here_clean;
	/* branch rules: the branch at fault, and the first byte of its fused
	 * pair (= branch when unfused); 0 for the other rules */
	uint8_t branch_kind;            /* enum branch_kind */
	uint64_t branch, pair;
	uint64_t branch_end;            /* one past the branch (not in the JSON: 0 when read) */
	/* the branch is its loop's own, outside every loop nested in it: it
	 * runs once an outer iteration, the inner loops' iterations between
	 * (cost.c prices it at nothing: their count is not in the bytes) */
	bool outer_only;
	const char *section;            /* of the image scanned; NULL for code in memory */
	/* loop-straddles-window: the predicted slowdown at today's placement
	 * (at the worst, when the placement is not certain) against the
	 * best (cost.c); 0 for the rules the cost model does not price */
	float slowdown;
	/* ... a bound from above: the model's dispatch width alone, not a
	 * simulation of the loop */
	bool slowdown_at_most;
};

/* Windows touched and the best any placement achieves. */
unsigned windows_touched(uint64_t start, uint64_t end, unsigned w);
/* The windows of w that the pieces p[0..n) (in address order) touch together,
 * each moved by `base` (loops in pieces). */
unsigned pieces_touched(const struct loop_piece *p, size_t n, uint64_t base, unsigned w);
/* The same with the pieces moved whole so that the address `start` (the
 * loop's, as scan and place name it) sits at offset o of an `align`-byte
 * block (a place experiment's placement). */
unsigned pieces_touched_at(const struct loop_piece *p, size_t n, uint64_t start, uint32_t o,
			   unsigned align, unsigned w);
/* What a move of a loop changes in its front end's cycles (prove's
 * placements): its pieces' windows of w, each at window_price cycles,
 * and the branches at fault today (addresses: the fused pair's first
 * byte, the branch's, one past it) where they cross a window of
 * branch_window: at split_price when the window falls between the
 * pair's two instructions, else at branch_price (cost.c's prices). */
struct placed_branch {
	uint64_t pair, branch, end;
};

struct loop_moves {
	const struct loop_piece *piece;
	size_t npiece;
	uint64_t start;                 /* the loop's first byte, as scan and place name it */
	unsigned align;                 /* the block whose offsets are tried */
	unsigned window;
	double window_price;
	const struct placed_branch *branch;
	size_t nbranch;
	unsigned branch_window;
	double branch_price, split_price;
};

/* The front end's cycles at offset o (windows and bubbles priced). */
double loop_moves_cycles(const struct loop_moves *m, uint32_t o);
/* The offset of `start` with the fewest such cycles, today's on ties:
 * the placement prove measures against today's. */
uint32_t loop_moves_best(const struct loop_moves *m);
/* Up to max offsets, neither today's nor best, with today's cycles, the
 * nearest best first: the layout controls (a move like the best's that
 * keeps the loop's windows and its branches' crossings). Their number. */
size_t loop_moves_controls(const struct loop_moves *m, uint32_t best, uint32_t *out, size_t max);
/* The windows the loop touches at `start`: its pieces', or, without
 * pieces (npiece 0), those of one run of its bytes. */
unsigned loop_geometry_touched(const struct loop_geometry *g, uint64_t start, unsigned w);
unsigned windows_best(uint64_t bytes, unsigned w);

/* Evaluate every rule of `p` on a loop at `start`, in a section whose
 * placement is known modulo `placement_align`. Appends to *out. */
size_t loop_hazards(const struct profile *p, const struct loop_geometry *g,
		    uint64_t start, uint64_t placement_align,
		    struct hazard *out, size_t max);

/* Does the loop run from p's loop buffer (innermost, no call, small
 * enough), so that where its bytes lie does not matter? */
bool in_loop_buffer(const struct profile *p, const struct loop_geometry *g);
/* Does p's back-end bound hide a straddle of window w by this loop? */
bool back_end_hides(const struct profile *p, const struct loop_geometry *g, unsigned w);

/* Seed 003: a function no larger than a line that touches two lines. */
size_t entry_hazards(const struct profile *p, uint64_t addr, uint64_t size,
		     uint64_t placement_align, struct hazard *out, size_t max);

#endif
