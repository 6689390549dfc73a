/* straddle place -- COMMAND: move a loop of the running, unmodified
 * program to chosen offsets of its line and measure what each placement
 * costs that program (issue 20). Each round runs every arm once in a new
 * random order: the program unmoved, the control (a copy at the loop's
 * own offset: it differs from the unmoved program only by the copy and
 * the entry jump), and each asked offset. Seed 002's maintainer asked for
 * "a measured difference in actual ... bandwidth", not a proxy. */
#include "cmd.h"
#include "../measure/measure.h"
#include "../place/place.h"
#include "../relocate/relocate.h"
#include "../relocate/plan.h"
#include "../report/report.h"
#include "../results/results.h"
#include "../stats/stats.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAX_ARMS 80
#define MAX_FILES 8
#define OUT_MAX (1u << 20)

enum arm_kind { ARM_UNMOVED, ARM_CONTROL, ARM_OFFSET, ARM_RANDOM };

struct arm {
	enum arm_kind kind;
	uint32_t offset;                /* ARM_CONTROL, ARM_OFFSET: of the loop in its line */
	char name[32];
	int plan_fd;                    /* memfd of the plan, -1 for none */
	double *v;
	size_t n, cap;
	struct summary sum;
	double ratio, p;
	bool slow;
	size_t npredicted;
	struct hazard predicted[8];
};

struct place_cmd {
	const char *func, *loop_text, *offsets, *uarch, *out_json, *plot, *metric, *direction;
	const char *files[MAX_FILES];
	char *exe;                      /* files[0] when it is the command's own */
	size_t nfiles;
	unsigned runs, align, verbose_flag;
	double budget_s, alpha, material, precision;
	bool wall, no_output_check, verbose;
	uint64_t seed, rng;
	char **argv_cmd;
	int argc;
	char **argv;
	/* what is moved */
	struct reloc_file rf[MAX_FILES];
	size_t nrf;
	struct reloc_place *place[MAX_FILES];
	size_t nplace[MAX_FILES];
	size_t moved, refused[RELOC_NREFUSALS];
	const struct reloc_func *subject;       /* the one loop's function, if one */
	uint64_t loop_start, loop_end;
	uint32_t current;               /* the loop's offset today */
	/* the experiment */
	struct arm arm[MAX_ARMS];
	size_t narms;
	const struct profile *host;
	char host_why[160];
	regex_t metric_re;
	bool higher;
	const char *preload;
	unsigned rounds, identical, checked;
	double *apply_ns;               /* the preload library's time to apply, per object */
	size_t napply, apply_cap;
	double elapsed_s;
	const char *stopped_by;
	uint64_t base_hash;
	int base_status;
};

static int add_file(void *cmd, const char *opt, const char *value)
{
	struct place_cmd *c = cmd;

	if (c->nfiles == MAX_FILES) {
		complain(opt, "at most %d files", MAX_FILES);
		return -1;
	}
	c->files[c->nfiles++] = value;
	return 0;
}

static int cmd_place(int argc, char **argv);

#define F(field) offsetof(struct place_cmd, field)

static const struct cmd_option place_options[] = {
	{ .name = "func", .value = "GLOB", .kind = OPT_STRING, .field = F(func),
	  .help = "move the functions so named (several: each is moved)" },
	{ .name = "loop", .value = "ADDR", .kind = OPT_STRING, .field = F(loop_text),
	  .help = "move the function holding the loop that starts at\n"
		  "ADDR (as scan prints it), placing that loop" },
	{ .name = "file", .value = "PATH", .kind = OPT_CALL, .call = add_file,
	  .help = "the executable or library the code is in (default:\n"
		  "the command's executable; repeat for several)" },
	{ .name = "offsets", .value = "SPEC", .kind = OPT_STRING, .field = F(offsets),
	  .help = "A..B[:STEP], current,best,worst (the model's), or\n"
		  "random: each function at its own random offset in\n"
		  "every run (default current,best,worst)" },
	{ .name = "align", .value = "N", .kind = OPT_UNSIGNED, .field = F(align), .min = 16,
	  .max = 4096, .help = "offsets are modulo N: 64 a line (default), 4096 a page" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(runs), .min = 2,
	  .max = 100000, .help = "runs of each arm (default 10)" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(budget_s),
	  .help = "or stop after S seconds (default 300)" },
	{ .name = "precision", .value = "P", .kind = OPT_FRACTION, .field = F(precision),
	  .lo = 1e-6, .hi = 0.5,
	  .help = "or stop when every arm's 95% CI half-width is within\n"
		  "P of its median (after 5 rounds; default: off)" },
	{ .name = "wall", .kind = OPT_SET, .field = F(wall),
	  .help = "measure wall time, not the CPU time it used" },
	{ .name = "metric", .value = "REGEX", .kind = OPT_STRING, .field = F(metric),
	  .help = "measure the number the program prints: the first\n"
		  "match of REGEX in its output (its first group, if any)" },
	{ .name = "direction", .value = "lower|higher", .kind = OPT_STRING, .field = F(direction),
	  .help = "which --metric is better (default lower)" },
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(alpha), .lo = 1e-9,
	  .hi = 0.5, .help = "significance level of the slow mark (default 0.05)" },
	{ .name = "material", .value = "P", .kind = OPT_FRACTION, .field = F(material), .lo = 0,
	  .hi = 10, .help = "how much slower counts (default 2%)" },
	{ .name = "uarch", .value = "P", .kind = OPT_STRING, .field = F(uarch),
	  .help = "profile of the prediction: a name, host or FILE.json" },
	{ .name = "seed", .value = "N", .kind = OPT_U64, .field = F(seed), .max = ULONG_MAX,
	  .help = "seed of the random order and offsets (default 1)" },
	{ .name = "no-output-check", .kind = OPT_SET, .field = F(no_output_check),
	  .help = "do not compare each run's output with the unmoved\n"
		  "program's (output that differs from run to run)" },
	{ .name = "verbose", .kind = OPT_SET, .field = F(verbose),
	  .help = "name every refused function and its reason" },
	{ .letter = 'o', .value = "FILE.json", .kind = OPT_OUTPUT, .field = F(out_json),
	  .help = "the result file, every raw sample in it ('-': stdout)" },
	{ .name = "plot", .value = "FILE.svg", .kind = OPT_OUTPUT, .field = F(plot),
	  .help = "the measure against the offset, CI whiskers" },
	{ 0 }
};

