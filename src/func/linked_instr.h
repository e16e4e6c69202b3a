// An instruction as the engine executes it: the decoded ir::Instr (module-symbol addresses of
// global/const variables folded into immediates), its executor, and everything the engine's own
// executors would otherwise recompute per execution.
#pragma once
#include <cstdint>

#include "func/exec_context.h"
#include "ir/instr.h"

namespace warpsim::func {

// What the uniform part of an address (or of a symbol's value) is relative to.
enum class AddrKind : uint8_t {
  Absolute,      // offset only (global/const addresses folded in at link time)
  FrameLocal,    // + the current frame's base in per-thread local memory
  FrameParam,    // offset in the current frame's per-thread param area
  KernelParam,   // offset in the kernel argument buffer
  SharedSymbol,  // + the kernel's shared-memory offset of module symbol `symbol`
};

struct AddrDecode {
  AddrKind kind = AddrKind::Absolute;
  uint32_t baseReg = ir::kNoReg;   // per-lane base register, kNoReg for none
  uint32_t symbol = ir::kNoSymbol; // SharedSymbol only
  int64_t offset = 0;
};

// `in` must stay the first member: engine executors receive `const ir::Instr&` and recover the
// enclosing LinkedInstr from it (see linkedOf).
struct LinkedInstr {
  ir::Instr in;
  ExecFn fn = nullptr;
  uint32_t reconvergePc = ir::kNoTarget;  // Function::reconvergePc of this instruction
  AddrDecode addr;                        // memory ops; mov/cvta of a symbol
  ir::Space space = ir::Space::None;      // memory ops: resolved (None becomes Generic)
  uint8_t elemBytes = 0;                  // memory ops: bytes per element
  uint8_t accessBytes = 0;                // memory ops: elemBytes * vector count
  // Value registers for ExecRecord (hidden constant registers excluded).
  uint8_t numDstRegs = 0, numSrcRegs = 0;
  uint32_t dstRegs[4] = {};
  uint32_t srcRegs[6] = {};
  bool writesPred = false;
  uint8_t dstBits[4] = {};                // declared widths of the destination registers
  // atom/red: the read-modify-write of one lane (old value, b, c) -> new value.
  uint64_t (*atomic)(uint64_t old, uint64_t b, uint64_t c) = nullptr;
};

inline const LinkedInstr& linkedOf(const ir::Instr& in) {
  return *reinterpret_cast<const LinkedInstr*>(&in);
}

}  // namespace warpsim::func
