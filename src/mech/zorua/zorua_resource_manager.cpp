// Resource manager "zorua": the coordinator (coordinator.h) and the swap path through memory
// (memory_swap_path.h) behind the core's warp-granular resource-manager interface.
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mech/zorua/coordinator.h"
#include "mech/zorua/memory_swap_path.h"
#include "mech/zorua/zorua_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::mech::zorua {

using timing::IResourceManager;
using timing::Occupancy;
using timing::PluginRegistry;

namespace {

class ZoruaResourceManager final : public IResourceManager {
 public:
  explicit ZoruaResourceManager(const Context& context) {
    // The SM's limits (its CTA slots, thread limit and allocation granularities are read too, so
    // the base configuration's keys stay valid; Zorua's logical CTAs and warps and its own sets
    // take their place).
    const timing::SmResourceLimits limits = timing::SmResourceLimits::read(*context.tree);
    params_.warpSlots = limits.maxWarps;
    const uint32_t registers = limits.registers;
    const uint32_t shared = limits.sharedBytes;
    maxRegsPerThread_ = limits.maxRegsPerThread;
    config::Section r = context.tree->section("resources");
    config::Section z = r.sub("zorua");
    params_.logicalWarps = z.u32("logical_warps", 64,
                                 "warps the SM holds (warp-slot mapping table entries; physical "
                                 "slots are sm.max_warps)", params_.warpSlots, 64);
    params_.logicalCtas = z.u32("logical_ctas", 16, "CTAs the SM holds (scratchpad mapping table)", 1, 64);
    params_.scratchpadSetBytes =
        z.u32("scratchpad_set_bytes", 1024, "scratchpad allocation and swap granularity", 128, 1 << 16);
    params_.registerSets = registers / (kRegistersPerSet * 32);
    params_.scratchpadSets = shared / params_.scratchpadSetBytes;
    sharedBytes_ = shared;
    params_.oversubscribe = z.flag("oversubscribe", true,
                                   "swap up to the adaptive threshold (false: only the "
                                   "minimum-parallelism rule swaps)");
    params_.specifierIssueSlot = z.flag("specifier_issue_slot", true,
                                        "a phase specifier is an instruction: it takes an issue "
                                        "slot of its warp (false: a free annotation)");
    params_.minParallelism = z.f64("min_parallelism", 0.2,
                                   "below this share of the warp slots holding schedulable warps, "
                                   "oversubscribe regardless of the threshold", 0.0, 1.0);
    ThresholdParams& t = params_.threshold;
    t.epochCycles = z.u32("epoch_cycles", 2048, "threshold controller epoch (core cycles)", 1);
    t.initial = z.f64("threshold", 0.10, "initial swap threshold, share of each physical resource", 0.0, 1.0);
    t.step = z.f64("threshold_step", 0.04, "threshold change per epoch, share of the resource", 0.0, 1.0);
    t.deltaCycles = z.u32("threshold_delta_cycles", 16,
                          "change of (idle - memory) cycles between epochs that moves the threshold");
    t.adaptive = z.flag("adaptive_threshold", true, "false: the threshold stays at its initial value");
    addressing_.base = z.u64("swap_base", uint64_t{0x7f0000000000},
                             "device address of the swap space (outside any allocation)");
    addressing_.smId = context.smId;
    addressing_.numSms = context.tree->section("gpu").u32("num_sms", 15, "streaming multiprocessors", 1, 4096);
    addressing_.logicalWarps = params_.logicalWarps;
    addressing_.logicalCtas = params_.logicalCtas;
    addressing_.scratchpadSetBytes = params_.scratchpadSetBytes;
    addressing_.warpStateBytes = z.u32("warp_state_bytes", 128,
                                       "bytes of a saved warp state (PC, reconvergence stack)", 4, 4096);
    poison_ = z.flag("poison_swapped", false,
                     "overwrite swapped registers with a pattern until they are filled (checks "
                     "that no instruction reads a register in swap)");
  }

