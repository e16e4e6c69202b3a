#include "timing/mem/mem_stats.h"

#include <nlohmann/json.hpp>

namespace warpsim::timing::mem {

CacheStats& CacheStats::operator+=(const CacheStats& o) {
  accesses += o.accesses;
  hits += o.hits;
  misses += o.misses;
  sectorMisses += o.sectorMisses;
  mshrMerges += o.mshrMerges;
  mshrFullStalls += o.mshrFullStalls;
  evictions += o.evictions;
  writebacks += o.writebacks;
  reads += o.reads;
  writes += o.writes;
  atomics += o.atomics;
  formHits += o.formHits;
  pinnedEvictions += o.pinnedEvictions;
  pinResets += o.pinResets;
  prefetches += o.prefetches;
  prefetchHits += o.prefetchHits;
  prefetchLate += o.prefetchLate;
  prefetchUnused += o.prefetchUnused;
  return *this;
}

void CacheStats::toJson(nlohmann::json& out) const {
  out = {{"accesses", accesses},
         {"hits", hits},
         {"misses", misses},
         {"sector_misses", sectorMisses},
         {"mshr_merges", mshrMerges},
         {"mshr_full_stalls", mshrFullStalls},
         {"evictions", evictions},
         {"writebacks", writebacks},
         {"reads", reads},
         {"writes", writes},
         {"atomics", atomics},
         {"form_hits", formHits},
         {"pinned_evictions", pinnedEvictions},
         {"pin_resets", pinResets},
         {"prefetches", prefetches},
         {"prefetch_hits", prefetchHits},
         {"prefetch_late", prefetchLate},
         {"prefetch_unused", prefetchUnused}};
}

SharedStats& SharedStats::operator+=(const SharedStats& o) {
  accesses += o.accesses;
  bankConflictReplays += o.bankConflictReplays;
  conflictedAccesses += o.conflictedAccesses;
  return *this;
}

void SharedStats::toJson(nlohmann::json& out) const {
  out = {{"accesses", accesses},
         {"bank_conflict_replays", bankConflictReplays},
         {"conflicted_accesses", conflictedAccesses}};
}

StorageBankStats& StorageBankStats::operator+=(const StorageBankStats& o) {
  arbitrationStalls += o.arbitrationStalls;
  arbitrationAccesses += o.arbitrationAccesses;
  return *this;
}

void StorageBankStats::toJson(nlohmann::json& out) const {
  out = {{"arbitration_stalls", arbitrationStalls}, {"arbitration_accesses", arbitrationAccesses}};
}

ConstStats& ConstStats::operator+=(const ConstStats& o) {
  accesses += o.accesses;
  hits += o.hits;
  misses += o.misses;
  l15Hits += o.l15Hits;
  l15Misses += o.l15Misses;
  return *this;
}

void ConstStats::toJson(nlohmann::json& out) const {
  out = {{"accesses", accesses}, {"hits", hits},           {"misses", misses},
         {"l15_hits", l15Hits},  {"l15_misses", l15Misses}};
}

IcntStats& IcntStats::operator+=(const IcntStats& o) {
  packets += o.packets;
  flits += o.flits;
  stallCycles += o.stallCycles;
  return *this;
}

void IcntStats::toJson(nlohmann::json& out) const {
  out = {{"packets", packets}, {"flits", flits}, {"stall_cycles", stallCycles}};
}

DramStats& DramStats::operator+=(const DramStats& o) {
  activates += o.activates;
  precharges += o.precharges;
  readBursts += o.readBursts;
  writeBursts += o.writeBursts;
  rowHits += o.rowHits;
  rowMisses += o.rowMisses;
  busyCycles += o.busyCycles;
  cycles += o.cycles;
  refreshes += o.refreshes;
  refreshCycles += o.refreshCycles;
  readsReturned += o.readsReturned;
  readLatencyL2Cycles += o.readLatencyL2Cycles;
  return *this;
}

void DramStats::toJson(nlohmann::json& out) const {
  out = {{"activates", activates},      {"precharges", precharges}, {"read_bursts", readBursts},
         {"write_bursts", writeBursts}, {"row_hits", rowHits},      {"row_misses", rowMisses},
         {"busy_cycles", busyCycles},   {"cycles", cycles},         {"refreshes", refreshes},
         {"refresh_cycles", refreshCycles}, {"reads_returned", readsReturned},
         {"read_latency_l2_cycles", readLatencyL2Cycles}};
}

}  // namespace warpsim::timing::mem
