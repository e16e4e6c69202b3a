#include "timing/mem/mshr_table.h"

namespace warpsim::timing::mem {

MshrTable::MshrTable(uint32_t entries, uint32_t mergeSlots)
    : entries_(entries), waiters_(size_t{entries} * mergeSlots), mergeSlots_(mergeSlots) {}

uint32_t MshrTable::allocate(uint64_t tag, uint32_t set, uint32_t way) {
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].inUse) continue;
    entries_[i] = Entry{tag, set, way, 0, 0, true};
    ++used_;
    return i;
  }
  return kNoMshr;
}

}  // namespace warpsim::timing::mem
