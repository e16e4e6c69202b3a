// Configuration of the "avc" local-memory path ([avc] section; README.md lists every key with
// its source).
#pragma once
#include <cstdint>

#include "config/config.h"

namespace warpsim::mech::avc {

enum class EncoderMode : uint8_t { Hardware, Exact };

struct AvcParams {
  uint64_t bytes = 16384;  // 0: no AVC (the L1-only baseline, with the same statistics)
  uint32_t ways = 2;
  EncoderMode encoder = EncoderMode::Hardware;
  uint32_t extraLatency = 1;    // every local load, AVC configurations only
  bool writebackClean = false;  // evicted AVC words written back even when clean
  bool check = true;            // compare every load's value with the functional value
};

AvcParams readAvcParams(config::Section section);

}  // namespace warpsim::mech::avc
