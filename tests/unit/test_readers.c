/* results/' typed readers of what report/ renders (report/ never
 * walks json_t). A record: a fixture scanned, samples put in two of its
 * loops, written as `straddle record` writes it (results_record_add_file,
 * _set_kernel, results_record), read back and checked field by field.
 * fault-write's details as its workload writes them, read as bench's text
 * prints them.
 * prove's trials written (results_prove), read back (results_read_prove):
 * prove's text of them the same, and the page's prove table the text's
 * rows, cell for cell. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

struct recorded {
	struct elf_image img;
	struct scan_result r;
	json_t *doc;
	struct record_read back;
};

static void add_samples(struct hot_file *f, uint64_t addr, uint64_t count)
{
	GROW(f->addrs.v, f->addrs.cap, f->addrs.n + 1);
	f->addrs.v[f->addrs.n++] = (struct sample_count){ addr, count };
	f->samples += count;
}

/* branches under zen4 and skylake (scan --all: loops many_back 0x401110,
 * fwd_cross 0x40122c, line44 0x401330): 9 samples in fwd_cross's loop,
 * 1 in many_back's; a second file that could not be scanned; 4 kernel
 * samples in one symbol. */
static void record_branches(struct recorded *t)
{
	static const char *const names[] = { "zen4", "skylake" };
	static char *argv[] = { "straddle", "record", "--", "./branches" };
	const struct profile *p[2] = { profile_named(names[0]), profile_named(names[1]) };
	struct hot_file f = { .path = "branches", .build_id = "b1d" };
	struct hot_file bad = { .path = "/gone/libx.so", .samples = 5 };
	struct hot_run h = { .kernel_release = "6.1.0", .kernel_build_id = "kb" };
	struct hot_ksym k = { "do_sys_open", 0xffffffff81234560ull, 4 };
	struct sampling s = { .event = "cpu-clock", .samples = 19, .kernel_samples = 4,
			      .unmapped = 0, .lost = 1, .event_note = "no cycles: cpu-clock" };
	char path[4096], *text;
	struct record_doc d = { .argc = 4, .argv = argv, .s = &s, .hz = 997, .exit_status = 3,
				.sample_cost_ns = -1, .few = "" };
	struct err e = { "" };

	snprintf(path, sizeof path, "%s/x86/branches", getenv("FIXTURES"));
	assert_int_equal(elf_open_file(&t->img, path, &e), 0);
	assert_int_equal(scan_image(&t->img, &(struct scan_opts){ .profiles = p, .nprofiles = 2,
			 .jobs = 1, .keep_all = true, .llvm_mca = "none" }, &t->r, &e), 0);
	add_samples(&f, 0x401230, 7);
	add_samples(&f, 0x401240, 2);
	add_samples(&f, 0x401120, 1);
	sample_hist_merge(&f.addrs);     /* hot_attribute reads them sorted */
	results_record_add_file(&d, &f, &t->r, NULL);
	results_record_add_file(&d, &bad, NULL, "cannot open: gone");
	h.ksym = &k;
	h.nksym = 1;
	h.kernel.samples = 4;
	results_record_set_kernel(&d, &h);
	t->doc = results_record(&d);
	/* through the bytes a file holds, as the page reads it */
	text = json_dumps(t->doc, 0);
	json_decref(t->doc);
	assert_non_null(t->doc = json_loads(text, 0, NULL));
	free(text);
	free(f.addrs.v);
	results_record_read(t->doc, &t->back);
}

static void recorded_free(struct recorded *t)
{
	results_record_read_free(&t->back);
	json_decref(t->doc);
	scan_result_free(&t->r);
	elf_close(&t->img);
}

static void head_read_back(void **state)
{
	struct recorded t;

	(void)state;
	record_branches(&t);
	assert_string_equal(t.back.event, "cpu-clock");
	assert_true(t.back.has_frequency);
	assert_int_equal(t.back.frequency, 997);
	assert_true(t.back.has_exit_status);
	assert_int_equal(t.back.exit_status, 3);
	assert_int_equal(t.back.total, 19);
	assert_int_equal(t.back.user, 15);
	assert_int_equal(t.back.kernel, 4);
	assert_int_equal(t.back.unmapped, 0);
	assert_int_equal(t.back.lost, 1);
	assert_int_equal(t.back.nnote, 1);
	assert_string_equal(t.back.note[0], "no cycles: cpu-clock");
	assert_int_equal(t.back.nkernel_function, 1);
	assert_string_equal(t.back.kernel_function[0].name, "do_sys_open");
	assert_string_equal(t.back.kernel_function[0].addr, "0xffffffff81234560");
	assert_int_equal(t.back.kernel_function[0].samples, 4);
	assert_int_equal(t.back.nfile, 2);
	assert_string_equal(t.back.file[1].path, "/gone/libx.so");
	assert_true(t.back.file[1].has_error);
	assert_string_equal(t.back.file[1].error, "cannot open: gone");
	assert_null(t.back.file[1].build_id);
	assert_int_equal(t.back.file[1].samples, 5);
	assert_int_equal(t.back.file[1].nloop, 0);
	assert_int_equal(t.back.file[1].nfunction, 0);
	recorded_free(&t);
}

