#include "sweep/sweep_run.h"

#include <fmt/format.h>

#include <chrono>

#include "sweep/dir_lock.h"
#include "sweep/error.h"
#include "sweep/local_executor.h"
#include "sweep/out_dir.h"
#include "sweep/points_file.h"
#include "sweep/report.h"
#include "sweep/shell_quote.h"
#include "sweep/slurm_executor.h"
#include "sweep/table.h"

namespace warpsim::sweep {

namespace fs = std::filesystem;

namespace {

void printDryRun(const PointList& list) {
  for (const Point& p : list.points) {
    std::vector<std::string> command{"warpsim"};
    command.insert(command.end(), p.argv.begin(), p.argv.end());
    fmt::print("{}  {}  {}\n", p.id, describeAxes(list.axisNames, p.axes), shellCommand(command));
  }
  fmt::print(stderr, "sweep: {} (--dry-run: nothing run)\n", counted(list.points.size(), "point"));
}

// A SLURM job of an earlier run that still runs would write the same points.
void checkNoJobRunning(const OutDir& dir, const std::string& sbatchGiven) {
  std::error_code ec;
  if (!fs::exists(dir.jobId(), ec)) return;
  const std::string squeue = findSqueue(sbatchGiven);
  std::string id = readFile(dir.jobId());
  id = id.substr(0, id.find('\n'));
  if (!squeue.empty() && !id.empty() && !jobEnded(squeue, id)) {
    throw Error(fmt::format("sweep: SLURM job {} of {} is still running (squeue); wait for it "
                            "or cancel it (scancel {})", id, dir.root().string(), id));
  }
}

}  // namespace

int runSweep(const Spec& spec, const std::string& specText, const SweepOptions& o) {
  PointList list;
  for (const Axis& a : spec.axes) list.axisNames.push_back(a.name);
  list.points = expandGrid(spec, o.version);
  if (o.dryRun) {
    printDryRun(list);
    return 0;
  }
  if (o.slurm) {  // what the SLURM executor needs, before anything is written
    findSbatch(o.slurmOptions.sbatch);
    jobScript(JobScript{spec.name, o.warpsim, fs::absolute(o.out), fs::current_path(), 1},
              o.slurmOptions);
  }
  std::error_code ec;
  fs::create_directories(o.out / "points", ec);
  if (ec) throw Error(fmt::format("sweep: {}: cannot create: {}", o.out.string(), ec.message()));
  const OutDir dir(fs::absolute(o.out));
  DirLock lock(dir.lock());
  checkNoJobRunning(dir, o.slurm ? o.slurmOptions.sbatch : "");
  writeFileAtomically(dir.spec(), specText);
  writeFileAtomically(dir.pointsList(), pointsJsonl(list));

  std::vector<const Point*> todo;
  ProgressCounts start;
  start.total = list.points.size();
  size_t failedKept = 0;
  for (const Point& p : list.points) {
    const std::optional<PointResult> r = readResult(dir.result(p.id));
    if (r && r->id == p.id && r->status == Status::Pass) {
      ++start.passed;
      continue;
    }
    if (r && r->id == p.id && !o.retryFailed) {
      ++start.failed;
      ++failedKept;
      continue;
    }
    todo.push_back(&p);
  }
  const unsigned jobs = o.jobs == 0 ? 1 : o.jobs;
  std::string plan = fmt::format("sweep {}: {}, {} already passed", spec.name,
                                 counted(start.total, "point"), start.passed);
  if (failedKept != 0) plan += fmt::format(", {} failed before (--retry-failed reruns them)", failedKept);
  plan += o.slurm ? fmt::format("; {} to run on SLURM", todo.size())
                  : fmt::format("; {} to run, {} at a time", todo.size(), jobs);
  fmt::print(stderr, "{}; results in {}\n", plan, dir.root().string());

  Progress progress(stderr, o.terminal, list.axisNames, start, todo.size(),
                    o.slurm ? "pending" : "running");
  const auto began = std::chrono::steady_clock::now();
  bool interrupted = false;
  std::vector<std::string> lost;
  std::string jobId;
  if (!todo.empty() && o.slurm) {
    JobScript job{spec.name, o.warpsim, dir.root(), fs::current_path(), 0};
    const SlurmOutcome so = runOnSlurm(dir, todo, job, o.slurmOptions, progress);
    jobId = so.jobId;
    if (o.slurmOptions.noWait) {
      progress.close();
      fmt::print(stderr, "sweep: not waiting (--no-wait); see `warpsim sweep status {}`, then "
                         "`warpsim sweep table {}`\n", dir.root().string(), dir.root().string());
      return 0;
    }
    interrupted = so.interrupted;
    lost = so.lost;
  } else if (!todo.empty()) {
    interrupted = runLocally(dir, todo, LocalOptions{o.warpsim, jobs}, progress).interrupted;
  }
  progress.close();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();

  const std::vector<PointData> data = loadPointData(dir, list);
  const Table table = buildTable(list, data, spec.columns, spec.derived);
  writeFileAtomically(dir.tableCsv(), tableCsv(table));
  writeFileAtomically(dir.tableJsonl(), tableJsonl(table));
  const StatusCounts counts = countStatuses(data);
  fmt::print(stderr, "sweep {}: ran {} in {}; {}; table: {}\n", spec.name,
             counted(progress.finishedThisRun(), "point"), formatDuration(seconds), countsLine(counts),
             dir.tableCsv().string());
  if (counts.passed + counts.verifyFailed > 0) {
    for (const std::string& c : table.columnsNeverFound) {
      fmt::print(stderr, "sweep: warning: column '{}' is in no point's statistics (its cells are "
                         "empty)\n", c);
    }
  }
  if (const std::string failures = failureReport(dir, list, data, o.warpsim); !failures.empty()) {
    fmt::print(stderr, "sweep: {} did not pass:\n{}",
               counted(counts.failed + counts.verifyFailed, "point"), failures);
  }
  if (!lost.empty()) {
    fmt::print(stderr, "sweep: {} {} no result although SLURM job {} ended (see {}/task-{}_*.out); "
                       "run the sweep again to resubmit them\n",
               counted(lost.size(), "point"), lost.size() == 1 ? "has" : "have", jobId,
               dir.slurmDir().string(), jobId);
  }
  if (interrupted) {
    fmt::print(stderr, "{}", o.slurm ? fmt::format("sweep: stopped waiting; SLURM job {} goes on "
                                             "(scancel {} stops it)\n", jobId, jobId)
                               : std::string("sweep: stopped; the runs in flight were killed and "
                                             "run again next time\n"));
    return 130;
  }
  return counts.passed == counts.total() ? 0 : 3;
}

}  // namespace warpsim::sweep
