// The SLURM executor: writes DIR/slurm/tasks.txt and job.sh (slurm_job.h), submits the job with
// `sbatch --parsable` and, unless told not to, waits for it: it looks at the points' result
// files every `poll` seconds (reporting each new one to the progress display) and asks `squeue
// -j JOB` whether the job still exists, when squeue is there (beside sbatch, else on $PATH).
#pragma once
#include <string>
#include <vector>

#include "sweep/grid.h"
#include "sweep/out_dir.h"
#include "sweep/progress.h"
#include "sweep/slurm_job.h"

namespace warpsim::sweep {

struct SlurmOutcome {
  std::string jobId;
  size_t passed = 0;
  size_t failed = 0;
  std::vector<std::string> lost;  // points without a result after the job ended
  bool interrupted = false;       // SIGINT or SIGTERM while waiting (the job goes on)
};

// The sbatch to run: `given` (a path, or a name looked up in $PATH), else "sbatch" from $PATH.
// Throws Error with one line when there is none.
std::string findSbatch(const std::string& given);

// The squeue beside the sbatch `sbatchGiven` names (see findSbatch), else the one on $PATH, else "".
std::string findSqueue(const std::string& sbatchGiven);
// Whether squeue says the job is gone (false when it cannot tell).
bool jobEnded(const std::string& squeue, const std::string& jobId);

// Submits `points` (none: throws) and waits unless options.noWait. Throws Error when sbatch
// fails or prints no job id.
SlurmOutcome runOnSlurm(const OutDir& dir, const std::vector<const Point*>& points,
                        const JobScript& job, const SlurmOptions& options, Progress& progress);

}  // namespace warpsim::sweep
