// Extension point "address_mapping": where a device address lives — memory channel (one L2
// slice group and DRAM channel per channel), the address within the channel, and its DRAM bank,
// row and column. The interconnect routes by channel, the L2 indexes its sets by the address
// within the channel, and the DRAM controller schedules by bank and row. Key dram.mapping; one
// instance per GPU, called once per request that leaves an SM (never per lane).
//
// An implementation must be a bijection between device addresses and (channel, local address),
// and between local addresses and (bank, row, column): distinct addresses never share storage.
//
// Baseline "hash" (hash_address_mapping.h): channels interleaved every dram.interleave_bytes
// with a hash of the upper address bits, banks interleaved by row with an XOR of low row bits.
// Also registered: the seven DRAMSim2 field orders "scheme1".."scheme7", "permutation" and
// "minimalist" (address_mapping_schemes.h, field_order_address_mapping.h).
#pragma once
#include <cstdint>

#include "config/config.h"

namespace warpsim::timing::mem {

struct DramAddress {
  uint32_t channel = 0;
  uint32_t bank = 0;
  uint32_t row = 0;
  uint32_t column = 0;  // byte offset within the row
  uint64_t local = 0;   // byte address within the channel
};

class IAddressMapping {
 public:
  static constexpr const char* kPoint = "address_mapping";
  struct Context {
    config::Tree* tree = nullptr;  // keys of the mapping (the baseline reads dram.interleave_bytes)
    uint32_t channels = 0, banks = 0, rowBytes = 0;
    uint32_t interleaveBytes = 256;  // dram.interleave_bytes
    // Device memory these channels hold (gpu.memory_bytes, divided by gpu.modules for a zone)
    // and the address whose offset is 0 (the device base; 0 for a zone's local addresses).
    // Used by the field-order schemes for rows per bank; the baseline ignores both.
    uint64_t memoryBytes = uint64_t{1536} << 20;
    uint64_t baseAddress = 0;
  };
  virtual ~IAddressMapping() = default;

  virtual DramAddress map(uint64_t addr) const = 0;
  // Bytes of consecutive addresses that always share a channel (>= the L2 line size).
  virtual uint32_t granuleBytes() const = 0;
};

}  // namespace warpsim::timing::mem
