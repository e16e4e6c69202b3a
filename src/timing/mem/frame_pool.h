// Which frames of device memory are free, for page placements (i_page_placement.h): a bit per
// frame, and the search for a free one from a starting frame (wrapping around).
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

namespace warpsim::timing::mem {

class FramePool {
 public:
  static constexpr uint64_t kNone = UINT64_MAX;

  explicit FramePool(uint64_t frames) : frames_(frames), free_(frames), used_((frames + 63) / 64, 0) {}

  uint64_t frames() const { return frames_; }
  uint64_t freeCount() const { return free_; }
  bool isFree(uint64_t f) const { return (used_[f / 64] >> (f % 64) & 1) == 0; }
  void take(uint64_t f) {
    used_[f / 64] |= uint64_t{1} << (f % 64);
    --free_;
  }
  // The first free frame at or after `from`, wrapping around; kNone when none is free.
  uint64_t nextFree(uint64_t from) const {
    if (free_ == 0) return kNone;
    const uint64_t words = used_.size();
    from %= frames_;
    uint64_t w = from / 64;
    uint64_t below = from % 64 == 0 ? 0 : (uint64_t{1} << (from % 64)) - 1;  // before `from`
    for (uint64_t k = 0; k <= words; ++k) {  // from's word last again, whole
      const uint64_t word = used_[w] | below;
      if (~word != 0) {
        const uint64_t found = w * 64 + static_cast<uint64_t>(std::countr_one(word));
        if (found < frames_) return found;
      }
      below = 0;
      w = w + 1 == words ? 0 : w + 1;
    }
    return kNone;
  }

 private:
  uint64_t frames_, free_;
  std::vector<uint64_t> used_;
};

}  // namespace warpsim::timing::mem
