// Test support: runs one workload of the suite at its small size on a device, keeping its
// launch reports and turning a launch error into text instead of an exception.
#pragma once
#include <exception>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/error.h"
#include "workloads/workload.h"

namespace warpsim::workloads::testing {

struct SmallRun {
  Outcome outcome;
  std::vector<runtime::LaunchReport> reports;
  std::string error;  // a launch error, with every line of the engine's message
};

inline SmallRun runSmall(runtime::Device& device, const Workload& w) {
  SmallRun run;
  WorkloadContext ctx{device, w.smallSize, 1, run.reports};
  try {
    run.outcome = w.run(ctx);
  } catch (const runtime::LaunchError& e) {
    run.error = e.details();
  } catch (const std::exception& e) {
    run.error = e.what();
  }
  return run;
}

}  // namespace warpsim::workloads::testing
