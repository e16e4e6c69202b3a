#include "sweep/slurm_executor.h"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "sweep/child_process.h"
#include "sweep/error.h"
#include "sweep/result.h"
#include "sweep/signal_waiter.h"

namespace warpsim::sweep {

namespace fs = std::filesystem;

namespace {

std::string firstLine(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "(no message)" : line;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string submit(const std::string& sbatch, const fs::path& script) {
  const Captured c = captureOutput(sbatch, {"--parsable", script.string()});
  if (!WIFEXITED(c.waitStatus) || WEXITSTATUS(c.waitStatus) != 0) {
    const int code = WIFEXITED(c.waitStatus) ? WEXITSTATUS(c.waitStatus) : 128 + WTERMSIG(c.waitStatus);
    throw Error(fmt::format("sweep: {} failed (exit status {}): {}", sbatch, code,
                            firstLine(c.err.empty() ? c.out : c.err)));
  }
  // "12345" or "12345;cluster".
  const std::string id = trim(c.out.substr(0, c.out.find(';')));
  if (id.empty() || !std::all_of(id.begin(), id.end(), ::isdigit)) {
    throw Error(fmt::format("sweep: {} printed '{}', not a job id", sbatch, firstLine(trim(c.out))));
  }
  return id;
}

}  // namespace

bool jobEnded(const std::string& squeue, const std::string& jobId) {
  const Captured c = captureOutput(squeue, {"-h", "-j", jobId, "-o", "%i"});
  if (WIFEXITED(c.waitStatus) && WEXITSTATUS(c.waitStatus) == 0) return trim(c.out).empty();
  return c.err.find("Invalid job id") != std::string::npos;
}

std::string findSqueue(const std::string& sbatchGiven) {
  std::string sbatch = findExecutable(sbatchGiven.empty() ? "sbatch" : sbatchGiven);
  if (!sbatch.empty()) {
    const std::string beside = (fs::path(sbatch).parent_path() / "squeue").string();
    if (!findExecutable(beside).empty()) return beside;
  }
  return findExecutable("squeue");
}

std::string findSbatch(const std::string& given) {
  if (!given.empty()) {
    const std::string found = findExecutable(given);
    if (found.empty()) throw Error(fmt::format("sweep: --sbatch '{}' is not an executable", given));
    return found;
  }
  const std::string found = findExecutable("sbatch");
  if (found.empty()) {
    throw Error("sweep: sbatch not found on $PATH (give --sbatch PATH, or run with "
                "--executor local)");
  }
  return found;
}

SlurmOutcome runOnSlurm(const OutDir& dir, const std::vector<const Point*>& points,
                        const JobScript& job, const SlurmOptions& options, Progress& progress) {
  if (points.empty()) throw Error("sweep: no points to submit");
  const std::string sbatch = findSbatch(options.sbatch);
  const std::string squeue = findSqueue(sbatch);

  std::vector<std::string> ids;
  for (const Point* p : points) ids.push_back(p->id);
  const auto tasks = chunkTasks(ids, options.chunk);
  JobScript script = job;
  script.tasks = tasks.size();
  fs::create_directories(dir.slurmDir());
  for (const Point* p : points) {  // a rerun's old result must not count as this job's
    std::error_code ec;
    fs::remove(dir.result(p->id), ec);
  }
  writeFileAtomically(dir.tasks(), tasksText(tasks));
  writeFileAtomically(dir.jobScript(), jobScript(script, options));
  fs::permissions(dir.jobScript(), fs::perms::owner_exec, fs::perm_options::add);

  SlurmOutcome outcome;
  outcome.jobId = submit(sbatch, dir.jobScript());
  writeFileAtomically(dir.jobId(), outcome.jobId + "\n");
  progress.message(fmt::format("sweep: submitted SLURM job {}: {} in {} ({})", outcome.jobId,
                               counted(points.size(), "point"), counted(tasks.size(), "array task"),
                               dir.jobScript().string()));
  if (options.noWait) return outcome;

  SignalWaiter signals;
  std::vector<const Point*> pending = points;
  progress.setRunning(pending.size());
  auto scan = [&] {
    std::vector<const Point*> still;
    for (const Point* p : pending) {
      std::optional<PointResult> r = readResult(dir.result(p->id));
      if (!r || r->id != p->id) {
        still.push_back(p);
        continue;
      }
      (r->status == Status::Pass ? outcome.passed : outcome.failed) += 1;
      progress.finished(*p, *r);
    }
    pending = std::move(still);
    progress.setRunning(pending.size());
  };
  const auto interval = std::chrono::duration<double>(std::max(options.poll, 0.05));
  auto nextPoll = std::chrono::steady_clock::now();
  while (true) {
    if (std::chrono::steady_clock::now() >= nextPoll) {
      scan();
      if (pending.empty()) break;
      if (!squeue.empty() && jobEnded(squeue, outcome.jobId)) {
        scan();  // what the last tasks wrote before the job ended
        for (const Point* p : pending) outcome.lost.push_back(p->id);
        break;
      }
      nextPoll = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(interval);
    }
    const double wait = std::chrono::duration<double>(nextPoll - std::chrono::steady_clock::now()).count();
    signals.wait(std::clamp(wait, 0.0, 1.0));
    if (signals.stopRequested()) {
      outcome.interrupted = true;
      break;
    }
    progress.tick();
  }
  return outcome;
}

}  // namespace warpsim::sweep
