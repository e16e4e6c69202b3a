// First-fit interval lists of one level's entries within the current strand (the allocator's
// occupancy of each per-thread entry, digest rf-hierarchy s6.3 step 6).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace warpsim::mech::orf_lrf {

inline constexpr uint32_t kNoEntry = UINT32_MAX;

// Intervals are [start, end) in pcs: a value's entry is free again at the pc of its last read
// (that instruction reads it before any result of its own is written).
class EntryIntervals {
 public:
  explicit EntryIntervals(uint32_t n) : used_(n) {}
  void clear() {
    for (auto& u : used_) u.clear();
  }
  bool free(uint32_t e, uint32_t start, uint32_t end) const {
    if (e >= used_.size()) return false;
    for (const auto& [s, t] : used_[e])
      if (start < t && s < end) return false;
    return true;
  }
  // First entry (or pair of consecutive entries for a 64-bit value) free over [start, end).
  uint32_t fit(uint32_t start, uint32_t end, uint8_t words) const {
    for (uint32_t e = 0; e + words <= used_.size(); ++e) {
      if (free(e, start, end) && (words == 1 || free(e + 1, start, end))) return e;
    }
    return kNoEntry;
  }
  void take(uint32_t e, uint32_t start, uint32_t end, uint8_t words) {
    for (uint8_t w = 0; w < words; ++w) used_[e + w].push_back({start, end});
  }

 private:
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> used_;
};

}  // namespace warpsim::mech::orf_lrf
