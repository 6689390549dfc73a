/* The JSON writer: escaping of names that are bytes, not text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/json.h"

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

/* RFC 3629's well-formed forms only: overlong
 * forms, surrogates and code points above U+10FFFF are bytes, each one
 * U+FFFD; the edges of each range pass. */
#define FFFD "\xef\xbf\xbd"
static void strict_utf8(void **state)
{
	check("\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"");           /* U+D800 */
	check("\xed\xbf\xbf", "\"" FFFD FFFD FFFD "\"");           /* U+DFFF */
	check("\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"");           /* overlong '/' */
	check("\xe0\x9f\xbf", "\"" FFFD FFFD FFFD "\"");           /* overlong U+7FF */
	check("\xf0\x8f\xbf\xbf", "\"" FFFD FFFD FFFD FFFD "\"");  /* overlong U+FFFF */
	check("\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");  /* U+110000 */
	check("\xf5\x80\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
	check("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");                 /* U+D7FF */
	check("\xee\x80\x80", "\"\xee\x80\x80\"");                 /* U+E000 */
	check("\xe0\xa0\x80", "\"\xe0\xa0\x80\"");                 /* U+800 */
	check("\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\"");         /* U+10000 */
	check("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");         /* U+10FFFF */
}

/* The reference: decode, then the three rules of RFC 3629 section 3. */
static size_t reference_length(const unsigned char *p, size_t n)
{
	size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xc0 && p[0] < 0xe0 ? 2 :
		     p[0] >= 0xe0 && p[0] < 0xf0 ? 3 : p[0] >= 0xf0 && p[0] < 0xf8 ? 4 : 0;
	static const unsigned mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned cp;

	if (!len || len > n)
		return 0;
	cp = p[0] & mask[len];
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* utf8_length against the reference over every first and second byte,
 * with each third and fourth byte of one continuation and one not. */
static void utf8_every_prefix(void **state)
{
	static const unsigned char tails[] = { 0x80, 0xbf, 0x41, 0xc0 };

	for (unsigned a = 1; a < 256; a++)
		for (unsigned b = 0; b < 256; b++)
			for (size_t t = 0; t < sizeof tails; t++) {
				unsigned char p[4] = { (unsigned char)a, (unsigned char)b, tails[t],
						       tails[(t + 1) % sizeof tails] };

				for (size_t n = 1; n <= 4; n++)
					assert_int_equal(utf8_length(p, n), reference_length(p, n));
			}
}

/* json_text keeps a path whose bytes are not UTF-8: it was "" for a
 * surrogate, as jansson refused the copy. */
static void text_of_bytes(void **state)
{
	json_t *j = json_text("/tmp/\xed\xa0\x80.o");

	assert_string_equal(json_string_value(j), "/tmp/" FFFD FFFD FFFD ".o");
	json_decref(j);
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
		cmocka_unit_test(strict_utf8),
		cmocka_unit_test(utf8_every_prefix),
		cmocka_unit_test(text_of_bytes),
		cmocka_unit_test(document),
		cmocka_unit_test(blocks),
		cmocka_unit_test(keyed_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
