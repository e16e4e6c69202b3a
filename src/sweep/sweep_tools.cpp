#include "sweep/sweep_tools.h"

#include <fmt/format.h>

#include <map>

#include "sweep/error.h"
#include "sweep/local_executor.h"
#include "sweep/out_dir.h"
#include "sweep/points_file.h"
#include "sweep/report.h"
#include "sweep/slurm_job.h"
#include "sweep/table.h"

namespace warpsim::sweep {

namespace fs = std::filesystem;

int runTask(const fs::path& root, long task, unsigned jobs, const std::string& warpsim,
            bool terminal) {
  const OutDir dir(root);
  const PointList list = readPointList(dir.pointsList());
  std::map<std::string, const Point*> byId;
  for (const Point& p : list.points) byId[p.id] = &p;
  std::vector<const Point*> todo;
  size_t passedBefore = 0;
  for (const std::string& id : readTask(dir.tasks(), task)) {
    auto it = byId.find(id);
    if (it == byId.end()) {
      throw Error(fmt::format("sweep: task {}: point {} is not in {}", task, id,
                              dir.pointsList().string()));
    }
    const std::optional<PointResult> r = readResult(dir.result(id));
    if (r && r->id == id && r->status == Status::Pass) {
      ++passedBefore;  // a requeued task: what passed stays
      continue;
    }
    todo.push_back(it->second);
  }
  ProgressCounts start;
  start.passed = passedBefore;
  start.total = passedBefore + todo.size();
  Progress progress(stderr, terminal, list.axisNames, start, todo.size());
  const LocalOutcome outcome = runLocally(dir, todo, LocalOptions{warpsim, jobs}, progress);
  progress.close();
  fmt::print(stderr, "sweep task {}: {}: {} passed, {} did not pass{}\n", task,
             counted(start.total, "point"), passedBefore + outcome.passed, outcome.failed,
             outcome.interrupted ? ", stopped by a signal" : "");
  if (outcome.interrupted) return 130;
  return outcome.failed == 0 ? 0 : 3;
}

int printStatus(const fs::path& root, const std::string& warpsim) {
  const OutDir dir(root);
  const PointList list = readPointList(dir.pointsList());
  const std::vector<PointData> data = loadPointData(dir, list);
  fmt::print("{}: {}\n", root.string(), countsLine(countStatuses(data)));
  std::error_code ec;
  if (fs::exists(dir.jobId(), ec)) {
    std::string id = readFile(dir.jobId());
    fmt::print("SLURM job {} ({})\n", id.substr(0, id.find('\n')), dir.jobScript().string());
  }
  if (const std::string failures = failureReport(dir, list, data, warpsim); !failures.empty()) {
    fmt::print("did not pass:\n{}", failures);
  }
  return 0;
}

int rebuildTable(const fs::path& root, const Spec& spec) {
  const OutDir dir(root);
  const PointList list = readPointList(dir.pointsList());
  const std::vector<PointData> data = loadPointData(dir, list);
  const Table table = buildTable(list, data, spec.columns, spec.derived);
  writeFileAtomically(dir.tableCsv(), tableCsv(table));
  writeFileAtomically(dir.tableJsonl(), tableJsonl(table));
  const StatusCounts counts = countStatuses(data);
  fmt::print(stderr, "sweep: {} ({} rows; {})\n", dir.tableCsv().string(), table.rows.size(),
             countsLine(counts));
  if (counts.passed + counts.verifyFailed > 0) {
    for (const std::string& c : table.columnsNeverFound) {
      fmt::print(stderr, "sweep: warning: column '{}' is in no point's statistics (its cells are "
                         "empty)\n", c);
    }
  }
  return 0;
}

}  // namespace warpsim::sweep
