#include "mech/zorua/phase_pass.h"

#include <algorithm>
#include <bit>

#include <nlohmann/json.hpp>

#include "mech/zorua/divergent_regions.h"
#include "mech/zorua/register_sets.h"
#include "mech/zorua/shared_accesses.h"
#include "mech/zorua/shared_liveness.h"
#include "timing/plugin_registry.h"

namespace warpsim::mech::zorua {

namespace {

// Barriers a warp waits at and memory fences: implicit phase boundaries (no specifier; the
// requirement does not change). bar.arrive does not wait; bar.warp.sync (lowered to a fence with
// one source, the lane mask) synchronises lanes of one warp, not the CTA.
bool isImplicitBoundary(const ir::Instr& in) {
  if (in.op == ir::Op::Bar) return static_cast<ir::BarOp>(in.sub) != ir::BarOp::Arrive;
  if (in.op == ir::Op::Membar) return true;
  if (in.op == ir::Op::Fence) return in.numSrc == 0;
  return false;
}

// Instructions that end the thread: a warp releases everything it holds there anyway, so a
// phase boundary there would only add a phase change.
bool endsThread(const ir::Function& f, const ir::Instr& in) {
  return in.op == ir::Op::Exit || in.op == ir::Op::Trap || (in.op == ir::Op::Ret && f.isEntry);
}

bool hasCode(const ir::Module& m, uint32_t f) { return f < m.functions.size() && !m.functions[f].code.empty(); }

// The callee a call instruction enters, or UINT32_MAX (printf, declarations).
uint32_t calleeOf(const ir::Module& m, const ir::Function& f, const ir::Instr& in) {
  if (in.op != ir::Op::Call || in.target >= f.calls.size()) return UINT32_MAX;
  const ir::CallSite& site = f.calls[in.target];
  if (site.isPrintf || !hasCode(m, site.callee)) return UINT32_MAX;
  return site.callee;
}

// The kernel, then every function it can call, in index order.
std::vector<uint32_t> reachableFrom(const ir::Module& m, uint32_t kernel) {
  std::vector<uint8_t> seen(m.functions.size(), 0);
  std::vector<uint32_t> work{kernel};
  seen[kernel] = 1;
  while (!work.empty()) {
    const uint32_t f = work.back();
    work.pop_back();
    for (const ir::Instr& in : m.functions[f].code) {
      const uint32_t g = calleeOf(m, m.functions[f], in);
      if (g != UINT32_MAX && !seen[g]) {
        seen[g] = 1;
        work.push_back(g);
      }
    }
  }
  std::vector<uint32_t> out{kernel};
  for (uint32_t f = 0; f < m.functions.size(); ++f)
    if (seen[f] && f != kernel) out.push_back(f);
  return out;
}

struct FunctionState {
  DivergentRegions regions;
  RegisterNeeds registers;
  std::vector<uint64_t> access;   // shared variables each instruction accesses (calls included)
  std::vector<uint64_t> live;     // shared variables live at each instruction
  uint64_t touched = 0;           // variables it or its callees access
  uint64_t atEntry = 0, afterReturn = 0;  // shared variables its callers use before / after
  uint64_t contextSets = 0;       // register sets live in its callers across the calls
  bool divergentContext = false;  // some call enters it from a divergent point
};

bool differs(uint64_t now, uint64_t start, double minChange) {
  if (now == start) return false;
  const double delta = now > start ? static_cast<double>(now - start) : static_cast<double>(start - now);
  return delta >= minChange * static_cast<double>(start);
}

}  // namespace

PhaseParams readPhaseParams(config::Tree* tree) {
  PhaseParams p;
  if (tree == nullptr) return p;
  config::Section s = tree->section("compiler").sub(kPhasePassName);
  p.minChange = s.f64("min_change", p.minChange,
                      "Zorua phases: a new phase starts where live registers or live shared bytes "
                      "differ from the phase's start by at least this fraction of it",
                      0.0, 100.0);
  p.minInstructions = s.u32("min_instructions", p.minInstructions,
                            "Zorua phases: instructions a phase holds at least before the next "
                            "boundary",
                            1, 1u << 20);
  return p;
}

PhaseResult computePhases(const func::Program& program, uint32_t kernel, const PhaseParams& params,
                          timing::AnnotationTable<timing::ResourcePhase>& table) {
  const ir::Module& m = program.module();
  PhaseResult result;
  if (!hasCode(m, kernel)) return result;
  result.functions = reachableFrom(m, kernel);
  const SharedVariables vars = kernelSharedVariables(program, kernel);
  result.sharedVariables = vars.variables;

  std::vector<FunctionState> st(m.functions.size());
  for (uint32_t f : result.functions) {
    const ir::Function& fn = m.functions[f];
    st[f].regions = findDivergentRegions(fn);
    st[f].registers = analyzeRegisters(fn, st[f].regions);
    SharedAccesses a = findSharedAccesses(fn, vars);
    result.sharedAccesses += a.accesses;
    result.unknownSharedAccesses += a.unknown;
    st[f].access = std::move(a.access);
  }
  // A call accesses what its callee does, transitively.
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t f : result.functions) {
      const ir::Function& fn = m.functions[f];
      uint64_t t = 0;
      for (uint32_t pc = 0; pc < fn.code.size(); ++pc) {
        t |= st[f].access[pc];
        const uint32_t g = calleeOf(m, fn, fn.code[pc]);
        if (g != UINT32_MAX) t |= st[g].touched;
      }
      if (t != st[f].touched) {
        st[f].touched = t;
        changed = true;
      }
    }
  }
  for (uint32_t f : result.functions) {
    const ir::Function& fn = m.functions[f];
    for (uint32_t pc = 0; pc < fn.code.size(); ++pc) {
      const uint32_t g = calleeOf(m, fn, fn.code[pc]);
      if (g != UINT32_MAX) st[f].access[pc] |= st[g].touched;
    }
  }
  // What callers hold across their calls.
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t f : result.functions) {
      const ir::Function& fn = m.functions[f];
      for (uint32_t pc = 0; pc < fn.code.size(); ++pc) {
        const uint32_t g = calleeOf(m, fn, fn.code[pc]);
        if (g == UINT32_MAX) continue;
        const CallContext c = sharedAroundCall(fn, st[f].access, pc, st[f].atEntry, st[f].afterReturn);
        FunctionState& callee = st[g];
        const uint64_t entry0 = callee.atEntry, return0 = callee.afterReturn, sets0 = callee.contextSets;
        const bool divergent0 = callee.divergentContext;
        callee.atEntry |= c.before;
        callee.afterReturn |= c.after;
        callee.contextSets |= st[f].registers.liveSets[pc] | st[f].contextSets;
        callee.divergentContext = callee.divergentContext || st[f].divergentContext ||
                                  st[f].regions.divergentPc[pc] != 0 || fn.code[pc].guard != ir::kNoReg;
        changed = changed || entry0 != callee.atEntry || return0 != callee.afterReturn ||
                  sets0 != callee.contextSets || divergent0 != callee.divergentContext;
      }
    }
  }

  uint32_t nextId = 1;
  for (uint32_t f : result.functions) {
    const ir::Function& fn = m.functions[f];
    FunctionState& s = st[f];
    s.live = sharedSpans(fn, s.access, s.atEntry, s.afterReturn);
    const auto n = static_cast<uint32_t>(fn.code.size());
    if (table.size(f) < n) continue;  // not the program's function (never for a linked program)
    auto sharedBytes = [&](uint32_t pc) { return vars.staticBytes(s.live[pc]); };
    auto dynamic = [&](uint32_t pc) { return SharedVariables::dynamic(s.live[pc]); };

    std::vector<uint32_t> starts{0};
    uint64_t startRegs = s.registers.liveCount[0], startShared = sharedBytes(0);
    bool startDynamic = dynamic(0);
    for (uint32_t pc = 1; pc < n; ++pc) {
      if (pc - starts.back() < params.minInstructions) continue;
      if (s.divergentContext || s.regions.divergentPc[pc] || endsThread(fn, fn.code[pc])) continue;
      const uint64_t regs = s.registers.liveCount[pc], shared = sharedBytes(pc);
      if (!differs(regs, startRegs, params.minChange) && !differs(shared, startShared, params.minChange) &&
          dynamic(pc) == startDynamic)
        continue;
      starts.push_back(pc);
      startRegs = regs;
      startShared = shared;
      startDynamic = dynamic(pc);
    }
    starts.push_back(n);

    for (size_t k = 0; k + 1 < starts.size(); ++k) {
      PhaseInfo p;
      p.id = nextId++;
      p.function = f;
      p.firstPc = starts[k];
      p.instructions = starts[k + 1] - starts[k];
      p.registerSets = s.contextSets;
      for (uint32_t pc = starts[k]; pc < starts[k + 1]; ++pc) {
        p.registerSets |= s.registers.liveSets[pc] | s.registers.instructionSets[pc];
        p.peakLiveRegisters = std::max(p.peakLiveRegisters, s.registers.liveCount[pc]);
        p.sharedBytes = std::max<uint32_t>(p.sharedBytes, static_cast<uint32_t>(sharedBytes(pc)));
        p.sharedDynamic = p.sharedDynamic || dynamic(pc);
      }
      for (uint32_t pc = starts[k]; pc < starts[k + 1]; ++pc) {
        timing::ResourcePhase& r = table.at(f, pc);
        r.phase = p.id;
        r.registerSets = p.registerSets;
        r.sharedBytes = p.sharedBytes;
        r.sharedDynamic = p.sharedDynamic;
        r.instructionSets = s.registers.instructionSets[pc];
        r.specifier = pc == p.firstPc;
        r.barrier = isImplicitBoundary(fn.code[pc]);
        if (r.barrier) ++result.implicitBoundaries;
      }
      result.phases.push_back(p);
    }
  }
  result.maxLiveRegisters = st[kernel].registers.maxLive;
  result.physicalRegisters = st[kernel].registers.physical;
  return result;
}

