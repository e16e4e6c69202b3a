#include "mech/caba/metadata_cache.h"

namespace warpsim::mech::caba {

MetadataCache::MetadataCache(uint32_t bytes, uint32_t ways, uint32_t lineBytes)
    : sets_(bytes / (ways * lineBytes)), ways_(ways), lineBytes_(lineBytes),
      entries_(size_t{sets_} * ways_) {}

MetadataCache::Result MetadataCache::access(uint64_t addr, bool write) {
  const uint64_t line = addr / lineBytes_;
  Way* set = &entries_[size_t(line % sets_) * ways_];
  Result r;
  ++clock_;
  Way* victim = set;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (set[w].valid && set[w].tag == line) {
      set[w].lastUse = clock_;
      set[w].dirty |= write;
      r.hit = true;
      return r;
    }
    if (!set[w].valid) {
      if (victim->valid) victim = &set[w];
    } else if (victim->valid && set[w].lastUse < victim->lastUse) {
      victim = &set[w];
    }
  }
  if (victim->valid && victim->dirty) {
    r.evictedDirty = true;
    r.evicted = victim->tag * lineBytes_;
  }
  *victim = Way{line, clock_, true, write};
  return r;
}

}  // namespace warpsim::mech::caba
