/* A loop's cycles an iteration in the steady state, from what LLVM's
 * scheduling model says of its instructions (llvm.cpp): the largest of
 * the bounds an out-of-order core cannot beat (after Facile: Abel and
 * Reineke, "Facile: Fast, Accurate, and Interpretable Basic-Block
 * Throughput Prediction", IISWC 2023), each computed as llvm-mca's
 * simulator would meet it:
 *   ports     the micro-ops' cycles on the execution resources, spread as
 *             well as they can be over the units that may take them
 *   dispatch  micro-ops dispatched in order, at most the model's width a
 *             cycle, an instruction's never split (llvm-mca's DispatchStage)
 *   retire    instructions retired a cycle, where the model limits it
 *   queues    the load and store queues and the reorder buffer, each entry
 *             held at least its instruction's latency (Little's law)
 *   chain     the longest dependency chain from one iteration to the next,
 *             through registers (latency less ReadAdvance) and through
 *             memory (a store to a loop-invariant address and a load of it)
 * doc/scan.md has the agreement with llvm-mca's simulation. */
#include "sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ports ---- */

/* The busiest set of units: over every union S of the unit sets the loop's
 * micro-ops may use, the cycles of those that must run within S over the
 * units of S. For one set this is llvm-mca's Block RThroughput; the
 * unions add what it misses where two sets share units (an ALU group and
 * one of its ports). */
#define MAX_SETS 24

struct unit_load {
	uint64_t units;
	double cycles;
};

/* The distinct unions of the sets' units, each scored; at most
 * MAX_UNIONS of them (a loop's micro-ops use a few sets, whose unions are
 * tens), else the sets alone. */
#define MAX_UNIONS 512

static double busiest(const struct unit_load *s, size_t n, uint64_t *which)
{
	uint64_t u[MAX_UNIONS];
	size_t nu = 0;
	double best = 0;

	for (size_t i = 0; i < n; i++)
		u[nu++] = s[i].units;
	for (size_t a = 0; a < nu; a++)
		for (size_t i = 0; i < n && nu < MAX_UNIONS; i++) {
			uint64_t v = u[a] | s[i].units;
			size_t k = 0;

			while (k < nu && u[k] != v)
				k++;
			if (k == nu)
				u[nu++] = v;
		}
	*which = 0;
	for (size_t a = 0; a < nu; a++) {
		double cycles = 0;

		for (size_t i = 0; i < n; i++)
			if ((s[i].units & ~u[a]) == 0)
				cycles += s[i].cycles;
		if (cycles / __builtin_popcountll(u[a]) > best + 1e-9) {
			best = cycles / __builtin_popcountll(u[a]);
			*which = u[a];
		}
	}
	return best;
}

static double ports_bound(const struct sched_cpu_info *info, const struct sched_insn *insn,
			  size_t n, char port[32])
{
	struct unit_load set[MAX_SETS];
	size_t nset = 0;
	double plain = 0;

	port[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (insn[i].flags & SCHED_MOVE_ELIMINATED)
			continue;
		for (size_t r = 0; r < insn[i].nres; r++) {
			unsigned k = insn[i].res[r].index;
			uint64_t u = info->resource[k].unit_mask;
			size_t j = 0;

			while (j < nset && set[j].units != u)
				j++;
			if (!u) {       /* a model of more than 64 units: its own units */
				plain = fmax(plain, insn[i].res[r].cycles / fmax(1, info->resource[k].units));
				continue;
			}
			if (j == nset && nset == MAX_SETS) {
				/* too many to combine: each set alone (llvm-mca's figure) */
				plain = fmax(plain, insn[i].res[r].cycles);
				continue;
			}
			if (j == nset)
				set[nset++] = (struct unit_load){ u, 0 };
			set[j].cycles += insn[i].res[r].cycles;
		}
	}
	uint64_t which;
	double best = busiest(set, nset, &which);

	for (unsigned k = 0; which && k < info->nresource; k++)
		if (info->resource[k].unit_mask == which)
			snprintf(port, 32, "%s", info->resource[k].name);
	return fmax(best, plain);
}

/* ---- dispatch ---- */

/* Micro-ops dispatched in program order, `width` a cycle; an instruction
 * of more than width takes whole cycles. Runs iterations until the state
 * at an iteration's start repeats: the cycles an iteration between. */
