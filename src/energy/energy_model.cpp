#include "energy/energy_model.h"

#include <map>

#include <nlohmann/json.hpp>

namespace warpsim::energy {

namespace {

// The number at `path` ("a.b.c") in `stats`, 0 when absent or not a number.
double counterAt(const nlohmann::json& stats, const std::string& path) {
  const nlohmann::json* node = &stats;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object()) return 0;
    auto it = node->find(part);
    if (it == node->end()) return 0;
    node = &*it;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node->is_number() ? node->get<double>() : 0;
}

}  // namespace

EnergyModel::EnergyModel(config::Section energy) {
  for (const BaselineEvent& e : baselineEvents()) {
    if (!energy.has(e.key)) {
      throw config::Error("config: error: [" + energy.path() + "] lacks '" + e.key + "' (" + e.doc +
                          "); every GPU configuration must give it");
    }
    events_.push_back({e.key, e.counter, e.component, energy.f64(e.key, 0.0, e.doc, 0.0, 1e9)});
  }
  if (!energy.has("static_watts")) {
    throw config::Error("config: error: [" + energy.path() + "] lacks 'static_watts' (static power of the GPU)");
  }
  staticWatts_ = energy.f64("static_watts", 0.0, "static (leakage) power of the whole GPU, W", 0.0, 1e4);
  config::Section extra = energy.sub("extra");
  for (const std::string& name : extra.keys()) {
    config::Section e = extra.sub(name);
    events_.push_back({name, e.str("counter", "", "statistics counter this event multiplies"),
                       e.str("component", "mechanism", "component the energy is reported under"),
                       e.f64("pj", 0.0, "pJ per event", 0.0, 1e9),
                       e.flag("static", false, "leakage: counted in the static energy, not the dynamic")});
    if (events_.back().counter.empty()) {
      throw config::Error("config: error: [" + extra.path() + "." + name + "] needs a 'counter'");
    }
  }
}

void EnergyModel::annotate(nlohmann::json& stats, double seconds) const {
  std::map<std::string, double> byComponent;  // nJ; ordered for deterministic output
  double dynamic = 0, staticEvents = 0;
  for (const Event& e : events_) {
    double count = 0;
    for (size_t start = 0; start <= e.counter.size();) {
      size_t plus = e.counter.find('+', start);
      if (plus == std::string::npos) plus = e.counter.size();
      count += counterAt(stats, e.counter.substr(start, plus - start));
      start = plus + 1;
    }
    double nj = count * e.picojoules * 1e-3;
    byComponent[e.component] += nj;
    (e.isStatic ? staticEvents : dynamic) += nj;
  }
  const double chipStaticNj = staticWatts_ * seconds * 1e9;
  const double staticNj = chipStaticNj + staticEvents;
  nlohmann::json components = nlohmann::json::object();
  for (const auto& [name, nj] : byComponent) {
    components[name] = {{"nj", nj}, {"average_power_w", seconds > 0 ? nj * 1e-9 / seconds : 0.0}};
  }
  // "static" is the configuration's static_watts; static extra events are their own components.
  components["static"] = {{"nj", chipStaticNj}, {"average_power_w", staticWatts_}};
  const double total = dynamic + staticNj;
  stats["energy"] = {{"total_nj", total},
                     {"dynamic_nj", dynamic},
                     {"static_nj", staticNj},
                     {"average_power_w", seconds > 0 ? total * 1e-9 / seconds : 0.0},
                     {"components", std::move(components)}};
}

}  // namespace warpsim::energy
