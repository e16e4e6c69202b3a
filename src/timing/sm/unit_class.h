// Execution-unit classes of an SM and which instructions go to which.
//
// Mapping (ir::opClass of the instruction):
//   alu    integer, fp32, half, conversion, move, predicate, control (bra/call/ret/exit),
//          barriers and fences, warp-level (shfl/vote/match), misc
//   sfu    transcendental and approximate fp32: sin cos ex2 lg2 tanh rsqrt rcp sqrt,
//          div.approx.f32 (ir::OpClass::Sfu)
//   fp64   double precision arithmetic and comparisons (ir::OpClass::Fp64)
//   lsu    ld ldu st atom red prefetch (ir::OpClass::Load/Store/Atomic)
//   tensor no PTX instruction of the IR maps here yet; the unit exists for configurations and
//          assist-warp instructions (latency only)
#pragma once
#include <cstdint>

#include "ir/instr.h"

namespace warpsim::timing {

enum class UnitClass : uint8_t { Alu, Sfu, Fp64, Lsu, Tensor };
inline constexpr unsigned kNumUnitClasses = 5;

// "alu", "sfu", "fp64", "lsu", "tensor" (configuration section and counter names).
const char* unitClassName(UnitClass unit);
UnitClass unitFor(ir::OpClass cls);

}  // namespace warpsim::timing
