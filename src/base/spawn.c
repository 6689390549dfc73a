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

bool spawn_signal(int sig)
{
	pid_t p = (pid_t)forward_pid;

	if (p < 0)
		kill(p, sig);           /* its group: what it started too */
	if (p != 0)
		kill(p < 0 ? -p : p, sig);
	return p != 0;
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

/* What fd becomes in the child as `target`: itself when it is already
 * there (dup2 would keep its close-on-exec), a copy, /dev/null, or left
 * as straddle's; -1 when it cannot be. */
static int put(int fd, int target)
{
	if (fd == SPAWN_OURS)
		return 0;
	if (fd == SPAWN_NULL && (fd = open("/dev/null", target ? O_WRONLY : O_RDONLY)) < 0)
		return -1;
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/* In the child: dies with straddle (and at once when straddle is gone
 * already), held until released, its descriptors and variables in place,
 * then exec. What goes wrong is its errno on `fail`, which exec closes
 * when it works. */
static void child(const struct spawn *s, pid_t parent, int fail, int go)
{
	char byte;
	int why;

	if (s->group)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent || (go >= 0 && read(go, &byte, 1) != 1))
		_exit(127);
	if ((s->in >= 0 && s->in_start >= 0 && lseek(s->in, s->in_start, SEEK_SET) < 0) ||
	    put(s->in, 0) || put(s->out, 1) || put(s->err, 2))
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

/* Did the exec work? What the child wrote on fail (nothing: it did). */
static int exec_result(struct spawn *s, struct err *e)
{
	ssize_t n;

	while ((n = read(s->fail, &s->error, sizeof s->error)) < 0 && errno == EINTR)
		;
	close(s->fail);
	s->fail = -1;
	if (n <= 0) {
		s->error = 0;
		return 0;
	}
	if (s->forward)
		forward_pid = 0;
	while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
		;
	s->pid = -1;
	return err_set(e, "%s: %s", s->argv[0], strerror(s->error));
}

int spawn_start(struct spawn *s, struct err *e)
{
	int fail[2], go[2] = { -1, -1 };
	pid_t parent = getpid();

	s->pid = -1;
	s->error = 0;
	s->go = s->fail = -1;
	if (pipe2(fail, O_CLOEXEC) || (s->hold && pipe2(go, O_CLOEXEC))) {
		s->error = errno;
		return err_set(e, "%s: cannot make a pipe: %s", s->argv[0], strerror(s->error));
	}
	fflush(NULL);           /* the child's copy of stdio must not write it again */
	s->pid = fork();
	if (s->pid == 0)
		child(s, parent, fail[1], go[0]);
	close(fail[1]);
	if (go[0] >= 0)
		close(go[0]);
	s->fail = fail[0], s->go = go[1];
	if (s->pid < 0) {
		s->error = errno;
		close(s->fail);
		if (s->go >= 0)
			close(s->go);
		return err_set(e, "%s: cannot fork: %s", s->argv[0], strerror(s->error));
	}
	if (s->group)
		setpgid(s->pid, s->pid);        /* as the child does: whoever is first */
	if (s->forward)
		forward_pid = s->group ? -s->pid : s->pid;
	return s->hold ? 0 : exec_result(s, e);
}

int spawn_release(struct spawn *s, struct err *e)
{
	ssize_t n = write(s->go, "g", 1);

	close(s->go);
	s->go = -1;
	if (n != 1) {
		s->error = errno;
		kill(s->pid, SIGKILL);
		close(s->fail);
		s->fail = -1;
		return spawn_wait(s, &(int){ 0 }, NULL, e) ? -1 :
		       err_set(e, "%s: cannot start it: %s", s->argv[0], strerror(s->error));
	}
	return exec_result(s, e);
}

/* The child is reaped: nothing to forward to any more. */
static void ended(struct spawn *s)
{
	if (s->forward)
		forward_pid = 0;
	s->pid = -1;
}

int spawn_wait(struct spawn *s, int *status, struct rusage *ru, struct err *e)
{
	struct rusage own;

	while (wait4(s->pid, status, 0, ru ? ru : &own) < 0)
		if (errno != EINTR) {
			ended(s);
			return err_set(e, "%s: wait: %s", s->argv[0], strerror(errno));
		}
	ended(s);
	return 0;
}

int spawn_poll(struct spawn *s, int *status)
{
	pid_t p = waitpid(s->pid, status, WNOHANG);

	if (p == 0 || (p < 0 && errno == EINTR))
		return 0;
	ended(s);
	return p < 0 ? -1 : 1;
}

int spawn_run(struct spawn *s, struct err *e)
{
	int status;

	if (spawn_start(s, e) || spawn_wait(s, &status, NULL, e))
		return -1;
	return status;
}
