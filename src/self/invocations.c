/* bench --invocations: bench as a user runs it, N times, each a process of
 * its own, into a directory of result files that each record the band
 * their side drifted by. */
#include "self.h"
#include "../options/options.h"
#include "../results/bench.h"
#include "../results/compare.h"
#include "../results/json.h"
#include "../results/metrics.h"
#include "../stats/stats.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The terminating signal that arrived, 0 while none has. */
static volatile sig_atomic_t stop_signal;
static struct timespec started;

static double since_start(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - started.tv_sec) + (double)(t.tv_nsec - started.tv_nsec) / 1e9;
}

/* --versus's options: words apart by blanks (no quoting: bench's options
 * take no value with a blank in it but --dir's). */
static size_t versus_count(const struct bench_invocations *c)
{
	size_t n = 0;

	for (const char *p = c->versus ? c->versus : ""; *p;) {
		p += strspn(p, " \t");
		if (*p)
			n++;
		p += strcspn(p, " \t");
	}
	return n;
}

/* The i-th word of --versus, malloc'd. */
static char *versus_word(const struct bench_invocations *c, size_t i)
{
	const char *p = c->versus;

	for (;;) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (i-- == 0) {
			char *w = xmalloc(len + 1);

			memcpy(w, p, len);
			w[len] = 0;
			return w;
		}
		p += len;
	}
}

/* --invocations needs -o DIR, new; --versus needs --invocations and
 * leaves -o and the invocations to bench. */
int bench_invocations_check(const struct bench_invocations *c)
{
	struct stat st;

	if (c->versus && !c->invocations) {
		complain("--versus", "alternates invocations: give --invocations N too");
		return -1;
	}
	if (!c->invocations)
		return 0;
	if (!c->out || strcmp(c->out, "-") == 0) {
		complain("--invocations", "writes a directory of result files: give -o DIR");
		return -1;
	}
	if (lstat(c->out, &st) == 0) {
		complain(c->out, "exists; --invocations makes the directory itself");
		return -1;
	}
	for (size_t i = 0; i < versus_count(c); i++) {
		char *t = versus_word(c, i);
		bool ours = strncmp(t, "-o", 2) == 0 || strncmp(t, "--in", 4) == 0 ||
			    strncmp(t, "--v", 3) == 0;

		if (ours)
			complain("--versus", "'%s': -o, --invocations and --versus are bench's "
				 "to give", t);
		free(t);
		if (ours)
			return -1;
	}
	return 0;
}

struct invocations {
	char *tmp;                      /* DIR.partial-PID until every file is whole */
	char **paths;                   /* the files written, for the clean-up */
	size_t npaths;
	bool gate_failed;               /* an invocation exited 1 (fault-write failed) */
};

/* One invocation's command line, made from the options as parsed (not
 * the words given: getopt takes abbreviations), side B's words last so
 * that they win. */
static int invocation_argv(const struct bench_invocations *c, bool side_b, const char *out,
			   struct self_cmd *a)
{
	if (self_begin(a, "bench"))
		return -1;
	for (size_t i = 0; i < c->nsel; i++)
		self_arg(a, "%s", c->sel[i]->name);
	self_arg(a, "--runs=%u", c->runs);
	self_arg(a, "--align=%u", c->o->align);
	self_arg(a, "--warmup=%u", c->o->warmup);
	self_arg(a, "--dir=%s", c->o->dir);
	self_arg(a, "--mode=%s", c->o->modes == WIS_PROCESSES ? "processes" :
		 c->o->modes == WIS_THREADS ? "threads" : "both");
	if (c->o->duration_s > 0) {
		char *d = xasprintf("%g", c->o->duration_s);

		/* %g lost digits: every one */
		self_arg(a, strtod(d, NULL) != c->o->duration_s ? "--duration=%.17g" :
			 "--duration=%g", c->o->duration_s);
		free(d);
	}
	if (c->o->ntasks) {
		struct strbuf t = { 0 };

		for (size_t i = 0; i < c->o->ntasks; i++)
			sb_addf(&t, "%s%u", i ? "," : "", c->o->tasks[i]);
		self_arg(a, "--tasks=%s", sb_str(&t));
		sb_free(&t);
	}
	for (size_t i = 0; side_b && i < versus_count(c); i++) {
		char *w = versus_word(c, i);

		self_arg(a, "%s", w);
		free(w);
	}
	self_arg(a, "-o");
	self_arg(a, "%s", out);
	return 0;
}

