// Extension point "resource_manager": the per-SM bookkeeping of registers, shared memory, warp
// slots and CTA slots that decides how many CTAs of a kernel can be resident at once.
//
// One instance per SM. At a kernel boundary beginKernel() receives what every CTA of the kernel
// needs; it returns an empty string, or one line saying why no CTA of this kernel can ever be
// resident (e.g. "needs 40960 registers per CTA, the SM has 32768"). The GPU asks canAdmit()
// before starting a CTA on the SM, calls admit() when it starts and release() when it retires.
// Admission must only depend on what was admitted and released (deterministic).
//
// Baseline "static": CUDA's occupancy calculation. Registers are allocated per warp,
// ceil(regs_per_thread * 32 / unit) * unit registers with `unit` the allocation granularity;
// shared memory per CTA rounded up to its granularity; a warp slot per warp; a CTA slot per CTA;
// the per-SM thread limit.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "timing/kernel_resources.h"

namespace warpsim::timing {

// The per-SM occupancy of a kernel as the resource manager computes it.
struct Occupancy {
  uint32_t ctasPerSm = 0;       // CTAs resident at once
  uint32_t warpsPerSm = 0;      // ctasPerSm * warps per CTA
  uint32_t maxWarpsPerSm = 0;   // the SM's warp slots
  const char* limitedBy = "";   // "registers", "shared", "warps", "ctas", "threads"
  double theoretical() const {
    return maxWarpsPerSm == 0 ? 0.0 : static_cast<double>(warpsPerSm) / maxWarpsPerSm;
  }
};

class IResourceManager {
 public:
  static constexpr const char* kPoint = "resource_manager";
  struct Context {
    config::Tree* tree = nullptr;   // keys under "sm" (capacities) and "resources"
    uint32_t smId = 0;
  };
  virtual ~IResourceManager() = default;

  // Kernel boundary; nothing is resident. Returns "" or why the kernel can never run.
  virtual std::string beginKernel(const KernelResources& kernel) = 0;
  virtual bool canAdmit() const = 0;
  virtual void admit(uint32_t ctaLinear) = 0;
  virtual void release(uint32_t ctaLinear) = 0;
  virtual Occupancy occupancy() const = 0;
  // Counters since beginKernel (optional).
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing
