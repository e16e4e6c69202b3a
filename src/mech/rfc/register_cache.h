// The tag-and-state array of a hardware register-file cache level (RFC or hardware LRF): per
// warp slot, `capacity` 32-bit entries per thread holding whole warp registers named by their
// register number (a 64-bit register takes two entries). Replacement is FIFO (insertion order)
// or LRU (reads refresh). Values themselves stay in the functional state: the cache tracks which
// registers it holds, whether each is dirty (newer than the main register file) and whether the
// compiler said it is dead (its last read happened).
//
// No allocation after construction; at most 16 entries per slot, searched linearly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpsim::mech::rfc {

enum class Replacement : uint8_t { Fifo, Lru };

struct CachedRegister {
  uint32_t reg = 0;
  uint8_t words = 1;     // 2 for a 64-bit register
  bool dirty = false;
  bool dead = false;
  uint64_t stamp = 0;    // insertion (FIFO) or last use (LRU) order
};

class RegisterCache {
 public:
  static constexpr uint32_t kMaxEntries = 16;
  RegisterCache(uint32_t slots, uint32_t capacityWords, Replacement policy);

  uint32_t capacity() const { return capacity_; }
  // The entry holding `reg` in `slot`, or nullptr.
  CachedRegister* find(uint32_t slot, uint32_t reg);
  const CachedRegister* find(uint32_t slot, uint32_t reg) const;
  // A read hit: LRU refreshes the entry's order.
  void touch(uint32_t slot, CachedRegister& entry);
  // Puts a new value of `reg` (`words` entries) in `slot`, replacing any older copy (dropped:
  // the new value supersedes it) and evicting in replacement order until it fits; evict(entry)
  // is called for each evicted entry before it leaves. Returns false (and changes nothing) when
  // `words` exceeds the capacity.
  template <class Evict>
  bool insert(uint32_t slot, uint32_t reg, uint8_t words, bool dirty, Evict&& evict);
  // Removes `reg`'s entry from `slot` without calling anyone; true if there was one.
  bool remove(uint32_t slot, uint32_t reg);
  // Calls fn(entry) for every entry of `slot` in replacement order, then empties the slot.
  template <class Fn>
  void drain(uint32_t slot, Fn&& fn);
  uint32_t usedWords(uint32_t slot) const;

 private:
  CachedRegister* begin(uint32_t slot) { return &entries_[size_t{slot} * kMaxEntries]; }
  const CachedRegister* begin(uint32_t slot) const { return &entries_[size_t{slot} * kMaxEntries]; }
  void erase(uint32_t slot, uint32_t index);
  uint32_t victim(uint32_t slot) const;   // index of the entry replacement picks

  uint32_t capacity_;
  Replacement policy_;
  std::vector<CachedRegister> entries_;   // slot * kMaxEntries + i, i < count_[slot]
  std::vector<uint8_t> count_, words_;
  uint64_t clock_ = 0;
};

template <class Evict>
bool RegisterCache::insert(uint32_t slot, uint32_t reg, uint8_t words, bool dirty, Evict&& evict) {
  if (words > capacity_) return false;
  remove(slot, reg);
  while (words_[slot] + words > capacity_) {
    const uint32_t v = victim(slot);
    CachedRegister out = begin(slot)[v];
    erase(slot, v);
    evict(out);
  }
  CachedRegister& e = begin(slot)[count_[slot]++];
  e = CachedRegister{reg, words, dirty, false, ++clock_};
  words_[slot] = static_cast<uint8_t>(words_[slot] + words);
  return true;
}

template <class Fn>
void RegisterCache::drain(uint32_t slot, Fn&& fn) {
  while (count_[slot] > 0) {
    const uint32_t v = victim(slot);
    CachedRegister out = begin(slot)[v];
    erase(slot, v);
    fn(out);
  }
}

}  // namespace warpsim::mech::rfc
