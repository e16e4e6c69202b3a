// The outcome of `warpsim run`: every launch of one example, its verification and timing, as
// readable text and as JSON (docs/stats.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "examples/example.h"
#include "runtime/launch_report.h"

namespace warpsim::app {

struct RunSummary {
  std::string example;
  uint64_t size = 0;
  uint64_t seed = 0;
  std::vector<runtime::LaunchReport> launches;
  ExampleOutcome outcome;
  double wallSeconds = 0.0;  // the whole example: input generation, loading, launches, checks

  uint64_t warpInstructions() const;
  uint64_t threadInstructions() const;
  double simulationSeconds() const;  // sum of the launches' wall time
};

// Table of launches, totals and the verdict. `detail` adds per-kernel instruction mix, memory
// traffic and branch divergence.
std::string formatSummary(const RunSummary& s, bool detail);

nlohmann::json summaryJson(const RunSummary& s);

}  // namespace warpsim::app
