#include "timing/mem/cache_tags.h"

#include <algorithm>

namespace warpsim::timing::mem {

CacheTags::CacheTags(const CacheGeometry& g, uint64_t stream)
    : sets_(std::max<uint32_t>(g.sets(), 1)),
      assoc_(g.assoc),
      ways_(g.assoc * g.tagFactor),
      lineBytes_(g.lineBytes),
      sectorBytes_(g.sectorBytes),
      allSectors_(g.sectorsPerLine() >= 32 ? ~0u : (1u << g.sectorsPerLine()) - 1),
      segmentBytes_(std::clamp<uint32_t>(g.segmentBytes, 1, g.lineBytes)),
      segmentsPerLine_(g.lineBytes / segmentBytes_),
      dataSegments_(g.assoc * segmentsPerLine_),
      replacement_(g.replacement),
      random_((g.seed + stream * 0xD1B54A32D192ED03ull) * 0x9E3779B97F4A7C15ull | 1),
      lines_(size_t{std::max<uint32_t>(g.sets(), 1)} * g.assoc * g.tagFactor),
      keys_(lines_.size(), kNoKey),
      plru_(g.assoc * g.tagFactor),
      plruBits_(g.replacement == Replacement::Plru ? std::max<uint32_t>(g.sets(), 1) : 0, 0) {}

uint32_t CacheTags::victim(uint32_t set) {
  const uint64_t* keys = &keys_[size_t{set} * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (keys[w] == kNoKey) return w;
  }
  const CacheLine* l = &lines_[size_t{set} * ways_];
  constexpr uint32_t kLevels = 3;  // PinKind None, Soft, Hard
  // Every candidate hard-pinned: the fixed way 0 unless its fill is on its way.
  auto hardChoice = [&](uint32_t lruHard) { return l[0].pending == 0 ? 0u : lruHard; };
  if (replacement_ == Replacement::Random) {
    // xorshift64: draw a start way, take the first evictable way from there of the lowest pin.
    random_ ^= random_ << 13;
    random_ ^= random_ >> 7;
    random_ ^= random_ << 17;
    const uint32_t start = static_cast<uint32_t>(random_ % ways_);
    for (uint32_t level = 0; level < kLevels; ++level) {
      for (uint32_t i = 0; i < ways_; ++i) {
        const uint32_t w = (start + i) % ways_;
        if (l[w].pending == 0 && static_cast<uint32_t>(l[w].pin) == level)
          return level == kLevels - 1 ? hardChoice(w) : w;
      }
    }
    return kNoWay;
  }
  if (replacement_ == Replacement::Plru) {
    const uint32_t w = plru_.victim(plruBits_[set]);
    if (l[w].pending == 0 && l[w].pin == PinKind::None) return w;
  }
  uint32_t best[kLevels] = {kNoWay, kNoWay, kNoWay};  // least recently used per pin kind
  for (uint32_t w = 0; w < ways_; ++w) {
    if (l[w].pending != 0) continue;
    uint32_t& slot = best[static_cast<uint32_t>(l[w].pin)];
    if (slot == kNoWay || l[w].stamp < l[slot].stamp) slot = w;
  }
  if (best[0] != kNoWay) return best[0];
  if (best[1] != kNoWay) return best[1];
  return best[2] == kNoWay ? kNoWay : hardChoice(best[2]);
}

uint32_t CacheTags::unpin(PinKind kind) {
  uint32_t n = 0;
  for (CacheLine& l : lines_) {
    if (l.allocated && l.pin == kind) {
      l.pin = PinKind::None;
      ++n;
    }
  }
  return n;
}

uint32_t CacheTags::usedSegments(uint32_t set) const {
  const CacheLine* l = &lines_[size_t{set} * ways_];
  uint32_t used = 0;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (l[w].allocated) used += l[w].size;
  }
  return used;
}

uint32_t CacheTags::roomFor(uint32_t set, uint32_t way, uint32_t bytes, uint32_t* out) const {
  const uint32_t size = segments(bytes);
  const CacheLine* l = &lines_[size_t{set} * ways_];
  uint32_t used = usedSegments(set);
  if (l[way].allocated) used -= l[way].size;
  uint32_t n = 0;
  while (used + size > dataSegments_) {
    // The least recently used line not yet chosen, not waiting for a fill; pinned ones last.
    uint32_t best = kNoWay;
    for (uint32_t w = 0; w < ways_; ++w) {
      if (w == way || !l[w].allocated || l[w].pending != 0) continue;
      bool chosen = false;
      for (uint32_t i = 0; i < n; ++i) chosen = chosen || out[i] == w;
      if (chosen) continue;
      if (best == kNoWay ||
          (l[w].pin != l[best].pin ? l[w].pin < l[best].pin : l[w].stamp < l[best].stamp))
        best = w;
    }
    if (best == kNoWay) return kNoRoom;
    out[n++] = best;
    used -= l[best].size;
  }
  return n;
}

void CacheTags::install(uint32_t set, uint32_t way, uint64_t tag, InsertPosition position,
                        PinKind pin, uint32_t bytes) {
  CacheLine& l = line(set, way);
  l.tag = tag;
  keys_[size_t{set} * ways_ + way] = tag;
  l.valid = l.dirty = l.pending = 0;
  l.size = segments(bytes);
  l.form = 0;
  l.allocated = true;
  l.pin = pin;
  l.prefetched = false;
  if (replacement_ == Replacement::Plru) {
    if (position == InsertPosition::Mru) {
      plru_.touch(plruBits_[set], way);
    } else {
      plru_.pointTo(plruBits_[set], way);
    }
  }
  if (position == InsertPosition::Mru) {
    l.stamp = ++clock_;
  } else {
    // Below every other line of the set: the next victim unless it is used first.
    int64_t lowest = clock_ + 1;
    const CacheLine* s = &lines_[size_t{set} * ways_];
    for (uint32_t w = 0; w < ways_; ++w) {
      if (w != way && s[w].allocated) lowest = std::min(lowest, s[w].stamp);
    }
    l.stamp = lowest - 1;
  }
}

void CacheTags::invalidateAll() {
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].pending == 0) {
      lines_[i] = CacheLine{};
      keys_[i] = kNoKey;
    }
  }
  std::fill(plruBits_.begin(), plruBits_.end(), 0);
}

}  // namespace warpsim::timing::mem
