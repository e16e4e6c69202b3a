#include "mech/zorua/threshold_controller.h"

#include <algorithm>
#include <cmath>

namespace warpsim::mech::zorua {

namespace {
uint32_t fraction(double f, uint32_t of) {
  return static_cast<uint32_t>(std::lround(f * static_cast<double>(of)));
}
}  // namespace

ThresholdController::ThresholdController(const ThresholdParams& params, uint32_t physical)
    : params_(params),
      physical_(physical),
      threshold_(std::min(fraction(params.initial, physical), physical)),
      step_(std::max(fraction(params.step, physical), 1u)) {}

uint32_t ThresholdController::endEpoch(uint64_t idleCycles, uint64_t memoryCycles) {
  // The chapter compares each counter's change from the previous epoch.
  const auto dIdle = static_cast<int64_t>(idleCycles) - static_cast<int64_t>(lastIdle_);
  const auto dMem = static_cast<int64_t>(memoryCycles) - static_cast<int64_t>(lastMemory_);
  lastIdle_ = idleCycles;
  lastMemory_ = memoryCycles;
  if (!params_.adaptive) return threshold_;
  const auto delta = static_cast<int64_t>(params_.deltaCycles);
  if (dIdle - dMem > delta && threshold_ < physical_) {
    threshold_ = std::min(threshold_ + step_, physical_);
    ++raises_;
  } else if (dMem - dIdle > delta && threshold_ > 0) {
    threshold_ = threshold_ > step_ ? threshold_ - step_ : 0;
    ++lowers_;
  }
  return threshold_;
}

}  // namespace warpsim::mech::zorua
