// What an instruction executor sees: the current frame's registers of one warp and the lanes
// to execute. ALU executors (func/alu/) touch only regs, preds, mask and carry; memory, control
// and warp-level executors (the engine) also use `warp` and `record`.
#pragma once
#include <cstdint>

#include "ir/instr.h"

namespace warpsim::func {

inline constexpr unsigned kWarpSize = 32;
inline constexpr uint32_t kFullMask = 0xFFFFFFFFu;

class Warp;           // engine-side warp state (func/warp.h)
struct ExecRecord;    // func/exec_record.h

struct ExecCtx {
  uint64_t* regs = nullptr;   // regs[r * kWarpSize + lane], current call frame
  uint32_t* preds = nullptr;  // preds[p] = lane mask of predicate register p, current frame
  uint32_t mask = 0;          // lanes executing this instruction: active and guard true
  uint32_t carry = 0;         // per-lane carry flag (CC.CF), read by addc/subc/madc, written by .cc
  Warp* warp = nullptr;       // engine state (null in ALU unit tests)
  ExecRecord* record = nullptr;

  uint64_t* reg(uint32_t r) { return regs + static_cast<uint64_t>(r) * kWarpSize; }
};

// One executor per decoded instruction, chosen once at load time (see bind functions).
using ExecFn = void (*)(const ir::Instr&, ExecCtx&);

}  // namespace warpsim::func