  std::string beginKernel(const KernelResources& k) override {
    kernel_ = k;
    const uint32_t warps = k.warpsPerCta();
    const uint32_t regs = k.registersPerThread + k.assistRegistersPerThread;
    occupancy_ = Occupancy{};
    occupancy_.maxWarpsPerSm = params_.logicalWarps;  // warps the SM holds; warpSlots of them issue
    if (k.registersPerThread > maxRegsPerThread_)
      return fmt::format("{} registers per thread exceed the SM's limit of {}", k.registersPerThread, maxRegsPerThread_);
    if (regs > 64 * kRegistersPerSet)
      return fmt::format("{} registers per thread exceed the register mapping table's {} sets of {}", regs, 64,
                         kRegistersPerSet);
    if (warps > params_.logicalWarps)
      return fmt::format("a CTA of {} warps exceeds the SM's {} logical warps", warps, params_.logicalWarps);
    if (k.sharedBytesPerCta > sharedBytes_)
      return fmt::format("a CTA needs {} bytes of shared memory, the SM has {}", k.sharedBytesPerCta, sharedBytes_);
    if (uint64_t{(regs + kRegistersPerSet - 1) / kRegistersPerSet} * warps > params_.registerSets)
      return fmt::format("a CTA needs {} register sets of {} warp-registers, the SM has {}",
                         uint64_t{(regs + kRegistersPerSet - 1) / kRegistersPerSet} * warps, kRegistersPerSet,
                         params_.registerSets);
    occupancy_.ctasPerSm = std::min(params_.logicalCtas, params_.logicalWarps / std::max(warps, 1u));
    occupancy_.warpsPerSm = occupancy_.ctasPerSm * warps;
    occupancy_.limitedBy = occupancy_.ctasPerSm == params_.logicalCtas ? "ctas" : "warps";
    admitted_ = 0;
    if (coordinator_) {
      coordinator_->beginKernel(k, now_);
      swap_->beginKernel();
    }
    return {};
  }

  bool canAdmit() const override { return !coordinator_ || coordinator_->canAdmitCta(kernel_.warpsPerCta()); }
  void admit(uint32_t cta) override {
    ++admitted_;
    if (coordinator_) coordinator_->ctaArrive(cta, kernel_.warpsPerCta());
  }
  void release(uint32_t cta) override {
    if (coordinator_) coordinator_->ctaEnd(cta, now_);
  }
  Occupancy occupancy() const override { return occupancy_; }

  void reportStats(nlohmann::json& out) const override {
    out["ctas_admitted"] = admitted_;
    if (!coordinator_) return;
    coordinator_->reportStats(out);
    out["zorua"]["swap_lines_loaded"] = swap_->linesLoaded();
    out["zorua"]["swap_lines_stored"] = swap_->linesStored();
  }

  bool warpGranular() const override { return true; }
  uint32_t warpContexts() const override { return params_.logicalWarps; }
  void attach(WarpGate& gate) override {
    swap_ = std::make_unique<MemorySwapPath>(addressing_, poison_);
    coordinator_ = std::make_unique<Coordinator>(params_, gate, *swap_);
    swap_->attach(gate, *coordinator_);
  }
  void onWarpStart(uint32_t slot, uint32_t ctaLinear, const ResourcePhase* phase, Cycle now) override {
    now_ = now;
    coordinator_->warpStart(slot, ctaLinear, phase, now);
  }
  void onPhaseChange(uint32_t slot, const ResourcePhase& phase, Cycle now) override {
    now_ = now;
    coordinator_->phaseChange(slot, phase, now);
  }
  void onBarrierWait(uint32_t slot, Cycle now) override { coordinator_->barrierWait(slot, now_ = now); }
  void onBarrierRelease(uint32_t slot, Cycle now) override { coordinator_->barrierRelease(slot, now_ = now); }
  void onWarpExit(uint32_t slot, Cycle now) override { coordinator_->warpExit(slot, now_ = now); }
  void onRegisterAccess(uint32_t slot, uint64_t sets) override { coordinator_->countAccess(slot, sets); }
  void onOffChipRegisters(uint32_t slot, uint64_t sets, Cycle now) override {
    coordinator_->accessOffChip(slot, sets, now_ = now);
  }
  void onDataMoved(uint32_t tag, Cycle now) override { swap_->moved(tag, now_ = now); }
  void tick(Cycle now) override {
    now_ = now;
    coordinator_->tick(now);
  }

 private:
  CoordinatorParams params_;
  SwapAddressing addressing_;
  bool poison_ = false;
  uint32_t maxRegsPerThread_ = 63, sharedBytes_ = 0;
  KernelResources kernel_;
  Occupancy occupancy_;
  uint64_t admitted_ = 0;
  Cycle now_ = 0;
  std::unique_ptr<MemorySwapPath> swap_;
  std::unique_ptr<Coordinator> coordinator_;
};

}  // namespace

void registerZoruaResourceManager(PluginRegistry& registry) {
  registry.add<IResourceManager>(
      "zorua",
      "Zorua: registers, scratchpad and warp slots allocated per warp and per program phase, "
      "oversubscribed into swap space",
      [](const IResourceManager::Context& c) { return std::make_unique<ZoruaResourceManager>(c); });
}

}  // namespace warpsim::mech::zorua
