// `warpsim sweep SPEC --out DIR`: expands the spec, writes DIR's plan (spec.toml, points.jsonl),
// runs the points that have no passing result yet (local_executor.h or slurm_executor.h),
// then writes the table and lists the points that did not pass.
#pragma once
#include <filesystem>
#include <string>

#include "sweep/slurm_job.h"
#include "sweep/spec.h"

namespace warpsim::sweep {

struct SweepOptions {
  std::filesystem::path out;
  std::string warpsim;  // absolute path of the simulator the points run
  std::string version;  // the simulator's version (part of every point id)
  unsigned jobs = 1;    // local executor: runs at once
  bool retryFailed = false;
  bool dryRun = false;  // print the points (id, axes, command) on stdout and run nothing
  bool slurm = false;
  SlurmOptions slurmOptions;
  bool terminal = false;  // stderr is a terminal: one progress line redrawn in place
};

// Exit status: 0 when every point passed, 3 when some failed, did not verify or (SLURM) ended
// without a result, 130 when SIGINT or SIGTERM stopped it. Errors are thrown (Error).
// `specText` is copied to DIR/spec.toml.
int runSweep(const Spec& spec, const std::string& specText, const SweepOptions& options);

}  // namespace warpsim::sweep
