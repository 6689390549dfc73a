/* straddle place --file vdso [--func NAME]: seed 003 on this machine's
 * kernel. A function of this process's vDSO (default __vdso_clock_gettime)
 * moved to chosen offsets of a line, bench's gettime run against each
 * placement (workloads/vdso_place.c): the vDSO unmoved, the control (a
 * copy at the function's own offset, reached through the same entry
 * jump) and each offset, each held against the control round by round. */
#include "cmd.h"
#include "../measure/vdso_move.h"
#include "../report/report.h"
#include "../workloads/workloads.h"

#include <stdlib.h>
#include <string.h>

struct vdso_cmd {
	const char *file, *func, *offsets;
	unsigned runs;
	double seconds;
	uint64_t seed;
};

static int cmd_place_vdso(int argc, char **argv);

#define F(field) offsetof(struct vdso_cmd, field)

static const struct cmd_option vdso_options[] = {
	{ .name = "file", .value = "vdso", .kind = OPT_STRING, .field = F(file),
	  .help = "vdso: this process's vDSO" },
	{ .name = "func", .value = "NAME", .kind = OPT_STRING, .field = F(func),
	  .help = "the vDSO function to move (default __vdso_clock_gettime)" },
	{ .name = "offsets", .value = "LIST", .kind = OPT_STRING, .field = F(offsets),
	  .help = "its entry's offsets of a line: N or A..B[:STEP], comma\n"
		  "separated (default 0..48:16)" },
	{ .name = "runs", .value = "N", .kind = OPT_UNSIGNED, .field = F(runs), .min = 2, .max = 64,
	  .dflt = "8", .help = "rounds, every arm once each" },
	{ .name = "time", .value = "S", .kind = OPT_SECONDS, .field = F(seconds), .dflt = "0.2",
	  .help = "gettime's seconds a clock, hot and cold, an arm a round" },
	OPT_SEED(F, seed, "the random order"),
	{ 0 }
};

static const struct command vdso_command = {
	.name = "place",
	.run = cmd_place_vdso,
	.summary = "move a vDSO function in this process and measure bench gettime",
	.args = "--file vdso [--func NAME] [--offsets LIST] [--runs N] [--time S]",
	.about = "Seed 003 on this kernel: the vDSO function is copied near the vDSO with its\n"
		 "fix-ups (relocate/), and its entry becomes a jump to the copy, written through\n"
		 "/proc/self/mem (the kernel refuses mprotect of [vdso]; the page becomes this\n"
		 "process's own copy, as under a debugger). Each round runs bench's gettime, hot\n"
		 "(ns a call) and cold (TSC ticks a call after every line of the vDSO, the\n"
		 "vvar pages and the copy is flushed), for each arm in a new random order: the\n"
		 "vDSO unmoved, the control (a copy at the function's own offset of a line,\n"
		 "behind the same jump) and each offset; each is held against the control\n"
		 "round by round (the geometric mean of the rounds' ratios, its 95% CI). Every\n"
		 "arm's CLOCK_MONOTONIC and CLOCK_REALTIME are checked to lie between two\n"
		 "system calls'. The vDSO's bytes are put back before it ends.\n",
	.options = vdso_options,
	.notes = "Exit status: 0 done, 1 a placement's clock_gettime disagreed with the system\n"
		 "call's, 2 bad usage or a function that cannot be moved.\n",
};

bool place_vdso_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--file=vdso") ||
		    (!strcmp(argv[i], "--file") && i + 1 < argc && !strcmp(argv[i + 1], "vdso")))
			return true;
	return false;
}

int place_vdso(int argc, char **argv)
{
	return cmd_place_vdso(argc, argv);
}

/* "0..48:16,60": the arms after the unmoved vDSO and the control. */
static int parse_arms(const char *spec, struct vdso_arm *a, size_t *n)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof buf, "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned lo, hi, step = 1;
		char tail;
		int k = sscanf(tok, "%u..%u:%u%c", &lo, &hi, &step, &tail);

		if (k == 1 && strchr(tok, '.') == NULL && sscanf(tok, "%u%c", &lo, &tail) == 1)
			hi = lo;
		else if (k != 2 && k != 3)
			goto bad;
		if (lo > hi || hi > 63 || !step)
			goto bad;
		for (unsigned o = lo; o <= hi; o += step) {
			if (*n == VDSO_MAX_ARMS)
				goto bad;
			a[*n] = (struct vdso_arm){ .offset = (int)o };
			snprintf(a[*n].name, sizeof a[*n].name, "%u", o);
			(*n)++;
		}
	}
	return 0;
bad:
	complain("--offsets", "'%s' is not a list of N or A..B[:STEP] within 0..63", spec);
	return -1;
}

static int cmd_place_vdso(int argc, char **argv)
{
	struct vdso_cmd c = { .func = "__vdso_clock_gettime", .offsets = "0..48:16" };
	struct vdso_arm *a = xcalloc(VDSO_MAX_ARMS + 2, sizeof *a);
	struct vdso_move m = { .mem = -1 };
	struct err e = { "" };
	size_t n = 2;
	int rc = EXIT_USAGE;

	if (parse_command_line(&vdso_command, &c, argc, argv))
		goto out;
	if (optind < argc || !c.file || strcmp(c.file, "vdso")) {
		complain("place", "--file vdso moves a function of straddle's own vDSO and runs "
			 "bench's gettime: no command, no other --file");
		goto out;
	}
	if (parse_arms(c.offsets, a, &n))
		goto out;
	if (vdso_move_open(&m, c.func, &e)) {
		complain("place", "%s", e.msg);
		goto out;
	}
	a[0] = (struct vdso_arm){ .name = "unmoved", .offset = -1 };
	a[1] = (struct vdso_arm){ .name = "control", .offset = (int)((m.base + m.f->addr) % 64) };
	if (vdso_place_rounds(&m, a, n, c.runs, c.seconds, c.seed, &e)) {
		complain("place", "%s", e.msg);
		goto out;
	}
	report_vdso_place(stdout, &m, a, n);
	rc = EXIT_OK;
	for (size_t i = 0; i < n; i++)
		if (!a[i].intact)
			rc = EXIT_GATE;
out:
	vdso_move_close(&m);
	free(a);
	return rc;
}
