// An address -> hint lookup for the timing model's components (caches, prefetchers, the CTA
// scheduler, the memory controller): ranges of device memory, each naming a record of whoever
// built the table (a descriptor's index, a policy's entry). Built once per launch from ranges in
// priority order, the first winning where ranges overlap; a lookup is a binary search over the
// segments the ranges' ends cut the address space into, so it costs O(log ranges) and allocates
// nothing.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::hints {

struct HintRange {
  uint64_t base = 0, end = 0;  // [base, end)
  uint32_t record = 0;
};

class HintTable {
 public:
  HintTable() = default;
  explicit HintTable(const std::vector<HintRange>& inPriorityOrder);

  // The first of the ranges (in the order given) that holds `address`, or nullptr.
  const HintRange* find(uint64_t address) const;
  const std::vector<HintRange>& ranges() const { return ranges_; }
  bool empty() const { return ranges_.empty(); }

 private:
  std::vector<HintRange> ranges_;  // as given
  std::vector<uint64_t> starts_;   // segment starts, ascending; a segment ends where the next starts
  std::vector<int32_t> owner_;     // per segment: the index in ranges_ of its range, -1 for none
};

}  // namespace warpsim::hints
