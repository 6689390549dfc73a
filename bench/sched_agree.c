/* The in-process back end held against llvm-mca's simulation (make
 * bench-agree): for a sample of a file's innermost loops that call
 * nothing, the bounds of sched/throughput.c (cycles an iteration) beside
 * llvm-mca's simulation of the same instructions, run in process through
 * the same library: its Total Cycles at 100 iterations / 100 (what
 * `llvm-mca -iterations=100` prints of the loop's text), and its steady
 * state ((cycles at 200) - (cycles at 100)) / 100.
 *
 *   sched_agree MCPU SAMPLES FILE...
 * SAMPLES loops of each FILE (a fixed seed: the same loops every run).
 * One line per loop: file, address, instructions, the bounds, the
 * model's cycles, mca@100, mca steady, and model / mca steady; then, per
 * file and over all, the share within 10% of each reference. */
#include "base/base.h"
#include "elf/elf.h"
#include "model/profile.h"
#include "model/rules.h"
#include "model/scan.h"
#include "sched/sched.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The loop's pieces as the back end reads them: its instructions, in
 * address order. */
static size_t loop_insns(struct sched_cpu *cpu, const struct elf_image *img,
			 const struct scan_result *r, const struct loop_report *l,
			 struct sched_insn *out, size_t max, struct sched_piece *pc)
{
	size_t n = 0;

	for (uint32_t i = 0; i < l->npiece; i++) {
		const struct loop_piece *p = &r->piece[l->piece + i];
		const uint8_t *b = elf_vaddr_bytes(img, p->start, p->end - p->start);

		if (!b)
			return 0;
		pc[i] = (struct sched_piece){ b, p->end - p->start, p->start };
		n += sched_describe(cpu, b, p->end - p->start, p->start, out + n, max - n);
	}
	return n;
}

struct tally {
	size_t done, near100, nears, picked;
};

/* SAMPLES loops of one file, printed; their agreement added to *t. */
static int sample_file(const char *path, const char *mcpu, size_t want, struct tally *t)
{
	static struct sched_insn insn[4096];
	struct sched_piece piece[64];
	struct elf_image img;
	struct scan_result r = { 0 };
	struct err e = { "" };
	const struct profile *prof;
	struct sched_cpu *cpu;
	uint64_t seed = 1;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (elf_open_file(&img, path, &e)) {
		fprintf(stderr, "%s: %s\n", path, e.msg);
		return -1;
	}
	prof = profile_named(img.arch == ARCH_AARCH64 ? "generic-arm64" : "generic-x86");
	struct scan_opts o = { .profiles = &prof, .nprofiles = 1, .jobs = 1, .keep_all = true };
	if (scan_image(&img, &o, &r, &e) || !(cpu = sched_cpu_open(mcpu, img.arch, &e))) {
		fprintf(stderr, "%s: %s\n", path, e.msg);
		return -1;
	}
	size_t *pick = xcalloc(r.nloop + 1, sizeof *pick), npick = 0;

	for (size_t i = 0; i < r.nloop; i++)
		if (r.loop[i].innermost && !r.loop[i].has_call && r.loop[i].npiece <= 64 &&
		    r.loop[i].ninsn <= 256)
			pick[npick++] = i;
	for (size_t i = npick; i > 1; i--) {     /* a shuffle, then the first `want` */
		size_t j = next(&seed) % i, x = pick[i - 1];

		pick[i - 1] = pick[j];
		pick[j] = x;
	}
	t->picked += npick;
	for (size_t k = 0, done = 0; k < npick && done < want; k++) {
		const struct loop_report *l = &r.loop[pick[k]];
		struct sched_bounds b;
		size_t n = loop_insns(cpu, &img, &r, l, insn, 4096, piece);

		if (!n || sched_loop_bounds(cpu, insn, n, -1, &b, &e))
			continue;
		unsigned long c100 = sched_simulate(cpu, piece, l->npiece, 100);
		unsigned long c200 = sched_simulate(cpu, piece, l->npiece, 200);

		if (!c100 || !c200)
			continue;
		double m100 = c100 / 100.0, steady = (double)(c200 - c100) / 100.0;

		done++;
		t->done++;
		t->near100 += fabs(b.cycles / m100 - 1) <= 0.10;
		t->nears += fabs(b.cycles / steady - 1) <= 0.10;
		printf("%-14.14s %#-18" PRIx64 " %5zu %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %6.3f  %s\n",
		       base, l->start, n, b.ports, b.dispatch, b.retire, b.queues, b.chain, b.cycles,
		       m100, steady, b.cycles / steady, b.port[0] ? b.port : "-");
	}
	sched_cpu_close(cpu);
	free(pick);
	scan_result_free(&r);
	elf_close(&img);
	return 0;
}

static void summary(const char *what, const char *mcpu, const struct tally *t)
{
	size_t d = t->done ? t->done : 1;

	printf("%s under %s: %zu loops; model within 10%% of llvm-mca -iterations=100 %zu (%.1f%%), "
	       "of its steady state %zu (%.1f%%)\n", what, mcpu, t->done, t->near100,
	       100.0 * t->near100 / d, t->nears, 100.0 * t->nears / d);
}

int main(int argc, char **argv)
{
	struct tally all = { 0 };

	if (argc < 4) {
		fprintf(stderr, "usage: sched_agree MCPU SAMPLES FILE...\n");
		return 2;
	}
	printf("%-14s %-18s %5s %7s %7s %7s %7s %7s %7s %7s %7s %6s  %s\n", "file", "loop", "insn",
	       "ports", "disp", "retire", "queues", "chain", "model", "mca100", "steady", "ratio", "port");
	for (int i = 3; i < argc; i++) {
		struct tally t = { 0 };

		if (sample_file(argv[i], argv[1], strtoul(argv[2], NULL, 10), &t))
			return 2;
		summary(argv[i], argv[1], &t);
		all.done += t.done, all.near100 += t.near100, all.nears += t.nears;
	}
	summary("all", argv[1], &all);
	return 0;
}
