// L1 cache policy "descriptors" (digest s2.4.2 and s2.4.3): what the launch's locality
// descriptors ask of the L1, by the policy each descriptor's type selects (launch_plan.h):
//
//   NO_REUSE                 bypass: misses go to the L2 without allocating a line
//   INTRA_THREAD             hard pinning: lines installed hard-pinned; when every line of a set
//                            is, way 0 is evicted (cache_tags.h); every l1.descriptors.unpin_period
//                            core cycles the L1 clears the hard pins (the thesis's timer)
//   INTER_THREAD COACCESSED  IRREGULAR: soft pinning (prioritised over other data, no thrash
//                            control); REGULAR: the guided stride prefetch
//   INTER_THREAD NEARBY      next-line prefetch
//
// A global access's line is looked up in the launch's address table (hints::HintTable, built
// from the descriptors in priority order, so where descriptors of one structure disagree the
// higher priority decides); the other spaces and addresses no descriptor covers are treated as
// the baseline treats them (allocate at MRU, no pin, no prefetch). Each part can be switched
// off (l1.descriptors.bypass, pinning, prefetch) for the study's LDesc-Cache and LDesc-Pref.
// Acts at the L1 only (digest L8); as an L2 policy it is refused.
//
// Statistics (memory.l1d_policy): lookups (table searches; the line of the last search is
// remembered, so the hooks of one access search once), and per descriptor in priority order
// its type, reads, read hits, bypassed reads, hard- and soft-pinned insertions and prefetches
// asked for.
#pragma once
#include <cstdint>
#include <vector>

#include "hints/hint_table.h"
#include "mech/locality_descriptor/guided_prefetch.h"
#include "mech/locality_descriptor/launch_plan.h"
#include "timing/mem/i_cache_policy.h"

namespace warpsim::mech::locality_descriptor {

struct DescriptorPolicyOptions {
  bool bypass = true;            // NO_REUSE data bypasses the L1
  bool pinning = true;           // hard and soft pinning
  bool prefetch = true;          // the guided prefetcher
  uint64_t unpinPeriod = 20000;  // core cycles between resets of the hard pins
  uint32_t activeWindow = 64;    // ActiveTiles' window, in prefetch-triggering misses

  // From [l1.descriptors] of `tree`.
  static DescriptorPolicyOptions read(config::Tree& tree);
};

class DescriptorCachePolicy final : public timing::mem::ICachePolicy {
 public:
  DescriptorCachePolicy(const DescriptorPolicyOptions& options, uint32_t lineBytes);

  bool bypass(const timing::mem::CacheAccessInfo& access) override;
  timing::mem::InsertPosition insertion(const timing::mem::CacheAccessInfo&) override {
    return timing::mem::InsertPosition::Mru;
  }
  timing::mem::PinKind pin(const timing::mem::CacheAccessInfo& access) override;
  uint32_t prefetch(const timing::mem::CacheAccessInfo& access, uint64_t* lines,
                    uint32_t max) override;
  void beginKernel() override;
  void beginLaunch(const timing::mem::CacheLaunch& launch) override;
  uint64_t unpinPeriod() const override { return hardPins_ ? options_.unpinPeriod : 0; }
  void reportStats(nlohmann::json& out) const override;

 private:
  struct Counters {
    uint64_t reads = 0, hits = 0, bypassed = 0, hardPins = 0, softPins = 0, prefetches = 0;
  };
  // The plan of the descriptor covering `access`'s line (global space only), or nullptr.
  const DescriptorPlan* lookup(const timing::mem::CacheAccessInfo& access);

  const DescriptorPolicyOptions options_;
  const uint32_t lineBytes_;
  uint64_t l1Bytes_ = 0;
  LaunchPlan plan_;
  hints::HintTable table_;
  bool hardPins_ = false;  // some descriptor of the launch asks for hard pinning
  uint64_t lastLine_ = UINT64_MAX;
  int64_t lastRecord_ = -1;
  ActiveTiles active_;
  uint64_t lookups_ = 0;
  std::vector<Counters> counters_;  // per plan_.descriptors entry
};

}  // namespace warpsim::mech::locality_descriptor
