// XMem's Atom Lookaside Buffer (ALB; digest xmem-and-locality-descriptor.md s1.6, s1.11 item 6).
//
// The paper: a TLB-like cache inside the AMU, tag = physical page index, data = that page's atom
// ids; the AAM is read only on a miss. 256 entries cover 98.9% of lookups (with LRU); the
// associativity and the miss latency are not stated.
//
// What we chose:
//   - `entries` (default 256) in sets of `ways` (default 8) ways; the set of a page is
//     page index mod sets. entries must be a positive multiple of ways and the set count a power
//     of two, else std::invalid_argument. ways == entries is fully associative.
//   - True LRU within a set: each way carries the access stamp of its last use; a miss fills an
//     invalid way if there is one, else the way with the oldest stamp.
//   - Only tags are modelled. The data is always read from the AAM, which is exact because the
//     AMU writes every map to the AAM and updates a cached copy in place (write-through with
//     update), so a map neither invalidates entries nor causes misses.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::mech::xmem {

class AtomLookasideBuffer {
 public:
  explicit AtomLookasideBuffer(uint32_t entries = 256, uint32_t ways = 8);

  // True on a hit (the way becomes the set's most recently used); false on a miss, which fills
  // the page in, evicting the set's least recently used way.
  bool access(uint64_t page);
  // Whether `page` is cached; changes nothing (for tests and checks).
  bool contains(uint64_t page) const;
  // Drops `page` if cached.
  void invalidate(uint64_t page);
  // Drops every entry (a context switch's flush).
  void flush();

  uint32_t entries() const { return sets_ * ways_; }
  uint32_t ways() const { return ways_; }
  uint32_t sets() const { return sets_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  // The index of `page`'s way in tags_/stamps_, or -1.
  int64_t find(uint64_t page) const;

  uint32_t ways_ = 0;
  uint32_t sets_ = 0;
  std::vector<uint64_t> tags_;    // sets_ * ways_, set-major
  std::vector<uint64_t> stamps_;  // 0: invalid way; else the clock at its last access
  uint64_t clock_ = 0;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace warpsim::mech::xmem
