/* results/ab.h: ab's result file (ab.c), and its document read back for
 * the page. */
#ifndef STRADDLE_RESULTS_AB_H
#define STRADDLE_RESULTS_AB_H

#include <jansson.h>

#include "../measure/ab.h"

json_t *results_ab(const struct ab_experiment *t, int argc, char **argv);

/* A change as ab's document holds it: %, its CI, p, rounds (NAN where the
 * file lacks them; present false: none). */
struct ab_change {
	bool present;
	double pct, lo, hi, p, rounds;
};

/* ab's document read back for the page (strings borrowed from it but for
 * command[], joined and owned). Its arms and their samples are the
 * metrics results_file_of reads. */
struct ab_doc {
	const char *verdict, *reason, *measure, *stopped_by;
	double rounds, elapsed_s, round_sd_pct, identical, runs;
	bool checked;
	struct ab_change change, aligned;
	double align;                   /* the aligned arms' block, NAN: none ran */
	bool has_band;
	double band_lo, band_hi;        /* %: B over A were B's code A's, moved */
	char *command[2];
	const char *why_not[2];         /* why a build ran unmoved only, NULL: it did not */
	double moved[2];
};

void results_ab_doc(const json_t *doc, struct ab_doc *d);
void results_ab_doc_free(struct ab_doc *d);

#endif
