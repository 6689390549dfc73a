// libstraddle-sched.so: what LLVM's scheduling model of a CPU says of each
// instruction of a run of bytes (abi.h), for straddle's back end
// (throughput.c). LLVM's disassembler reads the bytes into MCInsts and
// llvm-mca's own InstrBuilder makes each one the instruction its simulator
// would run: the same micro-ops, resource cycles, latencies, zero idioms
// and eliminated moves llvm-mca uses, without a process or assembly text.
// straddle loads this library when it first prices a loop (load.c); it is
// the only C++ of straddle, and the only file that knows LLVM.
#include "abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/SourceMgr.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Instruction.h"
#include "llvm/MCA/Support.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Config/llvm-config.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace llvm;

extern "C" {
void LLVMInitializeX86TargetInfo();
void LLVMInitializeX86TargetMC();
void LLVMInitializeX86Disassembler();
void LLVMInitializeX86TargetMCA();
void LLVMInitializeAArch64TargetInfo();
void LLVMInitializeAArch64TargetMC();
void LLVMInitializeAArch64Disassembler();
}

namespace {

// Registering targets is not thread-safe; once a process is enough.
void initialize_targets()
{
	static std::once_flag once;

	std::call_once(once, [] {
		LLVMInitializeX86TargetInfo();
		LLVMInitializeX86TargetMC();
		LLVMInitializeX86Disassembler();
		LLVMInitializeX86TargetMCA();
		LLVMInitializeAArch64TargetInfo();
		LLVMInitializeAArch64TargetMC();
		LLVMInitializeAArch64Disassembler();
	});
}

// A register file that renames some moves away (MCRegisterCostEntry's
// AllowMoveElimination): llvm-mca gives such a move no latency and no
// execution resource (RegisterFile::tryEliminateMoveOrSwap).
struct move_class {
	unsigned reg_class;
};

struct cpu {
	Triple triple;
	const Target *target = nullptr;
	MCTargetOptions options;
	std::unique_ptr<MCRegisterInfo> mri;
	std::unique_ptr<MCAsmInfo> mai;
	std::unique_ptr<MCSubtargetInfo> sti;
	std::unique_ptr<MCInstrInfo> mcii;
	std::unique_ptr<MCInstrAnalysis> mcia;
	std::unique_ptr<MCContext> ctx;
	std::unique_ptr<MCDisassembler> dis;
	std::unique_ptr<mca::InstrumentManager> im;
	std::unique_ptr<mca::InstrPostProcess> ipp;
	std::unique_ptr<mca::InstrBuilder> ib;
	DenseMap<uint64_t, unsigned> mask_index;        // resource mask -> kind
	std::vector<uint16_t> top;                      // register -> its largest
	std::vector<uint8_t> size;                      // register -> its bytes, 0 unknown
	std::vector<move_class> moves;
	std::vector<uint16_t> opcode_flags;             // opcode -> SCHED_ flags its name gives, +1
	SmallVector<mca::Instrument *> no_instruments;
};

void say(char *err, size_t errlen, const char *what, const std::string &why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s%s", what, why.c_str());
}

bool tuple(const MCRegisterInfo &mri, unsigned r)
{
	return strchr(mri.getName(r), '_') != nullptr;  // AArch64's X0_X1, Q0_Q1_Q2
}

// The largest register holding r (RAX of AL, ZMM0 of XMM0, X0 of W0):
// dependency chains run through it. Tuples of registers are not holders.
uint16_t top_register(const MCRegisterInfo &mri, unsigned r)
{
	unsigned best = r;

	for (MCPhysReg s : mri.superregs(r)) {
		bool topmost = !tuple(mri, s);

		for (MCPhysReg t : mri.superregs(s))
			topmost &= tuple(mri, t);
		if (topmost)
			best = s;
	}
	return (uint16_t)best;
}

// One bit per unit of every resource that is no group, then each group
// the bits of its members: the port bound spreads a group's cycles over
// exactly those units (throughput.c).
void unit_masks(const MCSchedModel &sm, struct sched_cpu_info *info)
{
	unsigned next = 0;
	bool fits = true;

	for (unsigned i = 1; i < info->nresource; i++) {
		const MCProcResourceDesc *d = sm.getProcResource(i);

		if (d->SubUnitsIdxBegin)
			continue;
		fits &= next + d->NumUnits <= 64;
		if (fits)
			info->resource[i].unit_mask = (d->NumUnits >= 64 ? ~0ull : (1ull << d->NumUnits) - 1)
						      << next;
		next += d->NumUnits;
	}
	for (unsigned i = 1; i < info->nresource; i++) {
		const MCProcResourceDesc *d = sm.getProcResource(i);

		for (unsigned k = 0; d->SubUnitsIdxBegin && k < d->NumUnits; k++)
			if (d->SubUnitsIdxBegin[k] < info->nresource)
				info->resource[i].unit_mask |= info->resource[d->SubUnitsIdxBegin[k]].unit_mask;
	}
	for (unsigned i = 0; !fits && i < info->nresource; i++)
		info->resource[i].unit_mask = 0;
}

// The bytes [lo, hi) of its largest register that r is: from its start
// and as large as the classes holding r say, x86's AH-DH one byte in; all
// of it when r is that register or no class says.
void bytes_of(const cpu &c, unsigned r, uint8_t *lo, uint8_t *hi)
{
	const char *name = c.mri->getName(r);

	*lo = 0;
	*hi = SCHED_WHOLE;
	if (c.top[r] == r || !c.size[r] || c.size[r] >= SCHED_WHOLE)
		return;
	*hi = c.size[r];
	if (c.triple.getArch() == Triple::x86_64 && strlen(name) == 2 && name[1] == 'H' &&
	    strchr("ABCD", name[0]))
		*lo = 1, *hi = 2;
}

void fill_info(cpu &c, const char *mcpu, struct sched_cpu_info *info)
{
	const MCSchedModel &sm = c.sti->getSchedModel();
	SmallVector<uint64_t> masks(sm.getNumProcResourceKinds());

	memset(info, 0, sizeof *info);
	snprintf(info->mcpu, sizeof info->mcpu, "%s", mcpu);
	info->dispatch_width = sm.IssueWidth;
	info->rob = sm.MicroOpBufferSize;
	info->load_latency = sm.LoadLatency;
	if (sm.hasExtraProcessorInfo()) {
		const MCExtraProcessorInfo &epi = sm.getExtraProcessorInfo();

		info->retire_width = epi.MaxRetirePerCycle;
		if (epi.LoadQueueID && epi.LoadQueueID < sm.getNumProcResourceKinds())
			info->load_queue = (unsigned)std::max(0, sm.getProcResource(epi.LoadQueueID)->BufferSize);
		if (epi.StoreQueueID && epi.StoreQueueID < sm.getNumProcResourceKinds())
			info->store_queue = (unsigned)std::max(0, sm.getProcResource(epi.StoreQueueID)->BufferSize);
		if (epi.ReorderBufferSize)
			info->rob = epi.ReorderBufferSize;
		for (unsigned f = 0; f < epi.NumRegisterFiles; f++) {
			const MCRegisterFileDesc &rf = epi.RegisterFiles[f];

			for (unsigned k = 0; k < rf.NumRegisterCostEntries; k++) {
				const MCRegisterCostEntry &ce = epi.RegisterCostTable[rf.RegisterCostEntryIdx + k];

				if (ce.AllowMoveElimination && !rf.AllowZeroMoveEliminationOnly)
					c.moves.push_back({ ce.RegisterClassID });
			}
		}
	}
	mca::computeProcResourceMasks(sm, masks);
	info->nresource = sm.getNumProcResourceKinds() < SCHED_MAX_RESOURCES ?
			  sm.getNumProcResourceKinds() : SCHED_MAX_RESOURCES;
	for (unsigned i = 0; i < sm.getNumProcResourceKinds(); i++) {
		c.mask_index[masks[i]] = i;
		if (i < info->nresource) {
			const MCProcResourceDesc *d = sm.getProcResource(i);

			snprintf(info->resource[i].name, sizeof info->resource[i].name, "%s",
				 d->Name ? d->Name : "?");
			info->resource[i].units = d->NumUnits;
		}
	}
	unit_masks(sm, info);
	c.size.assign(c.mri->getNumRegs(), 0);
	for (const MCRegisterClass &rc : c.mri->regclasses())
		for (MCPhysReg r : rc)
			c.size[r] = (uint8_t)std::max<unsigned>(c.size[r],
								std::min<unsigned>(rc.getSizeInBits() / 8, 255));
	c.top.resize(c.mri->getNumRegs());
	for (unsigned r = 1; r < c.mri->getNumRegs(); r++)
		c.top[r] = top_register(*c.mri, r);
}

bool eliminated_move(const cpu &c, const mca::Instruction &inst)
{
	if (!inst.isOptimizableMove() || inst.getDefs().empty())
		return false;
	unsigned r = inst.getDefs()[0].getRegisterID();

	for (const move_class &m : c.moves)
		if (c.mri->getRegClass(m.reg_class).contains(r))
			return true;
	return false;
}

// The first memory operand of mi: x86's five (base, scale, index, disp,
// segment). Other forms (AArch64's, a displacement that is an expression)
// are flagged and never matched.
void address_of(const cpu &c, const MCInst &mi, uint64_t addr, size_t len, struct sched_insn *out)
{
	const MCInstrDesc &d = c.mcii->get(mi.getOpcode());
	unsigned n = d.getNumOperands() < mi.getNumOperands() ? d.getNumOperands() : mi.getNumOperands();

	for (unsigned i = 0; i < n; i++) {
		if (d.operands()[i].OperandType != MCOI::OPERAND_MEMORY)
			continue;
		if (c.triple.getArch() != Triple::x86_64 || i + 5 > mi.getNumOperands() ||
		    !mi.getOperand(i).isReg() || !mi.getOperand(i + 1).isImm() ||
		    !mi.getOperand(i + 2).isReg() || !mi.getOperand(i + 3).isImm() ||
		    !mi.getOperand(i + 4).isReg()) {
			out->flags |= SCHED_VARIANT_MEM;
			return;
		}
		unsigned base = mi.getOperand(i).getReg();
		const char *name = base ? c.mri->getName(base) : "";

		out->mem.scale = (uint8_t)mi.getOperand(i + 1).getImm();
		out->mem.index = (uint16_t)mi.getOperand(i + 2).getReg();
		out->mem.disp = mi.getOperand(i + 3).getImm();
		out->mem.segment = (uint16_t)mi.getOperand(i + 4).getReg();
		// [rip + disp] names one address, wherever the instruction is
		if (name && strcmp(name, "RIP") == 0)
			out->mem.disp += (int64_t)(addr + len);
		else
			out->mem.base = (uint16_t)base;
		return;
	}
	out->flags |= SCHED_VARIANT_MEM;
}

// The instruction at code[*off], its prefixes passed: LLVM's disassembler
// reads a lock or rep prefix it does not fold into the opcode as an
// instruction of its own (LOCK_PREFIX, which no scheduling model holds),
// where llvm-mca's assembler reads "lock cmpxchg" as one. *off moves past
// the prefixes, *prefixes their bytes.
bool read_instruction(cpu &c, const uint8_t *code, size_t n, uint64_t addr, size_t *off, MCInst *mi,
		      uint64_t *len, uint64_t *prefixes)
{
	*prefixes = 0;
	while (*off < n) {
		*mi = MCInst();
		if (c.dis->getInstruction(*mi, *len, ArrayRef<uint8_t>(code + *off, n - *off),
					  addr + *off, nulls()) != MCDisassembler::Success || !*len)
			return false;
		if (!c.mcii->getName(mi->getOpcode()).ends_with("_PREFIX"))
			return true;
		*prefixes += *len;
		*off += *len;
	}
	return false;
}

// What an opcode's name says (once an opcode): a divide or square root;
// x86's string instructions (MOVSB..Q, STOS, LODS, SCAS, CMPS, INS,
// OUTS), which LLVM's models give 100 cycles, a microcoded sequence they
// do not hold (znver3 and skylake, LLVM 14 and 19).
uint16_t name_flags(cpu &c, unsigned opcode)
{
	static const char *const strings[] = { "MOVS", "STOS", "LODS", "SCAS", "CMPS", "INS", "OUTS" };

	if (c.opcode_flags.size() <= opcode)
		c.opcode_flags.resize(opcode + 1, 0);
	if (!c.opcode_flags[opcode]) {
		std::string name = c.mcii->getName(opcode).str();
		uint16_t f = 0;

		if (name.find("DIV") != std::string::npos || name.find("SQRT") != std::string::npos)
			f |= SCHED_DIVIDE;
		for (const char *s : strings) {
			size_t k = strlen(s);

			if (c.triple.getArch() == Triple::x86_64 && name.size() == k + 1 &&
			    name.compare(0, k, s) == 0 && strchr("BWLQ", name[k]))
				f |= SCHED_STRING;
		}
		c.opcode_flags[opcode] = (uint16_t)(f + 1);
	}
	return (uint16_t)(c.opcode_flags[opcode] - 1);
}

void copy_name(const cpu &c, unsigned opcode, struct sched_insn *out)
{
	StringRef n = c.mcii->getName(opcode);
	size_t k = std::min(n.size(), sizeof out->name - 1);

	memcpy(out->name, n.data(), k);
	out->name[k] = 0;
}

// What the instruction's description says of it, as flags.
uint16_t flags_of(cpu &c, const MCInst &mi, const mca::Instruction &inst)
{
	const MCInstrDesc &md = c.mcii->get(mi.getOpcode());
	const MCSchedClassDesc *sc = c.sti->getSchedModel().getSchedClassDesc(inst.getDesc().SchedClassID);
	uint16_t f = name_flags(c, mi.getOpcode());

	f |= md.mayLoad() ? SCHED_LOAD : 0;
	f |= md.mayStore() ? SCHED_STORE : 0;
	f |= md.hasUnmodeledSideEffects() || inst.isALoadBarrier() || inst.isAStoreBarrier() ?
	     SCHED_BARRIER : 0;
	f |= md.isCall() ? SCHED_CALL : 0;
	f |= md.isReturn() ? SCHED_RETURN : 0;
	f |= md.isBranch() ? SCHED_BRANCH : 0;
	f |= sc && sc->BeginGroup ? SCHED_BEGIN_GROUP : 0;
	f |= sc && sc->EndGroup ? SCHED_END_GROUP : 0;
	f |= eliminated_move(c, inst) ? SCHED_MOVE_ELIMINATED : 0;
	return f;
}

// The resources it holds, as llvm-mca's InstrDesc has them: each kind's
// cycles (a group's what its units do not take themselves).
void resources_of(const cpu &c, const mca::Instruction &inst, struct sched_insn *out)
{
	for (const auto &ru : inst.getDesc().Resources) {
		auto it = c.mask_index.find(ru.first);

		if (!ru.second.size() || it == c.mask_index.end() || it->second >= SCHED_MAX_RESOURCES)
			continue;
		if (out->nres == SCHED_MAX_RES) {
			out->flags |= SCHED_TRUNCATED;
			break;
		}
		out->res[out->nres++] = { (uint8_t)it->second, (uint16_t)ru.second.size() };
	}
}

// The registers it writes and reads; a zero idiom's reads depend on
// nothing (llvm-mca marks them independent).
void registers_of(const cpu &c, const mca::Instruction &inst, struct sched_insn *out)
{
	for (const mca::WriteState &w : inst.getDefs()) {
		unsigned r = w.getRegisterID();

		if (!r)
			continue;
		if (out->nwrite == SCHED_MAX_WRITES) {
			out->flags |= SCHED_TRUNCATED;
			break;
		}
		struct sched_write *o = &out->write[out->nwrite++];

		*o = { c.top[r], (uint16_t)w.getLatency(), (uint16_t)w.getWriteResourceID(), 0,
		       SCHED_WHOLE };
		if (!w.clearsSuperRegisters())
			bytes_of(c, r, &o->lo, &o->hi);
	}
	for (const mca::ReadState &rs : inst.getUses()) {
		unsigned r = rs.getRegisterID();

		if (rs.isIndependentFromDef()) {
			out->flags |= SCHED_ZERO_IDIOM;
			continue;
		}
		if (!r)
			continue;
		if (out->nread == SCHED_MAX_READS) {
			out->flags |= SCHED_TRUNCATED;
			break;
		}
		struct sched_read *o = &out->read[out->nread++];

		*o = { c.top[r], (uint16_t)rs.getDescriptor().SchedClassID,
		       (uint16_t)rs.getDescriptor().UseIndex, 0, SCHED_WHOLE };
		bytes_of(c, r, &o->lo, &o->hi);
	}
}

void describe_instruction(cpu &c, const MCInst &mi, const mca::Instruction &inst,
			  struct sched_insn *out)
{
	const mca::InstrDesc &d = inst.getDesc();