void writePhaseStats(const PhaseResult& result, nlohmann::json& stats) {
  stats["phases"] = result.phases.size();
  stats["specifiers"] = result.phases.size();  // one per phase, on its first instruction
  stats["implicit_boundaries"] = result.implicitBoundaries;
  stats["functions"] = result.functions.size();
  stats["max_live_registers"] = result.maxLiveRegisters;
  stats["register_placement"] = result.physicalRegisters ? "physical" : "virtual";
  stats["shared_variables"] = result.sharedVariables;
  stats["shared_accesses"] = result.sharedAccesses;
  stats["unknown_shared_accesses"] = result.unknownSharedAccesses;
  nlohmann::json list = nlohmann::json::array();
  for (const PhaseInfo& p : result.phases) {
    if (result.functions.empty() || p.function != result.functions.front()) continue;
    list.push_back({{"phase", p.id},
                    {"first_pc", p.firstPc},
                    {"instructions", p.instructions},
                    {"registers", std::popcount(p.registerSets) * timing::kRegistersPerSet},
                    {"register_sets", std::popcount(p.registerSets)},
                    {"peak_live_registers", p.peakLiveRegisters},
                    {"shared_bytes", p.sharedBytes},
                    {"shared_dynamic", p.sharedDynamic}});
  }
  stats["kernel_phases"] = std::move(list);
}

namespace {

class PhasePass final : public timing::IIrPass {
 public:
  explicit PhasePass(const PhaseParams& params) : params_(params) {}
  void run(const func::Program& program, uint32_t function, nlohmann::json& stats,
           timing::InstructionAnnotations& annotations) override {
    auto& table = annotations.add<timing::ResourcePhase>(timing::kResourcePhases);
    writePhaseStats(computePhases(program, function, params_, table), stats);
  }

 private:
  PhaseParams params_;
};

}  // namespace

std::unique_ptr<timing::IIrPass> makePhasePass(config::Tree* tree) {
  return std::make_unique<PhasePass>(readPhaseParams(tree));
}

}  // namespace warpsim::mech::zorua

namespace warpsim::timing {

void registerZoruaPhasePass(PluginRegistry& registry) {
  registry.add<IIrPass>(mech::zorua::kPhasePassName,
                        "Zorua: phases of the kernel and its callees whose register and shared-memory "
                        "needs differ, with phase specifiers and implicit (barrier) boundaries",
                        [](const IIrPass::Context& context) { return mech::zorua::makePhasePass(context.tree); });
}

}  // namespace warpsim::timing
