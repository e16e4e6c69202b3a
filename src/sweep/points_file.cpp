#include "sweep/points_file.h"

#include <fmt/format.h>

#include <sstream>

#include "sweep/csv.h"
#include "sweep/error.h"
#include "sweep/out_dir.h"

namespace warpsim::sweep {

nlohmann::ordered_json axisValueJson(const AxisValue& v) {
  try {
    switch (v.kind) {
      case AxisValue::Kind::Integer: return std::stoll(v.text);
      case AxisValue::Kind::Float: return std::stod(v.text);
      case AxisValue::Kind::Boolean: return v.text == "true";
      case AxisValue::Kind::String: break;
    }
  } catch (const std::exception&) {
  }
  return v.text;
}

std::string pointsJsonl(const PointList& list) {
  std::string out;
  for (const Point& p : list.points) {
    nlohmann::ordered_json line;
    line["id"] = p.id;
    nlohmann::ordered_json axes = nlohmann::ordered_json::object();
    for (size_t i = 0; i < list.axisNames.size(); ++i) {
      axes[list.axisNames[i]] = axisValueJson(p.axes[i]);
    }
    line["axes"] = std::move(axes);
    line["argv"] = p.argv;
    out += line.dump() + "\n";
  }
  return out;
}

PointList readPointList(const std::filesystem::path& path) {
  std::istringstream in(readFile(path));
  PointList list;
  std::string text;
  for (size_t lineNumber = 1; std::getline(in, text); ++lineNumber) {
    if (text.empty()) continue;
    try {
      const nlohmann::ordered_json line = nlohmann::ordered_json::parse(text);
      Point p;
      p.id = line.at("id").get<std::string>();
      p.argv = line.at("argv").get<std::vector<std::string>>();
      std::vector<std::string> names;
      for (const auto& [name, value] : line.at("axes").items()) {
        names.push_back(name);
        AxisValue v;
        v.text = cellText(value);
        v.kind = value.is_boolean()          ? AxisValue::Kind::Boolean
                 : value.is_number_float()   ? AxisValue::Kind::Float
                 : value.is_number()         ? AxisValue::Kind::Integer
                                             : AxisValue::Kind::String;
        if (value.is_number_float()) v.text = value.dump();  // as written: "2.0" stays "2.0"
        p.axes.push_back(std::move(v));
      }
      if (list.points.empty()) list.axisNames = names;
      if (names != list.axisNames) throw Error("the axes differ from the first line's");
      list.points.push_back(std::move(p));
    } catch (const std::exception& e) {
      throw Error(fmt::format("sweep: {}:{}: not a point ({})", path.string(), lineNumber,
                              e.what()));
    }
  }
  return list;
}

}  // namespace warpsim::sweep
