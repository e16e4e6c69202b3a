// Strand formation (digest rf-hierarchy s6.2): a strand is a run of instructions, in layout
// order, in which every dependence on a long-latency result is on an instruction issued in an
// earlier strand. A strand begins at a function's entry, at the first instruction that reads a
// register a long-latency instruction of the current strand may still be writing (on any
// forward path: this covers the "uncertain pending" merge points of Fig 6.4b), at the target of
// a backward branch, after a backward branch, after a barrier or memory fence (the warp waits
// there), and after a call (the callee reuses the entries). Parameter loads do not count as
// long-latency producers: the native ISA reads kernel parameters as constant-bank operands. Strands are contiguous pc ranges and
// contain no backward edge, so every path inside one runs forward in pc order.
#pragma once
#include <cstdint>
#include <vector>

#include "func/program.h"
#include "mech/orf_lrf/placement.h"
#include "timing/sm/decoded_program.h"

namespace warpsim::mech::orf_lrf {

// One function's code as the SM decodes it, with its control flow.
struct FunctionCode {
  const ir::Function* ir = nullptr;
  std::vector<timing::DecodedInstr> code;   // per pc
  std::vector<uint8_t> guarded;             // per pc: the instruction has a guard predicate
  std::vector<uint8_t> longLatency;         // per pc: produces a long-latency result (a load or
                                            //   atomic through the caches; kernel parameters, which
                                            //   the native ISA reads as constant operands, are not)
  std::vector<uint8_t> srcWide, dstWide;    // per pc: DecodedInstr src/dst wide bits
};
FunctionCode decodeFunction(const func::Program& program, uint32_t function);

struct Strands {
  std::vector<uint32_t> strandOf;           // per pc
  std::vector<uint32_t> start;              // per strand: first pc
  std::vector<StrandCause> cause;           // per strand
};
Strands formStrands(const FunctionCode& f);

}  // namespace warpsim::mech::orf_lrf
