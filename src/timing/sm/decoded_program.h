// What the SM needs to know about an instruction before it issues it, decoded once per kernel
// from the linked program: unit, registers read and written (for the scoreboard and the
// register banks), predicates, and how it interacts with control flow and memory.
#pragma once
#include <cstdint>
#include <vector>

#include "func/program.h"
#include "timing/sm/unit_class.h"

namespace warpsim::timing {

struct DecodedInstr {
  enum Flags : uint16_t {
    kMemory = 1 << 0,       // goes to the memory pipeline (ld ldu st atom red prefetch)
    kLongLatency = 1 << 1,  // memory access through the caches (any space but shared)
    kControl = 1 << 2,      // bra call ret exit: the instruction buffer refills afterwards
    kDrain = 1 << 3,        // call/ret: waits until the warp's pending writes are done (the
                            // register frame changes)
    kFence = 1 << 4,        // membar/fence: waits until the warp's memory operations are done
    kStore = 1 << 5,        // no data comes back
    kBarrier = 1 << 6,      // bar/barrier, and exit/ret (lanes that leave may complete their
                            // diverged warp's barrier arrival): may release waiting warps of
                            // the CTA
  };
  UnitClass unit = UnitClass::Alu;
  uint16_t flags = 0;
  uint8_t numSrc = 0, numDst = 0;       // distinct value registers
  uint8_t numPredSrc = 0, numPredDst = 0;
  uint32_t src[6] = {};
  uint32_t dst[4] = {};
  uint32_t predSrc[4] = {};             // guard included
  uint32_t predDst[2] = {};
  uint8_t srcWide = 0, dstWide = 0;     // bit i: src[i] / dst[i] is a 64-bit register

  bool has(Flags f) const { return (flags & f) != 0; }
};

class DecodedProgram {
 public:
  // Decodes every function of `program`; function f's code starts at instruction address
  // base(f) (line-aligned, functions back to back).
  void build(const func::Program& program, uint32_t instructionBytes, uint32_t lineBytes);

  const DecodedInstr& at(uint32_t function, uint32_t pc) const { return code_[function][pc]; }
  uint32_t size(uint32_t function) const { return static_cast<uint32_t>(code_[function].size()); }
  uint64_t base(uint32_t function) const { return base_[function]; }
  uint32_t maxRegs() const { return maxRegs_; }
  uint32_t maxPreds() const { return maxPreds_; }

 private:
  std::vector<std::vector<DecodedInstr>> code_;
  std::vector<uint64_t> base_;
  uint32_t maxRegs_ = 0, maxPreds_ = 0;
};

DecodedInstr decodeInstr(const func::LinkedInstr& li);

}  // namespace warpsim::timing
