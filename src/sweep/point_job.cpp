#include "sweep/point_job.h"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "sweep/child_process.h"

namespace warpsim::sweep {

namespace fs = std::filesystem;

std::vector<std::string> pointCommand(const Point& point, const std::string& statsFile) {
  std::vector<std::string> args = point.argv;
  auto end = std::find(args.begin(), args.end(), "--");
  args.insert(end, {"--stats", statsFile, "-q"});
  return args;
}

pid_t startPoint(const OutDir& dir, const Point& point, const std::string& warpsim) {
  std::error_code ec;
  fs::create_directories(dir.pointDir(point.id), ec);
  fs::remove(dir.result(point.id), ec);
  discardPoint(dir, point);  // leftovers of a run that was killed with the sweep
  return spawnChild(warpsim, pointCommand(point, temporaryName(dir.stats(point.id)).string()),
                    temporaryName(dir.stdoutLog(point.id)),
                    temporaryName(dir.stderrLog(point.id)));
}

PointResult finishPoint(const OutDir& dir, const Point& point, int waitStatus,
                        double wallSeconds, const std::string& host) {
  const std::string& id = point.id;
  std::error_code ec;
  const bool stats = fs::exists(temporaryName(dir.stats(id)), ec);
  PointResult r = classify(id, waitStatus, stats);
  r.wallSeconds = wallSeconds;
  r.host = host;
  r.argv = point.argv;
  fs::remove(dir.stats(id), ec);  // no stale statistics beside a new result
  moveIntoPlace(temporaryName(dir.stats(id)), dir.stats(id));
  moveIntoPlace(temporaryName(dir.stderrLog(id)), dir.stderrLog(id));
  if (fs::file_size(temporaryName(dir.stdoutLog(id)), ec) > 0) {
    moveIntoPlace(temporaryName(dir.stdoutLog(id)), dir.stdoutLog(id));
  } else {
    fs::remove(temporaryName(dir.stdoutLog(id)), ec);
    fs::remove(dir.stdoutLog(id), ec);
  }
  r.stderrTail = lastLines(readFileTail(dir.stderrLog(id), 64 * 1024), kStderrTail);
  writeFileAtomically(dir.result(id), resultJson(r).dump(2) + "\n");
  return r;
}

void discardPoint(const OutDir& dir, const Point& point) {
  std::error_code ec;
  for (const fs::path& p : {dir.stats(point.id), dir.stderrLog(point.id), dir.stdoutLog(point.id)}) {
    fs::remove(temporaryName(p), ec);
  }
}

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace warpsim::sweep
