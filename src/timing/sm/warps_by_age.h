// The warps of one scheduler kept oldest first (admission order), for age-based issue policies
// (GTO, oldest-first). Warps arrive and leave rarely (once per warp per CTA), so keeping the list
// sorted there makes the per-cycle pick a plain scan with no allocation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace warpsim::timing {

class WarpsByAge {
 public:
  struct Entry {
    uint64_t age;
    uint32_t slot;
  };
  void reserve(uint32_t slots) { entries_.reserve(slots); }
  void add(uint32_t slot, uint64_t age) {
    const Entry e{age, slot};
    entries_.insert(std::upper_bound(entries_.begin(), entries_.end(), e,
                                     [](const Entry& a, const Entry& b) { return a.age < b.age; }),
                    e);
  }
  void remove(uint32_t slot) {
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.slot == slot; }),
                   entries_.end());
  }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  std::vector<Entry> entries_;  // oldest first
};

}  // namespace warpsim::timing
