/* Child processes: the one fork, exec and wait of straddle. In the child,
 * between fork and exec, only async-signal-safe calls: the parent may
 * hold locks (stdio's, malloc's) that no thread of the child will free. */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child spawn_signal reaches, negative when it leads its own group. */
static volatile sig_atomic_t forward_pid;

void spawn_signal(int sig)
{
	pid_t p = (pid_t)forward_pid;

	if (p < 0)
		kill(p, sig);           /* its group: what it started too */
	if (p != 0)
		kill(p < 0 ? -p : p, sig);
}

void spawn_status_text(int status, char *buf, size_t n)
{
	if (WIFEXITED(status))
		snprintf(buf, n, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by SIG%s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "?");
	else
		snprintf(buf, n, "status %#x", status);
}

const char *spawn_find(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/'))
		return name;
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		snprintf(buf, n, "%.*s/%s", (int)len, p, name);
		if (access(buf, X_OK) == 0)
			return buf;
		p += len + (p[len] == ':');
	}
	return NULL;
}

/* fd onto target: itself when it is already there (dup2 would keep its
 * close-on-exec), else a copy; -1 when it cannot be. */
static int put(int fd, int target)
{
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/* In the child: dies with straddle (and at once when straddle is gone
 * already), its descriptors and variables in place, then exec. What
 * goes wrong is its errno on `fail`, which exec closes when it works. */
static void child(const struct spawn *s, pid_t parent, int fail)
{
	int in = s->in >= 0 ? s->in : open("/dev/null", O_RDONLY | O_CLOEXEC);
	int why;

	if (s->group)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (in < 0 || (s->in >= 0 && s->in_start >= 0 && lseek(in, s->in_start, SEEK_SET) < 0) ||
	    put(in, 0) || (s->out >= 0 && put(s->out, 1)) || (s->err >= 0 && put(s->err, 2)))
		goto failed;
	for (size_t i = 0; s->env && s->env[i]; i++)
		putenv(s->env[i]);
	execvp(s->argv[0], s->argv);
failed:
	why = errno;
	if (s->as_shell)
		dprintf(2, "%s: %s\n", s->argv[0], strerror(why));
	else if (write(fail, &why, sizeof why) < 0)
		why = 0;
	_exit(127);
}

int spawn_start(struct spawn *s, struct err *e)
{
	int fail[2], why = 0;
	pid_t parent = getpid();
	ssize_t n;

	s->pid = -1;
	if (pipe2(fail, O_CLOEXEC))
		return err_set(e, "%s: cannot make a pipe: %s", s->argv[0], strerror(errno));
	fflush(NULL);           /* the child's copy of stdio must not write it again */
	s->pid = fork();
	if (s->pid == 0)
		child(s, parent, fail[1]);
	close(fail[1]);
	if (s->pid < 0) {
		close(fail[0]);
		return err_set(e, "%s: cannot fork: %s", s->argv[0], strerror(errno));
	}
	if (s->group)
		setpgid(s->pid, s->pid);        /* as the child does: whoever is first */
	while ((n = read(fail[0], &why, sizeof why)) < 0 && errno == EINTR)
		;
	close(fail[0]);
	if (n > 0) {
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
		s->pid = -1;
		return err_set(e, "%s: %s", s->argv[0], strerror(why));
	}
	if (s->forward)
		forward_pid = s->group ? -s->pid : s->pid;
	return 0;
}

int spawn_wait(struct spawn *s, int *status, struct rusage *ru, struct err *e)
{
	struct rusage own;

	while (wait4(s->pid, status, 0, ru ? ru : &own) < 0)
		if (errno != EINTR) {
			if (s->forward)
				forward_pid = 0;
			return err_set(e, "%s: wait: %s", s->argv[0], strerror(errno));
		}
	if (s->forward)
		forward_pid = 0;
	s->pid = -1;
	return 0;
}

int spawn_run(struct spawn *s, struct err *e)
{
	int status;

	if (spawn_start(s, e) || spawn_wait(s, &status, NULL, e))
		return -1;
	return status;
}
