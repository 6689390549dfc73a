/* base's string builder: appends are never cut, whatever their length
 * (the snprintf(p + strlen(p)) chains it replaced stopped at 160 or 256
 * bytes without a word). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

static void empty(void **state)
{
	struct strbuf b = { 0 };

	assert_string_equal(sb_str(&b), "");
	sb_reset(&b);
	assert_int_equal(b.len, 0);
	sb_free(&b);
}

/* 1000 names joined: 1000 * 12 - 1 bytes, every one there */
static void long_list(void **state)
{
	struct strbuf b = { 0 };
	char want[16];

	for (int i = 0; i < 1000; i++)
		sb_addf(&b, "%s%s%06d", b.len ? "," : "", "name_", i);
	assert_int_equal(b.len, 1000 * 12 - 1);
	assert_int_equal(strlen(sb_str(&b)), b.len);
	assert_memory_equal(sb_str(&b), "name_000000,name_000001,", 24);
	snprintf(want, sizeof want, "name_%06d", 999);
	assert_string_equal(sb_str(&b) + b.len - 11, want);
	sb_reset(&b);
	sb_addf(&b, "%u/%u", 3u, 1u);
	assert_string_equal(sb_str(&b), "3/1");
	sb_free(&b);
	assert_null(b.s);
}

/* A stream into a strbuf: what was written, all of it, after an append
 * already there; 100,000 lines cross many doublings of the buffer. */
static void stream(void **state)
{
	struct strbuf b = { 0 };
	FILE *f;

	sb_addf(&b, "head;");
	f = sb_stream(&b);
	assert_non_null(f);
	for (int i = 0; i < 100000; i++)
		fprintf(f, "%06d\n", i);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(b.len, 5 + 100000 * 7);
	assert_int_equal(strlen(sb_str(&b)), b.len);
	assert_memory_equal(b.s, "head;000000\n000001\n", 19);
	assert_string_equal(b.s + b.len - 7, "099999\n");
	sb_free(&b);
}

/* From 4 MiB up the buffer is big_realloc's memory (grown by mremap):
 * 1,000,000 lines are 7 MB, so the text moves from the heap into a
 * mapping at 4 MiB and the mapping grows to 8 MiB; nothing is lost. */
static void mapped(void **state)
{
	struct strbuf b = { 0 };
	FILE *f;

	sb_addf(&b, "head;");
	f = sb_stream(&b);
	assert_non_null(f);
	for (int i = 0; i < 1000000; i++)
		fprintf(f, "%06d\n", i);
	assert_int_equal(fclose(f), 0);
	assert_true(b.big);
	assert_int_equal(b.cap, 8u << 20);
	assert_int_equal(b.len, 5 + 1000000 * 7);
	assert_int_equal(strlen(sb_str(&b)), b.len);
	assert_memory_equal(b.s, "head;000000\n000001\n", 19);
	assert_memory_equal(b.s + 5 + 600000 * 7, "600000\n", 7);
	assert_string_equal(b.s + b.len - 7, "999999\n");
	sb_addf(&b, "%s", "tail");
	assert_string_equal(b.s + b.len - 11, "999999\ntail");
	sb_free(&b);
	assert_null(b.s);
	assert_false(b.big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty),
		cmocka_unit_test(long_list),
		cmocka_unit_test(stream),
		cmocka_unit_test(mapped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