	out->uops = (uint16_t)d.NumMicroOps;
	out->latency = (uint16_t)std::min(d.MaxLatency, 65535u);
	out->sched_class = (uint16_t)d.SchedClassID;
	copy_name(c, mi.getOpcode(), out);
	out->flags |= flags_of(c, mi, inst);
	resources_of(c, inst, out);
	registers_of(c, inst, out);
}

} // namespace

extern "C" {

unsigned straddle_sched_abi(void)
{
	return SCHED_ABI_VERSION;
}

const char *straddle_sched_llvm_version(void)
{
	return "LLVM " LLVM_VERSION_STRING;
}

void *straddle_sched_open(const char *triple, const char *mcpu, struct sched_cpu_info *info,
			  char *err, size_t errlen)
{
	std::string why;
	auto c = std::make_unique<cpu>();

	initialize_targets();
	c->triple = Triple(triple);
	c->target = TargetRegistry::lookupTarget(triple, why);
	if (!c->target) {
		say(err, errlen, "", why);
		return nullptr;
	}
	c->mri.reset(c->target->createMCRegInfo(triple));
	c->mai.reset(c->target->createMCAsmInfo(*c->mri, triple, c->options));
	c->mcii.reset(c->target->createMCInstrInfo());
	// asked of a generic subtarget first: LLVM says "not a recognized
	// processor" on stderr when it makes one for a CPU it does not know
	c->sti.reset(c->target->createMCSubtargetInfo(triple, "", ""));
	if (!c->mri || !c->mai || !c->mcii || !c->sti) {
		say(err, errlen, "LLVM has no target ", triple);
		return nullptr;
	}
	if (!c->sti->isCPUStringValid(mcpu)) {
		say(err, errlen, "LLVM does not know the CPU ", mcpu);
		return nullptr;
	}
	c->sti.reset(c->target->createMCSubtargetInfo(triple, mcpu, ""));
	if (!c->sti->getSchedModel().hasInstrSchedModel()) {
		say(err, errlen, "LLVM has no scheduling model for ", mcpu);
		return nullptr;
	}
	c->mcia.reset(c->target->createMCInstrAnalysis(c->mcii.get()));
	c->ctx = std::make_unique<MCContext>(c->triple, c->mai.get(), c->mri.get(), c->sti.get());
	c->dis.reset(c->target->createMCDisassembler(*c->sti, *c->ctx));
	if (!c->dis) {
		say(err, errlen, "LLVM has no disassembler for ", triple);
		return nullptr;
	}
	c->im = std::make_unique<mca::InstrumentManager>(*c->sti, *c->mcii);
	c->ipp.reset(c->target->createInstrPostProcess(*c->sti, *c->mcii));
	if (!c->ipp)
		c->ipp = std::make_unique<mca::InstrPostProcess>(*c->sti, *c->mcii);
	// llvm-mca's default call latency: a call is no part of a loop priced
	c->ib = std::make_unique<mca::InstrBuilder>(*c->sti, *c->mcii, *c->mri, c->mcia.get(),
						    *c->im, 100);
	fill_info(*c, mcpu, info);
	info->arch = c->triple.getArch() == Triple::aarch64 ? 2 : 1;
	return c.release();
}

void straddle_sched_close(void *h)
{
	delete static_cast<cpu *>(h);
}

size_t straddle_sched_describe(void *h, const uint8_t *code, size_t n, uint64_t addr,
			       struct sched_insn *out, size_t max)
{
	cpu &c = *static_cast<cpu *>(h);
	size_t k = 0;

	c.ipp->resetState();
	for (size_t off = 0; off < n && k < max; k++) {
		MCInst mi;
		uint64_t len = 0, prefixes = 0;
		struct sched_insn *o = &out[k];

		memset(o, 0, sizeof *o);
		if (!read_instruction(c, code, n, addr, &off, &mi, &len, &prefixes)) {
			o->flags = SCHED_INVALID;
			o->len = 1;
			return k + 1;
		}
		o->len = (uint8_t)(len + prefixes);
		// llvm-mca warns on stderr at its first call and return; a call
		// is priced by its bound, a return ends no loop
		if (c.mcii->get(mi.getOpcode()).isCall() || c.mcii->get(mi.getOpcode()).isReturn()) {
			o->flags |= c.mcii->get(mi.getOpcode()).isCall() ? SCHED_CALL : SCHED_RETURN;
			o->flags |= SCHED_UNSUPPORTED;
			copy_name(c, mi.getOpcode(), o);
			off += len;
			continue;
		}
		Expected<std::unique_ptr<mca::Instruction>> inst =
			c.ib->createInstruction(mi, c.no_instruments);
		if (!inst) {
			consumeError(inst.takeError());
			o->flags |= SCHED_UNSUPPORTED;
			copy_name(c, mi.getOpcode(), o);
		} else {
			c.ipp->postProcessInstruction(*inst, mi);
			describe_instruction(c, mi, **inst, o);
		}
		if (o->flags & (SCHED_LOAD | SCHED_STORE))
			address_of(c, mi, addr + off, len, o);
		off += len;
	}
	return k;
}

unsigned long straddle_sched_simulate(void *h, const struct sched_piece *p, size_t np,
				      unsigned iterations)
{
	cpu &c = *static_cast<cpu *>(h);
	SmallVector<std::unique_ptr<mca::Instruction>> seq;
	std::vector<MCInst> insts;

	c.ib->clear();
	c.ipp->resetState();
	for (size_t k = 0; k < np; k++)
		for (size_t off = 0; off < p[k].n;) {
			MCInst mi;
			uint64_t len = 0, prefixes = 0;

			if (!read_instruction(c, p[k].code, p[k].n, p[k].addr, &off, &mi, &len, &prefixes) ||
			    c.mcii->get(mi.getOpcode()).isCall() || c.mcii->get(mi.getOpcode()).isReturn())
				return 0;
			Expected<std::unique_ptr<mca::Instruction>> inst =
				c.ib->createInstruction(mi, c.no_instruments);
			if (!inst) {
				consumeError(inst.takeError());
				return 0;
			}
			c.ipp->postProcessInstruction(*inst, mi);
			seq.emplace_back(std::move(inst.get()));
			off += len;
		}
	if (seq.empty())
		return 0;
	mca::Context ctx(*c.mri, *c.sti);
	// llvm-mca's defaults: the model's own widths and sizes, loads and
	// stores that never alias
	mca::PipelineOptions po(0, 0, 0, 0, 0, 0, true, false);
	mca::CircularSourceMgr source(seq, iterations);
	std::unique_ptr<mca::CustomBehaviour> cb(c.target->createCustomBehaviour(*c.sti, source, *c.mcii));
	if (!cb)
		cb = std::make_unique<mca::CustomBehaviour>(*c.sti, source, *c.mcii);
	auto pipeline = ctx.createDefaultPipeline(po, source, *cb);
	Expected<unsigned> run = pipeline->run();
	if (!run) {
		consumeError(run.takeError());
		return 0;
	}
	return *run;
}

unsigned straddle_sched_read_advance(void *h, unsigned sched_class, unsigned use_index,
				     unsigned write_resource)
{
	cpu &c = *static_cast<cpu *>(h);
	const MCSchedModel &sm = c.sti->getSchedModel();
	int adv = c.sti->getReadAdvanceCycles(sm.getSchedClassDesc(sched_class), use_index,
					      write_resource);

	return adv > 0 ? (unsigned)adv : 0;
}

} // extern "C"
