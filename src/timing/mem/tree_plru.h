// Tree pseudo-LRU over the ways of one set, for any associativity up to 64: a binary tree over
// the next power of two of leaves, one bit per inner node pointing to the half that holds the
// pseudo-least-recently-used way. A use points every node on the way's path away from it; the
// victim walk follows the bits but never enters a subtree that holds no real way (so 3, 5 or 6
// ways behave as a tree of 4 or 8 whose missing leaves are never chosen).
//
// The bits of one set live in a uint64_t (node n at bit n, root n = 1; leaves are nodes
// P .. 2P-1 for P leaves), so a cache keeps one word per set.
#pragma once
#include <bit>
#include <cstdint>

namespace warpsim::timing::mem {

class TreePlru {
 public:
  explicit TreePlru(uint32_t ways) : ways_(ways), leaves_(std::bit_ceil(ways == 0 ? 1u : ways)) {}

  uint32_t ways() const { return ways_; }

  // Way `way` was used: every node on its path points to the other half.
  void touch(uint64_t& bits, uint32_t way) const { steer(bits, way, false); }
  // Makes `way` the next victim (an insertion at the LRU position).
  void pointTo(uint64_t& bits, uint32_t way) const { steer(bits, way, true); }

  // The way the bits point to.
  uint32_t victim(uint64_t bits) const {
    uint32_t node = 1;
    while (node < leaves_) {
      const uint32_t left = 2 * node, right = left + 1;
      uint32_t next = (bits >> node) & 1 ? right : left;
      if (firstLeaf(next) >= ways_) next = next == left ? right : left;
      node = next;
    }
    return node - leaves_;
  }

 private:
  // Sets every node on `way`'s path to point towards it (`towards`) or away from it.
  void steer(uint64_t& bits, uint32_t way, bool towards) const {
    for (uint32_t node = leaves_ + way; node > 1; node /= 2) {
      const uint64_t bit = uint64_t{1} << (node / 2);
      const bool right = (node % 2 == 0) != towards;  // a set bit points to the right half
      bits = right ? bits | bit : bits & ~bit;
    }
  }

  // The way of the leftmost leaf under `node`.
  uint32_t firstLeaf(uint32_t node) const {
    while (node < leaves_) node *= 2;
    return node - leaves_;
  }

  uint32_t ways_, leaves_;
};

}  // namespace warpsim::timing::mem
