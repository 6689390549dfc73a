/* straddle place --replay: a loop the runs did not replay, or replayed
 * with no round to judge by, said (one line each, kept for the file:
 * prove reads why); what was replayed is report/place_replay.c's. */
#include "cmd.h"
#include "../measure/experiment.h"
#include "../measure/replay.h"

#include <inttypes.h>
#include <stdio.h>

bool place_replay_refused(struct place_experiment *x)
{
	struct replay_data *r = x->replay;
	const char *name = x->subject->name;
	size_t n = sizeof r->refused;

	if (r->n.forks)
		complain(x->argv[0], "the loop ran in %u process%s the program forked: snapshots are "
			 "taken only in the process the plan was applied in", r->n.forks,
			 r->n.forks == 1 ? "" : "es");
	if (r->refused[0]) {
		complain(name, "its loop is refused for replay: %s; place without --replay measures "
			 "the program's time", r->refused);
		return true;
	}
	for (size_t i = 0; i < r->ns; i++)
		if (r->s[i].complete)
			return false;
	/* said, and kept for the file (prove reads why) */
	if (!r->n.runs_started)
		snprintf(r->refused, n, "no process of '%s' replayed it in %u run%s (the preload "
			 "library started in none)", x->argv[0], r->n.runs, r->n.runs == 1 ? "" : "s");
	else if (!r->n.fired)
		snprintf(r->refused, n, "the loop was not reached: the trap on its header, armed in "
			 "%u run%s, never fired", r->n.runs, r->n.runs == 1 ? "" : "s");
	else
		snprintf(r->refused, n, "no snapshot was replayed at every offset (%zu taken: %u "
			 "probes past the bound, %u killed, %u faulted; %u timed replays past the bound, "
			 "%u diverged, %u killed by a signal, %u by the filter)", r->ns, r->n.probe_late,
			 r->n.probe_killed, r->n.probe_signal, r->n.timed_late, r->n.timed_diverged,
			 r->n.timed_signalled, r->n.timed_filtered);
	complain(name, "%s", r->refused);
	return true;
}

bool place_replay_unmeasured(struct place_experiment *x)
{
	struct replay_data *r = x->replay;

	if (x->rounds)
		return false;
	/* replays so short that their fixed cost took all of every round */
	snprintf(r->refused, sizeof r->refused, "no round of its %zu complete snapshots left a "
		 "cost beyond the replays' fixed cost (%" PRIu64 "..%" PRIu64 " iterations a replay)",
		 r->used, r->iter_min, r->iter_max);
	complain(x->subject->name, "%s", r->refused);
	return true;
}
