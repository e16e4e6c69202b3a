// Keys of the compressed-memory model ([compression], read by the "line-compression"
// implementation of memory_compression; README.md lists the designs they make).
#pragma once
#include <cstdint>

#include "config/config.h"
#include "mech/caba/compression/line_compression.h"

namespace warpsim::mech::caba {

// Where lines are held compressed. Dram: only DRAM, the L2 holds whole lines (with the hardware
// agent the memory controller compresses on write-back and decompresses on fill; with assist
// warps a fill crosses the reply network compressed and the SM decompresses it). L2: L2 and
// DRAM (lines cross the reply network compressed; the L1 holds them uncompressed).
enum class Placement : uint8_t { Dram, L2 };

// Who compresses and decompresses: dedicated logic at the L2 / memory controller (with the
// latencies below), or the SMs' assist warps (a compressed reply reaches the SM compressed and
// an assist warp of [sm.assist_warp] impl = "caba" decompresses it into the L1).
enum class Agent : uint8_t { Hardware, AssistWarp };

// The reply format tag of a line that reaches the SM compressed (timing/sm_memory.h).
inline constexpr uint8_t kCompressedReply = 1;

struct MemoryCompressionParams {
  Algorithm algorithm = Algorithm::BdiCaba;
  Placement placement = Placement::L2;
  Agent agent = Agent::Hardware;
  uint32_t decompressCycles = 1;  // L2-clock cycles of the dedicated decompressor
  uint32_t compressCycles = 5;    // L2-clock cycles of the dedicated compressor
  bool metadataCache = true;
  uint32_t metadataCacheBytes = 8192;
  uint32_t metadataCacheWays = 4;
  uint32_t metadataLineBytes = 32;
  uint32_t metadataBitsPerLine = 2;  // burst count 1-4
  bool check = false;
};

MemoryCompressionParams readMemoryCompressionParams(config::Section section);

}  // namespace warpsim::mech::caba
