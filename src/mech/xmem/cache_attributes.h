// The attribute translator's cache table (the PAT of a cache; digest s1.6, s1.8.1 and A1): from
// the program's atoms (the GAT), which of them are active and how many bytes each is mapped to
// (its working set), what a cache of a given capacity does with each atom's lines.
//
// The paper says only that the cache prioritises the high-reuse working set over low-reuse
// data, pins part of an active working set that does not fit, prefetches the rest by the
// atom's pattern and bypasses data of no reuse (A1 leaves the algorithm to us). Ours:
//   - bypass: an active atom of reuse 0 (its lines are never allocated);
//   - pinning budget: `pinShare` of the cache's capacity (the rest stays for data no atom
//     describes and for the streamed remainder); active atoms of reuse > 0 take it in order of
//     reuse, then intensity (both higher first), then id: an atom whose working set fits what
//     is left is pinned whole; the first that does not is pinned in part (the fraction of its
//     lines that fits) if it is of the highest reuse among the active atoms (the high-reuse
//     working set: a lower-reuse atom's fixed subset would hold lines the current tile does
//     not touch), not at all otherwise; the ones after it are pinned only whole;
//   - which lines of a partly pinned atom: those whose line address hashes below the fraction
//     (a fixed, address-spread subset, so that the same lines stay pinned on every pass over
//     the tile and the cache's sets share them evenly);
//   - the remainder of a partly pinned atom enters the cache at the LRU position (it passes
//     through without pushing out data that stays) and, for a REGULAR atom, is prefetched along
//     its stride; the lines of an atom with no pins are cached as undescribed data are.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "hints/atoms.h"

namespace warpsim::mech::xmem {

struct CacheAtomRule {
  bool bypass = false;
  uint32_t pinThreshold = 0;  // lines whose hash (16 bits) is below it are pinned: 0 none, 65536 all
  bool prefetchRemainder = false;
  int64_t strideBytes = 0;    // REGULAR atoms

  bool pinsAll() const { return pinThreshold >= kHashRange; }
  bool partial() const { return pinThreshold > 0 && pinThreshold < kHashRange; }
  static constexpr uint32_t kHashRange = 1u << 16;
};

// The 16-bit hash of a line address that picks a partly pinned atom's pinned lines.
uint32_t lineHash(uint64_t line);

using CacheAtomTable = std::array<CacheAtomRule, hints::kMaxAtoms>;

// The rules for every atom. `active(atom)` and `bytes(atom)`: the AST bit and the working set.
template <typename Active, typename Bytes>
CacheAtomTable translateForCache(std::span<const hints::AtomAttributes> atoms, Active&& active, Bytes&& bytes,
                                 uint64_t capacityBytes, double pinShare);

}  // namespace warpsim::mech::xmem

#include "mech/xmem/cache_attributes_impl.h"
