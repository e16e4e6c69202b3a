#include "sweep/table.h"

#include <fstream>
#include <map>

#include "sweep/csv.h"

namespace warpsim::sweep {

namespace {

using Json = nlohmann::ordered_json;

// The key of a combination of axis values, for finding a derived column's baseline point.
std::string axesKey(const std::vector<AxisValue>& values) {
  std::string key;
  for (const AxisValue& v : values) key += v.text + '\x1f';
  return key;
}

std::optional<double> number(const Json& cell) {
  if (cell.is_number()) return cell.get<double>();
  return std::nullopt;
}

}  // namespace

Table buildTable(const PointList& list, const std::vector<PointData>& data,
                 const std::vector<Column>& columns, const std::vector<Derived>& derived) {
  Table t;
  t.header.push_back("id");
  t.header.insert(t.header.end(), list.axisNames.begin(), list.axisNames.end());
  t.header.push_back("status");
  t.header.push_back("wall_seconds");
  for (const Column& c : columns) t.header.push_back(c.name);
  for (const Derived& d : derived) t.header.push_back(d.name);

  std::vector<bool> found(columns.size(), false);
  std::map<std::string, size_t> rowOf;
  for (size_t i = 0; i < list.points.size(); ++i) {
    const Point& p = list.points[i];
    const PointData& d = data[i];
    std::vector<Json> row{p.id};
    for (const AxisValue& v : p.axes) row.push_back(axisValueJson(v));
    row.push_back(d.result ? statusName(d.result->status) : "missing");
    row.push_back(d.result ? Json(d.result->wallSeconds) : Json());
    for (size_t c = 0; c < columns.size(); ++c) {
      const nlohmann::json* value = d.stats ? columns[c].path.find(*d.stats) : nullptr;
      found[c] = found[c] || value != nullptr;
      row.push_back(value ? Json::parse(value->dump()) : Json());
    }
    rowOf[axesKey(p.axes)] = i;
    t.rows.push_back(std::move(row));
  }

  auto cellOf = [&](size_t row, const std::string& column) -> const Json& {
    for (size_t c = 0; c < t.header.size(); ++c) {
      if (t.header[c] == column) return t.rows[row][c];
    }
    static const Json none;
    return none;
  };
  for (size_t i = 0; i < list.points.size(); ++i) {
    for (const Derived& d : derived) {
      std::vector<AxisValue> base = list.points[i].axes;
      for (const auto& [axis, value] : d.baseline) {
        for (size_t a = 0; a < list.axisNames.size(); ++a) {
          if (list.axisNames[a] == axis) base[a].text = value;
        }
      }
      Json cell;
      auto b = rowOf.find(axesKey(base));
      if (b != rowOf.end()) {
        const std::optional<double> here = number(cellOf(i, d.ratio));
        const std::optional<double> there = number(cellOf(b->second, d.ratio));
        if (here && there) {
          const double num = d.invert ? *here : *there;
          const double den = d.invert ? *there : *here;
          if (den != 0) cell = num / den;
        }
      }
      t.rows[i].push_back(std::move(cell));
    }
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    if (!found[c]) t.columnsNeverFound.push_back(columns[c].name);
  }
  return t;
}

std::string tableCsv(const Table& table) {
  std::string out = csvRow(table.header);
  for (const auto& row : table.rows) {
    std::vector<std::string> fields;
    for (const Json& cell : row) fields.push_back(cellText(cell));
    out += csvRow(fields);
  }
  return out;
}

std::string tableJsonl(const Table& table) {
  std::string out;
  for (const auto& row : table.rows) {
    Json object = Json::object();
    for (size_t c = 0; c < table.header.size(); ++c) object[table.header[c]] = row[c];
    out += object.dump() + "\n";
  }
  return out;
}

std::vector<PointData> loadPointData(const OutDir& dir, const PointList& list) {
  std::vector<PointData> data;
  for (const Point& p : list.points) {
    PointData d;
    d.result = readResult(dir.result(p.id));
    if (d.result && d.result->id != p.id) d.result.reset();
    std::ifstream in(dir.stats(p.id));
    if (d.result && in) {
      try {
        d.stats = nlohmann::json::parse(in);
      } catch (const nlohmann::json::exception&) {
      }
    }
    data.push_back(std::move(d));
  }
  return data;
}

Table writeTable(const OutDir& dir, const PointList& list, const Spec& spec) {
  Table t = buildTable(list, loadPointData(dir, list), spec.columns, spec.derived);
  writeFileAtomically(dir.tableCsv(), tableCsv(t));
  writeFileAtomically(dir.tableJsonl(), tableJsonl(t));
  return t;
}

}  // namespace warpsim::sweep