const struct command place_command = {
	.name = "place",
	.run = cmd_place,
	.summary = "move a loop of the running, unmodified program to any offset; measure it",
	.args = "[OPTIONS] -- COMMAND [ARGS...]",
	.about = "Run COMMAND again and again with a function of it copied so that its loop\n"
		 "(or its entry) starts at each asked offset of its line, and measure the whole\n"
		 "program: by default the CPU time it used (user + system, from wait4). The\n"
		 "copy is made before main by a preload library from a plan straddle computes\n"
		 "first; the original entry jumps to it, so every caller reaches it. Two arms\n"
		 "keep the experiment honest: the program unmoved, and the control, a copy at\n"
		 "the loop's own offset. Every round runs each arm once in a new random order.\n"
		 "Per arm: the median with its 95% CI, the ratio to the best arm, 'slow' where\n"
		 "significantly (Mann-Whitney, --alpha) and materially (--material) slower,\n"
		 "and what the layout model predicts for that placement. Each run's standard\n"
		 "output and exit status must equal the unmoved program's.\n",
	.options = place_options,
	.notes = "Standard input is /dev/null: give a program its input as a file (or through\n"
		 "sh -c '... < FILE'). A program that forks keeps the copy in the child; one\n"
		 "that execs another program loads the preload library again there, which\n"
		 "applies the plan only to an object of the same build-id.\n"
		 "\n"
		 "Exit status: 0 done, 1 a run's output or status differed from the unmoved\n"
		 "program's, 2 bad usage, a function that cannot be moved, or a command that\n"
		 "cannot run.\n",
	.in_order = true,
};

/* ---- options ---- */

static int parse_options(struct place_cmd *c, int argc, char **argv)
{
	const struct profile *p[1];
	size_t np = 0;

	c->offsets = "current,best,worst";
	c->align = 64, c->runs = 10, c->budget_s = 300, c->alpha = 0.05, c->material = 0.02;
	c->seed = 1, c->uarch = "host", c->direction = "lower";
	if (parse_command_line(&place_command, c, argc, argv))
		return -1;
	if (optind >= argc) {
		complain("place", "name the command to run after --");
		return -1;
	}
	c->argv_cmd = argv + optind;
	if (c->align & (c->align - 1)) {
		complain("--align", "%u is not a power of two", c->align);
		return -1;
	}
	if (!c->func && !c->loop_text) {
		complain("place", "name what to move: --func GLOB or --loop ADDR");
		return -1;
	}
	if (strcmp(c->direction, "lower") && strcmp(c->direction, "higher")) {
		complain("--direction", "'%s' is not lower or higher", c->direction);
		return -1;
	}
	c->higher = c->metric && strcmp(c->direction, "higher") == 0;
	if (c->metric && regcomp(&c->metric_re, c->metric, REG_EXTENDED)) {
		complain("--metric", "'%s' is not an extended regular expression", c->metric);
		c->metric = NULL;
		return -1;
	}
	if (select_profiles(c->uarch, p, 1, &np, c->host_why, sizeof c->host_why))
		return -1;
	c->host = p[0];
	c->rng = c->seed ? c->seed : 1;
	return 0;
}

/* The command's executable, as execvp would find it. */
static const char *command_path(const char *name, char *buf, size_t n)
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

/* The preload library: beside the binary (the build tree), or in the
 * libexec directory beside its bin/ (make install). */
