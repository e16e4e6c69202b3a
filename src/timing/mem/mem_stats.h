// Counters of each level, named as docs/stats.md "memory" lists them. Every component owns its
// counters; the memory system sums them over SMs, slices and channels when it reports.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

namespace warpsim::timing::mem {

// L1D and L2. accesses = hits + misses + sector_misses (one per line request that reached the
// tags; stalled attempts are not accesses). mshr_merges counts misses and sector misses that
// joined an outstanding MSHR without a new request. reads/writes/atomics split accesses by
// kind (atomics that only pass by the L1 are counted there as atomics, not as accesses).
// Pinning and prefetching (the cache policy's, i_cache_policy.h): pinned_evictions counts lines
// evicted while pinned (every candidate of the set was pinned), pin_resets the policy's periodic
// clearing of hard pins; prefetches counts lines installed by prefetches, of which
// prefetch_hits were then read by a demand access after their data arrived, prefetch_late
// before it arrived (the access waited for the prefetch's fill), prefetch_unused evicted unread.
struct CacheStats {
  uint64_t accesses = 0, hits = 0, misses = 0, sectorMisses = 0, mshrMerges = 0, mshrFullStalls = 0,
           evictions = 0, writebacks = 0, reads = 0, writes = 0, atomics = 0,
           formHits = 0;  // hits on lines held in a form the SM transforms on each use
  uint64_t pinnedEvictions = 0, pinResets = 0, prefetches = 0, prefetchHits = 0, prefetchLate = 0,
           prefetchUnused = 0;
  // A demand read found `prefetched` set on its line: counts it (`arrived`: its data was there)
  // and clears it.
  void demandUseOfPrefetch(bool& prefetched, bool arrived) {
    if (!prefetched) return;
    ++(arrived ? prefetchHits : prefetchLate);
    prefetched = false;
  }
  CacheStats& operator+=(const CacheStats& o);
  void toJson(nlohmann::json& out) const;
};

struct SharedStats {
  uint64_t accesses = 0;             // warp-level shared-memory accesses
  uint64_t bankConflictReplays = 0;  // extra bank passes caused by conflicts
  uint64_t conflictedAccesses = 0;   // accesses with at least one replay
  SharedStats& operator+=(const SharedStats& o);
  void toJson(nlohmann::json& out) const;
};

// Banks shared with the register file (timing/storage_banks.h): memory passes that waited for a
// register access.
struct StorageBankStats {
  uint64_t arbitrationStalls = 0;    // cycles a pass waited because a register access held a bank
  uint64_t arbitrationAccesses = 0;  // accesses that waited at least once
  StorageBankStats& operator+=(const StorageBankStats& o);
  void toJson(nlohmann::json& out) const;
};

struct ConstStats {
  uint64_t accesses = 0, hits = 0, misses = 0;  // one per distinct address of a warp
  uint64_t l15Hits = 0, l15Misses = 0;            // misses the L1.5 filled / passed to the L2
  ConstStats& operator+=(const ConstStats& o);
  void toJson(nlohmann::json& out) const;
};

struct IcntStats {
  uint64_t packets = 0, flits = 0, stallCycles = 0;
  IcntStats& operator+=(const IcntStats& o);
  void toJson(nlohmann::json& out) const;
};

struct DramStats {
  uint64_t activates = 0, precharges = 0, readBursts = 0, writeBursts = 0, rowHits = 0,
           rowMisses = 0, busyCycles = 0, cycles = 0;
  // All-bank refreshes (REF commands) and the cycles from each one's due cycle to the end of its
  // tRFC (dram_channel.h); 0 unless dram.t_refi > 0.
  uint64_t refreshes = 0, refreshCycles = 0;
  // Reads whose data came back to the L2, and the L2 cycles from each one's request to its data
  // at the L2 (queueing, row commands, bursts, return path: the read latency memory placement
  // changes), measured by the slices.
  uint64_t readsReturned = 0, readLatencyL2Cycles = 0;
  DramStats& operator+=(const DramStats& o);
  void toJson(nlohmann::json& out) const;
};

}  // namespace warpsim::timing::mem
