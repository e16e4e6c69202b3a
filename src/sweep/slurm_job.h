// The SLURM executor's files: the points to run split into array tasks of `chunk` points
// (DIR/slurm/tasks.txt, one line per task, the ids separated by spaces) and the sbatch script
// whose task N runs `warpsim sweep point DIR --task N` (DIR/slurm/job.sh).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::sweep {

struct SlurmOptions {
  std::string partition;     // --partition (empty: the cluster's default)
  std::string time;          // --time limit of one array task
  std::string mem;           // --mem of one array task
  unsigned cpusPerTask = 1;  // --cpus-per-task; a task runs that many points at once
  unsigned maxParallel = 0;  // the %P of --array (0: no limit)
  unsigned chunk = 1;        // points per array task
  std::vector<std::string> extra;  // further sbatch options, one #SBATCH line each
  bool noWait = false;       // submit and return
  std::string sbatch;        // the sbatch to use (empty: $PATH)
  double poll = 10.0;        // seconds between looks at the results and squeue
};

// The ids split into tasks of `chunk` (the last may be shorter).
std::vector<std::vector<std::string>> chunkTasks(const std::vector<std::string>& ids, unsigned chunk);
std::string tasksText(const std::vector<std::vector<std::string>>& tasks);
// The ids of task `task`; Error "sweep: PATH: no task N (the job has M)" when out of range.
std::vector<std::string> readTask(const std::filesystem::path& tasksFile, long task);

struct JobScript {
  std::string name;              // the sweep's name (the job name is "warpsim-sweep-NAME")
  std::string warpsim;           // absolute path of the simulator
  std::filesystem::path dir;     // absolute output directory
  std::filesystem::path workdir; // where the points run (the submitter's directory)
  size_t tasks = 0;
};
// The sbatch script. Throws Error when a path cannot go into an #SBATCH line (whitespace, '%').
std::string jobScript(const JobScript& job, const SlurmOptions& options);

}  // namespace warpsim::sweep