static const char *find_preload(void)
{
	static char buf[PATH_MAX + 64];
	static const char *const rel[] = { "/libstraddle-place.so",
		"/../libexec/straddle/libstraddle-place.so", "/../libstraddle-place.so" };
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	const char *env = getenv("STRADDLE_PRELOAD");

	if (env && *env)
		return access(env, R_OK) == 0 ? env : NULL;
	if (n <= 0)
		return NULL;
	self[n] = 0;
	*strrchr(self, '/') = 0;
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		snprintf(buf, sizeof buf, "%s%s", self, rel[i]);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

/* ---- what is moved ---- */

static int open_files(struct place_cmd *c)
{
	char buf[PATH_MAX];
	struct err e;

	if (!c->nfiles) {
		const char *exe = command_path(c->argv_cmd[0], buf, sizeof buf);

		if (!exe) {
			complain(c->argv_cmd[0], "no such command in PATH");
			return -1;
		}
		c->files[c->nfiles++] = c->exe = xstrdup(exe);
	}
	for (size_t i = 0; i < c->nfiles; i++) {
		if (reloc_open(&c->rf[i], c->files[i], &e)) {
			complain(c->files[i], "%s", strchr(e.msg, ':') && strncmp(e.msg, c->files[i],
				 strlen(c->files[i])) == 0 ? e.msg + strlen(c->files[i]) + 2 : e.msg);
			return -1;
		}
		c->nrf++;
		/* the relocator plans AArch64 too, but place runs what it
		 * moves (tests/tools/place_plan writes a plan for qemu-user) */
		if (c->rf[i].img.arch != place_host_arch()) {
			complain(c->files[i], "%s code: place runs only the host's (%s)",
				 arch_name(c->rf[i].img.arch), arch_name(place_host_arch()));
			return -1;
		}
	}
	return 0;
}

/* The loop a single moved function is placed by: --loop's, else its only
 * innermost loop; none: its entry. */
static int choose_loop(struct place_cmd *c, struct reloc_file *rf, const struct reloc_func *f,
		       uint64_t want, bool asked)
{
	struct reloc_loop *l;
	size_t n = reloc_loops(rf, f, &l), inner = 0, pick = SIZE_MAX;
	char a[20];

	for (size_t i = 0; i < n; i++) {
		if (asked && (l[i].start == want || l[i].header == want) && pick == SIZE_MAX)
			pick = i;
		if (!asked && l[i].innermost)
			inner++, pick = i;
	}
	if (!asked && inner != 1)
		pick = SIZE_MAX;
	if (asked && pick == SIZE_MAX) {
		complain(c->loop_text, "no loop of %s starts there (it has %zu loop%s%s%s)", f->name,
			 n, n == 1 ? "" : "s", n ? ", the first at " : "",
			 n ? hex_addr(a, l[0].start) : "");
		free(l);
		return -1;
	}
	c->loop_start = pick == SIZE_MAX ? f->addr : l[pick].start;
	c->loop_end = pick == SIZE_MAX ? f->addr + f->size : l[pick].end;
	free(l);
	return 0;
}

static void count_refused(struct place_cmd *c, const struct reloc_file *rf, size_t from)
{
	for (size_t i = from; i < rf->nfn; i++) {
		const struct reloc_func *f = &rf->fn[i];
		char a[20];

		c->refused[f->refused]++;
		if (f->refused && c->verbose)
			fprintf(stderr, "straddle: %s: %s not moved: %s (at %s)\n", rf->img.path,
				f->name, reloc_refusal_name(f->refused), hex_addr(a, f->refused_at));
	}
}

static int choose_functions(struct place_cmd *c)
{
	uint64_t loop = 0;
	size_t total = 0;

	if (c->loop_text) {
		char *end;

		loop = strtoull(c->loop_text, &end, 16);
		if (*end || end == c->loop_text) {
			complain("--loop", "'%s' is not a hex address", c->loop_text);
			return -1;
		}
		struct reloc_func *f = reloc_choose_at(&c->rf[0], loop);
		if (!f) {
			complain(c->loop_text, "%s has no function there", c->files[0]);
			return -1;
		}
		total = 1;
	}
	for (size_t i = 0; c->func && i < c->nrf; i++)
		total += reloc_choose(&c->rf[i], c->func);
	if (!total) {
		complain(c->func, "no function of %s matches", c->files[0]);
		return -1;
	}
	for (size_t i = 0; i < c->nrf; i++)
		count_refused(c, &c->rf[i], 0);
	if (total == 1) {
		struct reloc_file *rf = c->rf[0].nfn ? &c->rf[0] : NULL;

		for (size_t i = 0; !rf && i < c->nrf; i++)
			rf = c->rf[i].nfn ? &c->rf[i] : NULL;
		c->subject = &rf->fn[0];
		if (c->subject->refused) {
			char a[20];

			complain(c->subject->name, "cannot be moved: %s (at %s)",
				 reloc_refusal_name(c->subject->refused), hex_addr(a, c->subject->refused_at));
			return -1;
		}
		if (choose_loop(c, rf, c->subject, loop, c->loop_text != NULL))
			return -1;
	}
	c->moved = total - (total - c->refused[RELOC_OK]);
	if (!c->refused[RELOC_OK]) {
		complain(c->func, "none of the %zu functions can be moved (--verbose says why)", total);
		return -1;
	}
	return 0;
}

/* ---- the arms ---- */

/* What the model says of the subject loop with its start at `offset`
 * (mod align): its hazards, and a score that orders placements (hazards
 * by severity first, then lines and fetch windows touched). */
static unsigned predict(struct place_cmd *c, uint32_t offset, struct hazard *h, size_t *nh)
{
	const struct reloc_func *f = c->subject;
	uint64_t delta = (offset + c->align - c->loop_start % c->align) % c->align;
	uint64_t s = c->loop_start + delta, e = c->loop_end + delta;
	unsigned score = 0;

	*nh = code_loop_hazards(c->host, f->code, f->size, f->addr + delta, s, h, 8);
	for (size_t i = 0; i < *nh; i++)
		score += 1000u * h[i].severity;
	return score + 10 * windows_touched(s, e, 64) + windows_touched(s, e, c->host->fetch);
}

static void best_and_worst(struct place_cmd *c, uint32_t *best, uint32_t *worst)
{
	unsigned lo = UINT_MAX, hi = 0, step = c->align > 64 ? 1 : 1;
	struct hazard h[8];
	size_t nh;

	*best = *worst = c->current;
	for (uint32_t o = 0; o < c->align && c->align <= 4096; o += step) {
		unsigned s = predict(c, o, h, &nh);

		if (s < lo || (s == lo && o == c->current))
			lo = s, *best = o;
		if (s > hi)
			hi = s, *worst = o;
	}
}

static int add_arm(struct place_cmd *c, enum arm_kind k, uint32_t offset, const char *name)
{
	for (size_t i = 0; i < c->narms; i++)
		if (c->arm[i].kind == k && (k != ARM_OFFSET || c->arm[i].offset == offset))
			return 0;
	if (k == ARM_OFFSET && offset == c->current && c->subject)
		return 0;       /* the control is that placement */
	if (c->narms == MAX_ARMS) {
		complain("--offsets", "at most %d placements at once", MAX_ARMS - 2);
		return -1;
	}
	struct arm *a = &c->arm[c->narms++];
	*a = (struct arm){ .kind = k, .offset = offset, .plan_fd = -1 };
	snprintf(a->name, sizeof a->name, "%s", name);
	return 0;
}

static int parse_offsets(struct place_cmd *c)
{
	char *spec = xstrdup(c->offsets), *save = NULL;
	uint32_t best = 0, worst = 0;
	int rc = 0;

	if (c->subject)
		best_and_worst(c, &best, &worst);
	add_arm(c, ARM_UNMOVED, 0, "unmoved");
	add_arm(c, ARM_CONTROL, c->current, "control");
	for (char *t = strtok_r(spec, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		unsigned long a, b, step = 1;
		int used = 0;
		char name[32];

		if (strcmp(t, "random") == 0)
			rc = add_arm(c, ARM_RANDOM, 0, "random");
		else if (strcmp(t, "current") == 0)
			;
		else if ((strcmp(t, "best") == 0 || strcmp(t, "worst") == 0) && !c->subject) {
			complain("--offsets", "'%s' needs one loop: name one function or --loop", t);
			rc = -1;
		} else if (strcmp(t, "best") == 0 || strcmp(t, "worst") == 0) {
			snprintf(name, sizeof name, "%s", t);
			rc = add_arm(c, ARM_OFFSET, *t == 'b' ? best : worst, name);
		} else if ((sscanf(t, "%lu..%lu:%lu%n", &a, &b, &step, &used) == 3 && !t[used]) ||
			   (sscanf(t, "%lu..%lu%n", &a, &b, &used) == 2 && !t[used]) ||
			   (sscanf(t, "%lu%n", &a, &used) == 1 && !t[used] && (b = a, 1))) {
			if (t[0] == '-' || b < a || b >= c->align || !step) {
				complain("--offsets", "'%s': need 0 <= A <= B < %u and STEP >= 1", t,
					 c->align);
				rc = -1;
			}
			for (unsigned long o = a; !rc && o <= b; o += step) {
				snprintf(name, sizeof name, "%lu", o);
				rc = add_arm(c, ARM_OFFSET, (uint32_t)o, name);
			}
		} else {
			complain("--offsets", "'%s' is not A..B[:STEP], current, best, worst or random", t);
			rc = -1;
		}
	}
	free(spec);
	return rc;
}

/* The plan of one arm into a fresh memfd: every movable function, its
 * anchor at the arm's offset (random: each its own). */
static int make_plan(struct place_cmd *c, struct arm *a)
{
	struct reloc_plan_part part[MAX_FILES];
	size_t np = 0;
	struct err e;
	FILE *f;
	int fd = memfd_create("straddle-plan", 0), rc = 0;

	if (fd < 0 || !(f = fdopen(dup(fd), "w"))) {
		complain("place", "cannot make a plan: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < c->nrf; i++) {
		struct reloc_place *p = c->place[i];

		for (size_t k = 0; k < c->nplace[i]; k++) {
			uint64_t anchor = p[k].f == c->subject ? c->loop_start : p[k].f->addr;

			p[k].anchor = anchor, p[k].align = c->align;
			p[k].offset = a->kind == ARM_RANDOM ? (uint32_t)rng_below(&c->rng, c->align) :
				      a->kind == ARM_CONTROL ? (uint32_t)(anchor % c->align) : a->offset;
		}
		if (c->nplace[i])
			part[np++] = (struct reloc_plan_part){ &c->rf[i], p, c->nplace[i] };
	}
	if (reloc_plan_write(part, np, f, &e)) {
		complain("place", "%s", e.msg);
		rc = -1;
	}
	fclose(f);
	if (a->plan_fd >= 0)
		close(a->plan_fd);
	a->plan_fd = rc ? (close(fd), -1) : fd;
	return rc;
}

static void collect_places(struct place_cmd *c)
{
	for (size_t i = 0; i < c->nrf; i++) {
		c->place[i] = xcalloc(c->rf[i].nfn + 1, sizeof *c->place[i]);
		for (size_t k = 0; k < c->rf[i].nfn; k++)
			if (c->rf[i].fn[k].refused == RELOC_OK)
				c->place[i][c->nplace[i]++].f = &c->rf[i].fn[k];
	}
	if (c->subject)
		c->current = (uint32_t)(c->loop_start % c->align);
}

/* ---- running ---- */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* "offset 12", "control", "best (offset 0)": an arm in a message. */
static const char *arm_label(const struct arm *a, char *buf, size_t n)
{
	if (a->kind != ARM_OFFSET)
		snprintf(buf, n, "%s", a->name);
	else if (isdigit((unsigned char)a->name[0]))
		snprintf(buf, n, "offset %u", a->offset);
	else
		snprintf(buf, n, "%s (offset %u)", a->name, a->offset);
	return buf;
}

/* The preload library's lines: how many objects it moved; an error stops
 * everything. */
static int check_report(struct place_cmd *c, const struct arm *a, const struct command_run *r)
{
	size_t applied = 0, want = 0;
	const char *err = strstr(r->report, "error ");

	if (err) {
		char label[48];

		complain(arm_label(a, label, sizeof label), "the preload library failed: %.*s",
			 (int)strcspn(err + 6, "\n"), err + 6);
		return -1;
	}
	for (const char *p = r->report; (p = strstr(p, "applied ")); p++) {
		unsigned long long ns = 0;

		applied++;
		if (sscanf(p, "applied %*u %*u %*x %llu", &ns) == 1) {
			GROW(c->apply_ns, c->apply_cap, c->napply + 1);
			c->apply_ns[c->napply++] = (double)ns;
		}
	}
	for (size_t i = 0; i < c->nrf; i++)
		want += c->nplace[i] > 0;
	if (applied < want) {
		complain(c->files[0], "the plan was not applied: no process of '%s' loaded it "
			 "(or the build-id differs)", c->argv_cmd[0]);
		return -1;
	}
	return 0;
}

static int metric_of(struct place_cmd *c, const struct command_run *r, double *v)
{
	regmatch_t m[2];

	if (!c->metric) {
		*v = c->wall ? r->wall_s : r->cpu_s;
		return 0;
	}
	if (regexec(&c->metric_re, r->out, 2, m, 0) != 0) {
		complain("--metric", "'%s' matches nothing in the output of '%s'", c->metric,
			 c->argv_cmd[0]);
		return -1;
	}
	size_t k = m[1].rm_so >= 0 ? 1 : 0;
	char num[64];
	char *end;

	snprintf(num, sizeof num, "%.*s", (int)(m[k].rm_eo - m[k].rm_so), r->out + m[k].rm_so);
	*v = strtod(num, &end);
	if (end == num) {
		complain("--metric", "'%s' is not a number", num);
		return -1;
	}
	return 0;
}

/* The program must not notice: the same output and status as unmoved. */
static int same_output(struct place_cmd *c, const struct arm *a, const struct command_run *r)
{
	char want[48], got[48], label[48];

	if (!c->checked++) {
		c->base_hash = r->out_hash, c->base_status = r->status;
		return 0;
	}
	if (c->no_output_check || (r->out_hash == c->base_hash && r->status == c->base_status)) {
		c->identical++;
		return 0;
	}
	command_status_text(c->base_status, want, sizeof want);
	command_status_text(r->status, got, sizeof got);
	complain(arm_label(a, label, sizeof label),
		 "the program noticed: %s (%s) where unmoved it gave %s; stderr: %.*s",
		 r->out_hash != c->base_hash ? "its output differs" : "its status differs", got,
		 want, (int)strcspn(r->err_head, "\n"), r->err_head);
	return 1;
}

static int run_arm(struct place_cmd *c, struct arm *a, struct command_run *r)
{
	char plan_env[64], preload_env[PATH_MAX + 32];
	const char *old = getenv("LD_PRELOAD");
	char *env[3] = { NULL };
	struct command_spec spec = { c->argv_cmd, env, "STRADDLE_PLACE_FD", OUT_MAX };
	struct err e;
	double v;
	int rc;

	if (a->kind == ARM_RANDOM && make_plan(c, a))
		return 2;
	if (a->kind != ARM_UNMOVED) {
		snprintf(plan_env, sizeof plan_env, "STRADDLE_PLAN=/proc/self/fd/%d", a->plan_fd);
		snprintf(preload_env, sizeof preload_env, "LD_PRELOAD=%s%s%s", c->preload,
			 old && *old ? ":" : "", old ? old : "");
		env[0] = plan_env, env[1] = preload_env;
	} else
		spec.report_env = NULL;
	if (command_run(&spec, r, &e)) {
		complain(c->argv_cmd[0], "%s", e.msg);
		return 2;
	}
	if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127 && a->kind == ARM_UNMOVED &&
	    !c->checked) {
		complain(c->argv_cmd[0], "cannot run: %.*s", (int)strcspn(r->err_head, "\n"),
			 r->err_head);
		return 2;
	}
	if (a->kind != ARM_UNMOVED && check_report(c, a, r))
		return 2;
	if ((rc = same_output(c, a, r)))
		return rc;
	if (metric_of(c, r, &v))
		return 2;
	GROW(a->v, a->cap, a->n + 1);
	a->v[a->n++] = v;
	return 0;
}

static void progress(const struct place_cmd *c, double t0)
{
	if (isatty(2))
		fprintf(stderr, "\rplace: round %u of at most %u, %.0f s of at most %.0f", c->rounds,
			c->runs, now_s() - t0, c->budget_s);
}

/* Is every arm's median known within --precision (its bootstrap CI's
 * half-width)? */
static bool precise(const struct place_cmd *c)
{
	for (size_t i = 0; i < c->narms; i++) {
		const struct arm *a = &c->arm[i];
		double lo, hi, m;
		double *v = xcalloc(a->n + 1, sizeof *v);

		memcpy(v, a->v, a->n * sizeof *v);
		m = stats_median_select(v, a->n);
		free(v);
		stats_bootstrap_median_ci(a->v, a->n, 1000, c->seed, &lo, &hi);
		if ((hi - lo) / 2 > c->precision * m)
			return false;
	}
	return true;
}

/* Every round each arm once, in a new random order, until each has
 * --runs samples or the time is spent. */
static int run_rounds(struct place_cmd *c)
{
	struct command_run r = { 0 };
	size_t order[MAX_ARMS];
	double t0 = now_s();
	int rc = 0;

	c->stopped_by = "runs";
	/* the unmoved program once first: the output every run must match */
	rc = run_arm(c, &c->arm[0], &r);
	c->arm[0].n = 0;
	while (!rc && c->rounds < c->runs) {
		for (size_t i = 0; i < c->narms; i++)
			order[i] = i;
		for (size_t i = c->narms; i > 1; i--) {
			size_t j = rng_below(&c->rng, i), t = order[i - 1];

			order[i - 1] = order[j], order[j] = t;
		}
		for (size_t i = 0; i < c->narms && !rc; i++)
			rc = run_arm(c, &c->arm[order[i]], &r);
		c->rounds++;
		progress(c, t0);
		if (now_s() - t0 > c->budget_s && c->rounds >= 2) {
			c->stopped_by = "time";
			break;
		}
		if (c->precision && c->rounds >= 5 && precise(c)) {
			c->stopped_by = "precision";
			break;
		}
	}
	if (isatty(2))
		fprintf(stderr, "\n");
	c->elapsed_s = now_s() - t0;
	free(r.out);
	return rc;
}

/* ---- analysis ---- */

static void analyse(struct place_cmd *c)
{
	const struct arm *best = NULL;

	for (size_t i = 0; i < c->narms; i++) {
		struct arm *a = &c->arm[i];

		stats_summarize(a->v, a->n, c->seed, !c->higher, &a->sum);
		if (!best || (c->higher ? a->sum.median > best->sum.median :
			      a->sum.median < best->sum.median))
			best = a;
		if (c->subject && (a->kind == ARM_OFFSET || a->kind == ARM_CONTROL))
			predict(c, a->offset, a->predicted, &a->npredicted);
	}
	for (size_t i = 0; i < c->narms; i++) {
		struct arm *a = &c->arm[i];
		struct mann_whitney m;

		a->ratio = c->higher ? best->sum.median / a->sum.median : a->sum.median / best->sum.median;
		stats_mann_whitney(a->v, a->n, best->v, best->n, &m);
		a->p = a == best ? 1 : m.p;
		a->slow = a != best && a->p < c->alpha && a->ratio > 1 + c->material;
	}
}

/* ---- output ---- */

static void predicted_text(const struct arm *a, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = 0;
	if (a->kind == ARM_UNMOVED || a->kind == ARM_RANDOM) {
		snprintf(buf, n, "n/a");
		return;
	}
	for (size_t i = 0; i < a->npredicted && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s@%u", i ? "," : "",
				       rule_name(a->predicted[i].rule), a->predicted[i].window);
	if (!buf[0])
		snprintf(buf, n, "-");
}

static const char *unit(const struct place_cmd *c)
{
	return c->metric ? "" : "s";
}

static void print_table(const struct place_cmd *c)
{
	static const char *const cols[] = { "arm", ">offset", ">runs", ">median", ">95% CI",
		">ratio", ">p", "slow", "predicted" };
	struct table t;

	table_init(&t, 9, cols);
	for (size_t i = 0; i < c->narms; i++) {
		const struct arm *a = &c->arm[i];
		char off[16], runs[16], med[32], ci[64], ratio[16], p[16], pred[128];

		snprintf(off, sizeof off, a->kind == ARM_UNMOVED || a->kind == ARM_RANDOM || !c->subject ?
			 "-" : "%u", a->offset);
		snprintf(runs, sizeof runs, "%zu", a->n);
		snprintf(med, sizeof med, "%.4f%s", a->sum.median, unit(c));
		snprintf(ci, sizeof ci, "[%.4f, %.4f]", a->sum.ci_lo, a->sum.ci_hi);
		snprintf(ratio, sizeof ratio, "%.3f", a->ratio);
		snprintf(p, sizeof p, a->ratio == 1 ? "-" : "%.3g", a->p);
		predicted_text(a, pred, sizeof pred);
		table_row(&t, a->name, off, runs, med, ci, ratio, p, a->slow ? "slow" : "", pred);
	}
	table_print(&t, stdout);
	table_free(&t);
}

static const struct arm *arm_kind(const struct place_cmd *c, enum arm_kind k, const char *name)
{
	for (size_t i = 0; i < c->narms; i++)
		if (c->arm[i].kind == k && (!name || strcmp(c->arm[i].name, name) == 0))
			return &c->arm[i];
	return NULL;
}

/* 100 (b - a) / a with a CI from the two medians' CIs (conservative: the
 * widest the two intervals allow). */
static void change_line(const struct place_cmd *c, const struct arm *from, const struct arm *to,
			char *buf, size_t n)
{
	struct mann_whitney m;
	double ch = 100 * (to->sum.median - from->sum.median) / from->sum.median;
	double lo = 100 * (to->sum.ci_lo - from->sum.ci_hi) / from->sum.median;
	double hi = 100 * (to->sum.ci_hi - from->sum.ci_lo) / from->sum.median;

	stats_mann_whitney(from->v, from->n, to->v, to->n, &m);
	snprintf(buf, n, "%+.1f%% [%+.1f, %+.1f] (p %.2g%s)", ch, lo, hi, m.p,
		 m.p < c->alpha ? "" : ": inconclusive");
}

/* One line per offset arm against the control; with more than a few,
 * the measured fastest and slowest only. */
static void print_moves(const struct place_cmd *c, const struct arm *ctl, const char *what)
{
	const struct arm *lo = NULL, *hi = NULL;
	size_t n = 0;
	char line[160];

	for (size_t i = 0; i < c->narms; i++) {
		const struct arm *a = &c->arm[i];

		if (a->kind != ARM_OFFSET)
			continue;
		n++;
		lo = !lo || a->sum.median < lo->sum.median ? a : lo;
		hi = !hi || a->sum.median > hi->sum.median ? a : hi;
	}
	for (size_t i = 0; i < c->narms; i++) {
		const struct arm *a = &c->arm[i];

		if (a->kind != ARM_OFFSET || (n > 4 && a != lo && a != hi))
			continue;
		change_line(c, ctl, a, line, sizeof line);
		printf("moving %s's %s from %u to %u of its %u-byte %s%s%s%s: %s of %s\n",
		       c->subject->name, c->loop_start == c->subject->addr ? "entry" : "loop",
		       c->current, a->offset, c->align, c->align == 64 ? "line" : "block",
		       isdigit((unsigned char)a->name[0]) ? "" : " (the model's ",
		       isdigit((unsigned char)a->name[0]) ? "" : a->name,
		       isdigit((unsigned char)a->name[0]) ? "" : ")", line, what);
	}
}

static void print_answer(const struct place_cmd *c)
{
	const struct arm *un = arm_kind(c, ARM_UNMOVED, NULL), *ctl = arm_kind(c, ARM_CONTROL, NULL);
	const char *what = c->metric ? "its metric" : c->wall ? "its wall time" : "its CPU time";
	char line[160], ctl_line[160];
	size_t agree = 0, total = 0;

	for (size_t i = 0; i < c->narms; i++) {
		const struct arm *a = &c->arm[i];

		if (c->subject && (a->kind == ARM_OFFSET || a->kind == ARM_CONTROL))
			total++, agree += a->slow == (a->npredicted > 0);
	}
	change_line(c, un, ctl, ctl_line, sizeof ctl_line);
	if (c->subject)
		printf("\ncontrol (a copy at offset %u) against the unmoved program: %s\n", c->current,
		       ctl_line);
	else
		printf("\ncontrol (each copy at its function's own offset) against the unmoved "
		       "program: %s\n", ctl_line);
	if (c->subject) {
		print_moves(c, ctl, what);
		printf("model (%s) and measurement agree on %zu of %zu placements\n", c->host->name,
		       agree, total);
	} else if (arm_kind(c, ARM_RANDOM, NULL)) {
		const struct arm *r = arm_kind(c, ARM_RANDOM, NULL);

		change_line(c, ctl, r, line, sizeof line);
		printf("random layouts against the control: %s of %s; layout noise (CV) %.2f%% "
		       "against the control's %.2f%%\n", line, what, 100 * r->sum.cv, 100 * ctl->sum.cv);
	}
}

static double apply_median_us(const struct place_cmd *c)
{
	double *v = xcalloc(c->napply + 1, sizeof *v), m;

	memcpy(v, c->apply_ns, c->napply * sizeof *v);
	m = c->napply ? stats_median_select(v, c->napply) / 1000 : 0;
	free(v);
	return m;
}

static double apply_max_us(const struct place_cmd *c)
{
	double m = 0;

	for (size_t i = 0; i < c->napply; i++)
		m = c->apply_ns[i] > m ? c->apply_ns[i] : m;
	return m / 1000;
}

static void print_text(const struct place_cmd *c)
{
	char a[20], b[20];

	printf("%s: %zu function%s moved", c->files[0], c->refused[RELOC_OK],
	       c->refused[RELOC_OK] == 1 ? "" : "s");
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (c->refused[r])
			printf(", %zu refused (%s)", c->refused[r], reloc_refusal_name(r));
	printf("\n");
	if (c->subject)
		printf("%s: loop %s..%s, %" PRIu64 " bytes, at offset %u of its %u-byte block today\n",
		       c->subject->name, hex_addr(a, c->loop_start), hex_addr(b, c->loop_end),
		       c->loop_end - c->loop_start, c->current, c->align);
	printf("measured: %s; stopped by %s after %u rounds (%.1f s); output identical in %u of %u "
	       "runs%s\n", c->metric ? c->metric : c->wall ? "wall time" : "CPU time (user + system)",
	       c->stopped_by, c->rounds, c->elapsed_s, c->identical, c->checked ? c->checked - 1 : 0,
	       c->no_output_check ? " (not checked)" : "");
	if (c->napply)
		printf("the preload library applied the plan in %.0f us (median of %zu; max %.0f us)\n",
		       apply_median_us(c), c->napply, apply_max_us(c));
	print_table(c);
	print_answer(c);
}

/* ---- files ---- */

static json_t *arm_json(const struct place_cmd *c, const struct arm *a)
{
	json_t *samples = json_array(), *pred = json_array();
	char name[160];

	for (size_t i = 0; i < a->n; i++)
		json_array_append_new(samples, json_real(a->v[i]));
	for (size_t i = 0; i < a->npredicted; i++)
		json_array_append_new(pred, results_hazard(&a->predicted[i]));
	snprintf(name, sizeof name, "%s@%s", c->subject ? c->subject->name : c->func, a->name);
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:f, s:[f,f], s:f, s:f, s:f, s:b, s:f,"
			 " s:o, s:o}", "name", name, "kernel", c->subject ? c->subject->name : c->func,
		"arm", a->name, "offset", (int)a->offset, "unit", c->metric ? "" : "s", "direction",
		c->higher ? "higher" : "lower", "median", a->sum.median, "ci", a->sum.ci_lo,
		a->sum.ci_hi, "stddev", a->sum.stddev, "cv", a->sum.cv, "ratio", a->ratio, "slow",
		a->slow, "p_vs_best", a->p, "predicted", pred, "samples", samples);
}

static int write_json(const struct place_cmd *c)
{
	json_t *doc = results_run_info("place", c->argc, c->argv), *metrics = json_array();
	json_t *refused = json_object();
	char loop_span[48], a[20], b[20];
	struct err e;
	int rc;

	snprintf(loop_span, sizeof loop_span, "%s..%s", hex_addr(a, c->loop_start),
		 hex_addr(b, c->loop_end));
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (c->refused[r])
			json_object_set_new(refused, reloc_refusal_name(r), json_integer((json_int_t)c->refused[r]));
	json_object_set_new(doc, "place", json_pack("{s:s, s:s?, s:s?, s:i, s:s, s:i, s:f, s:s,"
		" s:s}", "file", c->files[0], "function", c->subject ? c->subject->name : NULL,
		"loop", c->subject ? loop_span : NULL, "current", (int)c->current, "measure",
		c->metric ? c->metric : c->wall ? "wall" : "cpu", "rounds", (int)c->rounds,
		"elapsed_s", c->elapsed_s, "stopped_by", c->stopped_by, "profile", c->host->name));
	json_object_set_new(json_object_get(doc, "place"), "apply_us", json_pack("{s:f, s:f}",
		"median", apply_median_us(c), "max", apply_max_us(c)));
	json_object_set_new(doc, "output_check", json_pack("{s:i, s:i, s:b}", "runs",
		(int)(c->checked ? c->checked - 1 : 0), "identical", (int)c->identical, "checked",
		!c->no_output_check));
	json_object_set_new(doc, "moved", json_pack("{s:i, s:o}", "functions",
		(int)c->refused[RELOC_OK], "refused", refused));
	for (size_t i = 0; i < c->narms; i++)
		json_array_append_new(metrics, arm_json(c, &c->arm[i]));
	json_object_set_new(doc, "metrics", metrics);
	rc = results_write(doc, c->out_json, &e);
	if (rc)
		complain(c->out_json, "%s", e.msg);
	json_decref(doc);
	return rc;
}

static int write_plot_file(FILE *f, void *ctx)
{
	return plot_svg(f, ctx);
}

/* The measure against the offset: the control and each offset arm. */
static int write_plot(const struct place_cmd *c)
{
	double x[MAX_ARMS], y[MAX_ARMS], lo[MAX_ARMS], hi[MAX_ARMS], sh[MAX_ARMS];
	bool mark[MAX_ARMS];
	size_t n = 0, nsh = 0;
	struct err e;

	for (uint32_t o = 0; o < c->align; o++)         /* by offset: a line, not a zigzag */
		for (size_t i = 0; i < c->narms; i++) {
			const struct arm *a = &c->arm[i];

			if ((a->kind != ARM_OFFSET && a->kind != ARM_CONTROL) || a->offset != o)
				continue;
			x[n] = a->offset, y[n] = a->sum.median, lo[n] = a->sum.ci_lo;
			hi[n] = a->sum.ci_hi, mark[n] = a->slow;
			if (a->npredicted)
				sh[nsh++] = a->offset;
			n++;
		}
	struct plot_series s = { c->subject ? c->subject->name : c->func, x, y, lo, hi, mark, n };
	struct plot p = { "straddle place: the program's median per placement (95% CI)",
		"offset of the loop in its line", c->metric ? c->metric : "seconds", &s, 1, NULL, 0,
		sh, nsh, "grey bands: the model predicts a hazard there", NULL };
	if (write_atomic(c->plot, write_plot_file, &p, &e)) {
		complain(c->plot, "%s", e.msg);
		return -1;
	}
	return 0;
}

/* ---- the command ---- */

static void on_signal(int sig)
{
	command_kill_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void cleanup(struct place_cmd *c)
{
	for (size_t i = 0; i < c->narms; i++) {
		free(c->arm[i].v);
		if (c->arm[i].plan_fd >= 0)
			close(c->arm[i].plan_fd);
	}
	for (size_t i = 0; i < c->nrf; i++) {
		free(c->place[i]);
		reloc_close(&c->rf[i]);
	}
	if (c->metric)
		regfree(&c->metric_re);
	free(c->apply_ns);
	free(c->exe);
}

static int prepare(struct place_cmd *c, int argc, char **argv)
{
	if (parse_options(c, argc, argv) || open_files(c) || choose_functions(c))
		return -1;
	collect_places(c);
	if (parse_offsets(c))
		return -1;
	if (!(c->preload = find_preload())) {
		complain("place", "libstraddle-place.so is not beside straddle nor in "
			 "../libexec/straddle (set STRADDLE_PRELOAD)");
		return -1;
	}
	for (size_t i = 0; i < c->narms; i++)
		if (c->arm[i].kind == ARM_OFFSET || c->arm[i].kind == ARM_CONTROL)
			if (make_plan(c, &c->arm[i]))
				return -1;
	return 0;
}

static int cmd_place(int argc, char **argv)
{
	struct place_cmd c = { .argc = argc, .argv = argv };
	int rc = EXIT_USAGE;

	if (prepare(&c, argc, argv))
		goto out;
	handle_terminating(on_signal);
	rc = run_rounds(&c);
	if (rc)
		goto out;
	analyse(&c);
	if (!c.out_json || strcmp(c.out_json, "-") != 0)
		print_text(&c);
	if (c.out_json && write_json(&c))
		rc = EXIT_USAGE;
	if (c.plot && write_plot(&c))
		rc = EXIT_USAGE;
out:
	cleanup(&c);
	return rc;
}
