/* An image held in memory (a member of a package) is read, never written:
 * its source lines are asked, and then it is scanned again, byte for byte
 * the same. The input is one the fuzzer found (tests/fixtures/fuzz/): a
 * relocatable object whose section names point into its code; libdwfl,
 * relocating it for its lines, once wrote into the image's own bytes, and
 * the second scan of function 0xf0 decoded 177 instructions, not 175. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf.h"
#include "model/profile.h"
#include "model/scan.h"

#define BROKEN_REL "tests/fixtures/fuzz/rel-debug-over-text"

static size_t read_all(const char *path, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static size_t scanned_instructions(struct elf_image *img)
{
	const struct profile *p[] = { profile_named("goldencove") };
	struct scan_result r;
	struct err e = { "" };
	size_t n;

	assert_int_equal(scan_image(img, &(struct scan_opts){ .profiles = p, .nprofiles = 1,
			 .jobs = 1, .keep_all = true }, &r, &e), 0);
	n = r.instructions;
	scan_result_free(&r);
	return n;
}

static void lines_leave_the_bytes_alone(void **state)
{
	static uint8_t file[1 << 16];
	size_t n = read_all(BROKEN_REL, file, sizeof file);
	struct elf_image img;
	struct elf_funcs fs;
	struct err e = { "" };
	char line[256];

	assert_int_equal(n, 8272);
	assert_int_equal(elf_open_memory(&img, file, n, BROKEN_REL, &e), 0);
	assert_int_equal(scanned_instructions(&img), 1476);
	assert_int_equal(elf_functions(&img, &fs, &e), 0);
	assert_int_equal(fs.n, 8);
	for (size_t i = 0; i < fs.n; i++)
		elf_source_line(&img, fs.v[i].sec, fs.v[i].addr, line, sizeof line);
	elf_funcs_free(&fs);
	assert_memory_equal(img.data, file, n);
	assert_int_equal(scanned_instructions(&img), 1476);
	elf_close(&img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_leave_the_bytes_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
