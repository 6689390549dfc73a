/* straddle kernels [--json] [--check] [--file VMLINUX --func NAME]: the
 * built-in copy/clear kernels (seeds 000, 001, 002) with the CPU features
 * each wants, or a kernel image's own routine as straddle runs it; with
 * --check the proof that each keeps the kernel's fault contract. */
#include "cmd.h"
#include "../kernels/kernels.h"
#include "../report/report.h"
#include "../results/kernels.h"

#include <stdio.h>
#include <string.h>

struct kernels_cmd {
	bool json, check;
	struct routine_args ra;
};

static int cmd_kernels(int argc, char **argv);

#define F(field) offsetof(struct kernels_cmd, field)

static int set_alternative(void *cmd, const char *opt, const char *value)
{
	return routine_args_alternative(&((struct kernels_cmd *)cmd)->ra, opt, value);
}

static const struct cmd_option kernels_options[] = {
	{ .name = "check", .kind = OPT_SET, .field = F(check),
	  .help = "prove the fault contract for every placeable kernel: at code\n"
		  "offsets 0,1,7,13,33,63 (AArch64: 0,4,12,28,36,60), every length\n"
		  "0..300 without a fault, and every start 0..256 bytes before a\n"
		  "PROT_NONE page for each length reaching it, on the destination\n"
		  "and (copies) the source: return value and every byte compared.\n"
		  "The last line is 'N passed, N failed'." },
	OPT_JSON(F, json, " (--check's lines go to stderr)"),
	ROUTINE_OPTIONS(F, set_alternative),
	{ 0 }
};

const struct command kernels_command = {
	.name = "kernels",
	.run = cmd_kernels,
	.summary = "the built-in copy/clear kernels; --check proves their fault contract",
	.args = "[--json] [--check] [--file VMLINUX --func NAME]",
	.about = "The copy and clear kernels 'straddle sweep' can place: each seed's loop in\n"
		 "its strategies (the 10- and 15-byte __clear_user loops, rep stosq/stosb, the\n"
		 "unrolled 64 B copy, rep movsq/movsb, the arm64 str xzr loop), and libc's\n"
		 "memset and memcpy as references that run where they are. Listed with the\n"
		 "seed each comes from, its hot loop's offsets, and the CPU features it\n"
		 "wants, marked '(missing)' where this CPU lacks them.\n"
		 "\n"
		 "With --file and --func, a kernel image's own routine instead: the code its\n"
		 "entry reaches (through tail jumps, fall-throughs and exception fixups), what\n"
		 "was made user-space (the return thunk a ret, a retpoline call a call through\n"
		 "its register, __fentry__ a nop), its exception table, its loops, its\n"
		 "alternatives and which of them this host's kernel runs, and whether this\n"
		 "host's kernel calls it at all. A routine that calls another kernel function,\n"
		 "reads kernel data or holds a privileged instruction is refused with one line\n"
		 "naming it. With --check, its fault contract at every position: the count\n"
		 "its exception table's fixups leave, the kernel's EX_TYPE semantics applied\n"
		 "(UACCESS, FAULT and COPY set rax, IMM_REG and UCOPY_LEN their registers).\n"
		 "An arm64 vmlinux's routine (__arch_clear_user, __arch_copy_to_user,\n"
		 "__arch_copy_from_user, or --call with x0..x28) runs under qemu-aarch64,\n"
		 "for correctness only: arm64's UACCESS_ERR_ZERO entries applied.\n",
	.options = kernels_options,
	.notes = "A fault in a routine's copy that its exception table does not list is reported\n"
		 "as the kernel would oops, one FAIL line naming the offset and the address, and\n"
		 "the check goes on.\n"
		 "\n"
		 "Exit status: 0 done, 1 a check failed, 2 bad usage, a routine refused or the\n"
		 "check could not run.\n",
};

static int print_json(unsigned have, const struct kernels_check_result *check)
{
	return write_result(results_kernels(have, check), "-") ? EXIT_USAGE : EXIT_OK;
}

static int run_check(bool json, const struct routine *rt, struct kernels_check_result *r)
{
	struct kernels_check_opts o = { .max_len = KERNELS_CHECK_MAX_LEN,
		.fault_span = KERNELS_CHECK_FAULT_SPAN, .kernel = rt ? &rt->k : NULL,
		.out = json ? stderr : stdout };
	struct err e;

	if (rt && rt->emulated ? routine_check_emulated(rt, o.out, r, &e) < 0 :
	    kernels_check(&o, r, &e)) {
		complain("kernels", "%s", e.msg);
		return EXIT_USAGE;
	}
	fprintf(o.out, "%lu passed, %lu failed\n", r->passed, r->failed);
	return r->failed ? EXIT_GATE : EXIT_OK;
}

/* A kernel image's routine: what straddle made of it, and with --check
 * its contract. */
static int routine_command(const struct kernels_cmd *c, const struct routine *rt)
{
	struct kernels_check_result check;
	int rc = EXIT_OK;

	routine_describe(rt, c->json ? stderr : stdout);
	if (c->check && (rc = run_check(c->json, rt, &check)) == EXIT_USAGE)
		return rc;
	if (c->json) {
		int jrc = write_result(results_routine(rt, c->check ? &check : NULL), "-") ?
			  EXIT_USAGE : EXIT_OK;

		return jrc ? jrc : rc;
	}
	return rc;
}

static int cmd_kernels(int argc, char **argv)
{
	struct kernels_check_result check;
	struct kernels_cmd c = { 0 };
	struct routine *rt;
	int rc = EXIT_OK;

	if (parse_command_line(&kernels_command, &c, argc, argv))
		return EXIT_USAGE;
	if (optind < argc) {
		complain("kernels", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	switch (routine_args_open(&c.ra, NULL, &rt)) {
	case -1:
		return EXIT_USAGE;
	case 1:
		rc = routine_command(&c, rt);
		routine_free(rt);
		return rc;
	}
	if (c.check && (rc = run_check(c.json, NULL, &check)) == EXIT_USAGE)
		return rc;
	if (c.json) {
		int jrc = print_json(kernels_host_features(), c.check ? &check : NULL);

		return jrc ? jrc : rc;
	}
	if (!c.check)
		report_kernels(stdout, kernels_host_features());
	return rc;
}
