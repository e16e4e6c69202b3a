#include "sweep/grid.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "sweep/error.h"
#include "sweep/point_id.h"

namespace warpsim::sweep {

namespace {

const AxisValue* valueOf(const Spec& spec, const std::vector<const AxisValue*>& values,
                         AxisKind kind) {
  for (size_t i = 0; i < spec.axes.size(); ++i) {
    if (spec.axes[i].kind == kind) return values[i];
  }
  return nullptr;
}

bool excluded(const Spec& spec, const std::vector<const AxisValue*>& values) {
  for (const AxisMatch& ex : spec.excludes) {
    const bool all = std::all_of(ex.axes.begin(), ex.axes.end(), [&](const auto& entry) {
      const auto& [name, texts] = entry;
      for (size_t i = 0; i < spec.axes.size(); ++i) {
        if (spec.axes[i].name != name) continue;
        return std::find(texts.begin(), texts.end(), values[i]->text) != texts.end();
      }
      return false;
    });
    if (all) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> runArguments(const Spec& spec,
                                      const std::vector<const AxisValue*>& values) {
  std::vector<std::string> argv{"run"};
  if (const AxisValue* w = valueOf(spec, values, AxisKind::Workload)) argv.push_back(w->text);
  const std::pair<AxisKind, const char*> options[] = {
      {AxisKind::Size, "--size"},     {AxisKind::Mode, "--mode"},
      {AxisKind::Config, "--config"}, {AxisKind::Seed, "--seed"},
      {AxisKind::Registers, "--max-registers"},
  };
  for (const auto& [kind, option] : options) {
    if (const AxisValue* v = valueOf(spec, values, kind)) {
      argv.push_back(option);
      argv.push_back(v->text);
    }
  }
  const AxisValue* variantName = valueOf(spec, values, AxisKind::Variant);
  const Variant* variant = variantName ? spec.variant(variantName->text) : nullptr;
  if (variant) {
    for (const std::string& o : variant->overlays) argv.insert(argv.end(), {"--overlay", o});
    for (const std::string& s : variant->sets) argv.insert(argv.end(), {"--set", s});
  }
  for (size_t i = 0; i < spec.axes.size(); ++i) {
    if (spec.axes[i].kind != AxisKind::Set) continue;
    argv.push_back("--set");
    argv.push_back(spec.axes[i].setKey + "=" + values[i]->text);
  }
  if (variant) argv.insert(argv.end(), variant->options.begin(), variant->options.end());
  if (const AxisValue* p = valueOf(spec, values, AxisKind::Program)) {
    const Program* program = spec.program(p->text);
    argv.push_back("--");
    argv.insert(argv.end(), program->command.begin(), program->command.end());
  }
  return argv;
}

std::vector<Point> expandGrid(const Spec& spec, std::string_view version) {
  std::vector<std::string> names;
  for (const Axis& a : spec.axes) names.push_back(a.name);
  std::vector<Point> points;
  std::map<std::string, size_t> byId;
  std::vector<size_t> at(spec.axes.size(), 0);  // an odometer, the last axis fastest
  while (true) {
    std::vector<const AxisValue*> values;
    for (size_t i = 0; i < spec.axes.size(); ++i) values.push_back(&spec.axes[i].values[at[i]]);
    if (!excluded(spec, values)) {
      Point p;
      for (const AxisValue* v : values) p.axes.push_back(*v);
      p.argv = runArguments(spec, values);
      p.id = pointId(p.argv, version);
      if (auto [it, fresh] = byId.emplace(p.id, points.size()); !fresh) {
        throw Error(fmt::format("{}: error: points {} and {} run the same command (give the "
                                "variants different options)", spec.file,
                                describeAxes(names, points[it->second].axes),
                                describeAxes(names, p.axes)));
      }
      points.push_back(std::move(p));
    }
    size_t i = spec.axes.size();
    while (i > 0 && ++at[i - 1] == spec.axes[i - 1].values.size()) at[--i] = 0;
    if (i == 0) break;
  }
  return points;
}

std::string describeAxes(const std::vector<std::string>& names,
                         const std::vector<AxisValue>& values) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", names[i], values[i].text);
  }
  return out;
}

}  // namespace warpsim::sweep
