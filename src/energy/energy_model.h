// Energy and average power of a kernel from its event counters: energy = sum over events of
// (count x energy per event) from the configuration's [energy] table, plus static power x
// simulated time.
//
// The baseline events and the counters they multiply are fixed (energy_events.cpp); a
// mechanism adds its own events through its overlay:
//   [energy.extra.gscalar_metadata_read]
//   counter = "sm.register_file.metadata_reads"   # path into the kernel's statistics
//   pj = 0.4
//   component = "register_file"
// An extra event priced per unit of a time integral (leakage: pJ per KiB-cycle of SRAM) sets
//   static = true
// and counts in the static energy instead of the dynamic energy.
// Every baseline key must be present in the configuration (a missing one is an error, not a
// silent zero): where the numbers come from is documented in the bundled files and in
// docs/energy.md.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"

namespace warpsim::energy {

struct Event {
  std::string key;        // [energy] key, e.g. "rf_bank_read"
  std::string counter;    // dotted path into the kernel statistics, e.g. "sm.register_file.bank_reads";
                          // "a+b" sums several counters
  std::string component;  // reported component, e.g. "register_file"
  double picojoules = 0;  // per event
  bool isStatic = false;  // counts in the static energy (leakage priced per counter unit)
};

class EnergyModel {
 public:
  // Reads the [energy] section (throws config::Error on a missing or bad key).
  explicit EnergyModel(config::Section energy);

  // Adds "energy" to a kernel's statistics:
  //   "energy": {"total_nj": ..., "static_nj": ..., "dynamic_nj": ..., "average_power_w": ...,
  //              "components": {"register_file": {"nj": ..., "average_power_w": ...}, ...}}
  // Counters missing from the statistics count as zero (a level the GPU does not have).
  void annotate(nlohmann::json& kernelStats, double simulatedSeconds) const;

  const std::vector<Event>& events() const { return events_; }
  double staticWatts() const { return staticWatts_; }

 private:
  std::vector<Event> events_;
  double staticWatts_ = 0;
};

// The baseline events: [energy] key, statistics counter, component, description.
struct BaselineEvent {
  const char* key;
  const char* counter;
  const char* component;
  const char* doc;
};
const std::vector<BaselineEvent>& baselineEvents();

}  // namespace warpsim::energy
