#include "calibration/calibrate.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "runtime/error.h"

namespace warpsim::calibration {

namespace {

// The key's present value in `spec` (whole numbers only: latencies and counts).
double valueOf(const GpuSpec& spec, const std::string& key) {
  config::Tree tree = config::Tree::load(spec.config, spec.overlays, spec.sets);
  const size_t dot = key.rfind('.');
  if (dot == std::string::npos) throw Error("fit key '" + key + "' must be section.key");
  return tree.section(key.substr(0, dot)).u32(key.substr(dot + 1), 0, "");
}

GpuSpec withValue(GpuSpec spec, const std::string& key, int64_t value) {
  spec.sets.push_back(fmt::format("{}={}", key, value));
  return spec;
}

}  // namespace

GpuSpec withTargetSets(GpuSpec spec, const TargetSet& targets) {
  spec.sets.insert(spec.sets.end(), targets.sets.begin(), targets.sets.end());
  return spec;
}

std::vector<Row> evaluate(const GpuSpec& spec, const TargetSet& targets) {
  const GpuSpec s = withTargetSets(spec, targets);
  std::vector<Row> rows;
  for (const Target& t : targets.targets) {
    Row r;
    r.target = &t;
    r.simulated = measure(t.measurement, s);
    r.error = t.error(r.simulated);
    r.met = t.met(r.simulated);
    rows.push_back(r);
  }
  return rows;
}

FitResult fit(const GpuSpec& spec, const TargetSet& targets,
              const std::function<void(const std::string&)>& progress) {
  GpuSpec s = withTargetSets(spec, targets);
  FitResult result;
  auto take = [&](const Target& t, const GpuSpec& at, const std::string& key, int64_t v) {
    const double m = measure(t.measurement, withValue(at, key, v));
    if (progress) progress(fmt::format("  {} = {}: {} {:.2f}", key, v, t.measurement, m));
    return m;
  };
  for (const Target& t : targets.targets) {
    if (t.fit.empty()) continue;
    const int64_t v0 = static_cast<int64_t>(valueOf(s, t.fit));
    std::map<int64_t, double> seen;  // value -> measurement
    auto at = [&](int64_t v) {
      auto it = seen.find(v);
      if (it == seen.end()) it = seen.emplace(v, take(t, s, t.fit, v)).first;
      return it->second;
    };
    // A value the simulator rejects (out of the key's range, e.g. a latency of 0: the device
    // reports it as a runtime::Error) is left out of the search.
    auto admissible = [&](int64_t v) {
      try {
        at(v);
        return true;
      } catch (const config::Error&) {
        return false;
      } catch (const runtime::Error&) {
        return false;
      }
    };
    // Secant steps from the present value and value + step, then the neighbours of the best.
    int64_t a = v0, b = v0 + std::max<int64_t>(8, v0 / 4);
    for (int i = 0; i < 6; ++i) {
      const double ma = at(a), mb = at(b);
      const double slope = (mb - ma) / static_cast<double>(b - a);
      if (std::fabs(slope) < 1e-9) break;
      const int64_t aim = std::max<int64_t>(0, std::llround(b + (t.goal() - mb) / slope));
      if (seen.count(aim) != 0 || !admissible(aim)) break;
      a = b;
      b = aim;
    }
    auto miss = [&](int64_t v) { return std::fabs(seen.at(v) - t.goal()); };
    auto bestSeen = [&] {
      int64_t best = v0;
      for (const auto& [v, m] : seen) {
        if (miss(v) < miss(best)) best = v;  // ties: the smaller value (map order)
      }
      return best;
    };
    int64_t best = bestSeen();
    for (int64_t v : {best - 2, best - 1, best + 1, best + 2}) {
      if (v >= 0) admissible(v);
    }
    best = bestSeen();
    const FittedKey k{t.fit, static_cast<double>(v0), static_cast<double>(best), t.measurement,
                      seen.at(v0), seen.at(best)};
    s = withValue(s, t.fit, best);
    result.sets.push_back(fmt::format("{}={}", t.fit, best));
    result.keys.push_back(k);
  }
  return result;
}

}  // namespace warpsim::calibration
