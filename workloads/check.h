// Small helpers shared by the workload drivers: launch bookkeeping and result comparison.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workload.h"
#include "input.h"
#include "runtime/device.h"

namespace warpsim::workloads {

inline uint32_t ceilDiv(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

// Launches a kernel and records its report in the run's launch list.
template <class... Args>
void launch(WorkloadContext& ctx, const runtime::Kernel& kernel, func::Dim3 grid,
            func::Dim3 block, uint32_t dynamicSharedBytes, const Args&... args) {
  ctx.reports.push_back(ctx.device.launch(kernel, grid, block, dynamicSharedBytes, args...));
}

// A real uniform in [lo, hi) with 53 random bits (deterministic, platform independent).
inline double uniformReal(InputGenerator& gen, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(gen.next() >> 11) * 0x1.0p-53;
}

// Unit roundoff of float and double (half an ulp of 1), for error bounds.
constexpr double kFloatUnit = 0x1.0p-24;
constexpr double kDoubleUnit = 0x1.0p-53;

inline Outcome fail(std::string message) { return {false, std::move(message)}; }

// The first element where got != expect, as "<what>[i] = got expected expect"; empty when all
// are equal (bit-exact comparison for integers and for float results that are exact).
template <class T>
std::string exactMismatch(std::string_view what, const std::vector<T>& got,
                          const std::vector<T>& expect) {
  if (got.size() != expect.size()) {
    return fmt::format("{}: {} values, expected {}", what, got.size(), expect.size());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == expect[i])) {
      return fmt::format("{}[{}] = {} expected {}", what, i, got[i], expect[i]);
    }
  }
  return {};
}

// Tolerance comparison: element i passes when |got[i] - expect[i]| <= bound[i]. NaN never
// passes. `worst` (optional) receives the largest |error| / bound seen.
template <class T>
std::string boundedMismatch(std::string_view what, const std::vector<T>& got,
                            const std::vector<double>& expect, const std::vector<double>& bound,
                            double* worst = nullptr) {
  if (got.size() != expect.size() || bound.size() != expect.size()) {
    return fmt::format("{}: {} values, expected {}", what, got.size(), expect.size());
  }
  double worstRatio = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    double err = std::fabs(static_cast<double>(got[i]) - expect[i]);
    if (!(err <= bound[i])) {
      return fmt::format("{}[{}] = {} expected {} (error {:.3g} > tolerance {:.3g})", what, i,
                         static_cast<double>(got[i]), expect[i], err, bound[i]);
    }
    if (bound[i] > 0) worstRatio = std::max(worstRatio, err / bound[i]);
  }
  if (worst != nullptr) *worst = worstRatio;
  return {};
}

// Relative-plus-absolute tolerance: |got - expect| <= absTol + relTol * |expect|.
template <class T>
std::string closeMismatch(std::string_view what, const std::vector<T>& got,
                          const std::vector<double>& expect, double relTol, double absTol,
                          double* worst = nullptr) {
  std::vector<double> bound(expect.size());
  for (size_t i = 0; i < expect.size(); ++i) bound[i] = absTol + relTol * std::fabs(expect[i]);
  return boundedMismatch(what, got, expect, bound, worst);
}

}  // namespace warpsim::workloads
