// Per-warp-slot scoreboard: value and predicate registers with a write in flight, and what
// produces it (a memory instruction; a cache-accessing one). A register is pending from the
// issue of its producer until the register file has written it; an instruction that reads or
// writes a pending register waits (RAW and WAW).
#pragma once
#include <cstdint>
#include <vector>

#include "timing/sm/decoded_program.h"
#include "timing/sm/stall.h"

namespace warpsim::timing {

class Scoreboard {
 public:
  // Sizes for `slots` warp slots of up to `regs` value and `preds` predicate registers.
  void resize(uint32_t slots, uint32_t regs, uint32_t preds);
  void clearSlot(uint32_t slot);

  // Stall::Issued when `d` may issue for `slot`; Scoreboard or Memory (a pending producer is a
  // memory instruction) otherwise. *longLatency: a pending producer accesses the caches.
  Stall check(uint32_t slot, const DecodedInstr& d, bool* longLatency = nullptr) const;
  void reserve(uint32_t slot, const DecodedInstr& d);
  void release(uint32_t slot, const DecodedInstr& d);

  uint32_t pending(uint32_t slot) const { return pending_[slot]; }
  uint32_t pendingMemory(uint32_t slot) const { return pendingMem_[slot]; }
  // First pending register read or written by `d` (for reports); false when none.
  bool firstHazard(uint32_t slot, const DecodedInstr& d, uint32_t* reg, bool* isPred, bool* memory) const;

 private:
  // Three bit planes per 64 registers: pending, memory producer, long-latency producer.
  static constexpr unsigned kPending = 0, kMem = 1, kLong = 2;
  uint64_t* regWords(uint32_t slot) { return &regs_[size_t{slot} * regWords_ * 3]; }
  const uint64_t* regWords(uint32_t slot) const { return &regs_[size_t{slot} * regWords_ * 3]; }
  uint64_t* predWords(uint32_t slot) { return &preds_[size_t{slot} * predWords_ * 3]; }
  const uint64_t* predWords(uint32_t slot) const { return &preds_[size_t{slot} * predWords_ * 3]; }

  uint32_t regWords_ = 0, predWords_ = 0;
  std::vector<uint64_t> regs_, preds_;
  std::vector<uint32_t> pending_, pendingMem_;  // pending registers per slot
};

}  // namespace warpsim::timing
