// Shared-memory ("scratchpad") liveness for the "zorua-phases" pass. The thesis does not say how
// it computes live scratchpad (digest A.4); we take the span of each variable's accesses:
//
//   shared variable v is live at instruction i when some access to v can reach i and i can
//   reach some access to v, along the CFG
//
// so a variable is allocated from its first use on and released after its last use; a barrier
// does not end a span. The variables are the kernel's static .shared symbols (those the linker
// places for it: used by the kernel or anything it calls), each with its declared size, and one
// "dynamic" variable for the extern .shared area (every extern .shared symbol names it). Which
// instruction accesses which variable is shared_accesses.h's business.
//
// Across calls: a call instruction is an access to every variable its callee (or anything the
// callee calls) accesses; inside a callee, a variable some caller accessed before the call
// counts as reached at the callee's entry, and one a caller accesses after the call counts as
// reaching the callee's returns.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "func/program.h"

namespace warpsim::mech::zorua {

// Variables as bits of a 64-bit mask: static variables in bits 0..62 in declaration order (a
// kernel with more than 63 of them gets the rest counted together in bit 62), the dynamic area
// in bit 63.
struct SharedVariables {
  static constexpr uint32_t kDynamicBit = 63;
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> bitOfSymbol;   // per module symbol: its bit, or kNone
  uint64_t bytes[64] = {};             // per bit: bytes of the static variables in it
  uint64_t all = 0;                    // every variable's bit
  uint32_t variables = 0;              // static variables, plus one for the dynamic area if used

  uint64_t staticBytes(uint64_t mask) const;
  static bool dynamic(uint64_t mask) { return (mask >> kDynamicBit) & 1u; }
};

// The shared variables a launch of `kernel` sees.
SharedVariables kernelSharedVariables(const func::Program& program, uint32_t kernel);

// Spans: per instruction, the variables live there. `access[pc]`: variables instruction pc
// accesses; `atEntry`: variables reached before the function is entered; `afterReturn`:
// variables accessed after it returns.
std::vector<uint64_t> sharedSpans(const ir::Function& f, const std::vector<uint64_t>& access,
                                  uint64_t atEntry = 0, uint64_t afterReturn = 0);

// What a call at `pc` passes to its callee: variables accessed before it (strictly; the call's
// own access excluded) and variables accessed after it, within `f` (with f's own entry and
// return seeds).
struct CallContext {
  uint64_t before = 0, after = 0;
};
CallContext sharedAroundCall(const ir::Function& f, const std::vector<uint64_t>& access, uint32_t pc,
                             uint64_t atEntry, uint64_t afterReturn);

}  // namespace warpsim::mech::zorua
