/* Helpers the page's sections share (html_measure.c, html_bench.c,
 * html_layout.c); nothing outside report/ includes this. */
#ifndef STRADDLE_REPORT_INTERNAL_H
#define STRADDLE_REPORT_INTERNAL_H

#include "report.h"

/* A number field of o (of element i of an array field), NAN when absent:
 * a hand-edited file prints "-", never garbage. */
double json_num(const json_t *o, const char *key);
double json_num_at(const json_t *o, const char *key, size_t i);
/* A string field of o, `absent` when it is not there (the layout
 * sections print "-", the measured ones ""). */
const char *json_str(const json_t *o, const char *key, const char *absent);
/* Whether the array list has the string name. */
bool json_list_has(const json_t *list, const char *name);
/* v printed by fmt into a table cell, "-" when it is not finite. */
void cell_text(char *buf, size_t n, const char *fmt, double v);

#endif
