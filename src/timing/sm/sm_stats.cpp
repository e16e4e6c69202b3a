// Statistics and reports: issue-slot accounting over skipped cycles, the counters of
// reportStats, and the per-warp lines of describeWarps.
#include <bit>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "func/warp.h"
#include "timing/sm/sm_impl.h"

namespace warpsim::timing {

// Cycles in [accounted, end) that cycle() did not run: nothing changed in them, so each
// scheduler's slot keeps the reason of the cycle before.
void Sm::Impl::accountUntil(Cycle end) {
  if (accounted == kNever) {
    accounted = end;
    return;
  }
  if (end <= accounted) return;
  const uint64_t gap = end - accounted;
  for (Stall r : lastReason) issueCounts[static_cast<unsigned>(r)] += gap;
  residentWarpCycles += gap * lastResidentWarps;
  if (residentCtas != 0) activeCycles += gap;
  accounted = end;
}

void Sm::Impl::resetCounters() {
  accounted = kNever;
  std::fill(lastReason.begin(), lastReason.end(), Stall::Empty);
  for (uint64_t& c : issueCounts) c = 0;
  for (uint64_t& c : unitLaneOps) c = 0;
  for (uint64_t& c : unitGatedLaneOps) c = 0;
  warpInstructions = threadInstructions = activeCycles = residentWarpCycles = barrierWaits = 0;
  assistInstructions = managerInstructions = 0;
  icache.clearCounters();
}

void Sm::Impl::reportStats(nlohmann::json& out) const {
  nlohmann::json issue = nlohmann::json::object();
  for (unsigned s = 0; s < kNumStalls; ++s) issue[stallName(static_cast<Stall>(s))] = issueCounts[s];
  out["issue"] = std::move(issue);
  nlohmann::json regs = nlohmann::json::object();
  rf->reportStats(regs);
  out["register_file"] = std::move(regs);
  nlohmann::json units = nlohmann::json::object();
  for (unsigned c = 0; c < kNumUnitClasses; ++c) {
    const std::string name = unitClassName(static_cast<UnitClass>(c));
    units[name + "_lane_ops"] = unitLaneOps[c];
    units[name + "_gated_lane_ops"] = unitGatedLaneOps[c];
  }
  out["units"] = std::move(units);
  out["icache"] = {{"accesses", icache.accesses()}, {"hits", icache.hits()}, {"misses", icache.misses()}};
  out["warp_instructions"] = warpInstructions;
  out["thread_instructions"] = threadInstructions;
  out["active_cycles"] = activeCycles;
  out["resident_warp_cycles"] = residentWarpCycles;
  out["barrier_waits"] = barrierWaits;
  // Policy counters, summed over the schedulers.
  nlohmann::json sched = nlohmann::json::object();
  for (const auto& s : schedulers) {
    nlohmann::json one = nlohmann::json::object();
    s->reportStats(one);
    for (auto it = one.begin(); it != one.end(); ++it) {
      if (!it.value().is_number()) continue;
      sched[it.key()] = sched.value(it.key(), uint64_t{0}) + it.value().get<uint64_t>();
    }
  }
  if (!sched.empty()) out["scheduler"] = std::move(sched);
  if (manager) out["manager_instructions"] = managerInstructions;
  if (assistActive) {
    nlohmann::json a = nlohmann::json::object();
    assist->reportStats(a);
    a["instructions"] = assistInstructions;
    out["assist"] = std::move(a);
  }
}

std::string Sm::Impl::describeSlot(uint32_t slot) const {
  const WarpSlot& w = slots[slot];
  if (w.warp == nullptr || w.cta >= ctas.size() || ctas[w.cta].cta == nullptr)  // a broken slot
    return fmt::format("SM {} warp slot {}: holds no warp or CTA (internal error)", id, slot);
  const func::Warp& warp = *w.warp;
  const func::Cta& cta = *ctas[w.cta].cta;
  const ir::Module& m = grid->module();
  const func::Dim3& ctaId = cta.ctaId();
  std::string where;
  if (w.exited) {
    where = "exited";
  } else {
    const bool atBar = warp.waitingAtBarrier();
    const uint32_t pc = atBar ? warp.lastPc() : warp.pc();
    where = fmt::format("pc {} ({}:{}) in '{}'", pc, m.sourceName, atBar ? warp.lastLine() : warp.currentLine(),
                        m.functions[warp.function()].name);
  }
  std::string what;
  const Stall s = stallOf(slot);
  const DecodedInstr* d = head(w);
  switch (s) {
    case Stall::Issued: what = "ready to issue"; break;
    case Stall::Barrier: what = fmt::format("waits at barrier {}", warp.barrierWaitedOn()); break;
    case Stall::Fetch: what = "waits for instruction fetch"; break;
    case Stall::Pipeline:
      what = fmt::format("waits for a free {} unit", unitClassName(d ? d->unit : UnitClass::Alu));
      break;
    case Stall::Collector: what = "waits for an operand collector"; break;
    case Stall::Scoreboard:
    case Stall::Memory: {
      uint32_t reg = 0;
      bool isPred = false, fromMem = false;
      if (!w.exited && d && scoreboard.firstHazard(slot, *d, &reg, &isPred, &fromMem)) {
        const ir::Function& f = m.functions[w.fn];
        std::string name;
        if (isPred) name = reg < f.preds.size() ? f.preds[reg] : fmt::format("%p#{}", reg);
        else name = reg < f.regs.size() && !f.regs[reg].name.empty() ? f.regs[reg].name : fmt::format("%r#{}", reg);
        what = fmt::format("waits for {} ({})", name, fromMem ? "memory" : "pipeline result");
      } else if (w.exited) {
        what = fmt::format("drains {} memory operation(s), {} instruction(s) in flight", w.outstandingMem, w.inflight);
      } else {
        what = fmt::format("waits for {} memory operation(s) to complete", w.outstandingMem);
      }
      break;
    }
    case Stall::Empty: what = "idle"; break;
    case Stall::Assist: what = "waits for its assist warp's routine"; break;
    case Stall::Resources: what = "held by the resource manager (waits for registers, shared memory or a warp slot)"; break;
  }
  return fmt::format("SM {} warp slot {}: kernel '{}' CTA ({},{},{}) warp {} {}: {}", id, slot,
                     m.functions[grid->kernel].name, ctaId.x, ctaId.y, ctaId.z, warp.warpInCta(), where, what);
}

std::string Sm::Impl::describeWarps() const {
  std::string out;
  for (uint32_t slot = 0; slot < slots.size(); ++slot) {
    if (!slots[slot].live) continue;
    if (!out.empty()) out += '\n';
    out += describeSlot(slot);
  }
  return out;
}

}  // namespace warpsim::timing
