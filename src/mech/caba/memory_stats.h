// Counters of the compressed-memory model, per memory controller; reportStats adds them into
// the memory system's "compression" object (docs/stats.md "compression").
#pragma once
#include <array>
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "mech/caba/compression/line_compression.h"

namespace warpsim::mech::caba {

struct DirectionCounters {
  uint64_t lines = 0, compressedLines = 0;
  uint64_t bursts = 0;          // bursts moved on the data bus
  uint64_t baselineBursts = 0;  // bursts the same transfers take without compression
};

struct MemoryCompressionStats {
  DirectionCounters reads, writes;
  uint64_t readModifyWrites = 0, readModifyWriteBursts = 0;
  uint64_t metadataHits = 0, metadataMisses = 0, metadataWritebacks = 0;
  uint64_t replies = 0, compressedReplies = 0, replyBytes = 0, replyBaselineBytes = 0;
  uint64_t compressions = 0;      // lines compressed from their data
  uint64_t unknownLines = 0;      // DRAM transfers of lines outside device allocations
  uint64_t lineBursts = 0;        // their bursts compressed ...
  uint64_t lineBurstsFull = 0;    // ... and uncompressed (the data's compression ratio)
  uint64_t checked = 0, checkFailures = 0;
  // Stores from the SMs reaching the L2 (assist-warp agent): whole lines compressed by the SM,
  // whole lines sent plain (kept uncompressed until compressed again), parts of lines.
  uint64_t storesCompressed = 0, storesPlain = 0, storesPartial = 0;
  // Stores of parts of lines the L2 held compressed, refused (the partial-write protocol).
  uint64_t storesRefused = 0;
  // A compressed-capacity L2 (l2.tag_factor > 1): lines it sized compressed, and their bytes.
  uint64_t l2Sized = 0, l2SizedBytes = 0;
  // Lines compressed per (algorithm, encoding).
  static constexpr uint32_t kAlgorithms = 5;
  std::array<std::array<uint64_t, 256>, kAlgorithms> encodings{};

  void report(nlohmann::json& out, Algorithm algorithm) const;
};

}  // namespace warpsim::mech::caba