/* Each loop as the record's scan saw it: the hottest first, its bytes,
 * depth and samples, and its hazards equal to the scan's, field by field. */
static void loops_read_back(void **state)
{
	struct recorded t;
	const struct record_file_read *f;

	(void)state;
	record_branches(&t);
	f = &t.back.file[0];
	assert_string_equal(f->path, "branches");
	assert_string_equal(f->build_id, "b1d");
	assert_false(f->has_error);
	assert_int_equal(f->samples, 10);
	assert_int_equal(f->nloop, 2);
	assert_string_equal(f->loop[0].function, "fwd_cross");
	assert_string_equal(f->loop[0].start, "0x40122c");
	assert_string_equal(f->loop[0].end, "0x401254");
	assert_int_equal(f->loop[0].bytes, 40);
	assert_int_equal(f->loop[0].depth, 1);
	assert_int_equal(f->loop[0].samples, 9);
	assert_string_equal(f->loop[1].function, "many_back");
	assert_string_equal(f->loop[1].start, "0x401110");
	assert_int_equal(f->loop[1].bytes, 40);
	assert_int_equal(f->loop[1].samples, 1);
	for (size_t i = 0; i < t.r.nloop; i++) {
		const struct loop_report *l = &t.r.loop[i];
		const struct record_loop_read *b = &f->loop[l->start == 0x40122c ? 0 : 1];

		if (l->start != 0x40122c && l->start != 0x401110)
			continue;
		assert_int_equal(b->nhazard, l->nhazard);
		for (uint32_t k = 0; k < l->nhazard; k++) {
			const struct hazard *want = &t.r.hazard[l->hazard + k];
			const struct record_hazard_read *got = &b->hazard[k];

			assert_string_equal(got->rule, rule_name(want->rule));
			assert_string_equal(got->profile, want->profile->name);
			assert_int_equal(got->window, want->window);
			assert_int_equal(got->h.rule, want->rule);
			assert_string_equal(got->h.profile->name, want->profile->name);
			assert_int_equal(got->h.fix_align, want->fix_align);
			assert_int_equal(got->h.fix_pad, want->fix_pad);
			assert_int_equal(got->h.branch, want->branch);
		}
	}
	assert_int_equal(f->loop[0].nhazard, 4);
	assert_int_equal(f->loop[1].nhazard, 1);
	assert_int_equal(f->nfunction, 2);
	assert_string_equal(f->function[0].name, "fwd_cross");
	assert_int_equal(f->function[0].samples, 9);
	assert_string_equal(f->function[1].name, "many_back");
	assert_int_equal(f->function[1].samples, 1);
	recorded_free(&t);
}

/* fault-write's details of two runs (workloads/fault_write.c's probe_json):
 * the notes are the last run's, a failed read with its error. */
static void fault_write_notes(void **state)
{
	struct workload_notes n;
	json_t *d = json_pack("{s:s, s:b, s:[{s:{s:s, s:i, s:i}, s:{s:s}},"
			      " {s:{s:s, s:i, s:i, s:b, s:b}, s:{s:s, s:i, s:i, s:s, s:b, s:b}}]}",
		"seed", "001", "pass", 0, "runs",
		"write", "call", "w0", "expected", 66, "returned", 66, "read", "call", "r0",
		"write", "call", "write(fd, &buf[4096 - 66], 130)", "expected", 66, "returned", 66,
		"content_ok", 1, "pass", 1,
		"read", "call", "read(fd, &buf[4096 - 66], 130)", "expected", 66, "returned", -1,
		"error", "Bad address", "content_ok", 0, "pass", 0);

	(void)state;
	assert_non_null(d);
	results_workload_notes(d, &n);
	assert_string_equal(n.write.call, "write(fd, &buf[4096 - 66], 130)");
	assert_int_equal(n.write.expected, 66);
	assert_int_equal(n.write.returned, 66);
	assert_true(n.write.pass);
	assert_true(n.write.content_ok);
	assert_null(n.write.error);
	assert_string_equal(n.read.call, "read(fd, &buf[4096 - 66], 130)");
	assert_int_equal(n.read.returned, -1);
	assert_false(n.read.pass);
	assert_false(n.read.content_ok);
	assert_string_equal(n.read.error, "Bad address");
	assert_null(n.cold);
	json_decref(d);
	d = json_pack("{s:s}", "cold", "not measured: no TSC");
	results_workload_notes(d, &n);
	assert_string_equal(n.cold, "not measured: no TSC");
	assert_null(n.write.call);
	json_decref(d);
}

/* Three trials as prove makes them: measured and agreeing, measured with
 * a slowdown beyond the loop's share (INFINITY: written as null), and one
 * place could not move. */
static size_t three_trials(struct loop_trial *t)
{
	memset(t, 0, 3 * sizeof *t);
	t[0] = (struct loop_trial){ .file = "/b/demo/clear", .func = "clear_loop", .start = 0x1272,
		.end = 0x1281, .samples = 133, .run_samples = 145, .current = 50, .best = 0,
		.place_predicted = 1.05f, .rounds = 10 };
	t[0].cost.slowdown = 1.05f;
	t[0].cost.bound = COST_FRONT_END;
	t[0].control = (struct paired){ 0.9889, 0.9581, 1.0207, 0.446, 10 };
	t[0].proof = (struct loop_proof){ .share = 0.917, .share_lo = 0.861, .share_hi = 0.952,
		.program = { 0.9492, 0.93743, 0.96111, 5.7e-6, 10 }, .loop = 1.0586,
		.loop_lo = 1.0426, .loop_hi = 1.0784, .said = PROOF_COSTS, .seen = PROOF_COSTS,
		.layout = { { 1.012, 0.99, 1.03, 0.2, 10 }, { 0.991, 0.97, 1.01, 0.4, 10 } },
		.nlayout = 2, .layout_sd = 0.011, .window = 0.95, .window_lo = 0.93,
		.window_hi = 0.97 };
	t[0].layout[0] = 18;
	t[0].layout[1] = 34;
	t[0].nlayout = 2;
	t[1] = t[0];
	t[1].func = "tail<&>";
	t[1].start = 0x12c0;
	t[1].samples = 9;
	t[1].cost.bound = COST_LATENCY;
	t[1].cost.at_most = true;       /* a bound from above: "<=", read back */
	t[1].proof.at_most = true;
	t[1].proof.program = (struct paired){ 1.0021, 0.991, 1.013, 0.71, 10 };
	t[1].proof.loop = t[1].proof.loop_hi = INFINITY;
	t[1].proof.seen = PROOF_INCONCLUSIVE;
	t[1].proof.nlayout = 0;
	/* replayed by its inner loop (its own made a system call), the best
	 * nothing, the control at 34 a miss (measure/proof.h) */
	t[1].replayed = true;
	t[1].snapshots = 300;
	t[1].replay = (struct loop_proof){ .share = 1, .predicted = 1.05, .at_most = true,
		.material = 0.03, .alpha = 0.05, .each_control = true,
		.program = { 0.985, 0.976, 0.994, 0.001, 20 },
		.layout = { { 0.99, 0.985, 0.995, 0.01, 20 }, { 0.954, 0.948, 0.96, 1e-6, 20 } },
		.nlayout = 2 };
	proof_judge(&t[1].replay);
	t[1].inner_start = 0x12d0, t[1].inner_end = 0x12e0, t[1].inner_samples = 7;
	snprintf(t[1].inner_why, sizeof t[1].inner_why, "the loop makes a system call (read, 0)");
	t[2] = t[0];
	t[2].file = "/lib/libc.so.6";
	t[2].func = "memset";
	t[2].samples = 3;
	snprintf(t[2].why_not, sizeof t[2].why_not, "not relocatable: a jump table reaches in");
	return 3;
}

static char *prove_text(const struct loop_trial *t, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	report_prove_text(t, n, 0, 0.01, "goldencove", f);
	fclose(f);
	return buf;
}

/* The cells of row `row` (1-based; 0 the head) of the page's prove
 * table, tags stripped and entities undone, joined by "|". */
static void html_row(const char *page, size_t row, char *out, size_t n)
{
	const char *p = strstr(page, "<table class=\"prove\"");
	size_t len = 0;

	assert_non_null(p);
	for (size_t r = 0; r <= row; r++)
		assert_non_null(p = strstr(p + 1, "<tr>"));
	for (const char *end = strstr(p, "</tr>"); p < end; p++) {
		static const char *const ent[][2] = { { "&amp;", "&" }, { "&lt;", "<" },
			{ "&gt;", ">" }, { "&quot;", "\"" }, { "&#39;", "'" } };
		bool done = false;

		if (!strncmp(p, "</td>", 5) || !strncmp(p, "</th>", 5))
			out[len++] = '|';
		if (*p == '<') {
			p = strchr(p, '>');
			continue;
		}
		for (size_t e = 0; e < 5 && !done; e++)
			if (!strncmp(p, ent[e][0], strlen(ent[e][0]))) {
				out[len++] = ent[e][1][0];
				p += strlen(ent[e][0]) - 1;
				done = true;
			}
		if (!done)
			out[len++] = *p;
		assert_true(len < n);
	}
	out[len ? len - 1 : 0] = '\0';
}