static double dispatch_bound(unsigned width, const struct sched_insn *insn, size_t n)
{
	enum { MAX_ITER = 64 };
	unsigned seen_avail[MAX_ITER + 1];
	unsigned long seen_cycle[MAX_ITER + 1];
	unsigned avail = width;
	unsigned long cycle = 0;

	if (!width)
		return 0;
	for (unsigned it = 0; it <= MAX_ITER; it++) {
		for (unsigned j = 0; j < it; j++)
			if (seen_avail[j] == avail)
				return (double)(cycle - seen_cycle[j]) / (it - j);
		seen_avail[it] = avail;
		seen_cycle[it] = cycle;
		for (size_t i = 0; i < n; i++) {
			unsigned uops = insn[i].uops, need = uops < width ? uops : width;

			if (need > avail || ((insn[i].flags & SCHED_BEGIN_GROUP) && avail < width)) {
				cycle++;
				avail = width;
			}
			avail -= need;
			if (uops > width) {                  /* the rest in whole cycles */
				cycle += (uops - 1) / width;
				avail = width - ((uops - 1) % width + 1);
			}
			if (insn[i].flags & SCHED_END_GROUP)
				avail = 0;
		}
	}
	return (double)cycle / (MAX_ITER + 1);
}

/* ---- queues ---- */

static double queue_bound(const struct sched_cpu_info *info, const struct sched_insn *insn,
			  size_t n)
{
	double loads = 0, stores = 0, uops = 0, longest = 0;

	for (size_t i = 0; i < n; i++) {
		double lat = insn[i].latency;

		loads += insn[i].flags & SCHED_LOAD ? lat : 0;
		stores += insn[i].flags & SCHED_STORE ? lat : 0;
		uops += insn[i].uops ? insn[i].uops : 1;
		longest = fmax(longest, lat);
	}
	double rob = uops * longest;
	return fmax(fmax(info->load_queue ? loads / info->load_queue : 0,
			 info->store_queue ? stores / info->store_queue : 0),
		    info->rob ? rob / info->rob : 0);
}

/* ---- dependency chains ---- */

/* Nodes of the chain graph: the registers the loop writes, and one memory
 * location per loop-invariant store address that a load of the loop
 * reads back. A chain from one iteration to the next starts at a node
 * the iteration reads before it writes all of it (live in). */
#define MAX_NODES 64
#define MEMORY_REG 0x8000u

/* What one instruction does to the nodes, worked out once a loop. */
struct step {
	int8_t read[SCHED_MAX_READS];   /* node, -1 none */
	double early[SCHED_MAX_READS];  /* ReadAdvance, no more than its producer's latency */
	int8_t write[SCHED_MAX_WRITES];
	double latency[SCHED_MAX_WRITES];
	int8_t memory;                  /* memory node of a load or store, -1 none */
};

struct chain_graph {
	uint16_t reg[MAX_NODES];
	bool memory[MAX_NODES];
	bool live_in[MAX_NODES];
	size_t n;
	double w[MAX_NODES][MAX_NODES];  /* longest path start i -> end j, -INF none */
};

static int node_of(const struct chain_graph *g, unsigned reg)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->reg[i] == reg)
			return (int)i;
	return -1;
}

static void add_node(struct chain_graph *g, unsigned reg, bool memory)
{
	if (node_of(g, reg) < 0 && g->n < MAX_NODES) {
		g->memory[g->n] = memory;
		g->reg[g->n++] = (uint16_t)reg;
	}
}

static bool same_address(const struct sched_address *a, const struct sched_address *b)
{
	return a->base == b->base && a->index == b->index && a->scale == b->scale &&
	       a->disp == b->disp && a->segment == b->segment;
}

/* Is reg written by an instruction of the loop (its first nregs nodes)? */
static bool written_reg(const struct chain_graph *g, size_t nregs, unsigned reg)
{
	for (size_t i = 0; reg && i < nregs; i++)
		if (g->reg[i] == reg)
			return true;
	return false;
}

static bool plain_access(const struct sched_insn *x, unsigned flags)
{
	return (x->flags & flags) && !(x->flags & SCHED_VARIANT_MEM);
}

/* The memory node of the access insn[at] when its address is one no
 * register of the loop changes and a store of the loop writes it, else
 * -1. */
static int memory_node(const struct chain_graph *g, size_t nregs, const struct sched_insn *insn,
		       size_t n, size_t at)
{
	const struct sched_address *a = &insn[at].mem;

	if (!plain_access(&insn[at], SCHED_LOAD | SCHED_STORE) || written_reg(g, nregs, a->base) ||
	    written_reg(g, nregs, a->index))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (plain_access(&insn[i], SCHED_STORE) && same_address(&insn[i].mem, a))
			return node_of(g, MEMORY_REG + (unsigned)i);
	return -1;
}

/* The registers the loop writes, then a memory node for each first store
 * to an invariant address that a load of the loop reads. */
