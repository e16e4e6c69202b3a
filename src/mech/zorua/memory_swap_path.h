// Zorua's swap path through the memory hierarchy: spills and fills of whole register sets and
// scratchpad sets, and saves and restores of warp state, as line-sized accesses the SM hands to
// its memory pipeline (WarpGate::moveData), so they are cached in L1/L2 and reach DRAM like any
// data. The register values themselves move too: a spill copies the set's lane values out of
// the warp's registers into the swap space (and, with poison_swapped, overwrites them with a
// pattern), a fill copies them back when its last line has arrived; a program that read a
// swapped register early would compute with the pattern and fail its check.
//
// Swap addresses (per SM, from swap_base): registers at
//   base + ((sm * logical_warps + warp slot) * 64 + set) * 512 + register in set * 128 + 4 * lane,
// scratchpad sets after them at ((sm * logical_ctas + CTA) * 64 + set) * set bytes, warp
// state after those at (sm * logical_warps + slot) * warp_state_bytes (one line by default).
#pragma once
#include <cstdint>
#include <vector>

#include "mech/zorua/coordinator.h"
#include "mech/zorua/swap_path.h"
#include "timing/i_resource_manager.h"

namespace warpsim::mech::zorua {

struct SwapAddressing {
  uint64_t base = 0;
  uint32_t smId = 0, logicalWarps = 64, logicalCtas = 16, numSms = 1;
  uint32_t scratchpadSetBytes = 1024, warpStateBytes = 128;
  uint64_t registerSet(uint32_t slot, uint32_t set) const;
  uint64_t scratchpadSet(uint32_t cta, uint32_t set) const;
  uint64_t warpState(uint32_t slot) const;
};

class MemorySwapPath final : public SwapPath {
 public:
  MemorySwapPath(const SwapAddressing& addressing, bool poison);
  void attach(WarpGate& gate, Coordinator& coordinator);
  void beginKernel();

  void spillRegisters(uint32_t slot, uint64_t sets, Cycle now) override;
  void fillRegisters(uint32_t slot, uint64_t sets, Cycle now) override;
  void spillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle now) override;
  void fillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle now) override;
  void saveWarp(uint32_t slot, Cycle now) override;
  void restoreWarp(uint32_t slot, Cycle now) override;
  // A line access the path asked for is done.
  void moved(uint32_t tag, Cycle now);

  uint64_t linesLoaded() const { return linesLoaded_; }
  uint64_t linesStored() const { return linesStored_; }

 private:
  enum class Kind : uint8_t { Spill, RegisterFill, SharedFill, Restore };
  struct Move {
    Kind kind = Kind::Spill;
    uint32_t owner = 0;       // warp slot or CTA index
    uint32_t generation = 0;
    uint64_t sets = 0;
    uint32_t remaining = 0;   // lines not done
  };
  uint32_t newMove(Kind kind, uint32_t owner, uint32_t generation, uint64_t sets, uint32_t lines);
  void copyOut(uint32_t slot, uint64_t sets);
  void copyIn(uint32_t slot, uint64_t sets);

  SwapAddressing at_;
  bool poison_;
  WarpGate* gate_ = nullptr;
  Coordinator* coordinator_ = nullptr;
  std::vector<Move> moves_;
  std::vector<uint32_t> freeMoves_;
  // Swapped register values: [slot][set][register in set][lane], built at the first spill.
  std::vector<uint64_t> values_;
  uint64_t linesLoaded_ = 0, linesStored_ = 0;
};

}  // namespace warpsim::mech::zorua
