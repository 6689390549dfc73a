/* The JSON writer: escaping of names that are bytes, not text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

/* s as the writer quotes it: the one element of an array, brackets cut */
static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	jw_init(&w, f);
	jw_open(&w, NULL, '[');
	jw_string(&w, NULL, s);
	jw_close(&w, ']');
	fclose(f);
	assert_true(len >= 2 && buf[0] == '[' && buf[len - 1] == ']');
	memmove(buf, buf + 1, len - 2);
	buf[len - 2] = '\0';
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

/* Every byte value at every place of a 19-byte name: a run of plain
 * bytes stops at each that is not ('"', '\\', a control byte, or here a
 * lone byte from 0x80 up, which is not UTF-8), wherever it stands. */
static void every_byte(void **state)
{
	for (int b = 1; b < 256; b++)
		for (int at = 0; at < 19; at++) {
			char in[20], want[40];
			const char *esc = b == '"' ? "\\\"" : b == '\\' ? "\\\\" :
					  b >= 0x80 ? "\xef\xbf\xbd" : NULL;
			char ctl[8];

			memset(in, 'a', 19);
			in[19] = '\0';
			in[at] = (char)b;
			if (b < 0x20) {
				snprintf(ctl, sizeof ctl, "\\u%04x", b);
				esc = ctl;
			}
			if (esc)
				snprintf(want, sizeof want, "\"%.*s%s%s\"", at, in, esc, in + at + 1);
			else
				snprintf(want, sizeof want, "\"%s\"", in);
			check(in, want);
		}
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

/* The writer stages bytes in blocks of sizeof w.buf: values that cross a
 * block's end, and a name longer than a block, come out whole. */
static void blocks(void **state)
{
	enum { LONG = 3 * sizeof ((struct jw *)0)->buf + 7, N = 2000 };
	char *name = malloc(LONG + 1), *want = malloc(LONG + 16 * N + 64), *buf = NULL;
	size_t len = 0, at = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	memset(name, 'a', LONG);
	name[LONG / 2] = '"';   /* an escape in the middle of the long run */
	name[LONG] = '\0';
	jw_init(&w, f);
	jw_open(&w, NULL, '[');
	at += (size_t)sprintf(want + at, "[");
	for (int i = 0; i < N; i++) {
		jw_int(&w, NULL, 1000003LL * i);
		at += (size_t)sprintf(want + at, "%s%lld", i ? "," : "", 1000003LL * i);
	}
	jw_string(&w, NULL, name);
	at += (size_t)sprintf(want + at, ",\"%.*s\\\"%s\"]", LONG / 2, name, name + LONG / 2 + 1);
	jw_close(&w, ']');
	fclose(f);
	assert_int_equal(len, at);
	assert_string_equal(buf, want);
	free(buf);
	free(want);
	free(name);
}

/* Keyed values of every kind across many blocks: each asks the buffer
 * once for its key and value together, so one that does not fit where a
 * block ends must start the next whole. */
static void keyed_blocks(void **state)
{
	enum { N = 3000 };
	char *want = malloc(64 * N + 8), *buf = NULL;
	size_t len = 0, at = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	jw_init(&w, f);
	jw_open(&w, NULL, '{');
	at += (size_t)sprintf(want + at, "{");
	for (int i = 0; i < N; i++) {
		const char *sep = i ? "," : "";

		switch (i % 5) {
		case 0:
			jw_int(&w, "instructions", -1000003LL * i);
			at += (size_t)sprintf(want + at, "%s\"instructions\":%lld", sep, -1000003LL * i);
			break;
		case 1:
			jw_hex(&w, "start", 0xffffffff81000000ull + (unsigned)i);
			at += (size_t)sprintf(want + at, "%s\"start\":\"0x%llx\"", sep,
					      0xffffffff81000000ull + (unsigned)i);
			break;
		case 2:
			jw_bool(&w, "in_loop_buffer", i & 8);
			at += (size_t)sprintf(want + at, "%s\"in_loop_buffer\":%s", sep,
					      i & 8 ? "true" : "false");
			break;
		case 3:
			jw_null(&w, "here_align");
			at += (size_t)sprintf(want + at, "%s\"here_align\":null", sep);
			break;
		default:
			jw_string(&w, "rule", "loop-straddles-window");
			at += (size_t)sprintf(want + at, "%s\"rule\":\"loop-straddles-window\"", sep);
		}
	}
	jw_close(&w, '}');
	at += (size_t)sprintf(want + at, "}");
	fclose(f);
	assert_int_equal(len, at);
	assert_string_equal(buf, want);
	free(buf);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(every_byte),
		cmocka_unit_test(document),
		cmocka_unit_test(blocks),
		cmocka_unit_test(keyed_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
