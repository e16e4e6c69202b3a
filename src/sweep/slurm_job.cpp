#include "sweep/slurm_job.h"

#include <fmt/format.h>

#include <sstream>

#include "sweep/error.h"
#include "sweep/out_dir.h"
#include "sweep/shell_quote.h"

namespace warpsim::sweep {

std::vector<std::vector<std::string>> chunkTasks(const std::vector<std::string>& ids,
                                                 unsigned chunk) {
  if (chunk == 0) chunk = 1;
  std::vector<std::vector<std::string>> tasks;
  for (size_t i = 0; i < ids.size(); i += chunk) {
    tasks.emplace_back(ids.begin() + static_cast<long>(i),
                       ids.begin() + static_cast<long>(std::min(ids.size(), i + chunk)));
  }
  return tasks;
}

std::string tasksText(const std::vector<std::vector<std::string>>& tasks) {
  std::string out;
  for (const auto& task : tasks) {
    std::string line;
    for (const std::string& id : task) line += (line.empty() ? "" : " ") + id;
    out += line + "\n";
  }
  return out;
}

std::vector<std::string> readTask(const std::filesystem::path& tasksFile, long task) {
  std::istringstream in(readFile(tasksFile));
  std::string line;
  long count = 0;
  std::vector<std::string> ids;
  while (std::getline(in, line)) {
    if (count++ != task) continue;
    std::istringstream words(line);
    for (std::string id; words >> id;) ids.push_back(id);
  }
  if (task < 0 || task >= count) {
    throw Error(fmt::format("sweep: {}: no task {} (the job has {})", tasksFile.string(), task,
                            count));
  }
  return ids;
}

namespace {

// An #SBATCH value: no quoting is possible there, so refuse what would break the line.
std::string sbatchValue(const std::string& what, const std::string& value) {
  if (value.find_first_of(" \t\r\n%") != std::string::npos) {
    throw Error(fmt::format("sweep: {} '{}' cannot go into an #SBATCH line (no whitespace or "
                            "'%' allowed)", what, value));
  }
  return value;
}

}  // namespace

std::string jobScript(const JobScript& job, const SlurmOptions& options) {
  const std::string dir = sbatchValue("the output directory", job.dir.string());
  const std::string slurmDir = dir + "/slurm";
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# warpsim sweep '{}': {} array tasks of up to {} points (DIR/slurm/tasks.txt).\n",
                   job.name, job.tasks, options.chunk);
  s += fmt::format("#SBATCH --job-name={}\n", sbatchValue("the sweep name", "warpsim-sweep-" + job.name));
  std::string array = fmt::format("0-{}", job.tasks - 1);
  if (options.maxParallel != 0) array += fmt::format("%{}", options.maxParallel);
  s += fmt::format("#SBATCH --array={}\n", array);
  s += fmt::format("#SBATCH --output={}/task-%A_%a.out\n", slurmDir);
  s += fmt::format("#SBATCH --chdir={}\n", sbatchValue("the working directory", job.workdir.string()));
  s += fmt::format("#SBATCH --cpus-per-task={}\n", options.cpusPerTask);
  if (!options.partition.empty()) {
    s += fmt::format("#SBATCH --partition={}\n", sbatchValue("--partition", options.partition));
  }
  if (!options.time.empty()) s += fmt::format("#SBATCH --time={}\n", sbatchValue("--time", options.time));
  if (!options.mem.empty()) s += fmt::format("#SBATCH --mem={}\n", sbatchValue("--mem", options.mem));
  for (const std::string& extra : options.extra) {
    s += fmt::format("#SBATCH {}\n", sbatchValue("--slurm-option", extra));
  }
  s += fmt::format("exec {} sweep point {} --task \"$SLURM_ARRAY_TASK_ID\" --jobs {}\n",
                   shellQuote(job.warpsim), shellQuote(dir), options.cpusPerTask);
  return s;
}

}  // namespace warpsim::sweep