/* Nothing of a run that did not finish stays behind. */
static void remove_partial(struct invocations *iv)
{
	for (size_t i = 0; i < iv->npaths; i++)
		unlink(iv->paths[i]);
	for (const char *side = "ab"; *side; side++) {
		char *d = xasprintf("%s/%c", iv->tmp, *side);

		rmdir(d);
		free(d);
	}
	rmdir(iv->tmp);
}

static void free_invocations(struct invocations *iv)
{
	for (size_t i = 0; i < iv->npaths; i++)
		free(iv->paths[i]);
	free(iv->paths);
	free(iv->tmp);
}

static void on_signal_invocations(int sig)
{
	stop_signal = sig;
	spawn_signal(SIGKILL);
}

/* One child, its output gone, its error's first line kept: 0, or -1 with
 * one line said (the child's own first line). */
static int run_invocation(const struct bench_invocations *c, struct invocations *iv, unsigned i,
			  bool side_b)
{
	char *path = xasprintf("%s/%c/%02u.json", iv->tmp, side_b ? 'b' : 'a', i + 1), line[512];
	struct self_cmd a;
	struct err e = { "" };
	int status, rc = 0;

	iv->paths = xrealloc(iv->paths, (iv->npaths + 1) * sizeof *iv->paths);
	iv->paths[iv->npaths++] = path;
	if (invocation_argv(c, side_b, path, &a))
		return -1;
	if (c->progress)
		fprintf(stderr, "\r\033[Kstraddle bench: %4.0f s  invocation %u of %u (%c)",
			since_start(), i + 1, c->invocations, side_b ? 'b' : 'a');
	if ((status = self_run(&a, SPAWN_NULL, line, sizeof line, &e)) < 0) {
		complain("bench", "%s", e.msg);
		rc = -1;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_GATE) {
		iv->gate_failed = true;
	} else if (!stop_signal && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		char st[64];

		spawn_status_text(status, st, sizeof st);
		complain("bench", "invocation %u (%c) ended with %s: %s", i + 1, side_b ? 'b' : 'a',
			 st, line);
		rc = -1;
	}
	self_free(&a);
	return rc;
}

/* Does the first file of the side in dir have metrics to band? */
static bool has_metrics(const struct invocations *iv, const char *dir)
{
	for (size_t i = 0; i < iv->npaths; i++)
		if (strncmp(iv->paths[i], dir, strlen(dir)) == 0)
			return results_has_metrics(iv->paths[i]);
	return false;
}

/* Side a's invocations are A/A of each other: their band is this host's
 * drift between invocations, kept for compare (of two single files of
 * this machine, later). Not kept is said, and the run stands. */
static void keep_drift(const struct result_file *aa)
{
	char path[PATH_MAX] = "";
	struct err e = { "" };

	if (results_host_drift_save(aa, path, sizeof path, &e))
		complain(path[0] ? path : "bench", "the drift band is not kept for this host: %s",
			 e.msg);
	else
		printf("the band is kept for this host: %s\n", path);
}

