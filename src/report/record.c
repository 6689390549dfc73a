/* record's words on its sampling: what a sample cost the program, and how
 * far a share can be off when the samples are few. */
#include "report.h"

#include <math.h>

/* "44", "1.6": us, two digits or so */
static void format_us(char *buf, size_t n, double ns)
{
	snprintf(buf, n, ns < 10000 ? "%.1f" : "%.0f", ns / 1000);
}

void record_cost_words(char *buf, size_t n, unsigned long hz, bool given, double cost_ns)
{
	double share = sampling_slowdown(hz, cost_ns);
	char us[32], pct[32];

	buf[0] = 0;
	if (cost_ns < 0)
		return;
	format_us(us, sizeof us, cost_ns);
	snprintf(pct, sizeof pct, isfinite(share) ? "~%.1f%%" : "over 100%%", 100 * share);
	if (!given && share <= SAMPLING_COST_BUDGET)
		snprintf(buf, n, "one sample costs ~%s us here; sampled at %lu Hz to keep the program "
			 "within %g%% (-F to choose)", us, hz, 100 * SAMPLING_COST_GOAL);
	else if (!given)
		snprintf(buf, n, "one sample costs ~%s us here; sampled at %lu Hz, the lowest rate, "
			 "which still cost the program %s (-F to choose)", us, hz, pct);
	else if (share > SAMPLING_COST_GOAL)
		snprintf(buf, n, "-F %lu: one sample costs ~%s us here, so sampling cost the program "
			 "%s (%u Hz keeps it within %g%%)", hz, us, pct,
			 default_rate(cost_ns, SAMPLING_COST_BUDGET, sample_max_rate()),
			 100 * SAMPLING_COST_GOAL);
}

/* A share of n samples is a binomial proportion: its 95% interval is
 * widest at a share of 1/2, +/- 1.96 * sqrt(1/4n). */
void record_few_words(char *buf, size_t n, uint64_t samples, unsigned long hz)
{
	buf[0] = 0;
	if (samples == 0)
		snprintf(buf, n, "no samples: the program ran less than one sampling period (%.1f ms "
			 "at %lu Hz) of CPU time", 1000.0 / (double)hz, hz);
	else if (samples < SAMPLING_FEW)
		snprintf(buf, n, "only %llu samples: shares are +/-%.1f%% (95%%, at a share of 50%%); "
			 "a longer run gives more", (unsigned long long)samples,
			 100 * 0.98 / sqrt((double)samples));
}
