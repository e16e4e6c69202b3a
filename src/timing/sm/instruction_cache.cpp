#include "timing/sm/instruction_cache.h"

#include <algorithm>

namespace warpsim::timing {

InstructionCache::InstructionCache(uint32_t bytes, uint32_t assoc, uint32_t line, uint32_t missLatency)
    : line_(line), assoc_(assoc), sets_(std::max<uint32_t>(1, bytes / (line * assoc))),
      missLatency_(missLatency), ways_(size_t{sets_} * assoc) {}

void InstructionCache::invalidate() {
  std::fill(ways_.begin(), ways_.end(), Way{});
}

Cycle InstructionCache::access(uint64_t addr, Cycle now) {
  ++accesses_;
  const uint64_t lineNo = addr / line_;
  Way* set = &ways_[(lineNo % sets_) * assoc_];
  const uint64_t tag = lineNo / sets_;
  Way* victim = set;
  for (uint32_t w = 0; w < assoc_; ++w) {
    if (set[w].tag == tag) {
      set[w].lastUse = ++useClock_;
      return std::max(now, set[w].filled);
    }
    if (set[w].lastUse < victim->lastUse) victim = &set[w];
  }
  ++misses_;
  victim->tag = tag;
  victim->filled = now + missLatency_;
  victim->lastUse = ++useClock_;
  return victim->filled;
}

}  // namespace warpsim::timing
