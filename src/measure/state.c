/* The machine's state over a stretch of time: what else ran, how much the
 * hypervisor took, and the settings a time depends on. Two results measured
 * in different states can differ for that reason alone, so bench records it
 * per run and compare says when the sides differ. */
#include "state.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The first line of /proc/stat in USER_HZ ticks: user nice system idle
 * iowait irq softirq steal (proc(5)); guest time is inside user already. */
static void read_proc_stat(struct state_snapshot *s)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long v[8] = { 0 };

	if (f) {
		if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
			memset(v, 0, sizeof v);
		fclose(f);
	}
	s->idle = v[3] + v[4];
	s->steal = v[7];
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
}

/* This process and its reaped children (will-it-scale's tasks), seconds. */
static double own_cpu_seconds(void)
{
	struct rusage self, kids;
	double t = 0;

	if (getrusage(RUSAGE_SELF, &self) == 0)
		t += (double)self.ru_utime.tv_sec + (double)self.ru_stime.tv_sec +
		     ((double)self.ru_utime.tv_usec + (double)self.ru_stime.tv_usec) / 1e6;
	if (getrusage(RUSAGE_CHILDREN, &kids) == 0)
		t += (double)kids.ru_utime.tv_sec + (double)kids.ru_stime.tv_sec +
		     ((double)kids.ru_utime.tv_usec + (double)kids.ru_stime.tv_usec) / 1e6;
	return t;
}

static void read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

void state_begin(struct state_snapshot *s)
{
	struct timespec t;

	memset(s, 0, sizeof *s);
	read_proc_stat(s);
	s->own_s = own_cpu_seconds();
	clock_gettime(CLOCK_MONOTONIC, &t);
	s->at_s = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* cpufreq where the kernel has it; a KVM guest usually has none, and then
 * /proc/cpuinfo's "cpu MHz" of CPU 0 is what there is. */
static void frequency(struct machine_state *m)
{
	char buf[64];
	FILE *f;

	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", m->governor,
		  sizeof m->governor);
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", buf, sizeof buf);
	if (*buf && sscanf(buf, "%lf", &m->mhz) == 1) {
		m->mhz /= 1000;
		return;
	}
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(buf, sizeof buf, f))
		if (strncmp(buf, "cpu MHz", 7) == 0 && strchr(buf, ':')) {
			sscanf(strchr(buf, ':') + 1, "%lf", &m->mhz);
			break;
		}
	fclose(f);
}

void state_delta(const struct state_snapshot *s, const struct state_snapshot *now, double hz,
		 struct machine_state *m)
{
	double ticks = (double)((now->busy - s->busy) + (now->idle - s->idle) +
				(now->steal - s->steal));

	m->seconds = now->at_s - s->at_s;
	m->steal_pct = m->busy_pct = m->others_pct = 0;
	if (ticks <= 0)
		return;
	m->steal_pct = 100 * (double)(now->steal - s->steal) / ticks;
	m->busy_pct = 100 * (double)(now->busy - s->busy) / ticks;
	/* of all CPUs' time: what was busy and not ours */
	double others = (double)(now->busy - s->busy) / hz - (now->own_s - s->own_s);

	m->others_pct = others > 0 ? 100 * others * hz / ticks : 0;
}

void state_end(const struct state_snapshot *s, struct machine_state *m)
{
	struct state_snapshot now;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f;

	memset(m, 0, sizeof *m);
	state_begin(&now);
	state_delta(s, &now, (double)sysconf(_SC_CLK_TCK), m);
	m->ncpus = ncpu > 0 ? (unsigned)ncpu : 0;
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &m->load[0], &m->load[1], &m->load[2]) != 3)
			memset(m->load, 0, sizeof m->load);
		fclose(f);
	}
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  m->clocksource, sizeof m->clocksource);
	frequency(m);
}
