/* results/prove.h: prove's result file (prove.c), read back for the
 * page (prove_read.c). */
#ifndef STRADDLE_RESULTS_PROVE_H
#define STRADDLE_RESULTS_PROVE_H

#include <jansson.h>

#include "../measure/proof.h"

json_t *results_prove(const struct loop_trial *t, size_t n, const char *profile, int argc,
		      char **argv);
/* prove's document read back (prove_read.c): each loop's trial as prove
 * made it, for its table on the page. What the document rounds (the cost
 * model's three decimals) stays rounded; a slowdown or CI it wrote as
 * null (not finite) reads as INFINITY for the loop's measured slowdown
 * and its bounds, NAN elsewhere. */
struct prove_doc {
	const char *profile;
	struct loop_trial *trial;       /* file and func owned */
	size_t n;
};

void results_read_prove(const json_t *doc, struct prove_doc *p);
void results_prove_doc_free(struct prove_doc *p);
/* The enum cost_bound of its name (cost_bound_name), COST_AT_BEST for none. */
int results_cost_bound(const char *name);

#endif
