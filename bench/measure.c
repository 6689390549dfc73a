/* measure RUNS CMD [ARG...]: run CMD RUNS times, its standard output to
 * /dev/null, and print one line:
 *     MEDIAN MIN MAX MAXRSS CPU
 * wall seconds (median, fastest, slowest run), the largest peak resident
 * set of any run in KiB (wait4's ru_maxrss), and the median CPU seconds
 * (user + system, all threads), which other load on the machine disturbs
 * less than wall time. Exit 1 if a run fails. Used by bench/bench.sh; it needs nothing but libc. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[1]) : 0;
	double *t, *cpu, wall;
	long maxrss = 0;

	if (runs < 1) {
		fprintf(stderr, "usage: measure RUNS CMD [ARG...]\n");
		return 2;
	}
	t = calloc((size_t)runs, sizeof *t);
	cpu = calloc((size_t)runs, sizeof *cpu);
	for (int i = 0; i < runs; i++) {
		struct rusage ru;
		int status;
		double t0 = now();
		pid_t pid = fork();

		if (pid < 0) {
			perror("measure: fork");
			return 1;
		}
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
			execvp(argv[2], argv + 2);
			perror(argv[2]);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("measure: wait4");
			return 1;
		}
		t[i] = now() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "measure: %s failed (status %d)\n", argv[2], status);
			return 1;
		}
		cpu[i] = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
			 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	wall = median(t, runs);
	printf("%.3f %.3f %.3f %ld %.3f\n", wall, t[0], t[runs - 1], maxrss, median(cpu, runs));
	free(t);
	free(cpu);
	return 0;
}
