/* base: the lowest layer. Error messages, checked allocation, growable
 * arrays, files read and written whole, child processes. Every other
 * layer may include this; it includes nothing of ours. */
#ifndef STRADDLE_BASE_H
#define STRADDLE_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct stat;

#define STRADDLE_VERSION "0.1.0"
#define STRADDLE_DATE "2026-11-30"     /* of this version, for the manual page */

/* The instruction sets straddle reads and runs. */
enum arch { ARCH_NONE, ARCH_X86_64, ARCH_AARCH64 };

const char *arch_name(enum arch a);

/* An error is one line of text naming what is wrong; the caller adds the file
 * name when it prints it. */
struct err {
	char msg[256];
};

/* printf into e->msg; always returns -1 so callers can `return err_set(...)`. */
int err_set(struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Allocation that never returns NULL: out of memory ends the process with
 * one line and exit 2 (an input too large for this machine), never abort. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A string printed to a new allocation (asprintf that never fails). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The line and exit 2 of a failed allocation of n bytes. */
_Noreturn void out_of_memory(size_t n);

/* Grow *buf (element size `size`) so it can hold at least `need` elements.
 * Capacity doubles, so appending n elements costs O(n) in total. */
void grow_array(void **buf, size_t *cap, size_t need, size_t size);
/* The test inline: GROW sits in the scan's per-block and per-loop appends,
 * where the call alone was most of its cost. */
#define GROW(arr, cap, need) GROW_WITH(grow_array, arr, cap, need)
#define GROW_WITH(grow, arr, cap, need)                                           \
	do {                                                                      \
		size_t grow_need_ = (need);                                       \
		if (grow_need_ > (cap))                                           \
			grow((void **)&(arr), &(cap), grow_need_, sizeof *(arr));  \
	} while (0)

/* Memory for the arrays that grow to megabytes in one run (a scan's loops,
 * hazards and functions; a --json document): a mapping of its own, grown
 * by mremap (no copy) and in transparent huge pages where the system has
 * them. big_realloc(NULL, n) allocates; out of memory ends the process as
 * in xmalloc. Only big_free frees it. */
void *big_realloc(void *p, size_t n);
void big_free(void *p);
void grow_big_array(void **buf, size_t *cap, size_t need, size_t size);
/* GROW for an array of big_realloc's memory. */
#define GROW_BIG(arr, cap, need) GROW_WITH(grow_big_array, arr, cap, need)

/* A growable string: sb_addf appends, never cuts. Starts as { 0 }; sb_str
 * is "" until something is added. Lists: sb_addf(&b, "%s%s", b.len ?
 * "," : "", item). */
struct strbuf {
	char *s;
	size_t len, cap;
	bool big;               /* s is big_realloc's memory (from 4 MiB up) */
};

void sb_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *sb_str(const struct strbuf *b);
void sb_reset(struct strbuf *b);
void sb_free(struct strbuf *b);
/* A stream that appends to b, for a document that must be whole before it
 * goes out: open_memstream copies its buffer at every doubling (a libLLVM
 * scan's 33 MB of JSON: 7% of the scan); a strbuf grows by realloc, which
 * moves large blocks by remapping their pages. */
FILE *sb_stream(struct strbuf *b);

/* The length of the well-formed UTF-8 sequence at p (n bytes left), or 0
 * (RFC 3629: no overlong form, surrogate or code point above U+10FFFF). */
size_t utf8_length(const unsigned char *p, size_t n);

/* s as it may go to a terminal or stderr: a control byte, DEL or a byte that
 * is not UTF-8 as \xNN, a C1 control as \u00NN; the rest as it is. A newline
 * or ESC from a file made a two-line error with a terminal escape in it.
 * escaped() is the same, allocated. */
void fputs_escaped(const char *s, FILE *f);
char *escaped(const char *s);

/* "0x..." into buf (at least 19 bytes). Addresses are strings in JSON because
 * kernel addresses exceed 2^53. */
const char *hex_addr(char buf[static 20], uint64_t addr);

/* Write a file atomically: `write` fills an unnamed file (O_TMPFILE) in
 * path's directory, or where the filesystem has none a temporary name beside
 * it, which then takes path's place; on any failure nothing is left behind.
 * An existing path that is not a regular file is refused; a replaced file
 * keeps its mode, a new one gets 0666 less the umask. SIGINT, SIGTERM, SIGHUP
 * or SIGQUIT during the write end the process of that signal with nothing
 * written and no temporary name left. write returns 0 on success. */
int write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx,
		 struct err *e);

/* -1 with the reason when path exists and is not a regular file, which
 * write_atomic would refuse: commands check their outputs before a long
 * run. */
int check_output(const char *path, struct err *e);
/* The signals that end a run (SIGINT, SIGTERM, SIGHUP, SIGQUIT): block or
 * unblock them all (SIG_BLOCK, SIG_UNBLOCK), or catch them with handler. */
void block_terminating(int how);
void handle_terminating(void (*handler)(int));
/* End the way sig would have ended straddle, for one it caught and
 * cleaned up after: its default action, unblocked, raised (a shell sees
 * 128+sig). */
_Noreturn void die_of_signal(int sig);

/* Opens an input for reading, after checking it is a regular file (a FIFO,
 * socket or device is refused before any open or read). The fd, its fstat in
 * *st; or -1 with "is a FIFO, not a regular file" and the like in e. */
int open_input(const char *path, struct stat *st, struct err *e);

/* The largest input read whole (a result file, a profile, a record): a
 * libLLVM scan's JSON is 33 MB, the largest bench file seen 216 MB. */
