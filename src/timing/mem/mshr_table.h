// Miss status holding registers: one entry per line with sectors on their way from the level
// below, holding up to `mergeSlots` waiting requests (the first miss included). A request whose
// sectors are all pending joins the entry (an MSHR merge); one that needs more sectors extends
// the entry's pending mask and also waits in it. Entries are fixed storage; nothing allocates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpsim::timing::mem {

inline constexpr uint32_t kNoMshr = UINT32_MAX;

struct MshrWaiter {
  uint32_t id = 0;       // the cache's name for the request (instruction slot, packet)
  uint32_t sectors = 0;  // sectors it needs
};

class MshrTable {
 public:
  struct Entry {
    uint64_t tag = 0;
    uint32_t set = 0, way = 0;  // where the line is allocated
    uint32_t pending = 0;       // sectors requested, not back yet
    uint32_t waiters = 0;       // used merge slots
    bool inUse = false;
  };

  MshrTable(uint32_t entries, uint32_t mergeSlots);

  uint32_t find(uint64_t tag) const {
    for (uint32_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].inUse && entries_[i].tag == tag) return i;
    }
    return kNoMshr;
  }
  bool full() const { return used_ == entries_.size(); }
  uint32_t used() const { return used_; }
  bool canMerge(uint32_t e) const { return entries_[e].waiters < mergeSlots_; }
  Entry& entry(uint32_t e) { return entries_[e]; }
  const Entry& entry(uint32_t e) const { return entries_[e]; }

  uint32_t allocate(uint64_t tag, uint32_t set, uint32_t way);
  void addWaiter(uint32_t e, uint32_t id, uint32_t sectors) {
    waiters_[size_t{e} * mergeSlots_ + entries_[e].waiters++] = MshrWaiter{id, sectors};
  }

  // Sectors `arrived` came back and the line now holds `valid`: calls done(waiter) for every
  // waiter whose sectors are all valid (all remaining waiters once nothing is pending), then
  // frees the entry when it has neither waiters nor pending sectors. Returns whether it was freed.
  template <class F>
  bool fill(uint32_t e, uint32_t arrived, uint32_t valid, F&& done) {
    Entry& en = entries_[e];
    en.pending &= ~arrived;
    MshrWaiter* w = &waiters_[size_t{e} * mergeSlots_];
    uint32_t kept = 0;
    for (uint32_t i = 0; i < en.waiters; ++i) {
      if (en.pending == 0 || (w[i].sectors & ~valid) == 0) {
        done(w[i]);
      } else {
        w[kept++] = w[i];
      }
    }
    en.waiters = kept;
    if (kept == 0 && en.pending == 0) {
      en.inUse = false;
      --used_;
      return true;
    }
    return false;
  }

 private:
  std::vector<Entry> entries_;
  std::vector<MshrWaiter> waiters_;
  uint32_t mergeSlots_;
  uint32_t used_ = 0;
};

}  // namespace warpsim::timing::mem
