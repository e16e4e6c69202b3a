// The local executor: a pool of child processes on this machine, at most `jobs` at a time, each
// running one point (point_job.h). Also what a SLURM array task uses for its chunk of points.
#pragma once
#include <string>
#include <vector>

#include "sweep/grid.h"
#include "sweep/out_dir.h"
#include "sweep/progress.h"

namespace warpsim::sweep {

struct LocalOptions {
  std::string warpsim;  // the simulator binary the points run
  unsigned jobs = 1;
};

struct LocalOutcome {
  size_t passed = 0;
  size_t failed = 0;         // failed or did not verify
  bool interrupted = false;  // SIGINT or SIGTERM: the runs in flight were killed
};

// Runs the points in order. On SIGINT or SIGTERM it starts nothing more, kills the runs in
// flight (their points stay without a result) and returns with `interrupted` set.
LocalOutcome runLocally(const OutDir& dir, const std::vector<const Point*>& points,
                        const LocalOptions& options, Progress& progress);

}  // namespace warpsim::sweep
