/* One loop's back end under one profile: the cycles an iteration needs to
 * execute, which decide whether a straddle costs (cost.c). Three sources,
 * named in every result (back_end_source):
 *   in process  LLVM's scheduling model of the profile's CPU read by
 *               sched/ (llvm-model): the loop's bounds, computed from the
 *               model's own tables, no process and no assembly text; the
 *               default. With exact (--exact-cost) llvm-mca's own
 *               simulation of the same instructions, in process (llvm-mca).
 *   a program   llvm-mca fed the loop's text (mca.c): the reference the
 *               in-process model is held against (--llvm-mca PROGRAM).
 *   the profile its measured issue width and store rate alone (none).
 * A loop the model cannot price (it calls, holds a string instruction or
 * one the model lacks) gets the model's dispatch width: a bound, said to
 * be one (llvm-mca-width, "<=" in text, at_most in JSON). */
#include "profile.h"
#include "cost.h"
#include "../sched/sched.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static double larger(double a, double b)
{
	return a > b ? a : b;
}

/* The scheduling model of each profile's CPUs, best first: the first LLVM
 * knows is used (README: the table of profiles and models). LLVM 14 knows
 * neither znver4 nor znver5; its alderlake is Skylake's model, LLVM 16's
 * Golden Cove's own (ADLP). */
static const struct {
	const char *profile;
	const char *mcpu[3];
} models[] = {
	{ "generic-x86", { "x86-64" } },
	{ "haswell", { "haswell" } },
	{ "skylake", { "skylake" } },
	{ "icelake", { "icelake-client" } },
	{ "goldencove", { "alderlake", "sapphirerapids" } },
	{ "zen1", { "znver1" } },
	{ "zen2", { "znver2" } },
	{ "zen3", { "znver3" } },
	{ "zen4", { "znver4", "znver3" } },
	{ "zen5", { "znver5", "znver4", "znver3" } },
	{ "generic-arm64", { "cortex-a57" } },
	{ "hip08", { "tsv110" } },
	{ "neoverse-n1", { "neoverse-n1" } },
	{ "neoverse-v1", { "neoverse-v1" } },
	{ "neoverse-n2", { "neoverse-n2" } },
};

const char *const *profile_models(const struct profile *p)
{
	const char *name = p->base ? p->base : p->name;

	for (size_t i = 0; i < sizeof models / sizeof *models; i++)
		if (strcmp(name, models[i].profile) == 0)
			return models[i].mcpu;
	return NULL;
}

/* The models opened so far, for the life of the process: opening one
 * costs a few milliseconds, and a scan of many files prices each. The
 * lock is held while one is used (LLVM's objects are one thread's). */
#define MAX_CPUS 32

static struct {
	pthread_mutex_t lock;
	struct {
		const char *mcpu;
		enum arch arch;
		struct sched_cpu *cpu;  /* NULL: LLVM refused it */
	} open[MAX_CPUS];
	size_t n;
	bool warned;
} cpus = { .lock = PTHREAD_MUTEX_INITIALIZER };

void model_lock(void)
{
	pthread_mutex_lock(&cpus.lock);
}

void model_unlock(void)
{
	pthread_mutex_unlock(&cpus.lock);
}

static struct sched_cpu *open_cpu(const char *mcpu, enum arch arch)
{
	struct err e = { "" };

	for (size_t i = 0; i < cpus.n; i++)
		if (cpus.open[i].arch == arch && strcmp(cpus.open[i].mcpu, mcpu) == 0)
			return cpus.open[i].cpu;
	if (cpus.n == MAX_CPUS)
		return NULL;
	cpus.open[cpus.n].mcpu = mcpu;
	cpus.open[cpus.n].arch = arch;
	return cpus.open[cpus.n++].cpu = sched_cpu_open(mcpu, arch, &e);
}

struct sched_cpu *model_cpu(const struct profile *p, const char **mcpu)
{
	const char *const *m = profile_models(p);

	*mcpu = NULL;
	if (!m || sched_unavailable())
		return NULL;
	for (int k = 0; k < 3 && m[k]; k++) {
		struct sched_cpu *c = open_cpu(m[k], p->arch);

		if (c) {
			*mcpu = m[k];
			return c;
		}
	}
	return NULL;
}

const char *model_unavailable(void)
{
	return sched_unavailable();
}

/* Above this many instructions a loop's back end is its dispatch width's
 * bound: none of libc's or libLLVM-14's innermost loops is so long. */
