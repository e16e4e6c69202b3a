// Keys of the "rfc" register-file model ([sm.register_file], beside the banked model's bank
// geometry keys: banks, read_ports, write_ports, collectors, warp_stride). See README.md.
#pragma once
#include <cstdint>

#include "config/config.h"
#include "mech/rfc/register_cache.h"
#include "timing/sm/banked_register_file.h"

namespace warpsim::mech::rfc {

struct RfcParams {
  timing::BankGeometry geometry;       // the main register file (MRF)
  uint32_t entries = 6;                // RFC entries per thread (32-bit)
  Replacement policy = Replacement::Fifo;
  bool readsAllocate = false;          // operands read from the MRF are also cached
  bool bypassLongLatency = true;       // results of cache-accessing loads go straight to the MRF
  bool liveness = false;               // compiler last-read hints: dead values are not written back
  bool lrf = false;                    // a 1-entry hardware LRF in front of the RFC (three levels)
  uint32_t tagStageCycles = 1;         // added to control instructions (branch resolution)
};

RfcParams readRfcParams(config::Section section, uint32_t partitions);

}  // namespace warpsim::mech::rfc
