// What the coordinator moves between the chip and the swap space in global memory, and the
// moves' completion. The coordinator decides; a SwapPath carries the data (memory traffic
// through L1/L2/DRAM, and the values themselves) and reports when a fill or a restore is done.
#pragma once
#include <cstdint>

#include "timing/sm_memory.h"

namespace warpsim::mech::zorua {

using timing::Cycle;
using timing::kNever;

class SwapPath {
 public:
  virtual ~SwapPath() = default;
  // Register sets `sets` (bit s: registers 4s..4s+3, all 32 lanes) of warp `slot` leave the
  // register file for swap space / come back (then Coordinator::registersFilled).
  virtual void spillRegisters(uint32_t slot, uint64_t sets, Cycle now) = 0;
  virtual void fillRegisters(uint32_t slot, uint64_t sets, Cycle now) = 0;
  // Scratchpad sets [first, first + count) of CTA `cta` (the coordinator's CTA index) leave /
  // come back (then Coordinator::sharedFilled).
  virtual void spillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle now) = 0;
  virtual void fillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle now) = 0;
  // A warp's state (PC and reconvergence stack) is saved / restored (then
  // Coordinator::warpRestored).
  virtual void saveWarp(uint32_t slot, Cycle now) = 0;
  virtual void restoreWarp(uint32_t slot, Cycle now) = 0;
};

}  // namespace warpsim::mech::zorua
