// The memory controller's cache of per-line compression metadata (the burst count of every
// line, 2 bits each, kept in a reserved DRAM region): set-associative, LRU, write-allocate,
// write-back. A miss costs one DRAM read of the metadata line; evicting a dirty metadata line
// costs one DRAM write.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpsim::mech::caba {

class MetadataCache {
 public:
  MetadataCache(uint32_t bytes, uint32_t ways, uint32_t lineBytes);

  struct Result {
    bool hit = false;
    bool evictedDirty = false;
    uint64_t evicted = 0;  // metadata line address written back (when evictedDirty)
  };
  // Looks up the metadata line at `addr` (aligned to the line size); a write marks it dirty.
  Result access(uint64_t addr, bool write);
  uint32_t sets() const { return sets_; }

 private:
  struct Way {
    uint64_t tag = 0;
    uint64_t lastUse = 0;
    bool valid = false, dirty = false;
  };
  uint32_t sets_, ways_, lineBytes_;
  uint64_t clock_ = 0;
  std::vector<Way> entries_;
};

}  // namespace warpsim::mech::caba
