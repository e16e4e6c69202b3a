// The tag array of a sectored cache: sets x ways of lines, each with per-sector valid, dirty and
// pending (fill requested, not yet back) bits, a pin bit and a replacement stamp. The caches
// (L1D, constant, L2) put their own request handling around it; the cache-policy hooks decide
// the insertion position and pinning of what they install.
//
// Replacement: "lru" evicts the line used least recently (hits refresh it), "fifo" the line
// installed first (hits do not refresh), "random" a uniformly drawn line from a xorshift
// generator with a fixed seed, "plru" the way a tree pseudo-LRU points to (tree_plru.h; when
// that way waits for a fill or is pinned, the LRU choice among the others). Lines with pending
// sectors are never evicted (their fill is on its way). Invalid ways are used before any
// eviction.
//
// Pinning (PinKind, chosen by the cache policy when a line is installed) ranks the candidates:
// unpinned lines go first, then soft-pinned ones (prioritised: the policy's choice among
// them), and hard-pinned ones only when every candidate is hard-pinned; then the fixed way 0
// goes (if it is not waiting for a fill), so that a working set larger than the set thrashes
// one way and keeps the others (thrash-resistant pinning). unpin() clears pins (a policy's
// periodic reset).
//
// Compressed capacity (geometry tagFactor 2 or 4): a set has assoc * tagFactor tags in front of
// the data of assoc whole lines, stored in segments (geometry segmentBytes). Each line occupies
// its size in segments (a line held compressed, its compressed size rounded up; a whole line
// otherwise), so a set holds more lines the better they compress, up to its tags. A line that
// does not fit beside the others evicts more of them, least recently used first (roomFor). With
// tagFactor 1 and whole lines nothing changes: a set holds assoc lines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "timing/mem/mem_params.h"
#include "timing/mem/tree_plru.h"

namespace warpsim::timing::mem {

inline constexpr uint32_t kNoWay = UINT32_MAX;

enum class InsertPosition : uint8_t { Mru, Lru };

// How strongly a line stays (see the file comment): None < Soft < Hard.
enum class PinKind : uint8_t { None = 0, Soft = 1, Hard = 2 };

struct CacheLine {
  uint64_t tag = 0;      // line address
  int64_t stamp = 0;     // replacement order: smaller is evicted first
  uint32_t valid = 0;    // sectors holding data
  uint32_t dirty = 0;    // sectors newer than the level below
  uint32_t pending = 0;  // sectors requested from below, not back yet
  uint16_t size = 0;     // segments of the set's data the line occupies (compressed capacity)
  uint8_t form = 0;      // non-zero: held in a form the SM transforms on use (a compressed line)
  bool allocated = false;
  PinKind pin = PinKind::None;
  bool prefetched = false;  // installed by a prefetch and not used by a demand access since
};

inline constexpr uint32_t kNoRoom = UINT32_MAX;

class CacheTags {
 public:
  // `stream` gives each instance (SM, slice) its own random sequence from the same seed.
  explicit CacheTags(const CacheGeometry& geometry, uint64_t stream = 0);

  uint32_t sets() const { return sets_; }
  // Tags per set (assoc * tagFactor).
  uint32_t ways() const { return ways_; }
  // Segments of data per set (assoc whole lines).
  uint32_t dataSegments() const { return dataSegments_; }
  bool compressedCapacity() const { return ways_ != assoc_; }
  uint32_t lineBytes() const { return lineBytes_; }
  uint32_t sectorBytes() const { return sectorBytes_; }
  uint32_t allSectors() const { return allSectors_; }
  // Set of a line address by its line number (the L2 passes the slice-local line number).
  uint32_t setOf(uint64_t lineNumber) const { return static_cast<uint32_t>(lineNumber % sets_); }

  // The way of `set` holding line `tag`, or kNoWay. (It scans the set's keys, 8 bytes a way,
  // not its lines: L1s of several hundred ways are searched on every access.)
  uint32_t find(uint32_t set, uint64_t tag) const {
    const uint64_t* k = &keys_[size_t{set} * ways_];
    for (uint32_t w = 0; w < ways_; ++w) {
      if (k[w] == tag) return w;
    }
    return kNoWay;
  }
  // A line's state. Its tag and allocation change only through install(), drop() and
  // invalidateAll(), which keep find()'s keys in step.
  CacheLine& line(uint32_t set, uint32_t way) { return lines_[size_t{set} * ways_ + way]; }
  const CacheLine& line(uint32_t set, uint32_t way) const {
    return lines_[size_t{set} * ways_ + way];
  }

  // A hit: refreshes the line's position for LRU.
  void touch(uint32_t set, uint32_t way) {
    if (replacement_ == Replacement::Lru || replacement_ == Replacement::Plru) {
      line(set, way).stamp = ++clock_;
    }
    if (replacement_ == Replacement::Plru) plru_.touch(plruBits_[set], way);
  }
  // The way to (re)use for a new line in `set`, or kNoWay when every way waits for a fill.
  uint32_t victim(uint32_t set);
  // Installs line `tag` in (set, way), which victim() returned and the caller has evicted; it
  // takes `bytes` of the set's data, rounded up to segments (0: a whole line).
  void install(uint32_t set, uint32_t way, uint64_t tag, InsertPosition position, PinKind pin,
               uint32_t bytes = 0);
  // Clears the pins of kind `kind` (the others stay); returns how many lines it unpinned.
  uint32_t unpin(PinKind kind);
  // Segments of data the lines of `set` occupy.
  uint32_t usedSegments(uint32_t set) const;
  // The lines to evict so that `bytes` (0: a whole line) fit in `set` for the line at `way`
  // (about to be installed there or resized; its present room counts as free): writes their
  // ways to `out` (room for ways() entries), least recently used first, and returns how many;
  // kNoRoom when lines waiting for fills hold too much of it. Pinned lines go last. With
  // tagFactor 1 and whole lines the answer is always 0.
  uint32_t roomFor(uint32_t set, uint32_t way, uint32_t bytes, uint32_t* out) const;
  // The line at (set, way) now takes `bytes` (0: a whole line).
  void resize(uint32_t set, uint32_t way, uint32_t bytes) { line(set, way).size = segments(bytes); }
  // Drops (set, way) without write-back (the caller has evicted it).
  void drop(uint32_t set, uint32_t way) {
    line(set, way) = CacheLine{};
    keys_[size_t{set} * ways_ + way] = kNoKey;
  }
  // Drops every line without pending sectors (kernel boundary for L1s). Dirty data is lost:
  // only caches without dirty lines are invalidated.
  void invalidateAll();

 private:
  uint16_t segments(uint32_t bytes) const {
    return static_cast<uint16_t>(bytes == 0 || bytes >= lineBytes_
                                     ? segmentsPerLine_
                                     : (bytes + segmentBytes_ - 1) / segmentBytes_);
  }

  uint32_t sets_, assoc_, ways_, lineBytes_, sectorBytes_, allSectors_, segmentBytes_,
      segmentsPerLine_, dataSegments_;
  Replacement replacement_;
  uint64_t random_;
  int64_t clock_ = 0;
  std::vector<CacheLine> lines_;
  // Per way: the tag of the allocated line, kNoKey when the way is free. Tags are line numbers,
  // far below kNoKey.
  static constexpr uint64_t kNoKey = UINT64_MAX;
  std::vector<uint64_t> keys_;
  TreePlru plru_;
  std::vector<uint64_t> plruBits_;  // per set (plru only)
};

}  // namespace warpsim::timing::mem
