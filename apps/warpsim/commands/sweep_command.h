// `warpsim sweep`: the experiment engine of src/sweep (docs/experiments.md) with what only the
// command line knows: the workload suite, the configuration search path, the version and the
// path of this binary (which every point runs).
#pragma once
#include <string>
#include <vector>

#include "sweep/slurm_job.h"

namespace warpsim::app {

struct SweepArgs {
  std::string spec;     // warpsim sweep SPEC
  std::string out;      // --out DIR
  unsigned jobs = 0;    // --jobs N (0: the machine's hardware threads)
  bool retryFailed = false;
  bool dryRun = false;
  std::string executor = "local";  // local or slurm
  sweep::SlurmOptions slurm;
  // warpsim sweep point|status|table DIR
  std::string dir;
  long task = -1;  // sweep point --task N
};

// `warpsim sweep SPEC --out DIR`: 0 when every point passed, 3 when some did not, 130 when
// interrupted.
int runSweepCommand(const SweepArgs& args);
// `warpsim sweep point DIR --task N`: one SLURM array task.
int sweepPointCommand(const SweepArgs& args);
// `warpsim sweep status DIR`
int sweepStatusCommand(const SweepArgs& args);
// `warpsim sweep table DIR`
int sweepTableCommand(const SweepArgs& args);

}  // namespace warpsim::app
