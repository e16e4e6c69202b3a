#include "timing/mem/hash_address_mapping.h"

#include <algorithm>
#include <bit>

namespace warpsim::timing::mem {

HashAddressMapping::HashAddressMapping(uint32_t channels, uint32_t banks, uint32_t rowBytes,
                                       uint32_t interleaveBytes)
    : channels_(std::max<uint32_t>(channels, 1)),
      banks_(std::max<uint32_t>(banks, 1)),
      rowBytes_(rowBytes),
      granule_(interleaveBytes),
      hashBits_(std::max<uint32_t>(std::bit_width(std::max<uint32_t>(channels, 1) - 1), 1)),
      channelsPow2_(std::has_single_bit(std::max<uint32_t>(channels, 1))),
      banksPow2_(std::has_single_bit(std::max<uint32_t>(banks, 1))) {}

DramAddress HashAddressMapping::map(uint64_t addr) const {
  DramAddress out;
  const uint64_t chunk = addr / granule_;
  const uint64_t q = chunk / channels_;
  const uint32_t r = static_cast<uint32_t>(chunk % channels_);
  uint64_t h = 0;
  const uint64_t groupMask = (uint64_t{1} << hashBits_) - 1;
  for (uint64_t x = q; x != 0; x >>= hashBits_) h ^= x & groupMask;
  out.channel = channelsPow2_ ? (r ^ static_cast<uint32_t>(h & (channels_ - 1)))
                              : static_cast<uint32_t>((r + h) % channels_);
  out.local = q * granule_ + addr % granule_;
  out.column = static_cast<uint32_t>(out.local % rowBytes_);
  const uint64_t n = out.local / rowBytes_;
  const uint64_t row = n / banks_;
  out.row = static_cast<uint32_t>(row);
  out.bank = banksPow2_ ? static_cast<uint32_t>((n ^ row) & (banks_ - 1))
                        : static_cast<uint32_t>((n + row) % banks_);
  return out;
}

}  // namespace warpsim::timing::mem
