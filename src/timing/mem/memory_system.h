// The memory hierarchy of the GPU (timing/sm_memory.h MemorySystem): one SmMemoryUnit per SM,
// a request and a reply crossbar, one L2 slice per channel (l2.slices_per_channel of them) and
// one DRAM channel per memory channel, in three clock domains besides the SMs' core clock:
// interconnect, L2 and DRAM ([clocks] icnt, l2, dram in MHz).
//
// advanceTo(ps) runs the domains' cycles up to time ps in time order; cycles that start at the
// same picosecond run interconnect first, then L2, then DRAM (so a request the L2 hands to DRAM
// at time t is seen by the DRAM cycle starting at t, and a reply the L2 hands to the
// interconnect is taken by the next interconnect cycle). A domain with nothing to do runs no
// cycles: it asks its components for the next cycle at which they have work, and the loop jumps
// there. nextEventPs() reports the earliest such time, so the GPU can skip idle stretches.
//
// A GPU of several modules (gpu.modules > 1; module_links.h, zoned_address_mapping.h): SM s is
// in module s / (SMs per module), channel c (its slices and DRAM) in module c / (channels per
// module). Both crossbars get one port per module to and from the inter-module links; a packet
// between modules crosses its module's crossbar to the link port, the link, then the other
// module's crossbar. The zone placement (i_zone_placement.h) decides where addresses live. With
// one module none of this exists and nothing changes.
//
// SMs run in core cycles through SmMemory (cycle(now) after advanceTo(now's time) in the GPU's
// loop); packets an SM sends at core time t are taken by the first interconnect cycle after t.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "timing/clock_domain.h"
#include "timing/mem/crossbar.h"
#include "timing/mem/dram_channel.h"
#include "timing/mem/i_address_mapping.h"
#include "timing/mem/i_cache_policy.h"
#include "timing/mem/i_local_memory_path.h"
#include "timing/mem/i_memory_compression.h"
#include "timing/mem/i_page_placement.h"
#include "timing/mem/i_zone_placement.h"
#include "timing/mem/l2_slice.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/module_links.h"
#include "timing/mem/sm_memory_unit.h"
#include "timing/sm_memory.h"

namespace warpsim::timing::mem {

class ZonedAddressMapping;
class PagedAddressMapping;

// Where the memory system gets its plug-ins (the registry in production, baselines in tests).
class MemoryPlugins {
 public:
  virtual ~MemoryPlugins() = default;
  virtual std::unique_ptr<ICachePolicy> cachePolicy(const ICachePolicy::Context& c) = 0;
  virtual std::unique_ptr<IMemoryCompression> compression(const IMemoryCompression::Context& c) = 0;
  virtual std::unique_ptr<ILocalMemoryPath> localPath(const ILocalMemoryPath::Context& c) = 0;
  virtual std::unique_ptr<IAddressMapping> addressMapping(const IAddressMapping::Context& c) = 0;
  // Only on a GPU of several modules. By default the core baselines by name (xor, first-touch,
  // interleave-bits); throws config::Error for another name.
  virtual std::unique_ptr<IZonePlacement> zonePlacement(const std::string& name,
                                                        const IZonePlacement::Context& c);
  // Only with page_placement.impl other than identity. By default the core baselines by name
  // (identity, random); throws config::Error for another name.
  virtual std::unique_ptr<IPagePlacement> pagePlacement(const std::string& name,
                                                        const IPagePlacement::Context& c);
};

// The baselines, without a registry or a configuration tree.
class BaselineMemoryPlugins final : public MemoryPlugins {
 public:
  std::unique_ptr<ICachePolicy> cachePolicy(const ICachePolicy::Context& c) override;
  std::unique_ptr<IMemoryCompression> compression(const IMemoryCompression::Context& c) override;
  std::unique_ptr<ILocalMemoryPath> localPath(const ILocalMemoryPath::Context& c) override;
  std::unique_ptr<IAddressMapping> addressMapping(const IAddressMapping::Context& c) override;
};

class MemorySystemImpl final : public MemorySystem {
 public:
  MemorySystemImpl(const MemoryParams& params, MemoryPlugins& plugins,
                   const func::DeviceMemory* memory = nullptr, config::Tree* tree = nullptr);
  ~MemorySystemImpl() override;