static size_t build_nodes(struct chain_graph *g, const struct sched_insn *insn, size_t n,
			  double store_load)
{
	g->n = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < insn[i].nwrite; k++)
			add_node(g, insn[i].write[k].reg, false);
	size_t regs = g->n;

	for (size_t i = 0; store_load >= 0 && i < n; i++) {
		bool first = true, loaded = false;

		if (!plain_access(&insn[i], SCHED_STORE) || written_reg(g, regs, insn[i].mem.base) ||
		    written_reg(g, regs, insn[i].mem.index))
			continue;
		for (size_t j = 0; j < n; j++) {
			if (!plain_access(&insn[j], SCHED_LOAD | SCHED_STORE) ||
			    !same_address(&insn[j].mem, &insn[i].mem))
				continue;
			first &= !(j < i && (insn[j].flags & SCHED_STORE));
			loaded |= (insn[j].flags & SCHED_LOAD) != 0;
		}
		if (first && loaded)
			add_node(g, MEMORY_REG + (unsigned)i, true);
	}
	return regs;
}

/* The last write of node v in the loop at or before i, wrapping to the
 * iteration before: k its write slot; -1 none. */
static long producer(const struct sched_insn *insn, size_t n, const struct chain_graph *g,
		     int v, size_t i, size_t *k)
{
	for (size_t back = 1; back <= n; back++) {
		size_t j = (i + n - back) % n;

		for (size_t s = 0; s < insn[j].nwrite; s++)
			if (insn[j].write[s].reg == g->reg[v]) {
				*k = s;
				return (long)j;
			}
	}
	return -1;
}

/* Each instruction's nodes and edges, once: a read may start ReadAdvance
 * before its producer's result, and never before the producer issued
 * (llvm-mca: max(0, latency - ReadAdvance) after the write issued). */
static void build_steps(struct sched_cpu *cpu, struct chain_graph *g, size_t regs,
			const struct sched_insn *insn, size_t n, struct step *st)
{
	bool written[MAX_NODES] = { false };

	for (size_t i = 0; i < n; i++) {
		const struct sched_insn *x = &insn[i];

		st[i].memory = (int8_t)memory_node(g, regs, insn, n, i);
		for (size_t k = 0; k < SCHED_MAX_READS; k++) {
			int v = k < x->nread ? node_of(g, x->read[k].reg) : -1;
			size_t slot;
			long p = v >= 0 ? producer(insn, n, g, v, i, &slot) : -1;
			double lat = p < 0 ? 0 : insn[p].flags & SCHED_MOVE_ELIMINATED ? 0 :
				     insn[p].write[slot].latency;

			st[i].read[k] = (int8_t)(p < 0 ? -1 : v);
			st[i].early[k] = p < 0 ? 0 :
					 fmin(lat, sched_read_advance(cpu, &x->read[k],
								      insn[p].write[slot].write_resource));
			if (v >= 0 && !written[v])
				g->live_in[v] = true;
		}
		if (st[i].memory >= 0 && (x->flags & SCHED_LOAD) && !written[st[i].memory])
			g->live_in[st[i].memory] = true;
		for (size_t k = 0; k < SCHED_MAX_WRITES; k++) {
			int v = k < x->nwrite ? node_of(g, x->write[k].reg) : -1;

			st[i].write[k] = (int8_t)v;
			st[i].latency[k] = v < 0 ? 0 : x->flags & SCHED_MOVE_ELIMINATED ? 0 :
					   x->write[k].latency;
			/* a part of a register leaves the rest live in */
			if (v >= 0 && x->write[k].lo == 0 && x->write[k].hi == SCHED_WHOLE)
				written[v] = true;
		}
		if (st[i].memory >= 0 && (x->flags & SCHED_STORE))
			written[st[i].memory] = true;
	}
}

/* When each part of a node is ready: a write of part of a register (AL,
 * or XMM0 by a legacy SSE instruction) leaves the rest as it was, so a
 * read of that part waits for it alone, a read of the rest for the older
 * write, as in llvm-mca's register file. */
struct reg_state {
	double full, part;
	uint8_t lo, hi;                 /* the part, when has_part */
	bool has_part;
};

static double read_time(const struct reg_state *s, uint8_t lo, uint8_t hi)
{
	if (!s->has_part || hi <= s->lo || lo >= s->hi)
		return s->full;
	if (lo >= s->lo && hi <= s->hi)
		return s->part;
	return fmax(s->full, s->part);
}

static void write_reg(struct reg_state *s, double t, uint8_t lo, uint8_t hi)
{
	if (lo == 0 && hi == SCHED_WHOLE) {
		s->full = t;
		s->has_part = false;
		return;
	}
	if (s->has_part && !(lo <= s->lo && hi >= s->hi))
		s->full = fmax(s->full, s->part);
	s->part = t;
	s->lo = lo;
	s->hi = hi;
	s->has_part = true;
}

/* One iteration from node `from` ready at 0: when each node is ready at
 * its end (row `from` of w). A load of what a store of the loop left gets
 * it store_load after the store's data. */
