#include "hints/hint_table.h"

#include <algorithm>

namespace warpsim::hints {

HintTable::HintTable(const std::vector<HintRange>& inPriorityOrder) {
  for (const HintRange& r : inPriorityOrder) {
    if (r.base < r.end) ranges_.push_back(r);
  }
  for (const HintRange& r : ranges_) {
    starts_.push_back(r.base);
    starts_.push_back(r.end);
  }
  std::sort(starts_.begin(), starts_.end());
  starts_.erase(std::unique(starts_.begin(), starts_.end()), starts_.end());
  owner_.assign(starts_.size(), -1);
  for (size_t s = 0; s < starts_.size(); ++s) {
    for (size_t i = 0; i < ranges_.size(); ++i) {
      if (ranges_[i].base <= starts_[s] && starts_[s] < ranges_[i].end) {
        owner_[s] = static_cast<int32_t>(i);
        break;
      }
    }
  }
}

const HintRange* HintTable::find(uint64_t address) const {
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), address);
  if (it == starts_.begin()) return nullptr;
  const int32_t owner = owner_[static_cast<size_t>(it - starts_.begin()) - 1];
  return owner < 0 ? nullptr : &ranges_[static_cast<size_t>(owner)];
}

}  // namespace warpsim::hints
