// The allocation driver: per function, predicates first (their spill code needs value
// temporaries), then values, colouring and spilling in rounds until everything has a register;
// then call saves and the rewrite to physical registers.
#include "compiler/register_allocation.h"

#include <algorithm>
#include <charconv>

#include "compiler/coalescing.h"
#include "compiler/colouring.h"
#include "compiler/feasibility.h"
#include "compiler/interference_graph.h"
#include "compiler/physical_rewrite.h"
#include "compiler/spill_code.h"
#include "ir/liveness.h"

namespace warpsim::compiler {
namespace {

constexpr uint32_t kMaxRegisters = 255;

std::vector<uint8_t> tempMask(const FunctionRegisters& regs, RegClass cls) {
  std::vector<uint8_t> mask(regs.count(cls), 0);
  for (uint32_t r = 0; r < mask.size(); ++r) mask[r] = regs.allocatable(cls, r) && regs.isTemp(cls, r);
  return mask;
}

std::vector<uint32_t> identity(uint32_t n) {
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// Colours the predicates onto `K`, spilling until they fit.
std::vector<int32_t> allocatePredicates(const ir::Module& m, FunctionRegisters& regs, uint32_t K, SpillArea& area,
                                        std::vector<int64_t>& predSlot, FunctionAllocation& stats) {
  ir::Function& f = regs.fn();
  // Predicates are not saved around calls: those live across one live in the spill area.
  const std::vector<uint32_t> acrossCalls = predicatesLiveAcrossCalls(m, regs);
  if (!acrossCalls.empty()) {
    spillPredicates(regs, acrossCalls, area, predSlot, stats);
    ir::analyzeFunction(f);
  }
  for (;;) {
    GraphBuild gb = buildInterferenceGraph(regs, RegClass::Pred);
    ColouringResult c = colourGraph(gb.graph, identity(gb.graph.size()), gb.spillCost,
                                    tempMask(regs, RegClass::Pred), K);
    if (c.complete()) return c.colour;
    spillPredicates(regs, c.spilled, area, predSlot, stats);
    ir::analyzeFunction(f);
  }
}

ColouringResult colourValues(const GraphBuild& gb, const FunctionRegisters& regs, uint32_t K) {
  InterferenceGraph graph = gb.graph;
  Coalescing co = coalesceMoves(graph, gb.moves, K);
  return colourGraph(graph, co.rep, gb.spillCost, tempMask(regs, RegClass::Value), K);
}

std::string allocationErrorText(const ir::Module& m, const ir::Function& f, uint32_t budget, uint32_t line,
                                uint32_t need, uint32_t minimum) {
  return m.sourceName + ": " + (f.isEntry ? "kernel '" : "function '") + f.name + "': a budget of " +
         std::to_string(budget) + " registers cannot hold the operands of the instruction at line " +
         std::to_string(line) + " (it needs " + std::to_string(need) + "); the smallest feasible budget is " +
         std::to_string(minimum);
}

// A kernel's .maxnreg caps its budget as it caps ptxas's: N above it becomes .maxnreg, and
// `minimal` spills at .maxnreg when the kernel needs more.
uint32_t registerCap(const ir::Function& f) {
  return f.maxnreg != 0 ? std::min<uint32_t>(f.maxnreg, kMaxRegisters) : kMaxRegisters;
}

FunctionAllocation allocateFunction(const ir::Module& m, ir::Function& f, RegisterBudget budget) {
  const uint32_t cap = registerCap(f);
  if (budget.mode == RegisterBudget::Mode::Limit) budget.registers = std::min(budget.registers, cap);
  FunctionAllocation stats;
  stats.allocated = true;
  FunctionRegisters regs(f);
  for (uint32_t r = 0; r < regs.count(RegClass::Value); ++r) stats.virtualRegisters += regs.allocatable(RegClass::Value, r);
  const Feasibility feasible = feasibility(regs);
  stats.feasibleMinimum = feasible.minimum;
  if (budget.mode == RegisterBudget::Mode::Limit && budget.registers < feasible.minimum)
    throw AllocationError(allocationErrorText(m, f, budget.registers, feasible.worstLine, feasible.minimum,
                                              feasible.minimum),
                          feasible.minimum);
  ir::analyzeFunction(f);

  SpillArea area;
  std::vector<int64_t> valueSlot, predSlot;
  const std::vector<int32_t> predColour = allocatePredicates(m, regs, std::max<uint32_t>(budget.predicates, 1), area,
                                                             predSlot, stats);
  bool minimal = budget.mode == RegisterBudget::Mode::Minimal;
  uint32_t K = minimal ? 0 : budget.registers;
  ColouringResult colouring;
  for (stats.rounds = 1;; ++stats.rounds) {
    const GraphBuild gb = buildInterferenceGraph(regs, RegClass::Value);
    if (minimal) {
      // The fewest registers that colour without spilling.
      bool coloured = false;
      for (K = std::max<uint32_t>({gb.peakPressure, feasible.minimum, 1}); K <= cap; ++K) {
        colouring = colourValues(gb, regs, K);
        coloured = colouring.complete();
        if (coloured) break;
      }
      if (coloured) break;
      minimal = false;  // beyond .maxnreg (or 255) registers: spill at that limit
      K = std::max(cap, feasible.minimum);
    }
    colouring = colourValues(gb, regs, K);
    if (colouring.complete()) break;
    if (stats.rounds >= 100) throw std::logic_error("register allocation of '" + f.name + "' does not converge");
    spillValues(regs, colouring.spilled, area, valueSlot, stats);
    ir::analyzeFunction(f);
  }
  insertCallSaves(m, regs, area, valueSlot, stats);
  rewriteToPhysical(regs, colouring.colour, predColour, stats);
  finishSpillArea(f, area, stats);
  ir::analyzeFunction(f);
  return stats;
}

}  // namespace

RegisterBudget parseRegisterBudget(std::string_view text) {
  if (text == "off") return RegisterBudget::off();
  if (text == "minimal") return RegisterBudget::minimal();
  uint32_t n = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (text.empty() || ec != std::errc() || ptr != end || n < 1 || n > kMaxRegisters)
    throw std::invalid_argument("--max-registers: '" + std::string(text) +
                                "' is not a register budget (off, minimal or 1..255)");
  return RegisterBudget::limit(n);
}

std::string toString(const RegisterBudget& budget) {
  switch (budget.mode) {
    case RegisterBudget::Mode::Off: return "off";
    case RegisterBudget::Mode::Minimal: return "minimal";
    case RegisterBudget::Mode::Limit: return std::to_string(budget.registers);
  }
  return "off";
}

std::vector<bool> reachableFunctions(const ir::Module& m, uint32_t entry) {
  std::vector<bool> seen(m.functions.size(), false);
  if (entry >= m.functions.size()) return seen;
  std::vector<uint32_t> work{entry};
  seen[entry] = true;
  while (!work.empty()) {
    const uint32_t f = work.back();
    work.pop_back();
    for (const ir::CallSite& c : m.functions[f].calls)
      if (c.callee < seen.size() && !seen[c.callee]) {
        seen[c.callee] = true;
        work.push_back(c.callee);
      }
  }
  return seen;
}

uint32_t ModuleAllocation::kernelRegisters(const ir::Module& m, uint32_t entry) const {
  const std::vector<bool> reach = reachableFunctions(m, entry);
  uint32_t most = 0;
  for (size_t i = 0; i < reach.size() && i < functions.size(); ++i)
    if (reach[i]) most = std::max(most, functions[i].registers);
  return most;
}

ModuleAllocation allocateRegisters(ir::Module& m, const RegisterBudget& budget) {
  return allocateRegisters(m, budget, std::vector<bool>(m.functions.size(), true));
}

ModuleAllocation allocateRegisters(ir::Module& m, const RegisterBudget& budget, const std::vector<bool>& only) {
  ModuleAllocation out;
  out.budget = budget;
  out.functions.resize(m.functions.size());
  if (!budget.on()) return out;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    ir::Function& f = m.functions[i];
    if (f.isExtern || i >= only.size() || !only[i]) continue;
    out.functions[i] = allocateFunction(m, f, budget);
  }
  return out;
}

}  // namespace warpsim::compiler
