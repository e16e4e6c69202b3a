// An SM's L1 data cache: sectored tags, MSHRs, the write policies per space, and the cache-policy
// hooks. It sees one line request at a time from the SM's memory pipeline (global and local
// loads and stores; atomics pass it by) and talks to the L2 through the SmPort.
//
// Loads (allocate on miss, at the time of the miss):
//   all sectors valid                   hit: data after l1.hit_latency
//   line present, sectors missing       sector miss: the missing sectors not already requested
//                                       are requested (one Read for them), and the load waits
//                                       in the line's MSHR; if all were requested already, it
//                                       just joins the MSHR (an MSHR merge)
//   line absent                         miss: a victim is evicted (dirty sectors written back),
//                                       the line is installed with the requested sectors
//                                       pending, an MSHR entry is taken, one Read goes down
//   policy bypass / uncached            the Read goes down without allocating; its reply
//                                       completes the load directly
// A load stalls (the pipeline retries it next cycle) when it needs an MSHR and none is free,
// an MSHR whose merge slots are full, a way that is not waiting for a fill, or room in the
// request network for its packets.
//
// Cache compression (l1.keep_fill_form): a fill that reached the SM in a form (a compressed line,
// which the SM's reply listener transformed for the loads waiting for it) stays in that form, in
// its size (l1.tag_factor > 1 lets a set hold more such lines, cache_tags.h); a later hit on it
// reports the form, and the SM transforms the line again before the load completes. A store
// that hits a line held in a form drops it (the L1 cannot merge plain data into it).
//
// Stores follow the write policy of their space (l1.global_write, l1.local_write): write-through
// policies send the data down (a Write, acknowledged by the L2) and update or allocate the
// written sectors; write-back allocates and marks them dirty. Allocation at sector granularity
// without fetching (write-validate): a partially written sector counts as valid.
#pragma once
#include <cstdint>
#include <vector>

#include "timing/mem/cache_tags.h"
#include "timing/mem/i_cache_policy.h"
#include "timing/mem/line_footprint.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/mem_stats.h"
#include "timing/mem/mshr_table.h"
#include "timing/mem/sm_port.h"

namespace warpsim::timing::mem {

// Where the caches of an SM report that an access of an instruction slot is complete.
class CompletionSink {
 public:
  virtual ~CompletionSink() = default;
  virtual void completeAccess(uint32_t slot, Cycle when) = 0;
  // The cache evicted line `line` to make room (its dirty sectors are on their way down).
  virtual void evicted(uint64_t line) {}
};

struct LineAccess {
  uint64_t line = 0;
  uint32_t sectors = 0;
  uint32_t bytes = 0;  // bytes written (stores)
  uint32_t slot = 0;   // instruction slot waiting for it
  RequestOrigin origin;
  bool uncached = false;  // volatile or uncached global load: skip the tags
  bool deferWrite = false;  // write-through store: update the tags, the caller sends the data
};

enum class AccessResult : uint8_t { Done, Waiting, Stalled };

class L1DataCache {
 public:
  L1DataCache(const L1Params& params, SmPort& port, ICachePolicy& policy, CompletionSink& sink);

  bool enabled() const { return enabled_; }
  // Done: a hit (data after the hit latency; *form: non-zero when the line is held in a form
  // the SM transforms first); Waiting: the fill or reply will complete it.
  AccessResult load(const LineAccess& a, Cycle now, uint8_t* form = nullptr);
  // Done: the store left (or stayed in) the L1.
  AccessResult store(const LineAccess& a, WritePolicy policy, Cycle now);
  // A ReadReply for MSHR `mshr` brought `sectors`.
  // The sector mask of a whole line.
  uint32_t allSectors() const { return tags_.allSectors(); }
  // `form`, `bytes`: the reply's form and size, kept with l1.keep_fill_form (0: plain).
  void fill(uint32_t mshr, uint32_t sectors, Cycle now, uint8_t form = 0, uint32_t bytes = 0);
  // Drops `line`; returns its dirty sectors (the caller writes them back).
  uint32_t invalidate(uint64_t line);
  // Hard pins are cleared every `period` core cycles from `now` on (0: never; the policy's
  // unpinPeriod(), set when the SM starts a launch).
  void setUnpinPeriod(uint64_t period, Cycle now);
  // Kernel boundary: every line without a fill on its way is dropped (dirty data of write-back
  // spaces is local data of the finished kernel; it is dropped without traffic).
  void invalidateAll() { tags_.invalidateAll(); }
  bool waitingForFills() const { return mshrs_.used() != 0; }
  // Per-kernel capacity (a carveout chosen at a kernel boundary): the cache becomes `bytes`
  // long, rounded down to whole sets of the configured associativity and line size, or with
  // l1.resize = "ways" to whole ways of the configured sets (0: no L1), empty. With fills still on their way the change waits for the last of them (accesses until
  // then use the old capacity).
  void setCapacity(uint64_t bytes);
  uint64_t capacity() const {
    return enabled_ ? uint64_t{tags_.sets()} * assoc_ * tags_.lineBytes() : 0;
  }

  CacheStats& stats() { return stats_; }
  // Distinct lines loaded or stored since resetFootprint (counted with l1.count_footprint).
  uint64_t footprint() const { return footprint_.size(); }
  void resetFootprint() { footprint_.clear(); }
  const CacheTags& tags() const { return tags_; }

 private:
  CacheAccessInfo infoOf(const LineAccess& a, bool write) const;
  uint32_t setOf(uint64_t line) const { return tags_.setOf(line / tags_.lineBytes()); }
  // Evicts (set, way), sending a Writeback for dirty sectors (room checked by the caller).
  void evict(uint32_t set, uint32_t way, const RequestOrigin& origin);
  // Room for the packets a miss in `set` needs: 1 + a write-back of the victim if dirty.
  uint32_t packetsForVictim(uint32_t set, uint32_t way) const;
  // Compressed capacity: evicts what roomFor names so that a whole line fits at (set, way) when
  // the port takes their write-backs beside `packets`; false: no room now.
  bool makeRoom(uint32_t set, uint32_t way, uint32_t packets, const RequestOrigin& origin);
  void prefetch(const CacheAccessInfo& info, const RequestOrigin& origin);

  void applyCapacity(uint64_t bytes);
  void unpinDue(Cycle now);

  const L1Params params_;
  bool enabled_;
  uint32_t assoc_;  // ways per set now (l1.resize = "ways" changes it with the capacity)
  uint64_t pendingCapacity_ = kNoPendingCapacity;
  static constexpr uint64_t kNoPendingCapacity = UINT64_MAX;
  SmPort& port_;
  ICachePolicy& policy_;
  CompletionSink& sink_;
  CacheTags tags_;
  MshrTable mshrs_;
  CacheStats stats_;
  std::vector<uint32_t> roomWays_;  // makeRoom's evictions (one entry per tag of a set)
  LineFootprint footprint_;
  uint64_t unpinPeriod_ = 0;
  Cycle nextUnpin_ = 0;
};

}  // namespace warpsim::timing::mem
