/* libFuzzer harness over compare's reader: the
 * input bytes as a result file (bench's, sweep's, hand-edited or broken),
 * read by results_read as 'straddle compare' reads it, and when it is read,
 * compared against itself and printed as text and markdown. A crash, a
 * sanitizer report or a leak is a finding; so is a file read back that
 * compares as anything but "no change" against itself. */
#include "base/base.h"
#include "report/report.h"
#include "results/metrics.h"
#include "results/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* results_read takes a path: the bytes go to a memory file, read through
 * /proc/self/fd like any file (open_input's checks included). */
static int memory_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz_results", MFD_CLOEXEC);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
		perror("fuzz_results: memfd");
		abort();
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_file files[2];
	struct compare c = { 0 };
	struct err e;
	char path[64];
	int fd = memory_file(data, size, path, sizeof path);
	FILE *out;

	if (results_read(path, &files[0], &e) != 0) {
		results_file_free(&files[0]);
		close(fd);
		return 0;
	}
	if (results_read(path, &files[1], &e) != 0) {
		fprintf(stderr, "fuzz_results: read once, not twice: %s\n", e.msg);
		abort();
	}
	c.files = files;
	c.nfiles = 2;
	c.alpha = 0.05;
	c.threshold = 0.02;
	compare_build(&c);
	if (c.regression) {
		fprintf(stderr, "fuzz_results: a file regressed against itself\n");
		abort();
	}
	out = fopen("/dev/null", "w");
	report_compare_text(out, &c, false, true);
	report_compare_text(out, &c, true, true);
	report_compare_markdown(out, &c, true);
	fclose(out);
	compare_free(&c);
	results_file_free(&files[0]);
	results_file_free(&files[1]);
	close(fd);
	return 0;
}