static void longest_from(struct chain_graph *g, const struct sched_insn *insn, const struct step *st,
			 size_t n, size_t from, double store_load)
{
	struct reg_state s[MAX_NODES];

	for (size_t j = 0; j < g->n; j++)
		s[j] = (struct reg_state){ .full = -INFINITY };
	s[from].full = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sched_insn *x = &insn[i];
		double issue = -INFINITY, loaded = -INFINITY;

		for (size_t k = 0; k < x->nread; k++) {
			int v = st[i].read[k];
			double t = v >= 0 ? read_time(&s[v], x->read[k].lo, x->read[k].hi) : -INFINITY;

			if (t > -INFINITY)
				issue = fmax(issue, t - st[i].early[k]);
		}
		if (st[i].memory >= 0 && (x->flags & SCHED_LOAD))
			loaded = s[st[i].memory].full;
		for (size_t k = 0; k < x->nwrite; k++)
			if (st[i].write[k] >= 0)
				write_reg(&s[st[i].write[k]], fmax(issue + st[i].latency[k], loaded),
					  x->write[k].lo, x->write[k].hi);
		if (st[i].memory >= 0 && (x->flags & SCHED_STORE))
			s[st[i].memory].full = issue + store_load;
	}
	for (size_t j = 0; j < g->n; j++)
		g->w[from][j] = s[j].has_part ? fmax(s[j].full, s[j].part) : s[j].full;
}

/* The largest mean weight of a cycle of g through live-in nodes (every
 * cycle passes only those), by Karp's algorithm for the maximum: the
 * cycles an iteration the chains need. memory_only: of cycles through a
 * memory node. */
static double max_cycle_mean(const struct chain_graph *g, bool memory_only)
{
	double d[MAX_NODES + 1][MAX_NODES];
	size_t live[MAX_NODES], n = 0;
	double best = 0;

	for (size_t v = 0; v < g->n; v++)
		if (g->live_in[v])
			live[n++] = v;
	for (size_t v = 0; v < n; v++)
		d[0][v] = 0;
	for (size_t k = 1; k <= n; k++)
		for (size_t v = 0; v < n; v++) {
			d[k][v] = -INFINITY;
			for (size_t u = 0; u < n; u++)
				if (g->w[live[u]][live[v]] > -INFINITY && d[k - 1][u] > -INFINITY)
					d[k][v] = fmax(d[k][v], d[k - 1][u] + g->w[live[u]][live[v]]);
		}
	for (size_t v = 0; v < n; v++) {
		double worst = INFINITY;

		if (d[n][v] == -INFINITY || (memory_only && !g->memory[live[v]]))
			continue;
		for (size_t k = 0; k < n; k++)
			if (d[k][v] > -INFINITY)
				worst = fmin(worst, (d[n][v] - d[k][v]) / (double)(n - k));
		if (worst < INFINITY)
			best = fmax(best, worst);
	}
	return best;
}

static void chain_bounds(struct sched_cpu *cpu, const struct sched_insn *insn, size_t n,
			 double store_load, struct sched_bounds *out)
{
	static __thread struct chain_graph g;
	struct step *st = xcalloc(n + 1, sizeof *st);
	size_t regs = build_nodes(&g, insn, n, store_load);
	bool memory = false;

	memset(g.live_in, 0, sizeof g.live_in);
	build_steps(cpu, &g, regs, insn, n, st);
	for (size_t i = 0; i < g.n; i++) {
		if (g.live_in[i])
			longest_from(&g, insn, st, n, i, store_load);
		memory |= g.live_in[i] && g.memory[i];
	}
	out->chain = max_cycle_mean(&g, false);
	out->memory_chain = memory ? max_cycle_mean(&g, true) : 0;
	free(st);
}

int sched_loop_bounds(struct sched_cpu *cpu, const struct sched_insn *insn, size_t n,
		      double store_load, struct sched_bounds *out, struct err *e)
{
	const struct sched_cpu_info *info = sched_cpu_info(cpu);
	size_t ninsn = 0;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		if (insn[i].flags & (SCHED_INVALID | SCHED_UNSUPPORTED | SCHED_STRING))
			return err_set(e, "%s: %s", insn[i].name,
				       insn[i].flags & SCHED_INVALID ? "an instruction LLVM cannot read" :
				       insn[i].flags & SCHED_STRING ? "a string instruction, which no model holds" :
				       "no data in LLVM's model");
		out->uops += insn[i].uops;
		ninsn++;
	}
	out->ports = ports_bound(info, insn, n, out->port);
	out->dispatch = dispatch_bound(info->dispatch_width, insn, n);
	out->retire = info->retire_width ? (double)ninsn / info->retire_width : 0;
	out->queues = queue_bound(info, insn, n);
	chain_bounds(cpu, insn, n, store_load, out);
	out->cycles = fmax(fmax(fmax(out->ports, out->dispatch), fmax(out->retire, out->chain)),
			   out->queues);
	return 0;
}