#define MODEL_MAX_INSN 4096

/* The instructions of the loop's pieces p[0..np), in a buffer of the
 * thread's that grows (a scan describes tens of thousands of loops), and
 * how many. */
static size_t describe_loop(struct sched_cpu *cpu, const struct sched_piece *p, size_t np,
			    struct sched_insn **out)
{
	static __thread struct sched_insn *buf;
	static __thread size_t cap;
	size_t n = 0, want = 0;

	for (size_t i = 0; i < np; i++)
		want += p[i].n;         /* an instruction is a byte at least */
	if (want > MODEL_MAX_INSN)
		want = MODEL_MAX_INSN;
	GROW(buf, cap, want + 1);
	for (size_t i = 0; i < np && n < want; i++)
		n += sched_describe(cpu, p[i].code, p[i].n, p[i].addr, buf + n, want - n);
	*out = buf;
	return n;
}

/* Cycles from a store's data to a load of the same address under p: the
 * profile's measured figure, else the model's load-to-use latency (a
 * forward with no renaming). */
static double store_load_of(const struct profile *p, struct sched_cpu *cpu)
{
	return p->store_load_measured ? p->store_load_cycles : sched_cpu_info(cpu)->load_latency;
}

/* llvm-mca's simulation in process, its steady state: the cycles of 200
 * iterations less those of 100, over 100 (the pipeline's filling and
 * draining cancel). */
static bool simulate(struct sched_cpu *cpu, const struct sched_piece *p, size_t np,
		     struct modelled_loop *m)
{
	unsigned long c100 = sched_simulate(cpu, p, np, 100), c200;

	if (!c100 || !(c200 = sched_simulate(cpu, p, np, 200)) || c200 <= c100)
		return false;
	m->cycles = (double)(c200 - c100) / 100;
	return true;
}

int model_loop(const struct profile *p, struct sched_cpu *cpu, const struct sched_piece *pc,
	       size_t np, bool exact, struct modelled_loop *m, struct err *e)
{
	struct sched_insn *insn;
	size_t n = describe_loop(cpu, pc, np, &insn);
	struct sched_bounds b;

	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < n; i++)
		m->nstore += (insn[i].flags & SCHED_STORE) != 0;
	if (!n)
		return err_set(e, "no instruction");
	if (sched_loop_bounds(cpu, insn, n, store_load_of(p, cpu), &b, e) == 0) {
		m->throughput = larger(larger(b.ports, b.dispatch), larger(b.retire, b.queues));
		m->chain = b.chain;
		m->memory = b.memory_chain > 0 && b.memory_chain >= b.chain;
		m->cycles = b.cycles;
		m->source = COST_SOURCE_MODEL;
		for (size_t i = 0; i < n; i++)
			m->divides |= (insn[i].flags & SCHED_DIVIDE) != 0;
		m->ok = true;
		if (exact && simulate(cpu, pc, np, m))
			m->source = COST_SOURCE_MCA;
		return 0;
	}
	return -1;
}

double model_dispatch_cycles(uint32_t ninsn, uint32_t ncond, unsigned width)
{
	return width ? (double)(ninsn - (ninsn > ncond ? ncond : 0)) / width : 0;
}

unsigned model_dispatch_width(struct sched_cpu *cpu)
{
	return cpu ? sched_cpu_info(cpu)->dispatch_width : 0;
}

const char *model_version(void)
{
	return sched_llvm_version();
}

/* A region of llvm-mca the program as a modelled loop. */
void modelled_from_mca(const struct mca_region *r, bool divides, struct modelled_loop *m)
{
	*m = (struct modelled_loop){ .cycles = r->cycles, .throughput = r->throughput,
				     .ok = r->ok, .divides = divides, .source = COST_SOURCE_MCA };
}

/* llvm-mca's cycles well above what the ports alone need mean a chain of
 * dependent instructions decides (the 3-cycle imul chain: 3.03 against a
 * throughput of 1.0 on znver3, LLVM 14). The in-process model knows its
 * chain's cycles and needs no such margin. */
#define LATENCY_OVER_THROUGHPUT 1.5

bool modelled_latency_bound(const struct modelled_loop *m)
{
	if (m->source == COST_SOURCE_MODEL)
		return m->chain > 0 && m->chain >= m->cycles && m->chain > m->throughput;
	return m->cycles > 0 && m->cycles >= LATENCY_OVER_THROUGHPUT * m->throughput;
}