/* Each side's band, written into every file of that side, and said. */
static int record_drift(const struct bench_invocations *c, struct invocations *iv, char side)
{
	char *dir = xasprintf("%s/%c", iv->tmp, side), name[2] = { side, 0 };
	struct result_file aa = { 0 };
	struct err e = { "" };
	json_t *rec;
	int rc = 0;

	if (!has_metrics(iv, dir)) {   /* fault-write alone: counts, no samples */
		printf("%c: %u invocations; no metrics, no band\n", side, c->invocations);
		free(dir);
		return 0;
	}
	if (results_read(dir, &aa, &e)) {
		complain(dir, "%s", e.msg);
		free(dir);
		return -1;
	}
	rec = results_drift_record(&aa, name, side == 'b' ? c->versus : NULL);
	/* iv->paths is in the order run: A B A B ... */
	for (size_t i = 0; i < iv->npaths && rc == 0; i++) {
		char *final_out;
		json_t *doc;

		if (strncmp(iv->paths[i], dir, strlen(dir)) != 0)
			continue;
		final_out = xasprintf("%s%s", c->out, iv->paths[i] + strlen(iv->tmp));
		doc = results_drift_stamp(iv->paths[i], rec, i + 1, iv->npaths, final_out);
		free(final_out);
		if (!doc) {
			complain(iv->paths[i], "cannot read it back");
			rc = -1;
		} else {
			rc = write_result(doc, iv->paths[i]);
		}
	}
	printf("%c: %u invocations%s%s; drift between them:", side, c->invocations,
	       side != 'b' ? "" : versus_count(c) ? " with " : " with nothing added",
	       side == 'b' && versus_count(c) ? c->versus : "");
	for (size_t m = 0; m < aa.n; m++) {
		enum stat_kind k = stat_default(aa.m[m].lower_is_better);

		printf("%s %s %.2f%% (%s)", m ? "," : "", aa.m[m].name,
		       results_drift_band(&aa, &aa.m[m], k), stat_name(k));
	}
	printf("\n");
	if (rc == 0 && side == 'a')
		keep_drift(&aa);
	json_decref(rec);
	results_file_free(&aa);
	free(dir);
	return rc;
}

/* --invocations: the children A (B A B ... with --versus) one after the
 * other into DIR.partial-PID, every file's band recorded, then renamed to
 * DIR: the directory appears whole or not at all. */
int bench_invocations_run(const struct bench_invocations *c)
{
	struct invocations iv = { xasprintf("%s.partial-%d", c->out, (int)getpid()), NULL, 0,
				  false };
	bool gate_failed;
	int rc = 0;

	stop_signal = 0;
	clock_gettime(CLOCK_MONOTONIC, &started);
	if (mkdir(iv.tmp, 0755) != 0) {
		complain(iv.tmp, "cannot make it: %s", strerror(errno));
		free_invocations(&iv);
		return EXIT_USAGE;
	}
	for (const char *side = c->versus ? "ab" : "a"; *side; side++) {
		char *d = xasprintf("%s/%c", iv.tmp, *side);

		mkdir(d, 0755);
		free(d);
	}
	handle_terminating(on_signal_invocations);
	for (unsigned i = 0; i < c->invocations && rc == 0 && !stop_signal; i++) {
		rc = run_invocation(c, &iv, i, false);
		if (c->versus && rc == 0 && !stop_signal)
			rc = run_invocation(c, &iv, i, true);
	}
	if (c->progress)
		fputs("\r\033[K", stderr);
	if (rc == 0 && !stop_signal)
		rc = record_drift(c, &iv, 'a');
	if (rc == 0 && !stop_signal && c->versus)
		rc = record_drift(c, &iv, 'b');
	if (rc == 0 && !stop_signal && rename(iv.tmp, c->out) != 0) {
		complain(c->out, "cannot rename %s to it: %s", iv.tmp, strerror(errno));
		rc = -1;
	}
	if (rc || stop_signal)
		remove_partial(&iv);
	else if (c->versus)
		printf("written: %s/a and %s/b; compare %s/a %s/b tests invocation against "
		       "invocation\n", c->out, c->out, c->out, c->out);
	else
		printf("written: %s/a; a file of it is a BASE whose drift compare knows\n",
		       c->out);
	gate_failed = iv.gate_failed;
	free_invocations(&iv);
	if (stop_signal)
		die_of_signal(stop_signal);
	return rc ? EXIT_USAGE : gate_failed ? EXIT_GATE : EXIT_OK;
}
