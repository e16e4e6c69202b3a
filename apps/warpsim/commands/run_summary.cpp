#include "commands/run_summary.h"

#include <fmt/format.h>

#include "runtime/report_json.h"

namespace warpsim::app {

uint64_t RunSummary::warpInstructions() const {
  uint64_t n = 0;
  for (const runtime::LaunchReport& r : launches) n += r.warpInstructions();
  return n;
}

uint64_t RunSummary::threadInstructions() const {
  uint64_t n = 0;
  for (const runtime::LaunchReport& r : launches) n += r.threadInstructions();
  return n;
}

double RunSummary::simulationSeconds() const {
  double t = 0;
  for (const runtime::LaunchReport& r : launches) t += r.wallSeconds;
  return t;
}

double RunSummary::simdEfficiency() const { return runtime::sumStats(launches).simdEfficiency(); }

double RunSummary::threadInstructionsPerSecond() const {
  return wallSeconds > 0 ? static_cast<double>(threadInstructions()) / wallSeconds : 0.0;
}

std::string RunSummary::configName() const {
  if (!config.empty()) return config;
  return fmt::format("{}-{}sm", mode, sms);
}

uint64_t RunSummary::cycles() const {
  uint64_t n = 0;
  for (const runtime::LaunchReport& r : launches) n += r.cycles;
  return n;
}

nlohmann::json RunSummary::timingTotals() const { return runtime::timingTotals(launches); }

RunSummary::Estimates RunSummary::estimates() const {
  Estimates e;
  for (const runtime::LaunchReport& r : launches) {
    if (!r.cycleEstimate) continue;
    ++e.launches;
    e.cycles += r.cycles;
    e.spreadCycles += r.cycleEstimate->spreadCycles;
  }
  return e;
}

namespace {

std::string dims(const func::Dim3& d) { return fmt::format("{},{},{}", d.x, d.y, d.z); }

std::string bytes(uint64_t b) {
  if (b >= (10u << 20)) return fmt::format("{} MiB", b >> 20);
  if (b >= (10u << 10)) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

std::string rate(double perSecond) {
  if (perSecond >= 1e9) return fmt::format("{:.2f} G", perSecond / 1e9);
  if (perSecond >= 1e6) return fmt::format("{:.2f} M", perSecond / 1e6);
  if (perSecond >= 1e3) return fmt::format("{:.2f} k", perSecond / 1e3);
  return fmt::format("{:.0f} ", perSecond);
}

// " uniform 55.6% affine 44.4% (5.6% divergent)": each class with words, as a share of all
// words, and the share written by divergent instructions; " none" without words.
std::string similarityShares(const profile::SimilarityCounts& c) {
  const uint64_t total = c.total();
  if (total == 0) return " none";
  auto percent = [total](uint64_t n) {
    return 100.0 * static_cast<double>(n) / static_cast<double>(total);
  };
  std::string out;
  uint64_t divergent = 0;
  for (size_t k = 0; k < profile::kNumWordClasses; ++k) {
    const uint64_t n = c.nonDivergent[k] + c.divergent[k];
    divergent += c.divergent[k];
    if (n != 0) {
      out += fmt::format(" {} {:.1f}%", profile::wordClassName(static_cast<profile::WordClass>(k)),
                         percent(n));
    }
  }
  return out + fmt::format(" ({:.1f}% divergent)", percent(divergent));
}

void appendDetail(std::string& out, const runtime::LaunchReport& r) {
  const runtime::KernelStats& s = r.stats;
  out += fmt::format("  {}:\n    mix:", r.kernel);
  for (size_t c = 0; c < runtime::kNumOpClasses; ++c) {
    if (s.classMix[c] == 0) continue;
    out += fmt::format(" {} {:.1f}%", ir::opClassName(static_cast<ir::OpClass>(c)),
                       100.0 * static_cast<double>(s.classMix[c]) /
                           static_cast<double>(std::max<uint64_t>(1, s.warpInstructions)));
  }
  out += "\n    memory:";
  bool any = false;
  for (size_t sp = 0; sp < runtime::kNumSpaces; ++sp) {
    const runtime::SpaceTraffic& t = s.traffic[sp];
    if (t.instructions == 0) continue;
    any = true;
    out += fmt::format(" {} {} inst / {}", runtime::spaceName(static_cast<ir::Space>(sp)),
                       t.instructions, bytes(t.bytes));
  }
  if (!any) out += " none";
  out += fmt::format("\n    branches: {} ({} divergent); loads {} stores {} atomics {}\n",
                     s.branches, s.divergentBranches, s.loads, s.stores, s.atomics);
  if (r.valueSimilarity) {
    out += fmt::format("    values: registers{}; local stores{}\n",
                       similarityShares(r.valueSimilarity->registerWrites),
                       similarityShares(r.valueSimilarity->localStores));
  }
}

// Register-allocated runs: the budget and the spill traffic the kernels ran.
void appendRegisterAllocation(std::string& out, const RunSummary& s) {
  const runtime::LaunchReport* allocated = nullptr;
  runtime::SpillTraffic spill;
  for (const runtime::LaunchReport& r : s.launches) {
    if (!r.allocation) continue;
    allocated = &r;
    spill.loads += r.stats.spill.loads;
    spill.stores += r.stats.spill.stores;
    spill.loadBytes += r.stats.spill.loadBytes;
    spill.storeBytes += r.stats.spill.storeBytes;
  }
  if (allocated == nullptr) return;
  out += fmt::format(
      "register allocation: budget {}; spill loads {} ({}), spill stores {} ({}), {:.2f} per "
      "1000 warp-instructions\n",
      allocated->allocationBudget, spill.loads, bytes(spill.loadBytes), spill.stores,
      bytes(spill.storeBytes),
      1000.0 * static_cast<double>(spill.loads + spill.stores) /
          static_cast<double>(std::max<uint64_t>(1, s.warpInstructions())));
}

double number(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

// Timing mode: cycles, IPC, occupancy, cache hit rates, DRAM use and (when the configuration
// has an energy table) energy, over all launches.
void appendTiming(std::string& out, const RunSummary& s) {
  const nlohmann::json t = s.timingTotals();
  if (t.is_null()) return;
  out += fmt::format("cycles: {} ({:.3f} us simulated), IPC {:.2f} warp-inst/cycle ({:.1f} "
                     "thread-inst/cycle), occupancy {:.1f}% achieved of {:.1f}%\n",
                     s.cycles(), number(t, "simulated_ns") / 1e3, number(t, "ipc"),
                     number(t, "thread_ipc"), 100.0 * number(t["occupancy"], "achieved"),
                     100.0 * number(t["occupancy"], "theoretical"));
  out += fmt::format("hit rates: L1D {:.1f}%, L2 {:.1f}%; DRAM bandwidth {:.1f}% used, row-buffer "
                     "hits {:.1f}%\n",
                     100.0 * number(t, "l1d_hit_rate"), 100.0 * number(t, "l2_hit_rate"),
                     100.0 * number(t, "dram_bandwidth_utilisation"),
                     100.0 * number(t, "dram_row_buffer_hit_rate"));
  if (const RunSummary::Estimates e = s.estimates(); e.launches != 0) {
    out += fmt::format("kernel sampling: {} of {} launches estimated, {} of the {} cycles (spread "
                       "+-{}); the rates here and below are the timed launches'\n",
                       e.launches, s.launches.size(), e.cycles, s.cycles(), e.spreadCycles);
  }
  if (t.contains("energy")) {
    const nlohmann::json& e = t["energy"];
    out += fmt::format("energy: {:.3f} uJ ({:.1f} W average, {:.1f}% static)\n",
                       number(e, "total_nj") / 1e3, number(e, "average_power_w"),
                       number(e, "total_nj") > 0
                           ? 100.0 * number(e, "static_nj") / number(e, "total_nj")
                           : 0.0);
  }
}

// ", 128 threads/block, 16384 B shared/block": the resource specification asked for, if any.
std::string specText(const RunSummary& s) {
  std::string text;
  if (s.threadsPerBlock != 0) text += fmt::format(", {} threads/block", s.threadsPerBlock);
  if (s.sharedPerBlock != 0) text += fmt::format(", {} B shared/block", s.sharedPerBlock);
  if (s.tileBytes != 0) text += fmt::format(", {} B tiles", s.tileBytes);
  return text;
}

}  // namespace

std::string formatSummary(const RunSummary& s, bool detail) {
  std::string out;
  out += fmt::format("workload {} [{}], size {} = {} {}, seed {}{}, {} mode, {}{} SMs\n\n",
                     s.workload, s.category, s.sizeName, s.size, s.sizeMeaning, s.seed,
                     specText(s), s.mode, s.config.empty() ? "" : s.config + ", ", s.sms);
  const bool timing = s.cycles() != 0;  // a cycles column in timing mode
  out += fmt::format("{:<18} {:>12} {:>10} {:>5} {:>9} {:>9} {:<9} {:>14} {:>15} {:>6} {:>9}{}\n",
                     "kernel", "grid", "block", "regs", "shared", "local", "(source)",
                     "warp inst", "thread inst", "SIMD", "time",
                     timing ? fmt::format(" {:>12}", "cycles") : "");
  for (const runtime::LaunchReport& r : s.launches) {
    const runtime::ResourceUsage& u = r.resources;
    out += fmt::format(
        "{:<18} {:>12} {:>10} {:>5} {:>9} {:>9} {:<9} {:>14} {:>15} {:>5.1f}% {:>7.3f} s{}\n",
        r.kernel, dims(r.grid), dims(r.block), u.registers,
        bytes(u.sharedBytes + r.dynamicSharedBytes), bytes(u.localBytes),
        runtime::sourceName(u.source), r.warpInstructions(), r.threadInstructions(),
        100.0 * r.stats.simdEfficiency(), r.wallSeconds,
        timing ? fmt::format(" {:>12}", r.cycles) : "");
  }
  if (detail) {
    out += "\n";
    for (const runtime::LaunchReport& r : s.launches) appendDetail(out, r);
  }
  out += fmt::format(
      "\nkernels launched: {}\ninstructions: {} warp, {} thread\nSIMD efficiency: {:.1f}%\n",
      s.launches.size(), s.warpInstructions(), s.threadInstructions(),
      100.0 * s.simdEfficiency());
  appendRegisterAllocation(out, s);
  appendTiming(out, s);
  out += fmt::format("wall time: {:.3f} s (simulating {:.3f} s), {}thread-inst/s\n",
                     s.wallSeconds, s.simulationSeconds(),
                     rate(s.threadInstructionsPerSecond()));
  out += fmt::format("verification: {} ({})\n", s.outcome.passed ? "PASS" : "FAIL",
                     s.outcome.detail);
  return out;
}

std::string formatLine(const RunSummary& s) {
  std::string line = fmt::format(
      "{} {:<15} {:<11} {:>10} {:>4} kernels {:>13} thread-inst {:>5.1f}% SIMD {:>8.3f} s "
      "{:>9}thread-inst/s",
      s.outcome.passed ? "PASS" : "FAIL", s.workload, s.category, s.size, s.launches.size(),
      s.threadInstructions(), 100.0 * s.simdEfficiency(), s.wallSeconds,
      rate(s.threadInstructionsPerSecond()));
  if (s.cycles() != 0) line += fmt::format(" {:>12} cycles", s.cycles());
  if (!s.outcome.passed) line += "  (" + s.outcome.detail + ")";
  return line + "\n";
}

nlohmann::json summaryJson(const RunSummary& s) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const runtime::LaunchReport& r : s.launches) kernels.push_back(runtime::kernelJson(r));
  runtime::KernelStats sum = runtime::sumStats(s.launches);
  nlohmann::json out = {
      {"warpsim_version", WARPSIM_VERSION},
      {"workload", s.workload},
      {"category", s.category},
      {"size", s.sizeName},
      {"problem_size", s.size},
      {"size_meaning", s.sizeMeaning},
      {"seed", s.seed},
      {"mode", s.mode},
      {"config", {{"name", s.configName()}, {"sms", s.sms}, {"resources", s.resourceSource}}},
      {"verified", s.outcome.passed},
      {"verification_detail", s.outcome.detail},
      {"kernels", kernels},
      {"totals",
       {{"kernels", s.launches.size()},
        {"warp_instructions", s.warpInstructions()},
        {"thread_instructions", s.threadInstructions()},
        {"simd_efficiency", sum.simdEfficiency()},
        {"instruction_mix", runtime::mixJson(sum)},
        {"memory", runtime::memoryJson(sum)},
        {"loads", sum.loads},
        {"stores", sum.stores},
        {"atomics", sum.atomics},
        {"branches", sum.branches},
        {"divergent_branches", sum.divergentBranches}}},
      {"host",
       {{"wall_seconds", s.wallSeconds},
        {"simulation_seconds", s.simulationSeconds()},
        {"thread_instructions_per_second", s.threadInstructionsPerSecond()}}},
  };
  if (s.threadsPerBlock != 0) out["threads_per_block"] = s.threadsPerBlock;
  if (s.sharedPerBlock != 0) out["shared_per_block"] = s.sharedPerBlock;
  if (s.tileBytes != 0) out["tile_bytes"] = s.tileBytes;
  if (nlohmann::json values = runtime::valueSimilarityTotals(s.launches); !values.is_null()) {
    out["totals"]["value_similarity"] = std::move(values);
  }
  if (nlohmann::json timing = s.timingTotals(); !timing.is_null()) {
    out["totals"]["cycles"] = s.cycles();
    if (const RunSummary::Estimates e = s.estimates(); e.launches != 0) {
      out["totals"]["cycle_estimates"] = {
          {"launches", e.launches}, {"cycles", e.cycles}, {"spread_cycles", e.spreadCycles}};
    }
    out["totals"]["timing"] = std::move(timing);
  }
  return out;
}

}  // namespace warpsim::app
