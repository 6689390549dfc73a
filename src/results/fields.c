/* A document's fields as every reader takes them: one copy of what
 * scan_read.c, diff_read.c, measured.c, compared.c and bench.c each wrote for
 * itself. Absent or of another type: 0, NAN or NULL, so a hand-edited file
 * reads as "-", never as garbage. */
#include "json.h"

#include <math.h>

long long doc_int(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

double doc_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

double doc_num_at(const json_t *o, const char *key, size_t i)
{
	const json_t *v = json_array_get(json_object_get(o, key), i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *doc_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

double doc_three_places(double x)
{
	return round(x * 1000) / 1000;
}
