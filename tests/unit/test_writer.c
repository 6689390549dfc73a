/* The JSON writer: escaping of names that are bytes, not text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	jw_quote(f, s);
	fclose(f);
	return buf;
}

static void check(const char *in, const char *want)
{
	char *got = quoted(in);

	assert_string_equal(got, want);
	free(got);
}

static void escapes(void **state)
{
	check("plain", "\"plain\"");
	check("a\"b\\c", "\"a\\\"b\\\\c\"");
	check("tab\there\n", "\"tab\\u0009here\\u000a\"");
	/* valid UTF-8 passes through; invalid bytes become U+FFFD */
	check("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	check("x\x98y", "\"x\xef\xbf\xbdy\"");
	check("\xc3", "\"\xef\xbf\xbd\"");              /* cut short */
	check("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"");  /* overlong */
}

static void document(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	jw_init(&w, f);
	jw_open(&w, NULL, '{');
	jw_hex(&w, "addr", 0xffffffff81000000ull);      /* beyond 2^53: a string */
	jw_int(&w, "n", -3);
	jw_int(&w, "zero", 0);
	jw_int(&w, "min", -9223372036854775807LL - 1);
	jw_hex(&w, "h0", 0);
	jw_open(&w, "a", '[');
	jw_bool(&w, NULL, true);
	jw_null(&w, NULL);
	jw_close(&w, ']');
	jw_close(&w, '}');
	fclose(f);
	assert_string_equal(buf, "{\"addr\":\"0xffffffff81000000\",\"n\":-3,\"zero\":0,"
			    "\"min\":-9223372036854775808,\"h0\":\"0x0\",\"a\":[true,null]}");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
