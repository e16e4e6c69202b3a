// Resource manager "warp-level": WLM-style warp-level management (Xiang et al., HPCA 2014), the
// Zorua chapter's second baseline. A CTA starts when the resources it needs are free now — its
// warps' registers (each warp's allocation rounded to the allocation unit), its shared memory, a
// warp slot per warp and a CTA slot — and every warp gives its registers and its slot back when it
// exits, instead of when its whole CTA retires; shared memory and the CTA slot go with the CTA.
// So the next CTA can start while the slowest warps of the last one still run. What the thesis
// leaves open (digest A.9: WLM's details are not in the seed) is decided in README.md.
#include <algorithm>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "mech/zorua/zorua_resource_manager.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/sm_occupancy.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::mech::zorua {

namespace {

using timing::Cycle;
using timing::IResourceManager;
using timing::KernelResources;
using timing::Occupancy;
using timing::PluginRegistry;
using timing::ResourcePhase;
using timing::SmResourceLimits;
using timing::WarpGate;

class WarpLevelResourceManager final : public IResourceManager {
 public:
  explicit WarpLevelResourceManager(const Context& context) : limits_(SmResourceLimits::read(*context.tree)) {
    limits_.warpGranularity = 1;  // registers go to warps one by one, not to pairs of partitions
  }

  std::string beginKernel(const KernelResources& k) override {
    warps_ = k.warpsPerCta();
    threads_ = k.threadsPerCta;
    timing::CtaFootprint cta;
    const std::string why = timing::computeOccupancy(limits_, k, &occupancy_, &cta);
    regsPerWarp_ = warps_ == 0 ? 0 : cta.registers / warps_;
    sharedPerCta_ = cta.sharedBytes;
    freeRegs_ = limits_.registers;
    freeShared_ = limits_.sharedBytes;
    freeWarps_ = limits_.maxWarps;
    freeThreads_ = limits_.maxThreads;
    ctas_ = 0;
    admitted_ = earlyReleases_ = 0;
    ctaWarps_.clear();
    warpCta_.assign(64, UINT32_MAX);
    // occupancy_: whole CTAs at once, as the static calculation (what is resident before any
    // warp ends); a CTA then starts whenever its resources are free.
    if (why.empty()) occupancy_.limitedBy = "warp-level";
    return why;
  }

  bool canAdmit() const override {
    return ctas_ < limits_.maxCtas && freeWarps_ >= warps_ && freeThreads_ >= threads_ &&
           freeRegs_ >= regsPerWarp_ * warps_ && freeShared_ >= sharedPerCta_;
  }
  void admit(uint32_t cta) override {
    ++ctas_;
    ++admitted_;
    freeWarps_ -= warps_;
    freeThreads_ -= threads_;
    freeRegs_ -= regsPerWarp_ * warps_;
    freeShared_ -= sharedPerCta_;
    ctaWarps_.push_back({cta, warps_});
  }
  void release(uint32_t cta) override {
    // Warps that never reported their exit (none normally) give their share back here.
    for (size_t i = 0; i < ctaWarps_.size(); ++i) {
      if (ctaWarps_[i].first != cta) continue;
      const uint32_t left = ctaWarps_[i].second;
      freeWarps_ += left;
      freeThreads_ += std::min(threads_, left * 32);
      freeRegs_ += regsPerWarp_ * left;
      ctaWarps_.erase(ctaWarps_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
    for (uint32_t& c : warpCta_) if (c == cta) c = UINT32_MAX;
    --ctas_;
    freeShared_ += sharedPerCta_;
  }
  Occupancy occupancy() const override { return occupancy_; }
  void reportStats(nlohmann::json& out) const override {
    out["ctas_admitted"] = admitted_;
    out["warp_level"]["warps_released_early"] = earlyReleases_;
  }

  bool warpGranular() const override { return true; }
  void attach(WarpGate& gate) override { gate_ = &gate; }
  void onWarpStart(uint32_t slot, uint32_t ctaLinear, const ResourcePhase*, Cycle) override {
    warpCta_[slot] = ctaLinear;
    gate_->setSchedulable(slot, true);  // the CTA's resources were taken at admission
  }
  void onWarpExit(uint32_t slot, Cycle) override {
    const uint32_t cta = warpCta_[slot];
    warpCta_[slot] = UINT32_MAX;
    for (auto& [c, left] : ctaWarps_) {
      if (c != cta || left == 0) continue;
      --left;
      // The warp's registers, slot and threads are free now. The last warp's count as no early
      // release: the baseline frees them when the CTA retires, just after.
      if (left != 0) ++earlyReleases_;
      ++freeWarps_;
      freeThreads_ += 32;
      freeRegs_ += regsPerWarp_;
      return;
    }
  }

 private:
  SmResourceLimits limits_;  // the configuration's, with warps allocated one by one
  uint32_t warps_ = 0, threads_ = 0;
  uint64_t regsPerWarp_ = 0, sharedPerCta_ = 0;
  uint64_t freeRegs_ = 0, freeShared_ = 0;
  uint32_t freeWarps_ = 0, freeThreads_ = 0, ctas_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> ctaWarps_;  // CTA, warps that have not exited
  std::vector<uint32_t> warpCta_;                        // per warp slot
  uint64_t admitted_ = 0, earlyReleases_ = 0;
  Occupancy occupancy_;
  WarpGate* gate_ = nullptr;
};

}  // namespace

void registerWarpLevelResourceManager(PluginRegistry& registry) {
  registry.add<IResourceManager>(
      "warp-level",
      "WLM-style warp-level management: a CTA starts when its resources are free, each warp "
      "returns its registers and slot at its exit",
      [](const IResourceManager::Context& c) { return std::make_unique<WarpLevelResourceManager>(c); });
}

}  // namespace warpsim::mech::zorua