/* Line `row` of prove's text table (0 the head) as "|"-joined cells:
 * columns are two blanks apart, no cell holds two blanks. */
static void text_row(const char *text, size_t row, char *out, size_t n)
{
	const char *p = strchr(text, '\n') + 1;      /* after the profile line */
	size_t len = 0;

	for (size_t r = 0; r < row; r++)
		p = strchr(p, '\n') + 1;
	while (*p == ' ')
		p++;
	for (; *p && *p != '\n'; p++) {
		if (p[0] == ' ' && p[1] == ' ') {
			while (p[1] == ' ')
				p++;
			out[len++] = '|';
			continue;
		}
		out[len++] = *p;
		assert_true(len < n);
	}
	out[len] = '\0';
}

static void prove_read_back(void **state)
{
	static char *argv[] = { "straddle", "prove", "--", "./clear" };
	struct loop_trial t[3];
	size_t n = three_trials(t);
	char path[] = "/tmp/test_readers_XXXXXX", *want, *got, *page = NULL, a[600], b[600];
	struct report_input in;
	struct err e = { "" };
	size_t len = 0;
	json_t *doc = results_prove(t, n, "goldencove", 4, argv);
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(results_write(doc, path, &e), 0);
	json_decref(doc);
	assert_int_equal(report_input_read(path, &in, &e), 0);
	unlink(path);
	assert_int_equal(in.kind, RESULT_PROVE);
	assert_string_equal(in.prove.profile, "goldencove");
	assert_int_equal(in.prove.n, 3);
	assert_true(isinf(in.prove.trial[1].proof.loop));
	assert_string_equal(in.prove.trial[2].why_not, "not relocatable: a jump table reaches in");
	assert_string_equal(in.prove.trial[1].func, "tail<&>");
	want = prove_text(t, n);
	got = prove_text(in.prove.trial, in.prove.n);
	assert_string_equal(got, want);
	in.index = 1;
	f = open_memstream(&page, &len);
	assert_int_equal(report_html(f, &in, 1), 0);
	fclose(f);
	for (size_t r = 0; r <= n; r++) {
		html_row(page, r, a, sizeof a);
		text_row(want, r, b, sizeof b);
		assert_string_equal(a, b);
	}
	text_row(want, 1, b, sizeof b);
	assert_string_equal(b, "91.7|clear:0x1272|clear_loop|1.050x front-end|50 -> 0|-|"
			    "-5.1% [-6.3, -3.9]|+-1.2% (2)|1.059x [1.043, 1.078]|costs|agree");
	text_row(want, 2, b, sizeof b);
	assert_true(in.prove.trial[1].cost.at_most && in.prove.trial[1].proof.at_most &&
		    !in.prove.trial[0].cost.at_most);
	assert_string_equal(b, "6.2|clear:0x12c0|tail<&>|<=1.050x latency|50 -> 0|1.015x [1.006, 1.025]|"
			    "+0.2% [-0.9, +1.3]|-|more than its share|nothing|DISAGREE");
	assert_true(in.prove.trial[1].replayed && in.prove.trial[1].replay.control[1].missed &&
		    !in.prove.trial[1].replay.control[0].missed);
	assert_int_equal(proof_controls_missed(&in.prove.trial[1].replay), 1);
	assert_true(in.prove.trial[1].inner_start == 0x12d0 && in.prove.trial[1].inner_end == 0x12e0 &&
		    in.prove.trial[1].inner_samples == 7);
	assert_string_equal(in.prove.trial[1].inner_why, "the loop makes a system call (read, 0)");
	assert_non_null(strstr(want, "note: tail<&>'s loop replayed at 34 of its line took 0.954x "
			       "today's cycles [0.948, 0.960] where the model prices it as today"));
	assert_non_null(strstr(want, "note: tail<&>'s loop 0x12c0 was not replayed: the loop makes "
			       "a system call (read, 0); its inner loop 0x12d0 (4.8% of the samples)"));
	assert_int_equal(in.prove.trial[0].nlayout, 2);
	assert_int_equal(in.prove.trial[0].layout[1], 34);
	assert_true(fabs(in.prove.trial[0].proof.layout[0].ratio - 1.012) < 1e-12);
	assert_true(fabs(in.prove.trial[0].proof.window_hi - 0.97) < 1e-12);
	free(page);
	free(want);
	free(got);
	report_input_free(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(head_read_back),
		cmocka_unit_test(loops_read_back),
		cmocka_unit_test(fault_write_notes),
		cmocka_unit_test(prove_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