#define INPUT_LIMIT ((size_t)1 << 30)

/* Reads a regular file whole, through open_input (so a FIFO or a device is
 * refused, never waited on), in blocks of the file's size rather than the
 * byte at a time jansson's json_loadfd reads (5.4 M reads for 5 MB). *buf is
 * NUL-terminated and the caller's to free; a file larger than limit is
 * refused ("is N bytes, more than the M this reads"), so is one that changes
 * size while it is read. 0, or -1 with the reason. */
int read_input(const char *path, size_t limit, char **buf, size_t *len, struct err *e);

/* "a directory", "a FIFO", "a character device", ... */
const char *file_kind(mode_t mode);

/* A file of straddle's that is installed beside its binary: in the same
 * directory (the build tree), in ../libexec/straddle/ (make install) or in
 * ../ (build/san/straddle's build/). The path in buf, NULL when none. */
const char *beside_self(const char *name, char *buf, size_t cap);

/* A file of straddle's own data: $XDG_DATA_HOME/straddle/REL, else
 * ~/.local/share/straddle/REL (the XDG Base Directory Specification: a
 * relative $XDG_DATA_HOME is ignored). -1 with the reason when neither
 * $XDG_DATA_HOME nor $HOME is set, or when the path does not fit in n
 * bytes ("the WHAT path under $XDG_DATA_HOME is N bytes, more than ..."):
 * never cut, as a cut one names a directory nobody asked for. */
int data_path(char *buf, size_t n, const char *what, const char *rel, struct err *e);
/* mkdir -p of path's directory (a data path's may not exist yet): 0, or
 * -1 with errno. */
int make_parents(const char *path);
/* Makes dir, a directory of outputs (what: "plot directory", for the
 * message; there already is fine); -1 with why. options/'s
 * check_output_dir says beforehand whether it can. */
int make_output_dir(const char *dir, const char *what, struct err *e);

/* A test hook: the value of STRADDLE_TEST_<name>, NULL when it is not set.
 * Tests use them to make a race or a failure happen on purpose. As Lua's
 * ltests.h, hooks exist only in the test build (make's build/san, compiled
 * with -DSTRADDLE_TEST_HOOKS); in build/straddle test_hook is NULL, so the
 * installed binary cannot be made to truncate its input or raise a signal,
 * and scripts/check_test_hooks.sh proves it has no such name in it. Code that
 * only a hook reaches goes under the same #ifdef. */
#ifdef STRADDLE_TEST_HOOKS
const char *test_hook(const char *name);
#else
#define test_hook(name) ((void)(name), (const char *)NULL)
#endif

/* ---- child processes (spawn.c) ---- */

/* What a child's standard input, output or error is besides a descriptor
 * of straddle's: /dev/null, or straddle's own. */
#define SPAWN_NULL (-1)
#define SPAWN_OURS (-2)

/* A program straddle runs: argv (argv[0] found in PATH unless it holds a
 * '/'), the NAME=VALUE strings of env (NULL-ended, or NULL) added to its
 * environment; standard input from `in` (from offset in_start when that
 * is not negative), output and error to `out` and `err`. It dies with
 * straddle (PR_SET_PDEATHSIG): no child outlives a straddle killed by a
 * signal it cannot catch. With `group` it leads a process group of its
 * own, so that a signal reaches what it started too; with `forward` it is
 * the child spawn_signal reaches until it is reaped (one at a time: not
 * for threads); with `hold` it waits, forked, for spawn_release before it
 * execs (record opens its events on it first); with `as_shell` an exec
 * that fails is the child's, as a shell's: "ARGV0: why" on its standard
 * error, exit 127. */
struct spawn {
	char *const *argv;
	char *const *env;
	int in, out, err;
	off_t in_start;
	bool group, forward, hold, as_shell;
	pid_t pid;                      /* spawn_start's, -1 once reaped */
	int error;                      /* an errno: why it could not be run */
	int go, fail;                   /* inside: the hold and the exec's news */
};

/* Fork and exec: 0 with s->pid, or -1 with "ARGV0: why" in e (and
 * s->error) when it could not be forked or, unless as_shell, its exec
 * failed. With hold, 0 once forked: spawn_release tells of the exec. */
int spawn_start(struct spawn *s, struct err *e);
int spawn_release(struct spawn *s, struct err *e);
/* Its end: its wait status in *status and, unless ru is NULL, what it
 * used; through signals. 0, or -1 with e. */
struct rusage;
int spawn_wait(struct spawn *s, int *status, struct rusage *ru, struct err *e);
/* Without waiting: 1 when it has ended (*status), 0 while it runs, -1
 * when it cannot be waited for. */
int spawn_poll(struct spawn *s, int *status);
/* spawn_start and spawn_wait: its wait status, or -1 with e. */
int spawn_run(struct spawn *s, struct err *e);
/* The forwarded child, and its group when it leads one, gets sig; false
 * when there is none. Async-signal-safe: for a signal handler. */
bool spawn_signal(int sig);
/* The executable execvp runs for `name`: in buf, or name itself when it
 * holds a '/'; NULL when PATH has none. */
const char *spawn_find(const char *name, char *buf, size_t n);
/* A copy of straddle that runs no program (a workload's task): fork, the
 * child dying with straddle (PR_SET_PDEATHSIG) and exiting 1 at once
 * when straddle is gone already; fork's return. */
pid_t spawn_fork(void);
/* A wait status in words: "exit 3", "killed by SIGSEGV". */
void spawn_status_text(int status, char *buf, size_t n);

/* Shell-style glob match, used by --func. */
bool glob_match(const char *pattern, const char *name);

#endif
