// The outcome of `warpsim run`: every launch of one workload, its verification and timing, as
// readable text, as one line (`run --all`) and as JSON (docs/stats.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/launch_report.h"
#include "workloads/workload.h"

namespace warpsim::app {

struct RunSummary {
  std::string workload;
  std::string category;
  std::string sizeName;     // "small", "default", "large" or "custom"
  uint64_t size = 0;        // the problem size the driver ran at
  std::string sizeMeaning;  // "elements", "matrix edge", ...
  uint64_t seed = 0;
  // The resource specification asked for (workloads::SpecSpace; 0: the workload's own choice).
  uint32_t threadsPerBlock = 0;
  uint32_t sharedPerBlock = 0;  // bytes
  uint32_t tileBytes = 0;       // a tiled workload's tile (bytes)
  std::string mode;         // "timing" or "functional"
  std::string config;       // the GPU configuration's name; empty: none (functional default)
  uint32_t sms = 0;         // SMs the CTAs were spread over
  std::string resourceSource;  // "ptxas" or "estimate"
  std::vector<runtime::LaunchReport> launches;
  workloads::Outcome outcome;
  double wallSeconds = 0.0;  // the whole workload: input generation, loading, launches, checks

  uint64_t warpInstructions() const;
  uint64_t threadInstructions() const;
  double simulationSeconds() const;  // sum of the launches' wall time
  double simdEfficiency() const;     // over every launch
  double threadInstructionsPerSecond() const;  // over wallSeconds
  // The configuration's name ("gtx480"), the same in both modes; "<mode>-<N>sm" only when a
  // summary was made without one.
  std::string configName() const;
  // Timing mode: core cycles summed over the launches, and the timing statistics of all
  // launches together (runtime::timingTotals; null in functional mode).
  uint64_t cycles() const;
  nlohmann::json timingTotals() const;
  // Kernel sampling: the launches whose cycles were estimated, their cycles and spreads, summed.
  struct Estimates {
    size_t launches = 0;
    uint64_t cycles = 0, spreadCycles = 0;
  };
  Estimates estimates() const;
};

// Table of launches, totals and the verdict. `detail` adds per-kernel instruction mix, memory
// traffic, branch divergence and, when profiled, the value-similarity shares.
std::string formatSummary(const RunSummary& s, bool detail);
// "PASS sgemm-tiled  ..." : one line of `warpsim run --all`.
std::string formatLine(const RunSummary& s);

nlohmann::json summaryJson(const RunSummary& s);

}  // namespace warpsim::app
