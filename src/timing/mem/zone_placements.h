// The core baselines of the extension point zone_placement (i_zone_placement.h). Z = zones,
// n = log2(Z) (xor and interleave-bits need Z a power of two).
//
// "xor": the zone is the n-bit field at bit s = zone_placement.xor_bit (default 8: 256-byte
//   granules), XORed with the fold of every higher bit in n-bit groups
//   (bits s+n.., s+2n.., ...; up to bit 63). The local address is the address with the field
//   removed: local = (addr >> (s + n)) << s | addr mod 2^s. Given (zone, local) the higher bits
//   are local >> s and the field is zone XOR their fold: a bijection, and dense (each aligned
//   block of 2^(s+n) bytes gives every zone 2^s bytes, at local block / Z).
// "interleave-bits": per range (setRanges), zone = the n bits at `bit` (7..16: 128 B to 64 KB
//   granules) and local = the address without those bits; addresses in no range use "xor".
//   A range must start and end on a multiple of max(64 KB, 2^(bit + n)): then each such block
//   maps onto [block / Z, (block + size) / Z) of every zone, the same interval "xor" (with
//   s + n <= 16) gives it, so ranges with different bits and the xor remainder never collide.
//   (With 4 zones, bits 15 and 16 reach page-frame bits 16-17, which a real driver would set
//   by choosing frames (digest L7); here the alignment stands in for that choice.)
// "first-touch": pages of zone_placement.page_bytes (default 64 KB); a page goes to the zone of
//   the first SM request for it that reaches memory, for the whole run. Each zone numbers its
//   pages in the order they arrive (its frames): local = frame * page + offset, dense and
//   bijective. A page first asked for by no SM (side traffic below the L2) goes to
//   (page number mod Z). Any Z.
#pragma once
#include <cstdint>
#include <vector>

#include "timing/mem/i_zone_placement.h"

namespace warpsim::timing::mem {

class XorZonePlacement final : public IZonePlacement {
 public:
  XorZonePlacement(uint32_t zones, uint32_t bit);
  ZonePlace place(uint64_t addr, uint32_t) override { return at(addr); }
  ZonePlace at(uint64_t addr) const;

 private:
  uint32_t bits_, shift_;
  uint64_t fieldMask_;
  uint64_t foldMask_[6] = {};  // foldMask_[j]: the bits j, j+n, j+2n, ... above the field
};

class InterleaveBitsZonePlacement final : public IZonePlacement {
 public:
  // `xorBit`: the field of the xor placement used outside the ranges (at most 16 - n).
  InterleaveBitsZonePlacement(uint32_t zones, uint32_t xorBit);
  // Replaces the ranges; throws std::invalid_argument (one line) for a bit outside 7..16, a
  // misaligned range or overlapping ranges.
  void setRanges(std::vector<ZoneBitsRange> ranges);
  const std::vector<ZoneBitsRange>& ranges() const { return ranges_; }
  ZonePlace place(uint64_t addr, uint32_t) override { return at(addr); }
  ZonePlace at(uint64_t addr) const;

 private:
  uint32_t zones_, bits_;
  XorZonePlacement xor_;
  std::vector<ZoneBitsRange> ranges_;  // sorted by base, disjoint
};

class FirstTouchZonePlacement final : public IZonePlacement {
 public:
  FirstTouchZonePlacement(uint32_t zones, uint32_t pageBytes);
  ZonePlace place(uint64_t addr, uint32_t requester) override;
  void reportStats(nlohmann::json& out) const override;
  uint64_t pagesIn(uint32_t zone) const { return frames_[zone]; }

 private:
  struct Slot {
    uint64_t page = 0;   // page number + 1 (0: empty)
    uint64_t where = 0;  // frame << 8 | zone
  };
  uint64_t& lookupOrInsert(uint64_t page, bool& inserted);
  void grow();

  uint32_t zones_, pageBits_;
  std::vector<Slot> table_;  // open addressing, power-of-two size, at most half full
  uint64_t used_ = 0;
  std::vector<uint64_t> frames_;  // pages placed per zone
};

}  // namespace warpsim::timing::mem
