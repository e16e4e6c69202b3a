#include "timing/mem/zone_placements.h"

#include <algorithm>
#include <bit>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace warpsim::timing::mem {

namespace {

uint32_t log2Zones(uint32_t zones, const char* impl) {
  if (zones == 0 || !std::has_single_bit(zones) || zones > 64)
    throw config::Error(std::string("config: error: zone_placement.impl = \"") + impl +
                        "\" needs a power-of-two number of modules up to 64 (gpu.modules = " +
                        std::to_string(zones) + ")");
  return static_cast<uint32_t>(std::countr_zero(zones));
}

// addr without the `bits` bits at `at`.
uint64_t removeField(uint64_t addr, uint32_t at, uint32_t bits) {
  const uint64_t low = addr & ((uint64_t{1} << at) - 1);
  return ((addr >> (at + bits)) << at) | low;
}

}  // namespace

XorZonePlacement::XorZonePlacement(uint32_t zones, uint32_t bit)
    : bits_(log2Zones(zones, "xor")), shift_(bit), fieldMask_((uint64_t{1} << bits_) - 1) {
  if (bits_ == 0) return;
  for (uint32_t j = 0; j < bits_; ++j) {
    for (uint32_t b = bit + bits_ + j; b < 64; b += bits_) foldMask_[j] |= uint64_t{1} << b;
  }
}

ZonePlace XorZonePlacement::at(uint64_t addr) const {
  if (bits_ == 0) return {0, addr};
  uint64_t zone = (addr >> shift_) & fieldMask_;
  for (uint32_t j = 0; j < bits_; ++j)
    zone ^= static_cast<uint64_t>(std::popcount(addr & foldMask_[j]) & 1) << j;
  return {static_cast<uint32_t>(zone), removeField(addr, shift_, bits_)};
}

InterleaveBitsZonePlacement::InterleaveBitsZonePlacement(uint32_t zones, uint32_t xorBit)
    : zones_(zones), bits_(log2Zones(zones, "interleave-bits")), xor_(zones, xorBit) {
  if (xorBit + bits_ > 16)
    throw config::Error("config: error: zone_placement.xor_bit = " + std::to_string(xorBit) +
                        " must be at most " + std::to_string(16 - bits_) +
                        " with interleave-bits (the xor granule must fit in a 64 KB page)");
}

void InterleaveBitsZonePlacement::setRanges(std::vector<ZoneBitsRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const ZoneBitsRange& a, const ZoneBitsRange& b) { return a.base < b.base; });
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ZoneBitsRange& r = ranges[i];
    if (r.bit < 7 || r.bit > 16)
      throw std::invalid_argument("zone bits at " + std::to_string(r.bit) +
                                  ": the position must be in 7..16");
    const uint64_t align = std::max<uint64_t>(uint64_t{1} << 16, uint64_t{1} << (r.bit + bits_));
    if (r.size == 0 || r.base % align != 0 || r.size % align != 0)
      throw std::invalid_argument("zone range at " + std::to_string(r.base) + " of " +
                                  std::to_string(r.size) + " bytes with bit " +
                                  std::to_string(r.bit) + " is not aligned to " +
                                  std::to_string(align) + " bytes");
    if (i > 0 && ranges[i - 1].base + ranges[i - 1].size > r.base)
      throw std::invalid_argument("zone ranges overlap at " + std::to_string(r.base));
  }
  ranges_ = std::move(ranges);
}

ZonePlace InterleaveBitsZonePlacement::at(uint64_t addr) const {
  // The last range starting at or before addr (few ranges: a binary search).
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), addr,
                             [](uint64_t a, const ZoneBitsRange& r) { return a < r.base; });
  if (it != ranges_.begin()) {
    const ZoneBitsRange& r = *(it - 1);
    if (addr - r.base < r.size) {
      const uint32_t zone = static_cast<uint32_t>((addr >> r.bit) & (zones_ - 1));
      return {zone, removeField(addr, r.bit, bits_)};
    }
  }
  return xor_.at(addr);
}

FirstTouchZonePlacement::FirstTouchZonePlacement(uint32_t zones, uint32_t pageBytes)
    : zones_(zones),
      pageBits_(static_cast<uint32_t>(std::countr_zero(pageBytes))),
      table_(1024),
      frames_(zones, 0) {
  if (!std::has_single_bit(pageBytes) || pageBytes < 128)
    throw config::Error("config: error: zone_placement.page_bytes = " +
                        std::to_string(pageBytes) + " must be a power of two of at least 128");
}

uint64_t& FirstTouchZonePlacement::lookupOrInsert(uint64_t page, bool& inserted) {
  const uint64_t mask = table_.size() - 1;
  uint64_t i = (page * 0x9E3779B97F4A7C15ull) >> 20 & mask;
  for (;; i = (i + 1) & mask) {
    Slot& s = table_[i];
    if (s.page == page + 1) {
      inserted = false;
      return s.where;
    }
    if (s.page == 0) {
      s.page = page + 1;
      inserted = true;
      ++used_;
      return s.where;
    }
  }
}

void FirstTouchZonePlacement::grow() {
  std::vector<Slot> old(table_.size() * 2);
  old.swap(table_);
  used_ = 0;
  for (const Slot& s : old) {
    if (s.page == 0) continue;
    bool inserted = false;
    lookupOrInsert(s.page - 1, inserted) = s.where;
  }
}

ZonePlace FirstTouchZonePlacement::place(uint64_t addr, uint32_t requester) {
  const uint64_t page = addr >> pageBits_;
  const uint64_t offset = addr & ((uint64_t{1} << pageBits_) - 1);
  if (2 * (used_ + 1) > table_.size()) grow();
  bool inserted = false;
  uint64_t& where = lookupOrInsert(page, inserted);
  if (inserted) {
    const uint32_t zone = requester < zones_ ? requester : static_cast<uint32_t>(page % zones_);
    where = frames_[zone]++ << 8 | zone;
  }
  return {static_cast<uint32_t>(where & 0xff), (where >> 8) << pageBits_ | offset};
}

void FirstTouchZonePlacement::reportStats(nlohmann::json& out) const {
  out["first_touch_pages"] = frames_;
}

}  // namespace warpsim::timing::mem
