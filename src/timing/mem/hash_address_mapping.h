// Baseline address mapping "hash" (see i_address_mapping.h).
//
//   granule g = dram.interleave_bytes (power of two, >= the L2 line), P = dram.channels
//   chunk = addr / g;  q = chunk / P;  r = chunk % P
//   h = XOR of the b-bit groups of q, b = bits to number P channels
//   channel = r XOR (h mod P) when P is a power of two, (r + h) mod P otherwise
//   local = q * g + addr % g                       (address within the channel)
//   column = local % row_bytes;  n = local / row_bytes
//   row = n / B;  bank = (n mod B) XOR (row mod B) for B = dram.banks a power of two,
//                 (n + row) mod B otherwise
//
// Consecutive granules go to consecutive channels, and the hash of the upper bits spreads
// power-of-two strides (which would all fall in one channel with plain interleaving) over
// every channel; likewise the bank XOR spreads rows that would collide in one bank. Both steps
// are invertible, so the mapping is a bijection.
#pragma once
#include "timing/mem/i_address_mapping.h"

namespace warpsim::timing::mem {

class HashAddressMapping final : public IAddressMapping {
 public:
  HashAddressMapping(uint32_t channels, uint32_t banks, uint32_t rowBytes,
                     uint32_t interleaveBytes);
  DramAddress map(uint64_t addr) const override;
  uint32_t granuleBytes() const override { return granule_; }

 private:
  uint32_t channels_, banks_, rowBytes_, granule_;
  uint32_t hashBits_;
  bool channelsPow2_, banksPow2_;
};

}  // namespace warpsim::timing::mem
