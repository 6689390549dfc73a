/* The typed reader of scan documents (results/scan_read.c) gives back the
 * scan that wrote them, so the page's rows (report/rows.c) are the
 * terminal's: a fixture scanned, written as scan --json writes it, read
 * back, and compared field by field and row by row. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

struct round_trip {
	struct elf_image img;
	struct scan_result r;
	json_t *doc;
	struct scan_read back;
};

/* Scan FIXTURES/x86/NAME under the profiles, write it, read it back. */
static void round_trip(struct round_trip *t, const char *name, const char *const *profiles,
		       size_t nprofiles)
{
	const struct profile *p[8];
	char path[4096], *buf = NULL;
	size_t len = 0;
	struct err e = { "" };
	struct json_stream s;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < nprofiles; i++)
		assert_non_null(p[i] = profile_named(profiles[i]));
	snprintf(path, sizeof path, "%s/x86/%s", getenv("FIXTURES"), name);
	assert_int_equal(elf_open_file(&t->img, path, &e), 0);
	assert_int_equal(scan_image(&t->img, &(struct scan_opts){ .profiles = p,
			 .nprofiles = nprofiles, .jobs = 1, .keep_all = true, .cost = true,
			 .llvm_mca = "none" }, &t->r, &e), 0);
	jstream_begin(&s, f, results_new("scan"));
	jstream_open(&s, "files", '[');
	results_scan_file(&s, &t->img, &t->r, false, 0);
	jstream_close(&s);
	assert_int_equal(jstream_end(&s), 0);
	fclose(f);
	assert_non_null(t->doc = json_loadb(buf, len, 0, NULL));
	free(buf);
	results_read_scan(t->doc, &t->back);
	assert_int_equal(t->back.nfile, 1);
}

static void round_trip_free(struct round_trip *t)
{
	results_scan_read_free(&t->back);
	json_decref(t->doc);
	scan_result_free(&t->r);
	elf_close(&t->img);
}

static void same_hazard(const struct hazard *a, const struct hazard *b)
{
	assert_string_equal(a->profile->name, b->profile->name);
	assert_int_equal(a->rule, b->rule);
	assert_int_equal(a->severity, b->severity);
	assert_int_equal(a->window, b->window);
	assert_int_equal(a->certain, b->certain);
	assert_int_equal(a->bad_placements, b->bad_placements);
	assert_int_equal(a->all_placements, b->all_placements);
	assert_int_equal(a->fix_align, b->fix_align);
	assert_int_equal(a->fix_pad, b->fix_pad);
	assert_int_equal(a->fix_clean, b->fix_clean);
	assert_int_equal(a->fix_layout, b->fix_layout);
	assert_int_equal(a->here_align, b->here_align);
	assert_int_equal(a->here_pad, b->here_pad);
	assert_int_equal(a->here_clean, b->here_clean);
	assert_int_equal(a->branch_kind, b->branch_kind);
	assert_int_equal(a->branch, b->branch);
	assert_int_equal(a->pair, b->pair);
	assert_string_equal(a->section, b->section);
	/* the document keeps three decimals (jw_real) */
	assert_true(a->slowdown - b->slowdown < 0.0006f && b->slowdown - a->slowdown < 0.0006f);
}

static void same_loop(const struct scan_result *ra, const struct loop_report *a,
		      const struct scan_result *rb, const struct loop_report *b)
{
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->end, b->end);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->npiece, b->npiece);
	for (uint32_t k = 0; k < a->npiece; k++) {
		assert_int_equal(ra->piece[a->piece + k].start, rb->piece[b->piece + k].start);
		assert_int_equal(ra->piece[a->piece + k].end, rb->piece[b->piece + k].end);
	}
	for (size_t w = 0; w < MODEL_NWINDOWS; w++)
		assert_int_equal(loop_touched(ra, a, model_windows[w]), loop_touched(rb, b, model_windows[w]));
	assert_int_equal(a->spin, b->spin);
	assert_int_equal(a->span_uncertain, b->span_uncertain);
	assert_int_equal(a->nhazard, b->nhazard);
	for (uint32_t k = 0; k < a->nhazard; k++)
		same_hazard(&ra->hazard[a->hazard + k], &rb->hazard[b->hazard + k]);
}

