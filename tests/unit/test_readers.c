/* results/' typed readers of what report/ renders (issue 23: report/ never
 * walks json_t). A record: a fixture scanned, samples put in two of its
 * loops, written as `straddle record` writes it (results_record_file,
 * _kernel, _record), read back and checked field by field. fault-write's
 * details as its workload writes them, read as bench's text prints them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	json_t *files = json_array();
	struct err e = { "" };

	snprintf(path, sizeof path, "%s/x86/branches", getenv("FIXTURES"));
	assert_int_equal(elf_open_file(&t->img, path, &e), 0);
	assert_int_equal(scan_image(&t->img, &(struct scan_opts){ .profiles = p, .nprofiles = 2,
			 .jobs = 1, .keep_all = true, .llvm_mca = "none" }, &t->r, &e), 0);
	add_samples(&f, 0x401230, 7);
	add_samples(&f, 0x401240, 2);
	add_samples(&f, 0x401120, 1);
	sample_hist_merge(&f.addrs);     /* hot_attribute reads them sorted */
	json_array_append_new(files, results_record_file(&f, &t->r, NULL));
	json_array_append_new(files, results_record_file(&bad, NULL, "cannot open: gone"));
	h.ksym = &k;
	h.nksym = 1;
	h.kernel.samples = 4;
	t->doc = results_record(&(struct record_doc){ .argc = 4, .argv = argv, .s = &s, .hz = 997,
		.exit_status = 3, .files = files, .kernel = results_record_kernel(&h),
		.sample_cost_ns = -1, .few = "" });
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(head_read_back),
		cmocka_unit_test(loops_read_back),
		cmocka_unit_test(fault_write_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
