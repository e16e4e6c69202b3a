// The closing words of a sweep and `warpsim sweep status`: counts of the points by status, and
// the points that did not pass, each with its axes, why, the last line it wrote on stderr and
// the command that reproduces it.
#pragma once
#include <string>
#include <vector>

#include "sweep/out_dir.h"
#include "sweep/points_file.h"
#include "sweep/table.h"

namespace warpsim::sweep {

struct StatusCounts {
  size_t passed = 0;
  size_t failed = 0;        // status fail
  size_t verifyFailed = 0;  // status verify-failed
  size_t missing = 0;       // no result (not run yet, in flight, or lost)
  size_t total() const { return passed + failed + verifyFailed + missing; }
};
StatusCounts countStatuses(const std::vector<PointData>& data);

// "6 points: 4 passed, 1 failed, 0 did not verify, 1 missing"
std::string countsLine(const StatusCounts& c);

// One entry per point whose result is not a pass (in grid order), or "" when there is none:
//   <id> <axes>: fail, exit status 1
//     stderr: <last line>
//     reproduce: <warpsim> run ...
//     log: DIR/points/<id>/stderr.log
std::string failureReport(const OutDir& dir, const PointList& list,
                          const std::vector<PointData>& data, const std::string& warpsim);

}  // namespace warpsim::sweep
