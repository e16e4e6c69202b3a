#include "commands/calibrate_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "calibration/calibrate.h"
#include "runtime/error.h"

namespace warpsim::app {

namespace {

void printRows(const std::vector<calibration::Row>& rows, const calibration::TargetSet& set) {
  std::cout << fmt::format("{:<26} {:>12} {:>16} {:>8}  {:<4} {}\n", "measurement", "simulated",
                           "target", "error", "", "source");
  for (const calibration::Row& r : rows) {
    const calibration::Target& t = *r.target;
    const std::string target = t.single() ? fmt::format("{:g}", t.low)
                                          : fmt::format("{:g}-{:g}", t.low, t.high);
    std::cout << fmt::format("{:<26} {:>12.3f} {:>16} {:>7.1f}%  {:<4} {}\n", t.measurement,
                             r.simulated, target, 100.0 * r.error, r.met ? "ok" : "MISS",
                             t.source);
  }
  size_t met = 0;
  for (const calibration::Row& r : rows) met += r.met ? 1 : 0;
  std::cout << fmt::format("{} of {} targets met (within {}); sources:\n", met, rows.size(),
                           "5% of a single figure, 10% of a range");
  for (const auto& [key, text] : set.sources) std::cout << fmt::format("  {}: {}\n", key, text);
}

void printMarkdown(const std::vector<calibration::Row>& rows) {
  std::cout << "| measurement | simulated | published | error | within tolerance | source | what was measured |\n"
               "|---|---|---|---|---|---|---|\n";
  for (const calibration::Row& r : rows) {
    const calibration::Target& t = *r.target;
    const std::string target = t.single() ? fmt::format("{:g}", t.low)
                                          : fmt::format("{:g}–{:g}", t.low, t.high);
    std::cout << fmt::format("| `{}` | {:.3g} | {} | {:.1f}% | {} | {} | {} |\n", t.measurement,
                             r.simulated, target, 100.0 * r.error,
                             r.met ? "yes" : fmt::format("no (±{:g}%)", 100 * t.tolerance),
                             t.source, t.note);
  }
}

}  // namespace

int calibrateCommand(const CalibrateArgs& args) {
  using namespace calibration;
  if (args.list) {
    size_t name = 0, unit = 0;
    for (const Measurement& m : measurements()) {
      name = std::max(name, m.name.size());
      unit = std::max(unit, m.unit.size());
    }
    for (const Measurement& m : measurements()) {
      std::cout << fmt::format("{:<{}}  {:<{}}  {}\n", m.name, name, m.unit, unit, m.what);
    }
    return 0;
  }
  if (args.config.empty()) throw runtime::Error("calibrate: no configuration (warpsim calibrate CONFIG)");
  std::string file = args.targets;
  if (file.empty()) {
    const std::string name = std::filesystem::path(args.config).stem().string();
    file = findTargets(name);
    if (file.empty()) {
      throw runtime::Error(fmt::format(
          "calibrate: no targets for '{}' (configs/calibration/{}.toml; give one with --targets)",
          args.config, name));
    }
  }
  const TargetSet set = loadTargets(file);
  GpuSpec spec{args.config, args.overlays, args.sets};
  if (!args.markdown) {
    std::cout << fmt::format("calibrating {} against {} ({} targets)\n", args.config, file,
                             set.targets.size());
  }
  if (!set.sets.empty() && !args.markdown) {
    std::cout << "measured under the targets' conditions:";
    for (const std::string& s : set.sets) std::cout << " --set " << s;
    std::cout << "\n";
  }
  if (args.fit) {
    std::cout << "fitting:\n";
    const FitResult fitted =
        fit(spec, set, [](const std::string& line) { std::cout << line << std::endl; });
    for (const FittedKey& k : fitted.keys) {
      std::cout << fmt::format("{} = {:g} (was {:g}): {} {:.2f} -> {:.2f}\n", k.key, k.after,
                               k.before, k.measurement, k.measuredBefore, k.measuredAfter);
    }
    spec.sets.insert(spec.sets.end(), fitted.sets.begin(), fitted.sets.end());
    if (!args.write.empty()) {
      std::ofstream out(args.write);
      if (!out) throw runtime::Error(fmt::format("calibrate: cannot write {}", args.write));
      out << fmt::format("# Fitted by `warpsim calibrate {} --fit` against {}.\n", args.config, file);
      std::string section;
      for (const FittedKey& k : fitted.keys) {
        const size_t dot = k.key.rfind('.');
        if (k.key.substr(0, dot) != section) {
          section = k.key.substr(0, dot);
          out << "\n[" << section << "]\n";
        }
        out << fmt::format("{} = {:g}\n", k.key.substr(dot + 1), k.after);
      }
      std::cout << "wrote " << args.write << " (use it with --overlay)\n";
    }
  }
  const std::vector<Row> rows = evaluate(spec, set);
  if (args.markdown) {
    printMarkdown(rows);
  } else {
    printRows(rows, set);
  }
  for (const Row& r : rows) {
    if (!r.met) return 3;
  }
  return 0;
}

}  // namespace warpsim::app
