/* The sampled program: a command straddle runs, held until its events are
 * open, or a running process watched, with the terminating signals that
 * arrive meanwhile passed to it. */
#include "sample.h"
#include "clock.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int wait_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 2;
}

/* The program, while it runs: a SIGTERM or SIGHUP that would end record is
 * passed to it, and record dies of that signal only after the program ended
 * and its record is written; SIGTERM used to leave the program running under
 * PID 1. SIGINT and SIGQUIT from the terminal reach the whole process group,
 * the program too; one sent to record alone (si_code SI_USER, from kill) is
 * passed on as well. */
static volatile sig_atomic_t forwarded, from_terminal;

static void forward_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if ((sig == SIGINT || sig == SIGQUIT) && si->si_code != SI_USER) {
		from_terminal = sig;
		return;         /* the terminal's: the program has it already */
	}
	forwarded = sig;
	if (spawn_signal(sig))
		return;
	/* the program is over: nothing to wait for, record ends now (a read
	 * that never returns must not make it unkillable) */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void forward_terminating(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (const int *sig = (const int[]){ SIGINT, SIGTERM, SIGHUP, SIGQUIT, 0 }; *sig; sig++)
		sigaction(*sig, &sa, NULL);
}

int sampling_interrupted(bool *passed_on)
{
	*passed_on = forwarded != 0;
	return forwarded ? forwarded : from_terminal;
}

/* The program, held until its events are open so that nothing it runs
 * escapes them (they start when it execs); a SIGKILL to record, which no
 * handler sees, ends it too (spawn: PR_SET_PDEATHSIG). */
int sampling_run(struct sampling *s, char **argv, int in, int *exit_status, const char **where,
		 struct err *e)
{
	struct spawn child = { .argv = argv, .in = in >= 0 ? in : SPAWN_OURS,
			       .in_start = -1, .out = SPAWN_OURS, .err = SPAWN_OURS,
			       .forward = true, .hold = true };
	int st;

	if (spawn_start(&child, e))
		return err_set(e, "fork: %s", strerror(child.error));
	if (sampling_open(s, &child.pid, 1, true, e)) {
		spawn_signal(SIGKILL);
		spawn_wait(&child, &st, NULL, &(struct err){ "" });
		return -1;
	}
	/* ^C goes to the whole process group: the program decides, we wait */
	forward_terminating();
	if (spawn_release(&child, e)) {
		*where = argv[0];
		return err_set(e, "cannot run: %s", strerror(child.error));
	}
	while (spawn_poll(&child, &st) == 0)
		sampling_drain(s, 50);
	sampling_drain(s, 0);
	*exit_status = wait_status(st);
	return 0;
}

int sampling_watch(struct sampling *s, pid_t pid, double duration, struct err *e)
{
	pid_t *tids;
	size_t n = process_threads(pid, &tids);
	struct sigaction sa = { .sa_handler = on_stop };
	double end = monotonic_s() + (duration ? duration : 1e12);

	if (n == 0)
		return err_set(e, "no such process");
	if (sampling_open(s, tids, n, false, e) || sampling_add_proc_maps(s, pid, e)) {
		free(tids);
		return -1;
	}
	free(tids);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sampling_enable(s);
	while (!stop_signal && monotonic_s() < end && (kill(pid, 0) == 0 || errno == EPERM))
		sampling_drain(s, 50);
	sampling_drain(s, 0);
	return 0;
}
