#include "timing/mem/address_mapping_schemes.h"

#include <array>

#include "timing/mem/field_order_address_mapping.h"

namespace warpsim::timing::mem {

namespace {

constexpr uint32_t kDefaultRunBytes = 256;  // Kaseridis et al.: 4 cache lines of 64 bytes

constexpr std::array<AddressMappingScheme, 9> kSchemes{{
    {"scheme1", "chan:rank:row:col:bank", false, false,
     "DRAMSim2 scheme 1, chan:rank:row:col:bank (channel on top, banks interleaved per granule)"},
    {"scheme2", "chan:row:col:bank:rank", false, false,
     "DRAMSim2 scheme 2, chan:row:col:bank:rank (with one rank the same as schemes 1 and 5)"},
    {"scheme3", "chan:rank:bank:col:row", false, false,
     "DRAMSim2 scheme 3, chan:rank:bank:col:row (consecutive granules in consecutive rows)"},
    {"scheme4", "chan:rank:bank:row:col", false, false,
     "DRAMSim2 scheme 4, chan:rank:bank:row:col (each bank one contiguous stretch)"},
    {"scheme5", "chan:row:col:rank:bank", false, false,
     "DRAMSim2 scheme 5, chan:row:col:rank:bank (banks interleaved per granule)"},
    {"scheme6", "chan:row:bank:rank:col", false, false,
     "DRAMSim2 scheme 6, chan:row:bank:rank:col (banks interleaved per row)"},
    {"scheme7", "row:col:rank:bank:chan", false, false,
     "DRAMSim2 scheme 7, row:col:rank:bank:chan (channels, then banks, interleaved per granule)"},
    {"permutation", "row:bank:col:chan", true, false,
     "permutation-based page interleaving (Zhang et al., MICRO 2000): row:bank:col:chan, "
     "bank XOR the low row bits"},
    {"minimalist", "row:col:bank:chan:run", true, true,
     "minimalist open-page (Kaseridis et al., MICRO 2011): runs of dram.minimalist_run_bytes "
     "per row, then channel, bank (XOR the low row bits), column, row"},
}};

}  // namespace

std::span<const AddressMappingScheme> addressMappingSchemes() { return kSchemes; }

std::unique_ptr<IAddressMapping> makeAddressMapping(const AddressMappingScheme& scheme,
                                                    const IAddressMapping::Context& c) {
  FieldOrderAddressMapping::Options o;
  o.order = scheme.order;
  o.bankXorRow = scheme.bankXorRow;
  if (scheme.run) {
    o.runBytes = kDefaultRunBytes;
    if (c.tree != nullptr)
      o.runBytes = c.tree->section("dram").u32(
          "minimalist_run_bytes", kDefaultRunBytes,
          "dram.mapping = minimalist: bytes of consecutive addresses kept in one row and channel "
          "(a multiple of dram.interleave_bytes dividing dram.row_bytes; less: the granule)",
          32, 1u << 20);
  }
  return std::make_unique<FieldOrderAddressMapping>(c, o, scheme.name);
}

}  // namespace warpsim::timing::mem
