#include "timing/stats_totals.h"

#include <vector>

#include "timing/stats_json.h"

namespace warpsim::timing {

namespace {

double number(const nlohmann::json& tree, const char* a, const char* b = nullptr) {
  const nlohmann::json* node = &tree;
  for (const char* key : {a, b}) {
    if (key == nullptr) break;
    if (!node->is_object() || !node->contains(key)) return 0.0;
    node = &(*node)[key];
  }
  return node->is_number() ? node->get<double>() : 0.0;
}

// Power figures are energy over time: recomputed from the summed energy and time.
void recomputePower(nlohmann::json& energy, double seconds) {
  auto power = [&](double nj) { return seconds > 0 ? nj * 1e-9 / seconds : 0.0; };
  energy["average_power_w"] = power(number(energy, "total_nj"));
  if (!energy.contains("components")) return;
  for (auto& [name, component] : energy["components"].items()) {
    if (name == "static") continue;  // static power stays what it is
    component["average_power_w"] = power(number(component, "nj"));
  }
}

}  // namespace

void addNumaRates(nlohmann::json& stats) {
  if (!stats.contains("memory") || !stats["memory"].contains("numa")) return;
  const nlohmann::json& n = stats["memory"]["numa"];
  const uint64_t local = counter(n, {"local_requests"}), remote = counter(n, {"remote_requests"});
  nlohmann::json rates = {{"access_efficiency", ratio(local, local + remote)}};
  const double ns = number(stats, "simulated_ns");
  std::vector<double> gbps, utilisation;
  for (size_t z = 0; z < n["zone_dram_bytes"].size(); ++z) {
    const double bytes = n["zone_dram_bytes"][z].get<double>();
    gbps.push_back(ns > 0 ? bytes / ns : 0.0);
    utilisation.push_back(ratio(n["zone_dram_busy_cycles"][z].get<uint64_t>(),
                                n["zone_dram_cycles"][z].get<uint64_t>()));
  }
  rates["zone_dram_gbps"] = gbps;
  rates["zone_dram_utilisation"] = utilisation;
  stats["numa"] = std::move(rates);
}

nlohmann::json totalLaunchStats(const std::vector<const nlohmann::json*>& launches) {
  nlohmann::json sum = nlohmann::json::object();
  double achieved = 0.0, theoretical = 0.0;
  for (const nlohmann::json* launch : launches) {
    if (launch == nullptr || !launch->is_object()) continue;
    nlohmann::json counters = *launch;
    counters.erase("samples");
    counters.erase("compiler");
    counters.erase("occupancy");
    addInto(sum, counters);
    const double cycles = number(*launch, "cycles");
    achieved += cycles * number(*launch, "occupancy", "achieved");
    theoretical += cycles * number(*launch, "occupancy", "theoretical");
  }
  const uint64_t cycles = counter(sum, {"cycles"});
  sum["ipc"] = ratio(counter(sum, {"warp_instructions"}), cycles);
  sum["thread_ipc"] = ratio(counter(sum, {"thread_instructions"}), cycles);
  sum["occupancy"] = {{"achieved", cycles == 0 ? 0.0 : achieved / static_cast<double>(cycles)},
                      {"theoretical", cycles == 0 ? 0.0 : theoretical / static_cast<double>(cycles)}};
  const nlohmann::json& memory = sum.contains("memory") ? sum["memory"] : nlohmann::json();
  sum["l1d_hit_rate"] = ratio(counter(memory, {"l1d", "hits"}), counter(memory, {"l1d", "accesses"}));
  sum["l2_hit_rate"] = ratio(counter(memory, {"l2", "hits"}), counter(memory, {"l2", "accesses"}));
  sum["dram_bandwidth_utilisation"] =
      ratio(counter(memory, {"dram", "busy_cycles"}), counter(memory, {"dram", "cycles"}));
  const uint64_t rowHits = counter(memory, {"dram", "row_hits"});
  sum["dram_row_buffer_hit_rate"] = ratio(rowHits, rowHits + counter(memory, {"dram", "row_misses"}));
  sum["dram_read_latency_l2_cycles"] =
      ratio(counter(memory, {"dram", "read_latency_l2_cycles"}), counter(memory, {"dram", "reads_returned"}));
  if (sum.contains("energy")) recomputePower(sum["energy"], number(sum, "simulated_ns") * 1e-9);
  addNumaRates(sum);
  return sum;
}

}  // namespace warpsim::timing
