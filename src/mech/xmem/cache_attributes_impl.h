// translateForCache's body (cache_attributes.h).
#pragma once
#include <algorithm>
#include <vector>

namespace warpsim::mech::xmem {

template <typename Active, typename Bytes>
CacheAtomTable translateForCache(std::span<const hints::AtomAttributes> atoms, Active&& active, Bytes&& bytes,
                                 uint64_t capacityBytes, double pinShare) {
  CacheAtomTable table{};
  std::vector<uint32_t> reusable;
  for (uint32_t id = 0; id < atoms.size() && id < hints::kMaxAtoms; ++id) {
    if (!active(id)) continue;
    const hints::AtomAttributes& a = atoms[id];
    table[id].strideBytes = a.pattern == hints::AtomPattern::Regular ? a.strideBytes : 0;
    if (a.reuse == 0) {
      table[id].bypass = true;
    } else if (bytes(id) > 0) {
      reusable.push_back(id);
    }
  }
  std::stable_sort(reusable.begin(), reusable.end(), [&](uint32_t x, uint32_t y) {
    if (atoms[x].reuse != atoms[y].reuse) return atoms[x].reuse > atoms[y].reuse;
    return atoms[x].intensity > atoms[y].intensity;
  });
  auto budget = static_cast<uint64_t>(static_cast<double>(capacityBytes) * pinShare);
  const uint32_t highestReuse = reusable.empty() ? 0 : atoms[reusable.front()].reuse;
  for (uint32_t id : reusable) {
    const uint64_t ws = bytes(id);
    if (ws <= budget) {
      table[id].pinThreshold = CacheAtomRule::kHashRange;
      budget -= ws;
    } else if (atoms[id].reuse == highestReuse) {
      // Only the high-reuse working set is pinned in part: a lower-reuse atom's fixed subset would
      // hold lines of it the current tile does not touch, in place of those it does.
      table[id].pinThreshold = static_cast<uint32_t>(budget * CacheAtomRule::kHashRange / ws);
      table[id].prefetchRemainder = table[id].strideBytes != 0;
      budget = 0;
    }
  }
  return table;
}

}  // namespace warpsim::mech::xmem
