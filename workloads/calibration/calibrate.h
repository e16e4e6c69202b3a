// Calibration of a GPU configuration against its targets (targets.h): evaluate() measures
// every target on the configuration and reports the error; fit() searches, target by target in
// file order, for the value of each target's `fit` key that brings the measurement to the
// target, keeping the keys fitted before (so an L2 latency is fitted on top of the fitted L1).
//
// The search is small and deterministic: secant steps from the key's present value and value +
// step (a latency key moves its measurement about linearly, a little unevenly where refreshes
// or queueing meet the loads), at most six, then the neighbours within 2 of the best value
// seen; the value whose measurement is nearest the target's goal (the middle of a range) wins,
// ties to the smaller.
#pragma once
#include <string>
#include <vector>

#include "calibration/measurements.h"
#include "calibration/targets.h"

namespace warpsim::calibration {

struct Row {
  const Target* target = nullptr;
  double simulated = 0;
  double error = 0;  // relative distance from the target's figure or range
  bool met = false;
};

// `spec` with the targets' own overrides (TargetSet::sets) applied after the caller's.
GpuSpec withTargetSets(GpuSpec spec, const TargetSet& targets);

std::vector<Row> evaluate(const GpuSpec& spec, const TargetSet& targets);

struct FittedKey {
  std::string key;
  double before = 0, after = 0;
  std::string measurement;
  double measuredBefore = 0, measuredAfter = 0;
};

struct FitResult {
  std::vector<FittedKey> keys;  // in the order fitted
  std::vector<std::string> sets;  // "key=value" for every fitted key
};

// `progress` (may be null) hears one line per measurement taken.
FitResult fit(const GpuSpec& spec, const TargetSet& targets,
              const std::function<void(const std::string&)>& progress = {});

}  // namespace warpsim::calibration
