/* libFuzzer harness over every reader of result files:
 * the input bytes as a file given to 'straddle report' (any of the nine
 * kinds: scan, diff, record, bench, sweep, place, prove, calibrate,
 * compare), read by
 * report_input_read exactly as the command reads it and, when it is read,
 * rendered as the page; the same bytes as a record for --hot
 * (results_read_record) and as perf script text (--perf-script). A crash,
 * a sanitizer report, a leak or a hang is a finding. */
#include "base/base.h"
#include "model/hot.h"
#include "report/report.h"
#include "results/record.h"
#include "results/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The readers take a path: the bytes go to a memory file, read through
 * /proc/self/fd like any file (read_input's checks included). */
static int memory_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz_report", MFD_CLOEXEC);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
		perror("fuzz_report: memfd");
		abort();
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

static void as_page(const char *path)
{
	struct report_input in;
	struct err e;
	FILE *out;

	if (report_input_read(path, &in, &e) != 0)
		return;
	in.index = 1;
	out = fopen("/dev/null", "w");
	report_html(out, &in, 1);
	fclose(out);
	report_input_free(&in);
}

static void as_hot(const char *path)
{
	struct hot_run h;
	struct err e;

	results_read_record(path, &h, &e);
	hot_run_free(&h);
	results_read_perf_script(path, &h, &e);
	hot_run_free(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memory_file(data, size, path, sizeof path);

	as_page(path);
	as_hot(path);
	results_profiles_forget();
	close(fd);
	return 0;
}
