#include "runtime/report_json.h"

#include <optional>

#include "timing/stats_totals.h"

namespace warpsim::runtime {

namespace {

const char* className(size_t c) { return ir::opClassName(static_cast<ir::OpClass>(c)); }

nlohmann::json dim(const func::Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

nlohmann::json classesJson(const std::array<uint64_t, profile::kNumWordClasses>& counts) {
  nlohmann::json out = nlohmann::json::object();
  for (size_t c = 0; c < profile::kNumWordClasses; ++c) {
    out[profile::wordClassName(static_cast<profile::WordClass>(c))] = counts[c];
  }
  return out;
}

nlohmann::json countsJson(const profile::SimilarityCounts& c) {
  return {{"non_divergent", classesJson(c.nonDivergent)}, {"divergent", classesJson(c.divergent)}};
}

}  // namespace

nlohmann::json toJson(const ResourceUsage& u) {
  return {
      {"source", sourceName(u.source)},
      {"registers", u.registers},
      {"shared_bytes", u.sharedBytes},
      {"local_bytes", u.localBytes},
      {"spill_store_bytes", u.spillStoreBytes},
      {"spill_load_bytes", u.spillLoadBytes},
      {"barriers", u.barriers},
      {"note", u.note},
  };
}

nlohmann::json mixJson(const KernelStats& s) {
  nlohmann::json mix = nlohmann::json::object();
  for (size_t c = 0; c < kNumOpClasses; ++c) {
    if (s.classMix[c] != 0) mix[className(c)] = s.classMix[c];
  }
  return mix;
}

nlohmann::json memoryJson(const KernelStats& s) {
  nlohmann::json memory = nlohmann::json::object();
  for (size_t sp = 0; sp < kNumSpaces; ++sp) {
    const SpaceTraffic& t = s.traffic[sp];
    if (t.instructions == 0) continue;
    memory[spaceName(static_cast<ir::Space>(sp))] = {
        {"instructions", t.instructions},
        {"lane_accesses", t.laneAccesses},
        {"bytes", t.bytes},
    };
  }
  return memory;
}

nlohmann::json toJson(const profile::ValueSimilarityStats& s) {
  return {{"register_writes", countsJson(s.registerWrites)},
          {"local_stores", countsJson(s.localStores)},
          {"spill_stores", countsJson(s.spillStores)}};
}

nlohmann::json valueSimilarityTotals(const std::vector<LaunchReport>& reports) {
  std::optional<profile::ValueSimilarityStats> sum;
  for (const LaunchReport& r : reports) {
    if (!r.valueSimilarity) continue;
    if (!sum) sum.emplace();
    *sum += *r.valueSimilarity;
  }
  return sum ? toJson(*sum) : nlohmann::json(nullptr);
}

KernelStats sumStats(const std::vector<LaunchReport>& reports) {
  KernelStats sum;
  for (const LaunchReport& r : reports) sum.add(r.stats);
  return sum;
}

nlohmann::json toJson(const KernelStats& s) {
  nlohmann::json mix = mixJson(s);
  nlohmann::json memory = memoryJson(s);
  return {
      {"warp_instructions", s.warpInstructions},
      {"active_lanes", s.activeLanes},
      {"executed_lanes", s.executedLanes},
      {"simd_efficiency", s.simdEfficiency()},
      {"instruction_mix", mix},
      {"memory", memory},
      {"loads", s.loads},
      {"stores", s.stores},
      {"atomics", s.atomics},
      {"branches", s.branches},
      {"divergent_branches", s.divergentBranches},
  };
}

nlohmann::json timingTotals(const std::vector<LaunchReport>& reports) {
  std::vector<const nlohmann::json*> launches;
  for (const LaunchReport& r : reports) {
    if (r.timing) launches.push_back(r.timing.get());
  }
  if (launches.empty()) return nullptr;
  return timing::totalLaunchStats(launches);
}

namespace {

// The value profiler, when on, adds its counts.
void addValueSimilarity(nlohmann::json& out, const LaunchReport& r) {
  if (r.valueSimilarity) out["value_similarity"] = toJson(*r.valueSimilarity);
}

// A register-allocated kernel: what the allocator did (static) and the spill traffic it ran.
void addRegisterAllocation(nlohmann::json& out, const LaunchReport& r) {
  if (!r.allocation) return;
  const compiler::FunctionAllocation& a = *r.allocation;
  const SpillTraffic& d = r.stats.spill;
  out["register_allocation"] = {
      {"budget", r.allocationBudget},
      {"registers", r.resources.registers},
      {"kernel_registers", a.registers},
      {"virtual_registers", a.virtualRegisters},
      {"predicates", a.predicates},
      {"feasible_minimum", a.feasibleMinimum},
      {"spill_slots", a.spillSlots},
      {"spill_bytes", a.spillBytes},
      {"static_spill_loads", a.spillLoads},
      {"static_spill_stores", a.spillStores},
      {"static_spill_load_bytes", a.spillLoadBytes},
      {"static_spill_store_bytes", a.spillStoreBytes},
      {"call_saves", a.callSaves},
      {"rematerialised", a.rematerialised},
      {"coalesced_moves", a.coalescedMoves},
      {"dynamic_spill_loads", d.loads},
      {"dynamic_spill_stores", d.stores},
      {"dynamic_spill_load_bytes", d.loadBytes},
      {"dynamic_spill_store_bytes", d.storeBytes},
  };
}

// Timing mode adds cycles, simulated time and the timing model's statistics; a launch whose
// cycles kernel sampling estimated, the estimate and what it rests on instead of statistics.
void addTiming(nlohmann::json& out, const LaunchReport& r) {
  if (r.cycleEstimate) {
    out["cycles"] = r.cycles;
    out["simulated_seconds"] = r.simulatedSeconds;
    out["cycle_estimate"] = {{"timed_launches", r.cycleEstimate->timedLaunches},
                             {"thread_ipc", r.cycleEstimate->threadIpc},
                             {"spread_cycles", r.cycleEstimate->spreadCycles}};
    return;
  }
  if (!r.timing) return;
  out["cycles"] = r.cycles;
  out["simulated_seconds"] = r.simulatedSeconds;
  out["start_seconds"] = r.startSeconds;
  out["timing"] = *r.timing;
}

}  // namespace

nlohmann::json toJson(const LaunchReport& r) {
  nlohmann::json out = {
      {"kernel", r.kernel},
      {"grid", dim(r.grid)},
      {"block", dim(r.block)},
      {"dynamic_shared_bytes", r.dynamicSharedBytes},
      {"ok", r.result.ok},
      {"error", r.result.error},
      {"ctas", r.result.ctasExecuted},
      {"warp_instructions", r.result.warpInstructions},
      {"thread_instructions", r.result.threadInstructions},
      {"wall_seconds", r.wallSeconds},
      {"thread_instructions_per_second", r.threadInstructionsPerSecond()},
      {"resources", toJson(r.resources)},
      {"stats", toJson(r.stats)},
  };
  if (r.localityDescriptors != 0) out["locality_descriptors"] = r.localityDescriptors;
  if (r.atoms != 0)
    out["xmem"] = {{"atoms", r.atoms}, {"host_ops", r.atomOps}, {"device_ops", r.result.deviceAtomOps}};
  addRegisterAllocation(out, r);
  addValueSimilarity(out, r);
  addTiming(out, r);
  return out;
}

nlohmann::json kernelJson(const LaunchReport& r) {
  const KernelStats& s = r.stats;
  nlohmann::json out = {
      {"name", r.kernel},
      {"grid", dim(r.grid)},
      {"block", dim(r.block)},
      {"regs_per_thread", r.resources.registers},
      {"shared_bytes", r.resources.sharedBytes + r.dynamicSharedBytes},
      {"dynamic_shared_bytes", r.dynamicSharedBytes},
      {"local_bytes", r.resources.localBytes},
      {"resource_source", sourceName(r.resources.source)},
      {"warp_instructions", r.result.warpInstructions},
      {"thread_instructions", r.result.threadInstructions},
      {"simd_efficiency", s.simdEfficiency()},
      {"instruction_mix", mixJson(s)},
      {"memory", memoryJson(s)},
      {"loads", s.loads},
      {"stores", s.stores},
      {"atomics", s.atomics},
      {"branches", s.branches},
      {"divergent_branches", s.divergentBranches},
      {"wall_seconds", r.wallSeconds},
  };
  if (r.localityDescriptors != 0) out["locality_descriptors"] = r.localityDescriptors;
  if (r.atoms != 0)
    out["xmem"] = {{"atoms", r.atoms}, {"host_ops", r.atomOps}, {"device_ops", r.result.deviceAtomOps}};
  addRegisterAllocation(out, r);
  addValueSimilarity(out, r);
  addTiming(out, r);
  return out;
}

}  // namespace warpsim::runtime
