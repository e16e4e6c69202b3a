// Test support: runs one workload of the suite at its small size on a bundled configuration
// with each of several overlays in turn (a mechanism's suite test), checking that it verifies
// and handing every launch's timing statistics to the caller's checks.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "runtime/device.h"
#include "workloads/testing/run_small.h"
#include "workloads/workload.h"

namespace warpsim::workloads::testing {

// For each overlay (a name, or several joined by '+', applied in that order): a timing device on
// `config` with the overlay and `sets`, the workload `name` at its small size, no launch error,
// verification passed, then check(overlay, launch report) for every launch.
inline void runWithEachOverlay(
    const std::string& name, const std::string& config, const std::vector<std::string>& overlays,
    const std::function<void(const std::string&, const runtime::LaunchReport&)>& check,
    const std::vector<std::string>& sets = {}) {
  std::vector<Workload> all = allWorkloads();
  const Workload* w = findWorkload(all, name);
  ASSERT_NE(w, nullptr) << name;
  for (const std::string& overlay : overlays) {
    runtime::DeviceOptions o;
    o.resources = runtime::DeviceOptions::Resources::Estimate;
    o.config = config;
    o.overlays.clear();
    for (size_t start = 0;;) {
      const size_t plus = overlay.find('+', start);
      o.overlays.push_back(overlay.substr(start, plus - start));
      if (plus == std::string::npos) break;
      start = plus + 1;
    }
    o.sets = sets;
    runtime::Device device(o);
    const SmallRun run = runSmall(device, *w);
    ASSERT_EQ(run.error, "") << overlay;
    EXPECT_TRUE(run.outcome.passed) << overlay << ": " << run.outcome.detail;
    for (const runtime::LaunchReport& r : run.reports) check(overlay, r);
  }
}

}  // namespace warpsim::workloads::testing