  SmMemory& sm(uint32_t index) override { return *sms_[index]; }
  void advanceTo(uint64_t ps) override;
  bool idle() const override;
  uint64_t nextEventPs(uint64_t nowPs) const override;
  uint64_t progress() const override;
  void beginKernel() override;
  void beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3], uint32_t ctasPerSm) override;
  void hintOp(const hints::AtomOp& op, const hints::LaunchHints* launch) override;
  void warm(uint64_t address, uint32_t bytes, bool write) override;
  void reportStats(nlohmann::json& out) const override;

  // For tests and tools.
  SmMemoryUnit& unit(uint32_t index) { return *sms_[index]; }
  L2Slice& slice(uint32_t index) { return *slices_[index]; }
  DramChannel& channel(uint32_t index) { return *channels_[index]; }
  const IAddressMapping& mapping() const { return *mapping_; }
  const ClockDomain& clock(uint32_t domain) const { return clocks_[domain]; }
  // Multi-module GPUs only (nullptr otherwise).
  IZonePlacement* zonePlacement() { return placement_.get(); }
  const ModuleLinks* links() const { return links_.get(); }

 private:
  enum Domain : uint32_t { kIcnt = 0, kL2 = 1, kDram = 2, kDomains = 3 };
  // The first cycle >= `from` at which domain `d` has work, or kNever.
  Cycle workCycle(uint32_t d, Cycle from) const;
  void tick(uint32_t d, Cycle c);
  // The next cycle of domain `d` not yet run (next_ is brought up to date lazily while the
  // levels below the SMs are quiescent).
  Cycle nextCycle(uint32_t d) const;
  // Marks every cycle that starts at or before `ps` as run (they had nothing to do).
  void catchUp(uint64_t ps);
  void wireModules(MemoryPlugins& plugins, config::Tree* tree);
  // l2.partitions > 1: the partition of every SM and slice on both crossbars (crossbar.h).
  void wirePartitions();
  void wirePages(MemoryPlugins& plugins, config::Tree* tree, const func::DeviceMemory* memory);
  void reportModules(nlohmann::json& out) const;
  uint32_t linkPorts() const { return params_.modules > 1 ? params_.modules : 0; }
  void setNext(uint32_t d, Cycle c) {
    next_[d] = c;
    nextPs_[d] = clocks_[d].timeOf(c);
  }

  const MemoryParams params_;
  ClockDomain clocks_[kDomains];
  Cycle next_[kDomains] = {0, 0, 0};       // next cycle of each domain not yet run
  uint64_t nextPs_[kDomains] = {0, 0, 0};  // its start
  // Nothing below the SMs has work and nothing arrived since: advanceTo only notes the time.
  bool quiescent_ = false;
  uint64_t lastPs_ = 0;  // the time of the last advanceTo
  Cycle kernelStartDram_ = 0;
  PacketPool pool_;
  std::unique_ptr<IZonePlacement> placement_;  // multi-module only
  std::unique_ptr<IAddressMapping> mapping_;   // the zoned one on a multi-module GPU
  ZonedAddressMapping* zoned_ = nullptr;
  PagedAddressMapping* paged_ = nullptr;  // with a page placement other than identity
  uint64_t pagesAtKernelStart_ = 0;
  Crossbar requests_;
  Crossbar replies_;
  std::unique_ptr<ModuleLinks> links_;  // multi-module only
  std::vector<std::unique_ptr<IMemoryCompression>> compression_;  // per channel
  std::vector<std::unique_ptr<DramChannel>> channels_;
  std::vector<std::unique_ptr<ICachePolicy>> l2Policies_;  // per slice
  std::vector<std::unique_ptr<L2Slice>> slices_;
  std::vector<std::unique_ptr<SmMemoryUnit>> sms_;
};

}  // namespace warpsim::timing::mem
