// Extension point "memory_compression": how many 32-byte bursts the sectors of one L2 line
// take on the DRAM bus, given the line's real data. Called by the L2 slices for every DRAM
// read (fill) and write (write-back of dirty sectors); key l2.compression, one instance per
// memory channel.
//
// Data: the functional engine has already executed what is being timed (execute at issue), so
// DeviceMemory holds the values a real system would transfer, give or take writes that run
// ahead. readLineData() (line_data.h) reads a line from it; lines outside device allocations
// (local memory, kernel parameters) read as zeros, since their values are not in DeviceMemory.
//
// Baseline "none": every sector is one burst.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "config/config.h"

namespace warpsim::func {
class DeviceMemory;
}

namespace warpsim::timing::mem {

struct CompressedTransfer {
  uint32_t bursts = 0;       // 32-byte data-bus bursts (>= 1 when sectors != 0)
  uint32_t extraCycles = 0;  // L2 cycles added to a fill (decompression latency)
};

class IMemoryCompression {
 public:
  static constexpr const char* kPoint = "memory_compression";
  struct Context {
    config::Tree* tree = nullptr;                // the mechanism's own keys
    const func::DeviceMemory* memory = nullptr;  // real data
    uint32_t channel = 0;
    uint32_t lineBytes = 128, sectorBytes = 32;  // L2 geometry
  };
  virtual ~IMemoryCompression() = default;

  // Sectors `sectors` of the L2 line at `line` move between L2 and DRAM (write: towards DRAM).
  virtual CompressedTransfer transfer(uint64_t line, uint32_t sectors, bool write) = 0;
  // Kernel boundary.
  virtual void beginKernel() {}
  // Adds the mechanism's counters to `out` (shared by all channels: add, do not overwrite).
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing::mem
