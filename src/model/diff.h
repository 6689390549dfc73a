/* model/diff.h: comparing two scans (diff.c). */
#ifndef STRADDLE_MODEL_DIFF_H
#define STRADDLE_MODEL_DIFF_H

#include "scan.h"

/* Why a subject's hazards changed: its own bytes changed (seed 000), the same
 * bytes moved (seed 003), or it is only on one side. */
enum diff_cause { CAUSE_CHANGED, CAUSE_MOVED, CAUSE_NEW, CAUSE_REMOVED, NCAUSE };

/* How two functions were found to be the same function, in the order
 * tried: the name, the name without a compiler suffix (.constprop.N ...),
 * the mnemonic sequence, the nearest mnemonic mix, the order between two
 * functions already matched. */
enum match_how { MATCH_NAME, MATCH_BASE_NAME, MATCH_SHAPE, MATCH_NEAREST, MATCH_ORDER, NMATCH };

const char *cause_name(enum diff_cause c);
int cause_from_name(const char *name);         /* -1 when unknown */
const char *match_how_name(enum match_how h);


/* One subject that changed: a loop (matched, added or removed) or a
 * function's entry (entry set, no loops). */
struct layout_change {
	const struct func_report *fold, *fnew;  /* NULL for the side it is missing from */
	const struct loop_report *lold, *lnew;
	bool entry;                     /* the function entry itself */
	bool resized;                   /* loop bytes changed */
	bool moved;                     /* entry alignment changed */
	bool cold;                      /* in cold text (func_report.cold_text) */
	uint8_t cause;                  /* enum diff_cause */
	uint32_t added, nadded;         /* into layout_diff.refs: hazards gained */
	uint32_t removed, nremoved;     /* hazards lost */
};

/* Two functions matched under different names. */
struct func_rename {
	const struct func_report *fold, *fnew;
	uint8_t how;                    /* enum match_how */
};

struct layout_diff {
	struct layout_change *v;
	size_t n, cap;
	const struct hazard **refs;
	size_t nrefs, refs_cap;
	const struct func_report **only_old, **only_new;
	size_t only_old_cap, only_new_cap;
	struct func_rename *renamed;
	size_t nrenamed, renamed_cap;
	size_t funcs_matched, funcs_unchanged, funcs_only_old, funcs_only_new;
	size_t matched_by[NMATCH];
	size_t funcs_cold_left_out;     /* matched or not, not compared (skip_cold) */
	size_t loops_added, loops_removed, loops_resized;
	size_t hazards_added, hazards_removed;
	size_t added_by[NCAUSE], removed_by[NCAUSE];
};

struct diff_side {
	const struct elf_image *img;    /* the image scanned (its sections named the cold text: r) */
	const struct scan_result *r;    /* scanned with keep_all */
};

struct diff_opts {
	bool skip_cold;                 /* leave cold functions out (func_report.cold_text) */
};

void layout_diff(const struct diff_side *old, const struct diff_side *new,
		 const struct diff_opts *o, struct layout_diff *d);
void layout_diff_free(struct layout_diff *d);
/* A new hazard of rules (1 << enum rule), gained for causes (1 << enum
 * diff_cause): the gate fails. */
bool layout_diff_gate(const struct layout_diff *d, unsigned rules, unsigned causes);
/* The samples of a change's loop or function (diff --hot): a record is of
 * one build, so those of the side that has them. */
uint64_t layout_change_samples(const struct layout_change *ch);
/* diff --hot --min-share: a change in code with less than min_share of the
 * samples of r's run is folded into one line (never without samples). */
bool layout_change_folded(const struct layout_change *ch, const struct scan_result *r,
			  double min_share);

#endif
