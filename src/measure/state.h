/* measure/state.h: the machine's state over a run (state.c): load, steal,
 * the others' share of the CPUs, clocksource, governor, frequency. */
#ifndef STRADDLE_MEASURE_STATE_H
#define STRADDLE_MEASURE_STATE_H


struct state_snapshot {
	unsigned long long busy, idle, steal;   /* /proc/stat, USER_HZ ticks, all CPUs */
	double own_s;                   /* CPU seconds of this process and its children */
	double at_s;                    /* CLOCK_MONOTONIC */
};

struct machine_state {
	double seconds;
	double load[3];                 /* /proc/loadavg at the end */
	double steal_pct;               /* of all CPUs' time: taken by the hypervisor */
	double busy_pct;                /* of all CPUs' time: busy */
	double others_pct;              /* of all CPUs' time: busy, not this process */
	unsigned ncpus;
	char clocksource[32];           /* the kernel's current clocksource */
	char governor[32];              /* "" where cpufreq is not there */
	double mhz;                     /* CPU 0: cpufreq's, else /proc/cpuinfo's */
};

void state_begin(struct state_snapshot *s);
void state_end(const struct state_snapshot *s, struct machine_state *m);
/* The shares between two snapshots, USER_HZ = hz (state_end's arithmetic). */
void state_delta(const struct state_snapshot *s, const struct state_snapshot *now, double hz,
		 struct machine_state *m);

#endif
