// The named address-mapping schemes beside the baseline "hash": presets of
// FieldOrderAddressMapping (field_order_address_mapping.h), one line each, registered by name
// for dram.mapping (register_memory_baselines.cpp). Field orders run from the most to the
// least significant field above the granule (dram.interleave_bytes); one rank per channel.
//
//   scheme1..scheme7  the seven orders of DRAMSim2 (Rosenfeld, Cooper-Balis, Jacob, IEEE CAL
//                     2011), which the XMem study (seed 001 ch. 2) searches for its baseline.
//                     1-6 put the channel on top (each channel holds one contiguous
//                     memory / channels stretch), 7 puts it just above the granule.
//   permutation       permutation-based page interleaving (Zhang, Zhu, Zhang, MICRO 2000):
//                     row:bank:col with channels interleaved at the granule, and bank = bank
//                     field XOR the low row bits, so strides that conflict in one bank's rows
//                     spread over the banks.
//   minimalist        minimalist open-page (Kaseridis, Stuecheli, John, MICRO 2011): a run of
//                     dram.minimalist_run_bytes (default 256 = the paper's 4 x 64-byte lines,
//                     at least the granule) stays in one row, the next run goes to the next
//                     channel, then the next bank (XOR the low row bits), the other column
//                     bits above, the row on top. With the default granule of 256 bytes the
//                     run is one granule, and the order is scheme7's with permuted banks.
#pragma once
#include <memory>
#include <span>

#include "timing/mem/i_address_mapping.h"

namespace warpsim::timing::mem {

struct AddressMappingScheme {
  const char* name;
  const char* order;
  bool bankXorRow;
  bool run;  // reads dram.minimalist_run_bytes
  const char* description;
};

std::span<const AddressMappingScheme> addressMappingSchemes();

// The mapping of `scheme` (reads its keys from context.tree when there is one).
std::unique_ptr<IAddressMapping> makeAddressMapping(const AddressMappingScheme& scheme,
                                                    const IAddressMapping::Context& context);

}  // namespace warpsim::timing::mem
