#include <fmt/format.h>

#include <exception>

#include "commands/commands.h"
#include "commands/run_one.h"
#include "runtime/error.h"

namespace warpsim::app {

int runAllWorkloads(const RunArgs& args) {
  checkMode(args.mode);
  if (!args.workload.empty()) {
    throw runtime::Error(fmt::format("run: --all runs every workload; drop '{}'", args.workload));
  }
  if (args.threadsPerBlock != 0 || args.sharedPerBlock != 0 || args.tileBytes != 0) {
    throw runtime::Error(fmt::format(
        "run: {} needs a workload, not --all (each workload accepts its own values; warpsim list "
        "--specs)",
        args.threadsPerBlock != 0 ? "--threads-per-block"
                                  : (args.sharedPerBlock != 0 ? "--shared-per-block" : "--tile-bytes")));
  }
  if (!args.statsFile.empty()) {
    throw runtime::Error("run: --stats writes one workload's statistics; it needs a workload, "
                         "not --all");
  }
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  size_t passed = 0;
  double wall = 0.0;
  for (const workloads::Workload& w : all) {
    // A workload that throws (a launch error, a bad size) fails; the others still run.
    try {
      RunSummary summary = runOne(w, args);
      wall += summary.wallSeconds;
      if (summary.outcome.passed) ++passed;
      fmt::print("{}", formatLine(summary));
    } catch (const std::exception& e) {
      std::string what = e.what();
      fmt::print("FAIL {:<15} error: {}\n", w.name, what.substr(0, what.find('\n')));
    }
    std::fflush(stdout);
  }
  fmt::print("{} of {} workloads passed (size {}, {} mode), {:.1f} s\n", passed, all.size(),
             args.size, args.mode, wall);
  return passed == all.size() ? 0 : 3;
}

}  // namespace warpsim::app
