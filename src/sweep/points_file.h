// DIR/points.jsonl: the expanded grid, one JSON object a line in grid order,
//   {"id":"3f2a...","axes":{"workload":"vecadd","seed":1},"argv":["run","vecadd","--seed","1"]}
// It is what `warpsim sweep point`, `status` and `table` work from, so they need no spec
// expansion (and a SLURM task runs exactly the commands its submitter planned).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/grid.h"

namespace warpsim::sweep {

struct PointList {
  std::vector<std::string> axisNames;
  std::vector<Point> points;
};

// An axis value as JSON: its TOML type kept (strings, integers, floats, booleans).
nlohmann::ordered_json axisValueJson(const AxisValue& v);

std::string pointsJsonl(const PointList& list);
// Throws Error "sweep: PATH:LINE: ..." for a line that is not a point.
PointList readPointList(const std::filesystem::path& path);

}  // namespace warpsim::sweep
