// The AVC's storage (digest s1.3, s1.9): a sectored cache whose lines are one tag plus 16
// vector entries, each vector covering one 128-byte block (the same word of 32 lanes) and
// holding {b, 3-bit stride code, 32 valid bits, 32 dirty bits}. A line thus covers 16
// consecutive blocks (2 KB of address space); lines are indexed by (address / 2 KB) mod sets.
// Replacement is per line, tree pseudo-LRU over the ways (timing/mem/tree_plru.h).
//
// The geometry reuses the L1's 8 KB ways (Table 3): each way holds `sets` lines of 16 x 64-bit
// entries (b and the valid mask; stride codes and dirty bits are extra bits), so sets =
// bytes / (ways x 128).
#pragma once
#include <cstdint>
#include <vector>

#include "mech/avc/affine_encoding.h"
#include "timing/mem/tree_plru.h"

namespace warpsim::mech::avc {

inline constexpr uint32_t kBlockBytes = 128;
inline constexpr uint32_t kVectorsPerLine = 16;
inline constexpr uint64_t kLineSpan = uint64_t{kBlockBytes} * kVectorsPerLine;

struct AvcVector {
  AffineCode code;
  uint32_t valid = 0;
  uint32_t dirty = 0;  // subset of valid: newer than the L1 and memory
};

struct AvcLine {
  uint64_t tag = 0;  // line address (a multiple of kLineSpan)
  bool allocated = false;
  AvcVector vectors[kVectorsPerLine];
};

class AvcArray {
 public:
  AvcArray(uint64_t bytes, uint32_t ways);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  bool enabled() const { return sets_ != 0; }

  static uint64_t lineOf(uint64_t block) { return block - block % kLineSpan; }
  static uint32_t vectorOf(uint64_t block) {
    return static_cast<uint32_t>(block % kLineSpan / kBlockBytes);
  }
  uint32_t setOf(uint64_t block) const {
    return static_cast<uint32_t>(block / kLineSpan % sets_);
  }

  // The line holding `block`, or nullptr. Does not touch the replacement state.
  AvcLine* find(uint64_t block);
  // The vector entry of `block` in its line, or nullptr when the line is absent.
  AvcVector* vector(uint64_t block) {
    AvcLine* l = find(block);
    return l == nullptr ? nullptr : &l->vectors[vectorOf(block)];
  }
  // Marks the line of `block` (present) most recently used.
  void touch(uint64_t block);
  // The line `block` would replace in its set (an invalid way first): the caller writes its
  // vectors back, then install() takes it.
  AvcLine& victimFor(uint64_t block);
  // Installs the line of `block` in the way victimFor() returned, empty, most recently used.
  AvcLine& install(uint64_t block, AvcLine& way);
  void clear();

  // Valid words across the array (effective-compression statistic).
  uint64_t validWords() const;

 private:
  uint32_t sets_, ways_;
  timing::mem::TreePlru plru_;
  std::vector<AvcLine> lines_;
  std::vector<uint64_t> plruBits_;
};

}  // namespace warpsim::mech::avc
