/* llvm-mca as the cost model's back end: LLVM's scheduling models, kept by
 * the people who write the compilers' schedulers, give the cycles an
 * iteration needs to execute (dependency chains through registers, divides,
 * ports), which a hand table would only guess. One process a scan: every loop
 * is a code region of one input (llvm-mca's "# LLVM-MCA-BEGIN name" markers),
 * so its start-up (~20 ms) is paid once, not once a loop. */
#include "profile.h"
#include "rules.h"
#include "cost.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* A memory file holding `len` bytes of s (NULL: empty), at offset 0. */
static int memory_file(const char *name, const char *s, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	for (size_t off = 0; off < len;) {
		ssize_t k = write(fd, s + off, len - off);

		if (k <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)k;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* The file's bytes, NUL-terminated, in malloc's memory, which the caller
 * frees: not a strbuf's, which is big_realloc's from a capacity of 4 MiB
 * (free() on it aborted the scan of libLLVM-14 under goldencove, whose
 * 10,567 regions llvm-mca reports in 2.2 MB). */
static char *read_all(int fd)
{
	size_t len = 0, cap = 1 << 16;
	char *s = xmalloc(cap);
	ssize_t k;

	lseek(fd, 0, SEEK_SET);
	while ((k = read(fd, s + len, cap - len - 1)) > 0)
		if ((len += (size_t)k) + 1 == cap)
			s = xrealloc(s, cap *= 2);
	s[len] = 0;
	return s;
}

/* Run argv with `in` on standard input; its standard output and error in
 * *out and *err (malloc'd). The exit status, or -1 when it could not run. */
static int run_program(char *const argv[], const char *in, size_t inlen, char **out, char **err)
{
	int fin = memory_file("mca-in", in, inlen), fout = memory_file("mca-out", NULL, 0),
	    ferr = memory_file("mca-err", NULL, 0), status = -1;
	struct spawn child = { .argv = argv, .in = fin, .in_start = 0, .out = fout, .err = ferr };
	struct err e;

	*out = *err = NULL;
	if (fin >= 0 && fout >= 0 && ferr >= 0)
		status = spawn_run(&child, &e);
	if (status >= 0)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	*out = fout >= 0 ? read_all(fout) : xstrdup("");
	*err = ferr >= 0 ? read_all(ferr) : xstrdup("");
	if (fin >= 0)
		close(fin);
	if (fout >= 0)
		close(fout);
	if (ferr >= 0)
		close(ferr);
	return status == 127 ? -1 : status;
}

/* The llvm-mca `name` names, in path: found in PATH, or a path that can
 * be run. */
static bool executable_on_path(const char *name, char *path, size_t cap)
{
	const char *found = spawn_find(name, path, cap);

	if (found && found != path)
		snprintf(path, cap, "%s", found);
	return found && access(path, X_OK) == 0;
}

/* The newest llvm-mca Debian installs first: later LLVM releases carry the
 * newer CPUs' models (znver4 from 16, znver5 and Golden Cove's SPR from 19). */
static const char *const mca_names[] = { "llvm-mca-19", "llvm-mca-18", "llvm-mca-17",
	"llvm-mca-16", "llvm-mca-15", "llvm-mca-14", "llvm-mca" };

/* What one run over a single nop said of a model (model_of). */
struct model_answer {
	char mcpu[32];
	enum arch arch;
	bool known;             /* it ran, and without "not a recognized processor" */
	unsigned width;         /* "Dispatch Width: 6", 0 unknown */
};

#define MAX_MODELS 32

/* The probe's answers, asked once a process. */
static struct {
	char want[256];
	bool done, found;
	char path[256], version[32];
	struct model_answer model[MAX_MODELS];
	size_t nmodel;
} probe;

static const char *triple_of(enum arch a)
{
	return a == ARCH_AARCH64 ? "aarch64-unknown-linux-gnu" : "x86_64-unknown-linux-gnu";
}

static void probe_program(const char *want)
{
	char *out, *err;

	if (probe.done && strcmp(probe.want, want ? want : "") == 0)
		return;
	memset(&probe, 0, sizeof probe);
	probe.done = true;
	snprintf(probe.want, sizeof probe.want, "%s", want ? want : "");
	if (want && strcmp(want, "none") == 0)
		return;
	for (size_t i = 0; !probe.found && i < sizeof mca_names / sizeof *mca_names; i++)
		probe.found = executable_on_path(want ? want : mca_names[i], probe.path,
						 sizeof probe.path) && (!want || i == 0);
	if (!probe.found)
		return;
	char *version[] = { probe.path, "--version", NULL };
	if (run_program(version, NULL, 0, &out, &err) == 0 && strstr(out, "LLVM version "))
		sscanf(strstr(out, "LLVM version ") + 13, "%31s", probe.version);
	free(out);
	free(err);
	probe.found = probe.version[0] != 0;
}

/* Does the llvm-mca know mcpu, and what is its model's dispatch width?
 * One run over a single nop answers both, asked once a model a process:
 * an -mcpu it does not know is "not a recognized processor" on standard
 * error (LLVM 19 goes on with the generic model, 14 fails). -mcpu=help's
 * list said the same of every model below (LLVM 14, 16 and 19) at the
 * cost of one more run, some 14 ms of loading LLVM (make bench-scan). */
static const struct model_answer *model_of(const char *mcpu, enum arch arch)
{
	char triple[64], cpuarg[64], *so, *se;
	char *argv[] = { probe.path, triple, cpuarg, "-iterations=1", "-", NULL };
	struct model_answer *m;
	const char *d;

	for (size_t i = 0; i < probe.nmodel; i++)
		if (probe.model[i].arch == arch && strcmp(probe.model[i].mcpu, mcpu) == 0)
			return &probe.model[i];
	m = &probe.model[probe.nmodel < MAX_MODELS ? probe.nmodel++ : MAX_MODELS - 1];
	*m = (struct model_answer){ .arch = arch };
	snprintf(m->mcpu, sizeof m->mcpu, "%s", mcpu);
	snprintf(triple, sizeof triple, "-mtriple=%s", triple_of(arch));
	snprintf(cpuarg, sizeof cpuarg, "-mcpu=%s", mcpu);
	m->known = run_program(argv, "nop\n", 4, &so, &se) == 0 &&
		   !strstr(se, "is not a recognized processor");
	if (m->known && (d = strstr(so, "Dispatch Width:")))
		m->width = (unsigned)strtoul(d + 15, NULL, 10);
	free(so);
	free(se);
	return m;
}

const char *mca_cpu(const char *want, const struct profile *p)
{
	const char *const *m = profile_models(p);

	probe_program(want);
	if (!probe.found || !m)
		return NULL;
	for (int k = 0; k < 3 && m[k]; k++)
		if (model_of(m[k], p->arch)->known)
			return m[k];
	return NULL;
}

unsigned mca_dispatch_width(const char *want, const char *mcpu, enum arch arch)
{
	probe_program(want);
	return probe.found ? model_of(mcpu, arch)->width : 0;
}

const char *mca_version(const char *want)
{
	probe_program(want);
	return probe.found ? probe.version : NULL;
}

/* Each region is its loop's body run MCA_ITERATIONS times, a body of
 * fewer than MCA_SMALL instructions repeated to MCA_REGION_INSN first:
 * 258 instructions or more of a small loop through the model, past its
 * pipeline's filling (the fixtures' cycles within 2.5% of 100
 * iterations'), and a larger one 3 times: libLLVM-14's simulated loops
 * are 60 instructions at the median, and make bench-scan's goal is 1.5x
 * the scan without llvm-mca. */
#define MCA_ITERATIONS 3
#define MCA_REGION_INSN 86
#define MCA_SMALL 32

static uint32_t unroll_of(const struct mca_loop *l)
{
	return l->ninsn >= MCA_SMALL ? 1 : (MCA_REGION_INSN + l->ninsn - 1) / l->ninsn;
}

/* The steady state (mca_steady) wants the cycles of one iteration, the
 * body `unroll` times, run alone: a second llvm-mca run over the loops
 * whose price turns on it. Where unroll is a multiple of MCA_ITERATIONS, a
 * region nested in the loop's over its first unroll / MCA_ITERATIONS
 * copies ("S<k>") runs that very stream in the first run: llvm-mca adds an
 * instruction to every region holding it, so the text is read once, and
 * it simulates a region's text `iterations` times over, the same
 * instructions in the same order as the one-iteration run (every Total
 * Cycles of libLLVM-14's regions under icelake the same both ways). The
 * loop then needs no second run; the cost is simulating a third of its
 * instructions once more. The number of copies in S<k>, 0 none. */
static uint32_t prefix_of(const struct mca_input *in, const struct mca_loop *l)
{
	uint32_t unroll = unroll_of(l);

	return !in->iterations && unroll > 1 && unroll % MCA_ITERATIONS == 0 ?
	       unroll / MCA_ITERATIONS : 0;
}

/* "[N] Code Region - L<k>" (or S<k>) then its summary: iterations, total
 * cycles and the block's reciprocal throughput (resources alone, no
 * dependencies). */
static void parse_regions(const char *out, const struct mca_input *in, struct mca_region *r)
{
	size_t n = in->nloop;

	for (const char *p = out; (p = strstr(p, "Code Region - ")) != NULL;) {
		char *end, kind = p[14];
		unsigned long k = strtoul(p + 15, &end, 10);
		const char *next = strstr(end, "Code Region - "), *it = strstr(end, "Iterations:"),
			   *tc = strstr(end, "Total Cycles:"), *tp = strstr(end, "Block RThroughput:");
		double iters;

		p = end;
		if ((kind != 'L' && kind != 'S') || k >= n || !it || !tc || !tp || (next && tp > next))
			continue;
		iters = strtod(it + 11, NULL);
		if (iters <= 0)
			continue;
		if (kind == 'S') {      /* one iteration's stream: as mca_steady's run divides it */
			r[k].one_iteration = strtod(tc + 13, NULL) / 1.0 / unroll_of(&in->loop[k]);
			continue;
		}
		r[k].cycles = strtod(tc + 13, NULL) / iters / unroll_of(&in->loop[k]);
		r[k].throughput = strtod(tp + 18, NULL) / unroll_of(&in->loop[k]);
		r[k].ok = true;
	}
}

/* The regions whose lines llvm-mc could not read (<stdin>:LINE:COL:
 * error): it analyses a region without them, so their figures are not the
 * loop's, or it gives up (x87's "fstp st2" in Zydis's Intel syntax, which
 * LLVM spells st(2)); they are dropped. True when one was. */
static bool drop_unreadable(const char *err, const size_t *line_region, size_t nlines,
			    bool *dropped)
{
	bool any = false;

	for (const char *p = err; (p = strstr(p, "<stdin>:")) != NULL; p += 8) {
		unsigned long line = strtoul(p + 8, NULL, 10);

		if (line >= 1 && line <= nlines && line_region[line - 1] != SIZE_MAX &&
		    !dropped[line_region[line - 1]])
			dropped[line_region[line - 1]] = any = true;
	}
	return any;
}

/* The text, one region per loop of [lo, hi) not yet dropped;
 * line_region[i] is the loop of line i+1 (SIZE_MAX for a marker). */
static size_t assemble(const struct mca_input *in, size_t lo, size_t hi, const bool *dropped,
		       struct strbuf *text, size_t **line_region, size_t *cap)
{
	size_t lines = 0;

	sb_reset(text);
	GROW(*line_region, *cap, 1);
	if (in->arch == ARCH_X86_64) {
		sb_addf(text, ".intel_syntax noprefix\n");
		(*line_region)[lines++] = SIZE_MAX;
	}
	for (size_t k = lo; k < hi; k++) {
		if (dropped[k])
			continue;
		uint32_t unroll = unroll_of(&in->loop[k]);

		uint32_t prefix = prefix_of(in, &in->loop[k]);

		GROW(*line_region, *cap, lines + unroll * in->loop[k].ninsn + 4);
		sb_addf(text, "# LLVM-MCA-BEGIN L%zu\n", k);
		(*line_region)[lines++] = SIZE_MAX;
		for (uint32_t u = 0; u < unroll; u++) {
			if (prefix && u == 0) {
				sb_addf(text, "# LLVM-MCA-BEGIN S%zu\n", k);
				(*line_region)[lines++] = SIZE_MAX;
			}
			sb_addf(text, "%.*s", (int)(in->loop[k].text_end - in->loop[k].text),
				in->text.s + in->loop[k].text);
			for (uint32_t i = 0; i < in->loop[k].ninsn; i++)
				(*line_region)[lines++] = k;
			if (prefix && u + 1 == prefix) {
				sb_addf(text, "# LLVM-MCA-END S%zu\n", k);
				(*line_region)[lines++] = SIZE_MAX;
			}
		}
		sb_addf(text, "# LLVM-MCA-END L%zu\n", k);
		(*line_region)[lines++] = SIZE_MAX;
	}
	return lines;
}

/* Does the region k of in have a line starting with the word w, or (key
 * w NULL) holding the operands ops? */
static bool region_has(const struct mca_input *in, size_t k, const char *w, const char *ops,
		       size_t nops)
{
	const char *t = in->text.s + in->loop[k].text, *e = in->text.s + in->loop[k].text_end;
	size_t n = w ? strlen(w) : 0;

	for (const char *l = t; l < e; l = strchr(l, '\n') + 1) {
		const char *sp = strchr(l, ' '), *nl = strchr(l, '\n');

		if (w && strncmp(l, w, n) == 0 && (l[n] == ' ' || l[n] == '\n'))
			return true;
		if (!w && sp && sp < nl && (size_t)(nl - sp - 1) >= nops && memcmp(sp + 1, ops, nops) == 0)
			return true;
	}
	return false;
}

/* llvm-mca stops at the first instruction its model has no data for
 * ("note: instruction: \tvpternlogd\tzmm0, ..."): the loops holding that
 * mnemonic are dropped and it runs again; where LLVM names it otherwise
 * (its vpcmpneqb is Zydis's vpcmpb with a predicate), those whose line
 * has its operands. */
static bool drop_unsupported(const struct mca_input *in, const char *err, bool *dropped)
{
	const char *note = strstr(err, "note: instruction:");
	char mnemonic[32];
	const char *ops;
	size_t nops;
	bool any = false;

	if (!note || sscanf(note + 18, " %31s", mnemonic) != 1)
		return false;
	ops = strstr(note + 18, mnemonic) + strlen(mnemonic);
	ops += strspn(ops, " \t");
	nops = strcspn(ops, "\n");
	for (size_t k = 0; k < in->nloop; k++)
		if (!dropped[k] && region_has(in, k, mnemonic, NULL, 0))
			dropped[k] = any = true;
	for (size_t k = 0; !any && nops && k < in->nloop; k++)
		if (!dropped[k] && region_has(in, k, NULL, ops, nops))
			dropped[k] = any = true;
	return any;
}

#define MCA_RETRIES 16

/* llvm-mca files each instruction it reads under every region holding it
 * by asking each region in turn, so its time grows with regions x lines:
 * libLLVM-14's 10,567 regions under goldencove took 30 s in one run, and
 * its 485 under icelake copied 20 times took 18.5 s of CPU where 10 runs
 * of 970 took 5.0, 20 times one run of 485 (LLVM 19). Below 1,000 the
 * share is lost in the noise (762 regions: 0.34 s of CPU in one run, 0.36
 * in three, each start ~14 ms of loading LLVM), so runs are of at most
 * MCA_BATCH regions; each region is simulated alone in any case, and its
 * figures do not depend on the batch it is in. */
#define MCA_BATCH 1000

/* The end of the batch of loops from lo: MCA_BATCH regions, or the share
 * of `left` regions that makes the batches even. */
static size_t batch_end(const struct mca_input *in, size_t lo, size_t left)
{
	size_t nbatch = (left + MCA_BATCH - 1) / MCA_BATCH, want = nbatch ? (left + nbatch - 1) / nbatch : 0;
	size_t hi = lo, regions = 0;

	while (hi < in->nloop && (regions < want || hi == lo))
		regions += 1 + (prefix_of(in, &in->loop[hi++]) > 0);
	return hi;
}

/* One llvm-mca run (and its retries) over the loops [lo, hi) of in. */
static int run_batch(const char *mcpu, enum arch arch, const struct mca_input *in, size_t lo,
		     size_t hi, bool *dropped, struct mca_region *out, struct err *e)
{
	struct strbuf text = { 0 };
	size_t *line_region = NULL, cap = 0;
	int rc = -1;

	for (int attempt = 0; attempt < MCA_RETRIES && rc; attempt++) {
		char triple[64], cpu[64], iters[32], *so, *se;
		char *argv[] = { probe.path, triple, cpu, iters, "-instruction-info=false",
				 "-resource-pressure=false", "-", NULL };
		size_t lines = assemble(in, lo, hi, dropped, &text, &line_region, &cap);
		int status;

		snprintf(triple, sizeof triple, "-mtriple=%s", triple_of(arch));
		snprintf(cpu, sizeof cpu, "-mcpu=%s", mcpu);
		snprintf(iters, sizeof iters, "-iterations=%u",
			 in->iterations ? in->iterations : MCA_ITERATIONS);
		status = run_program(argv, text.s ? text.s : "", text.len, &so, &se);
		if (status == 0) {
			parse_regions(so, in, out);
			drop_unreadable(se, line_region, lines, dropped);
			rc = 0;
		} else if (status < 0 || (!drop_unreadable(se, line_region, lines, dropped) &&
					  !drop_unsupported(in, se, dropped))) {
			const char *why = se && strstr(se, "error: ") ? strstr(se, "error: ") + 7 : "";

			err_set(e, "%s -mcpu=%s failed: %.*s", probe.path, mcpu,
				(int)strcspn(why, "\n"), *why ? why : "no output");
			attempt = MCA_RETRIES;
		}
		free(so);
		free(se);
	}
	if (rc && !e->msg[0])
		err_set(e, "%s -mcpu=%s: still failing after %d runs", probe.path, mcpu, MCA_RETRIES);
	free(line_region);
	sb_free(&text);
	return rc;
}

int mca_run(const char *want, const char *mcpu, enum arch arch, const struct mca_input *in,
	    struct mca_region *out, struct err *e)
{
	bool *dropped = xcalloc(in->nloop + 1, sizeof *dropped);
	size_t regions = 0;
	int rc = -1;

	memset(out, 0, in->nloop * sizeof *out);
	probe_program(want);
	for (size_t k = 0; k < in->nloop; k++)
		regions += 1 + (prefix_of(in, &in->loop[k]) > 0);
	for (size_t lo = 0, hi; probe.found && (lo < in->nloop || lo == 0); lo = hi) {
		hi = batch_end(in, lo, regions);
		for (size_t k = lo; k < hi; k++)
			regions -= 1 + (prefix_of(in, &in->loop[k]) > 0);
		if ((rc = run_batch(mcpu, arch, in, lo, hi, dropped, out, e)) != 0 || hi >= in->nloop)
			break;
	}
	for (size_t k = 0; rc == 0 && k < in->nloop; k++)
		out[k].ok &= !dropped[k];
	if (!probe.found)
		err_set(e, "no llvm-mca");
	free(dropped);
	return rc;
}

/* Over MCA_ITERATIONS iterations the cycles hold the pipeline's filling
 * and draining, about 14 cycles on LLVM's Intel models: seed 000's 4
 * instruction loop came out at 1.21 cycles where 1000 iterations give
 * 1.00, which hid a straddle costing it 0.05 cycle (goldencove's
 * evidence). The same loops run once more for a single iteration, which
 * holds the same filling: the cycles of the iterations between are the
 * steady state (fe of the cost fixture: 1.745 this way, 1.747 from 12
 * iterations against 3, at a third of that run's cost: make bench-scan). */
#define MCA_STEADY_ITERATIONS 1

static void copy_loop(struct mca_input *to, const struct mca_input *from, size_t k)
{
	const struct mca_loop *l = &from->loop[k];
	size_t start = to->text.len;

	sb_addf(&to->text, "%.*s", (int)(l->text_end - l->text), from->text.s + l->text);
	GROW(to->loop, to->cap, to->nloop + 1);
	to->loop[to->nloop++] = (struct mca_loop){ start, to->text.len, l->ninsn };
}

/* r's cycles over MCA_ITERATIONS iterations and `shorter`'s over m
 * (each an iteration's): the iterations between, where positive and no
 * more than r's. */
static void steady_from(struct mca_region *r, double shorter, unsigned m_iterations)
{
	double n = MCA_ITERATIONS, m = m_iterations;
	double steady = (shorter * m - r->cycles * n) / (m - n);

	if (steady > 0 && steady <= r->cycles)
		r->cycles = steady;
}

void mca_steady(const char *want, const char *mcpu, const struct mca_input *in,
		const bool *select, struct mca_region *out)
{
	struct mca_input sub = { .arch = in->arch, .iterations = MCA_STEADY_ITERATIONS };
	size_t *index = xcalloc(in->nloop + 1, sizeof *index);
	struct mca_region *longer;
	struct err e = { "" };

	for (size_t k = 0; k < in->nloop; k++)
		if (select[k] && out[k].ok && out[k].one_iteration > 0)
			steady_from(&out[k], out[k].one_iteration, MCA_STEADY_ITERATIONS);
		else if (select[k] && out[k].ok)
			index[sub.nloop] = k, copy_loop(&sub, in, k);
	longer = xcalloc(sub.nloop + 1, sizeof *longer);
	if (sub.nloop && mca_run(want, mcpu, in->arch, &sub, longer, &e) == 0)
		for (size_t j = 0; j < sub.nloop; j++)
			if (longer[j].ok)
				steady_from(&out[index[j]], longer[j].cycles, sub.iterations);
	free(longer);
	free(index);
	sb_free(&sub.text);
	free(sub.loop);
}

/* ---- the loops' text ---- */

#define ASM_LINE 160

/* A string instruction (movs, stos, lods, scas, cmps, ins, outs, with or
 * without rep), as the decoder's Intel text prints it: bare, no operands.
 * llvm-mca gives `movsq` and `rep movsb` 100 cycles (znver3 and skylake,
 * LLVM 14 and 19; alderlake 7-8 in 19, 100 in 14): a microcoded sequence
 * its models do not hold, which made copy loops latency-bound. Such a
 * loop is left to the bound. */
static bool string_instruction(const char *line)
{
	static const char *const names[] = { "movs", "stos", "lods", "scas", "cmps", "ins", "outs" };

	if (strncmp(line, "rep", 3) == 0)
		return true;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t k = strlen(names[i]);

		if (strncmp(line, names[i], k) == 0 && strchr("bwdq", line[k]) && line[k] &&
		    line[k + 1] == 0)
			return true;
	}
	return false;
}

/* The instructions of code[0..n) at addr as lines of the region being
 * made, labels relative to base; false when one does not decode, or is
 * one llvm-mca does not model (string_instruction). */
static bool add_lines(struct mca_input *in, struct decoder *d, const uint8_t *code, size_t n,
		      uint64_t addr, uint64_t base, bool *divides, uint32_t *ninsn)
{
	char line[ASM_LINE];

	for (size_t off = 0; off < n;) {
		struct insn insn;
		bool div;

		decode_one(d, code + off, n - off, addr + off, &insn);
		if (insn.kind == BR_INVALID || insn.undecoded ||
		    !decode_asm_text(d, code + off, n - off, addr + off, base, line, sizeof line, &div) ||
		    string_instruction(line))
			return false;
		*divides |= div;
		sb_addf(&in->text, "%s\n", line);
		(*ninsn)++;
		off += insn.len;
	}
	return true;
}

bool mca_add_loop(struct mca_input *in, struct decoder *d, const uint8_t *fcode, uint64_t faddr,
		     const struct loop_piece *p, size_t np, bool *divides)
{
	size_t start = in->text.len;
	uint32_t ninsn = 0;

	*divides = false;
	for (size_t i = 0; i < np; i++)
		if (!add_lines(in, d, fcode + (p[i].start - faddr), p[i].end - p[i].start, p[i].start,
			       p[0].start, divides, &ninsn)) {
			in->text.len = start;
			if (in->text.s)
				in->text.s[start] = 0;
			return false;
		}
	GROW(in->loop, in->cap, in->nloop + 1);
	in->loop[in->nloop++] = (struct mca_loop){ start, in->text.len, ninsn };
	return true;
}

void mca_input_free(struct mca_input *in)
{
	sb_free(&in->text);
	free(in->loop);
	memset(in, 0, sizeof *in);
}


static double larger(double a, double b)
{
	return a > b ? a : b;
}

int mca_loop_back_end(const char *llvm_mca, const struct profile *p, struct decoder *d,
		      const uint8_t *code, size_t n, uint64_t addr, bool calls, uint32_t ncond,
		      struct back_end *out, struct err *e)
{
	struct mca_input in = { .arch = p->arch };
	struct mca_region r = { 0 };
	struct modelled_loop m;
	const char *cpu = mca_cpu(llvm_mca, p);
	struct loop_piece one = { addr, addr + n };
	struct err ignored;

	if (!mca_add_loop(&in, d, code, addr, &one, 1, &out->divides)) {
		mca_input_free(&in);
		return err_set(e, "the loop at %#llx does not decode", (unsigned long long)addr);
	}
	/* as the scan's (MCA_MAX_INSN): not a loop that calls, nor a long one */
	if (cpu && !calls && in.loop[0].ninsn <= MCA_MAX_INSN &&
	    mca_run(llvm_mca, cpu, p->arch, &in, &r, &ignored) == 0)
		mca_steady(llvm_mca, cpu, &in, (const bool[]){ true }, &r);
	out->dispatch = cpu && !p->issue_width ?
			(double)(in.loop[0].ninsn - ncond) / larger(1, mca_dispatch_width(llvm_mca, cpu, p->arch)) : 0;
	modelled_from_mca(&r, out->divides, &m);
	back_end_combine(p, in.loop[0].ninsn, &m, out);
	mca_input_free(&in);
	return 0;
}
