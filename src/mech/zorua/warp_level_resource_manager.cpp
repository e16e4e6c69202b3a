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

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mech/zorua/zorua_resource_manager.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::mech::zorua {

namespace {

using timing::Cycle;
using timing::IResourceManager;
using timing::KernelResources;
using timing::Occupancy;
using timing::PluginRegistry;
using timing::ResourcePhase;
using timing::WarpGate;

uint64_t roundUp(uint64_t v, uint64_t unit) { return unit == 0 ? v : (v + unit - 1) / unit * unit; }

class WarpLevelResourceManager final : public IResourceManager {
 public:
  explicit WarpLevelResourceManager(const Context& context) {
    const timing::SmResourceLimits l = timing::SmResourceLimits::read(*context.tree);
    maxWarps_ = l.maxWarps;
    maxCtas_ = l.maxCtas;
    maxThreads_ = l.maxThreads;
    registers_ = l.registers;
    sharedBytes_ = l.sharedBytes;
    registerUnit_ = l.registerUnit;
    sharedUnit_ = l.sharedUnit;
    maxRegsPerThread_ = l.maxRegsPerThread;
  }

  std::string beginKernel(const KernelResources& k) override {
    warps_ = k.warpsPerCta();
    threads_ = k.threadsPerCta;
    regsPerWarp_ = roundUp(uint64_t{k.registersPerThread + k.assistRegistersPerThread} * 32, registerUnit_);
    sharedPerCta_ = roundUp(k.sharedBytesPerCta, sharedUnit_);
    freeRegs_ = registers_;
    freeShared_ = sharedBytes_;
    freeWarps_ = maxWarps_;
    freeThreads_ = maxThreads_;
    ctas_ = 0;
    admitted_ = earlyReleases_ = 0;
    ctaWarps_.clear();
    warpCta_.assign(64, UINT32_MAX);
    occupancy_ = Occupancy{};
    occupancy_.maxWarpsPerSm = maxWarps_;
    if (k.registersPerThread > maxRegsPerThread_)
      return fmt::format("{} registers per thread exceed the SM's limit of {}", k.registersPerThread, maxRegsPerThread_);
    if (warps_ > maxWarps_) return fmt::format("a CTA of {} warps exceeds the SM's {} warp slots", warps_, maxWarps_);
    if (k.threadsPerCta > maxThreads_)
      return fmt::format("a CTA of {} threads exceeds the SM's {} threads", k.threadsPerCta, maxThreads_);
    if (regsPerWarp_ * warps_ > registers_)
      return fmt::format("a CTA needs {} registers, the SM has {}", regsPerWarp_ * warps_, registers_);
    if (sharedPerCta_ > sharedBytes_)
      return fmt::format("a CTA needs {} bytes of shared memory, the SM has {}", sharedPerCta_, sharedBytes_);
    // Whole CTAs at once, as the static calculation (what is resident before any warp ends).
    uint64_t n = maxCtas_;
    n = std::min<uint64_t>(n, maxWarps_ / std::max(warps_, 1u));
    n = std::min<uint64_t>(n, maxThreads_ / std::max(k.threadsPerCta, 1u));
    if (regsPerWarp_ != 0) n = std::min<uint64_t>(n, registers_ / (regsPerWarp_ * warps_));
    if (sharedPerCta_ != 0) n = std::min<uint64_t>(n, sharedBytes_ / sharedPerCta_);
    occupancy_.ctasPerSm = static_cast<uint32_t>(n);
    occupancy_.warpsPerSm = occupancy_.ctasPerSm * warps_;
    occupancy_.limitedBy = "warp-level";
    return {};
  }

  bool canAdmit() const override {
    return ctas_ < maxCtas_ && freeWarps_ >= warps_ && freeThreads_ >= threads_ &&
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
  uint32_t maxWarps_, maxCtas_, maxThreads_, registers_, sharedBytes_, registerUnit_, sharedUnit_,
      maxRegsPerThread_;
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
