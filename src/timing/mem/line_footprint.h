// The distinct lines an SM touched since the kernel began (its working set in lines, the
// measure of CTA-scheduling studies: "average unique cache lines accessed at each SM"). An
// open-addressing hash set of line numbers; it grows by doubling at half load, so insertion
// allocates only O(log lines) times per kernel, and clear() keeps its room. Only built when
// l1.count_footprint is on.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace warpsim::timing::mem {

class LineFootprint {
 public:
  // Notes line number `line`.
  void insert(uint64_t line) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const uint64_t key = line + 1;  // 0 marks an empty slot
    size_t i = hash(key) & (slots_.size() - 1);
    while (slots_[i] != 0) {
      if (slots_[i] == key) return;
      i = (i + 1) & (slots_.size() - 1);
    }
    slots_[i] = key;
    ++size_;
  }
  uint64_t size() const { return size_; }
  void clear() {
    std::fill(slots_.begin(), slots_.end(), 0);
    size_ = 0;
  }

 private:
  static size_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }
  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
    size_ = 0;
    for (uint64_t k : old) {
      if (k != 0) insert(k - 1);
    }
  }
  std::vector<uint64_t> slots_;
  uint64_t size_ = 0;
};

}  // namespace warpsim::timing::mem