/* Every function, loop and hazard of the scan, as it was. */
static void same_scan(const struct scan_result *a, const struct scan_result *b)
{
	assert_int_equal(a->nfunc, b->nfunc);
	assert_int_equal(a->nloop, b->nloop);
	assert_int_equal(a->nhazard, b->nhazard);
	assert_int_equal(a->nprofile, b->nprofile);
	for (size_t i = 0; i < a->nfunc; i++) {
		const struct func_report *fa = &a->func[i], *fb = &b->func[i];

		assert_string_equal(a->funcs.v[fa->func].name, b->funcs.v[fb->func].name);
		assert_int_equal(a->funcs.v[fa->func].addr, b->funcs.v[fb->func].addr);
		assert_int_equal(a->funcs.v[fa->func].size, b->funcs.v[fb->func].size);
		assert_int_equal(fa->cold_text, fb->cold_text);
		assert_int_equal(fa->nloop, fb->nloop);
		for (uint32_t k = 0; k < fa->nloop; k++)
			same_loop(a, &a->loop[fa->loop + k], b, &b->loop[fb->loop + k]);
		assert_int_equal(fa->nhazard, fb->nhazard);
		for (uint32_t k = 0; k < fa->nhazard; k++)
			same_hazard(&a->hazard[fa->hazard + k], &b->hazard[fb->hazard + k]);
	}
}

/* The rows of both, cell by cell, in order. */
static size_t same_rows(const struct scan_result *a, const struct scan_result *b)
{
	struct scan_rows ra, rb;
	size_t n;

	scan_rows(a, 0, 0.005, false, &ra);
	scan_rows(b, 0, 0.005, false, &rb);
	assert_int_equal(ra.n, rb.n);
	assert_int_equal(ra.total, rb.total);
	assert_int_equal(ra.free, rb.free);
	for (size_t i = 0; i < ra.n; i++) {
		struct scan_cells ca, cb;

		scan_row_cells(a, &ra.v[i], &ca);
		scan_row_cells(b, &rb.v[i], &cb);
		for (size_t c = 0; c < SCAN_COLS; c++)
			assert_string_equal(ca.cell[c], cb.cell[c]);
		sb_free(&ca.profiles);
		sb_free(&cb.profiles);
	}
	n = ra.n;
	scan_rows_free(&ra);
	scan_rows_free(&rb);
	return n;
}

/* Cell c of row i of r's rows. */
static void check_cell(const struct scan_result *r, size_t i, size_t c, const char *want)
{
	struct scan_rows rows;
	struct scan_cells cells;

	scan_rows(r, 0, 0.005, false, &rows);
	assert_true(i < rows.n);
	scan_row_cells(r, &rows.v[i], &cells);
	assert_string_equal(cells.cell[c], want);
	sb_free(&cells.profiles);
	scan_rows_free(&rows);
}

/* How many of r's rows cost nothing here, folded. */
static size_t free_rows(const struct scan_result *r)
{
	struct scan_rows rows;
	size_t n;

	scan_rows(r, 0, 0.005, false, &rows);
	n = rows.free;
	scan_rows_free(&rows);
	return n;
}

/* branches: loops whose branches cross 32 B under skylake (jcc rows),
 * straddles under both; 7 hazards, 4 rows (scan --uarch zen4,skylake). */
static void branches_round_trip(void **state)
{
	static const char *const p[] = { "zen4", "skylake" };
	struct round_trip t;

	round_trip(&t, "branches", p, 2);
	same_scan(&t.r, &t.back.file[0].r);
	assert_int_equal(t.back.file[0].r.nhazard, 7);
	assert_int_equal(same_rows(&t.r, &t.back.file[0].r), 4);
	round_trip_free(&t);
}

/* pieces: loops whose header the exit separates from their body, their
 * windows counted over their pieces: 4 rows, the first far's "2/1,2/1,2/1
 * in 2 pieces: 0x401140/4 0x401180/6"; spin_lock's outer loop, priced at
 * nothing (its time is its inner spin's), folded. */
static void pieces_round_trip(void **state)
{
	static const char *const p[] = { "zen1", "skylake", "goldencove" };
	struct round_trip t;
	size_t npieced = 0;

	round_trip(&t, "pieces", p, 3);
	same_scan(&t.r, &t.back.file[0].r);
	for (size_t i = 0; i < t.back.file[0].r.nloop; i++)
		npieced += t.back.file[0].r.loop[i].npiece > 1;
	assert_int_equal(npieced, 5);       /* scan --all: 5 of its 7 loops */
	assert_int_equal(same_rows(&t.r, &t.back.file[0].r), 4);
	check_cell(&t.back.file[0].r, 0, 9, "2/1,2/1,2/1 in 2 pieces: 0x401140/4 0x401180/6");
	assert_int_equal(free_rows(&t.back.file[0].r), 1);
	round_trip_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(branches_round_trip),
		cmocka_unit_test(pieces_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
