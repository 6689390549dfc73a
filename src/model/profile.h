/* model/profile.h: profiles: what a CPU's front end cares about, each number with its
 * evidence (profiles.c), and the one selection of them for scan, diff and
 * sweep (profiles.c). */
#ifndef STRADDLE_MODEL_PROFILE_H
#define STRADDLE_MODEL_PROFILE_H

#include "../base/base.h"
#include "../decode/decode.h"

/* The most profiles one scan applies (--uarch all is fewer): a scan's
 * arrays per profile are this long. */
#define MODEL_MAX_PROFILES 32

/* The window sizes the model knows, smallest first: a fetch block, a
 * uop-cache window, a cache line. Every table of windows uses these. */
#define MODEL_NWINDOWS 3
extern const unsigned model_windows[MODEL_NWINDOWS];

enum branch_rule {
	BRANCH_RULE_NONE,
	/* Skylake's JCC erratum: a jump, or a macro-fused pair taken whole,
	 * that crosses or ends on a 32 B boundary is not cached in the DSB. */
	BRANCH_RULE_JCC_ERRATUM,
	/* Golden Cove: a branch, or its fused pair taken whole, spanning a
	 * 64 B line. Measured on EMR (straddle sweep clear_movq_imm): the
	 * decl or the jnz across the line ~1.9x, the line between them 1.13x. */
	BRANCH_RULE_PAIR_CROSSES,
};

struct profile {
	const char *name;
	enum arch arch;
	const char *cpus;               /* what it covers */
	unsigned fetch;                 /* fetch window, bytes */
	unsigned uop_window;            /* decoded-uop-cache window, 0 none */
	unsigned line;                  /* cache line */
	enum branch_rule branch_rule;
	unsigned branch_window;
	unsigned loop_buffer;           /* instructions a loop buffer holds, 0 none */
	const char *evidence;           /* source of every number above */
	/* a calibrated profile: the built-in one of its CPU it was measured
	 * against (its LLVM model, its store-to-load figure); NULL built-in */
	const char *base;
	/* the windows whose straddling is a hazard, when evidence narrows
	 * them; all 0: the fetch window, the uop-cache window and the line,
	 * unless straddle_measured says the list is exactly what was measured
	 * (and may be empty) */
	unsigned straddle_windows[3];
	bool straddle_measured;
	/* The back-end bound: a loop whose iteration needs at least as many
	 * cycles, at issue_width instructions and stores_per_cycle stores a
	 * cycle, as fetching one window more than it must (the front end
	 * fetches a window a cycle) pays nothing for the straddle. 0: not
	 * measured, no bound. */
	unsigned issue_width, stores_per_cycle;
	/* What one window fetched more than the best placement needs costs an
	 * iteration, in cycles (cost.c, fetch_cycles); 0: not measured, a whole
	 * cycle (the front end fetches a window a cycle). */
	double window_cycles;
	/* What one window more costs an iteration a dependency chain bounds:
	 * the part the chain does not hide (cost.c, iteration_cycles). 0:
	 * hidden. Stores hide it (zen5's 4-store loop hid its line, bounds
	 * stores on goldencove's EMR guest). */
	double latency_window_cycles;
	/* What a branch hazard costs an iteration, in cycles (cost.c,
	 * branch_penalty): the branch or the first instruction of its fused
	 * pair across the branch window (branch_cycles), or the pair's two
	 * instructions each whole with the window between them
	 * (split_cycles). 0: not measured, a cycle (a window fetched more).
	 * Added to the front end's cycles, which the back end hides only
	 * with a chain, a divide or stores of its own: a front end feeding
	 * the issue width has no slack for the bubble. */
	double branch_cycles, split_cycles;
	/* Cycles from a store's data to a load of the same address (store
	 * forwarding, or memory renaming where the CPU has it): the link a
	 * loop-carried chain through memory adds (sched/throughput.c), where
	 * store_load_measured; else the model's load-to-use latency. 0 where
	 * the CPU renames memory (Golden Cove here: a load of what a store
	 * just wrote costs no cycle). */
	double store_load_cycles;
	bool store_load_measured;
};

size_t profile_count(void);
const struct profile *profile_at(size_t i);
const struct profile *profile_named(const char *name);
const char *branch_rule_name(enum branch_rule r);
/* A calibrated profile's prices calibrate never measures, from its base
 * built-in: a branch's bubble and a store's data to its load (a cycle
 * each, the bound, where the base has none). A line's price stays the
 * calibration's own: where it claimed a straddle but fitted no price,
 * the base's may be the host's mistake it was run to correct. */
void profile_prices_from_base(struct profile *p);
/* The distinct windows a loop must not straddle under p (at most 3). */
size_t profile_straddle_windows(const struct profile *p, unsigned out[3]);
/* The branch rule as a word in profile files: "none", "jcc-erratum",
 * "pair-crosses"; -1 when the word is none of them. */
const char *branch_rule_id(enum branch_rule r);
int branch_rule_from_id(const char *id);

/* Reads a calibrated profile file (results/ does, model/ cannot read
 * JSON): the profile, to live until exit, or NULL with *e set. */
typedef const struct profile *(*profile_loader)(const char *path, struct err *e);

/* The one selection of profiles for scan, diff and sweep: SPEC is
 * NAME[,NAME...], "all", "host" or FILE.json (a name with a '/' or
 * ending in .json). "host" is this CPU's calibrated profile when its file
 * exists, else the built-in profile its cpuid/MIDR matches, else the
 * architecture's generic one; `why` says which. Fills out[] (at most
 * max); -1 with *e (naming the file or the word) when SPEC is wrong. */
int profile_select(const char *spec, profile_loader load, const struct profile **out,
		   size_t max, size_t *n, char *why, size_t why_len, struct err *e);

#endif
