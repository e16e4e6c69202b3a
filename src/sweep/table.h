// The results table of a sweep: one row per point in grid order with the columns
//   id, the axes (named after them; configuration keys as "set:KEY"), status, wall_seconds,
//   the spec's [columns] (values from the point's stats.json), its [derived] columns,
// written as DIR/table.csv (csv.h; an empty cell where a value is missing) and DIR/table.jsonl
// (one object per row with the same keys, null where a value is missing).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/out_dir.h"
#include "sweep/points_file.h"
#include "sweep/result.h"
#include "sweep/spec.h"

namespace warpsim::sweep {

// What is known of one point: its result and statistics, when they exist.
struct PointData {
  std::optional<PointResult> result;
  std::optional<nlohmann::json> stats;
};

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<nlohmann::ordered_json>> rows;  // a cell per header entry
  std::vector<std::string> columnsNeverFound;  // [columns] no point's statistics had
};

// `data[i]` belongs to `list.points[i]`. A point without a result has status "missing".
Table buildTable(const PointList& list, const std::vector<PointData>& data,
                 const std::vector<Column>& columns, const std::vector<Derived>& derived);

std::string tableCsv(const Table& table);
std::string tableJsonl(const Table& table);

// Reads each point's result.json and stats.json under `dir`.
std::vector<PointData> loadPointData(const OutDir& dir, const PointList& list);

// Builds the table from the files under `dir` and writes table.csv and table.jsonl. Returns the
// table (for its warnings).
Table writeTable(const OutDir& dir, const PointList& list, const Spec& spec);

}  // namespace warpsim::sweep