/* The profile's bound and the model's loop (NULL: not modelled). A
 * profile whose issue width was measured (calibrate) is believed over
 * LLVM's model for what it measured, the rate instructions and stores go
 * through: LLVM 19's znver5 (its Zen 4 model) dispatches 6 a cycle and
 * puts 3 stores above 2 cycles, where Zen 5 paid for a line with 19 nops
 * and with 3 stores (tests/fixtures/x86/backend.S). The model still adds
 * what no rate shows: a dependency chain, a divide. */
void back_end_combine(const struct profile *p, uint32_t ninsn, const struct modelled_loop *m,
		      struct back_end *b)
{
	bool modelled = m && m->ok;
	double kept = modelled ? m->cycles : 0;

	b->issue = p->issue_width ? (double)ninsn / p->issue_width : 0;
	b->store = p->stores_per_cycle && b->nstore > 0 ? (double)b->nstore / p->stores_per_cycle : 0;
	b->mca_cycles = kept;
	b->mca_throughput = modelled ? m->throughput : 0;
	b->divides |= modelled && m->divides;
	if (modelled && p->issue_width && !b->divides) {
		/* the measured rates stand for the model's ports and widths;
		 * its chain stays (llvm-mca's cycles: when a chain decides) */
		kept = m->source == COST_SOURCE_MODEL ? m->chain :
		       modelled_latency_bound(m) ? m->cycles : 0;
		modelled = kept > 0;
	}
	b->cycles = larger(larger(kept, b->dispatch), larger(b->issue, b->store));
	b->latency = modelled && (m->source == COST_SOURCE_MODEL ?
				  m->chain > 0 && m->chain >= b->cycles - 1e-9 : modelled_latency_bound(m));
	b->memory = b->latency && m->memory;
	b->source = modelled ? m->source : b->dispatch ? COST_SOURCE_MCA_WIDTH :
		    p->issue_width ? COST_SOURCE_PROFILE : COST_SOURCE_NONE;
}

int32_t count_stores(struct decoder *d, const uint8_t *code, size_t n, uint64_t addr)
{
	struct insn *insn = xcalloc(n + 1, sizeof *insn);
	size_t used;

	decode_run(d, code, n, addr, insn, n + 1, &used);
	int32_t stores = (int32_t)decode_count_stores(d, insn, code, n);

	free(insn);
	return stores;
}

/* In process: LLVM's model of p's CPU, or its dispatch width alone where
 * the loop calls or the model cannot price it. */
static void loop_in_process(const struct profile *p, const uint8_t *code, size_t n, uint64_t addr,
			    bool calls, uint32_t ninsn, uint32_t ncond, struct back_end *out)
{
	const char *mcpu;
	struct modelled_loop m = { 0 };
	struct sched_piece one = { code, n, addr };
	struct err ignored;

	model_lock();
	struct sched_cpu *cpu = model_cpu(p, &mcpu);

	if (cpu && !calls)
		model_loop(p, cpu, &one, 1, false, &m, &ignored);
	out->dispatch = cpu && !p->issue_width ?
			model_dispatch_cycles(ninsn, ncond, model_dispatch_width(cpu)) : 0;
	model_unlock();
	back_end_combine(p, ninsn, &m, out);
}

int loop_back_end(const char *llvm_mca, const struct profile *p, struct decoder *d,
		  const uint8_t *code, size_t n, uint64_t addr, struct back_end *out, struct err *e)
{
	uint32_t ncond = 0, ninsn = 0;
	bool calls = false;

	memset(out, 0, sizeof *out);
	for (size_t off = 0; off < n;) {        /* the branches that may fuse */
		struct insn insn;

		decode_one(d, code + off, n - off, addr + off, &insn);
		if (insn.kind == BR_INVALID || insn.undecoded)
			return err_set(e, "the loop at %#llx does not decode", (unsigned long long)addr);
		ncond += insn.kind == BR_COND;
		calls |= insn.kind == BR_CALL || insn.kind == BR_CALL_IND;
		ninsn++;
		off += insn.len;
	}
	out->nstore = count_stores(d, code, n, addr);
	if (!llvm_mca || strcmp(llvm_mca, MODEL_IN_PROCESS) == 0) {
		loop_in_process(p, code, n, addr, calls, ninsn, ncond, out);
		return 0;
	}
	return mca_loop_back_end(llvm_mca, p, d, code, n, addr, calls, ncond, out, e);
}
