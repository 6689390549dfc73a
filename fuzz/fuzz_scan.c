/* libFuzzer harness over the whole scan path: the
 * input bytes as an ELF image, every function decoded and put through the
 * CFG and every profile's rules, the result as JSON with source lines, all
 * freed. A crash, a sanitizer report or a leak is a finding, and so is a
 * JSON document that does not parse back.
 *
 * One more oracle: the scan with two workers must give the same document
 * as with one. */
#include "base/base.h"
#include "elf/elf.h"
#include "model/profile.h"
#include "model/scan.h"
#include "results/json.h"
#include "results/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why the JSON writer failed, as far as the harness can tell: jansson
 * refuses strings that are not UTF-8, and ELF names are bytes. */
static void explain_json_failure(const struct elf_image *img, const struct scan_result *r)
{
	for (size_t i = 0; i < r->funcs.n; i++) {
		json_t *t = json_string(r->funcs.v[i].name);

		if (!t) {
			fprintf(stderr, "fuzz_scan: function name at %#llx is not UTF-8\n",
				(unsigned long long)r->funcs.v[i].addr);
			return;
		}
		json_decref(t);
	}
	for (size_t i = 0; i < img->nsec; i++) {
		json_t *t = json_string(img->sec[i].name);

		if (!t) {
			fprintf(stderr, "fuzz_scan: section %zu's name is not UTF-8\n", i);
			return;
		}
		json_decref(t);
	}
}

/* The scan as `straddle scan --json` writes it (a streamed document), read
 * back: it must be valid JSON. Returns the text, NULL when the scan failed. */
static char *scan_to_json(struct elf_image *img, const struct scan_opts *o)
{
	struct scan_result r;
	struct err e = { "" };
	char *text = NULL;
	size_t len = 0;

	if (scan_image(img, o, &r, &e) == 0) {
		FILE *f = open_memstream(&text, &len);
		struct json_stream s;
		json_error_t jerr;
		json_t *back;

		if (!f)
			abort();
		jstream_begin(&s, f, results_new("scan"));
		jstream_open(&s, "files", '[');
		results_scan_file(&s, img, &r, true, 0);
		jstream_close(&s);
		jstream_put(&s, "errors", json_array());
		if (jstream_end(&s) || fclose(f)) {
			fprintf(stderr, "fuzz_scan: writing the JSON failed\n");
			explain_json_failure(img, &r);
			abort();
		}
		back = json_loads(text, 0, &jerr);
		if (!back) {
			fprintf(stderr, "fuzz_scan: invalid JSON (%s, line %d): %s\n",
				jerr.text, jerr.line, text);
			abort();
		}
		free(json_dumps(back, JSON_COMPACT));
		json_decref(back);
	}
	scan_result_free(&r);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct profile *profiles[64];
	static size_t nprofiles;
	struct elf_image img;
	struct err e = { "" };

	if (nprofiles == 0)
		for (size_t i = 0; i < profile_count() && nprofiles < 64; i++)
			profiles[nprofiles++] = profile_at(i);
	if (elf_open_memory(&img, data, size, "fuzz-input", &e) == 0) {
		struct scan_opts o = { .profiles = profiles, .nprofiles = nprofiles,
				       .jobs = 1, .keep_all = true };
		char *one = scan_to_json(&img, &o), *two;

		o.jobs = 2;
		two = scan_to_json(&img, &o);
		if ((one == NULL) != (two == NULL) || (one && strcmp(one, two) != 0)) {
			fprintf(stderr, "fuzz_scan: -j 1 and -j 2 disagree\n-j 1: %s\n-j 2: %s\n",
				one ? one : "(failed)", two ? two : "(failed)");
			abort();
		}
		free(one);
		free(two);
	}
	elf_close(&img);
	return 0;
}
