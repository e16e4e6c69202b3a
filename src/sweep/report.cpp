#include "sweep/report.h"

#include <fmt/format.h>

#include "sweep/progress.h"
#include "sweep/shell_quote.h"

namespace warpsim::sweep {

StatusCounts countStatuses(const std::vector<PointData>& data) {
  StatusCounts c;
  for (const PointData& d : data) {
    if (!d.result) {
      ++c.missing;
    } else if (d.result->status == Status::Pass) {
      ++c.passed;
    } else if (d.result->status == Status::VerifyFailed) {
      ++c.verifyFailed;
    } else {
      ++c.failed;
    }
  }
  return c;
}

std::string countsLine(const StatusCounts& c) {
  return fmt::format("{}: {} passed, {} failed, {} did not verify, {} missing",
                     counted(c.total(), "point"), c.passed, c.failed, c.verifyFailed, c.missing);
}

std::string failureReport(const OutDir& dir, const PointList& list,
                          const std::vector<PointData>& data, const std::string& warpsim) {
  std::string out;
  for (size_t i = 0; i < list.points.size(); ++i) {
    const std::optional<PointResult>& r = data[i].result;
    if (!r || r->status == Status::Pass) continue;
    const Point& p = list.points[i];
    out += fmt::format("  {} {}: {}, {}\n", p.id, describeAxes(list.axisNames, p.axes),
                       statusName(r->status), r->reason);
    if (!r->stderrTail.empty()) out += fmt::format("    stderr: {}\n", r->stderrTail.back());
    std::vector<std::string> command{warpsim};
    command.insert(command.end(), p.argv.begin(), p.argv.end());
    out += fmt::format("    reproduce: {}\n", shellCommand(command));
    out += fmt::format("    log: {}\n", dir.stderrLog(p.id).string());
  }
  return out;
}

}  // namespace warpsim::sweep
