// Cache policy "atoms" (XMem use case 1, digest s1.8.1; the translator's rules in
// cache_attributes.h): what the program's active atoms ask of a cache. For each access to
// global memory the cache's atom management unit (atom_management_unit.h: ALB, then AAM, then
// the AST) names the active atom owning the line, and
//   - an atom of reuse 0 is bypassed (its misses allocate nothing);
//   - the atoms of the most reuse are pinned (soft pins, so that a set whose lines are all pinned
//     still replaces by LRU among them), within `pin_share` of the cache's capacity; an atom too
//     big for what is left is pinned in part (a fixed subset of its lines);
//   - lines of an atom that is not wholly pinned enter at the LRU position, and a miss on the
//     unpinned part of a REGULAR atom prefetches the next `prefetch_degree` unpinned lines of the
//     atom along its stride (at least a line).
// Lines no active atom owns are treated as the baseline treats them (allocate at MRU).
//
// The atoms' operations come with each launch (hints::LaunchAtoms: the program's whole history,
// so each cache applies what it has not yet) and, from kernels, one by one as warps issue them
// (hintOp: XMem's ATOM_* instructions, sent to every cache; a cache first applies the host's
// operations issued before the warp's launch, should it not have begun that launch yet). Every
// instance keeps its own unit, whose AAM copy stands for the paper's one global table (all copies
// apply the same operations in the same order, so they agree) and whose ALB is this cache's own.
// The rules follow at once: after a kernel's operation they are recomputed before the next
// lookup. Keys in [l1.atoms] / [l2.atoms] (the level it is used
// at): bypass, pinning, prefetch, release_pins, pin_share, prefetch_degree, alb_entries, alb_ways, chunk_bytes,
// page_bytes.
//
// Statistics per kernel (memory.l1d_policy / l2_policy, summed over instances): `amu` (the
// unit's counters; the operations the kernel's launch applied counted once) and `atoms`, per
// atom id: reads, read_hits, bypassed, pinned_lines, prefetches, and the translator's decision
// for the launch (as it stands at the end, after the kernel's own operations), counted once:
// working_set_bytes (mapped, when active) and pinned_bytes (of them, what the rule pins). Only
// counts: totals over launches add them.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "mech/xmem/atom_management_unit.h"
#include "mech/xmem/cache_attributes.h"
#include "timing/mem/i_cache_policy.h"

namespace warpsim::mech::xmem {

struct AtomPolicyOptions {
  bool bypass = true;
  bool pinning = true;
  bool prefetch = true;
  bool releasePins = true;      // at the L2: pins follow use (ICachePolicy::pinsFollowUse)
  double pinShare = 0.75;       // of the cache's capacity, for pinned atoms
  uint32_t prefetchDegree = 2;  // lines per miss on a REGULAR atom's unpinned part
  AmuParams amu;

  // From [<level>.atoms] of `tree`.
  static AtomPolicyOptions read(config::Tree& tree, const char* level);
};

class AtomCachePolicy final : public timing::mem::ICachePolicy {
 public:
  AtomCachePolicy(const AtomPolicyOptions& options, uint32_t lineBytes);

  bool bypass(const timing::mem::CacheAccessInfo& access) override;
  timing::mem::InsertPosition insertion(const timing::mem::CacheAccessInfo& access) override;
  timing::mem::PinKind pin(const timing::mem::CacheAccessInfo& access) override;
  uint32_t prefetch(const timing::mem::CacheAccessInfo& access, uint64_t* lines, uint32_t max) override;
  void beginKernel() override;
  void beginLaunch(const timing::mem::CacheLaunch& launch) override;
  void hintOp(const hints::AtomOp& op, const hints::LaunchHints* launch) override;
  // Pins of lines the rules no longer pin (a tile the program has moved on from) are released.
  bool pinsFollowUse() const override { return options_.pinning && options_.releasePins; }
  void reportStats(nlohmann::json& out) const override;

  const CacheAtomTable& rules() const {
    refreshRules();
    return rules_;
  }
  const AtomManagementUnit& amu() const { return amu_; }

 private:
  static constexpr uint32_t kNone = hints::kMaxAtoms;
  // Applies the host's operations of `atoms` this unit has not applied yet (`countOps`: found by
  // counting them rather than their segments), and takes its atoms.
  void catchUp(const hints::LaunchAtoms& atoms, bool countOps);
  // The translator's rules for the atoms and mappings now, when operations changed them.
  void refreshRules() const;
  // The active atom owning `line` (kNone: none), looked up once per line in a row: the hooks of
  // one access share the lookup.
  uint32_t atomOf(const timing::mem::CacheAccessInfo& access);
  bool pinned(uint32_t atom, uint64_t line) const;

  struct AtomCounts {
    uint64_t reads = 0, readHits = 0, bypassed = 0, pinnedLines = 0, prefetches = 0;
  };

  AtomPolicyOptions options_;
  uint32_t lineBytes_;
  AtomManagementUnit amu_;
  uint64_t appliedOps_ = 0;       // the host's operations applied (the launches' history)
  size_t appliedSegments_ = 0;    // of the history's segments
  uint64_t deviceOps_ = 0;        // kernels' operations applied (hintOp)
  uint64_t levelCapacity_ = 0;    // the capacity of the level, at the last beginLaunch
  std::vector<hints::AtomAttributes> attributes_;
  uint64_t memoLine_ = ~uint64_t{0};
  uint32_t memoAtom_ = kNone;
  std::array<AtomCounts, hints::kMaxAtoms> counts_{};
  // The rules and what they were made of, derived from the AMU's state: recomputed (refreshRules)
  // when an operation has changed it.
  mutable bool rulesStale_ = false;
  mutable CacheAtomTable rules_{};
  mutable std::array<uint64_t, hints::kMaxAtoms> workingSet_{};   // bytes mapped, when active
  mutable std::array<uint64_t, hints::kMaxAtoms> pinnedBytes_{};  // of them, the rule pins
};

}  // namespace warpsim::mech::xmem
