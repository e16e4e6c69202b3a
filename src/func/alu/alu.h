// Register-to-register executors: pure functions of source registers, written for all lanes in
// ExecCtx::mask. Selection happens once per decoded instruction.
//
// Each bind function returns:
//   * an executor when it handles this op/type/modifier combination;
//   * nullptr with *error empty when the op is not its family (the caller tries another family);
//   * nullptr with *error set to a one-line reason ("cvt.rn.s8.f16x2: unsupported type pair")
//     when the op is its family but this variant is not supported.
#pragma once
#include <string>

#include "func/exec_context.h"
#include "ir/instr.h"

namespace warpsim::func {

// add sub mul mad mul24 mad24 sad div rem abs neg min max popc clz bfind brev bfe bfi prmt shl
// shr shf lop3 and or xor not cnot addc subc madc dp4a dp2a on integer/bit types; setp set selp
// slct with integer comparison; predicate logic (and/or/xor/not on .pred); mov between registers
// and immediates, vector pack/unpack mov; activemask is not here (engine).
ExecFn bindIntAlu(const ir::Instr& in, std::string* error);

// add sub mul fma mad div abs neg min max rcp sqrt rsqrt sin cos lg2 ex2 tanh copysign testp on
// f16 f16x2 bf16 bf16x2 f32 f64; setp set slct with float comparison; cvt between all types.
ExecFn bindFloatAlu(const ir::Instr& in, std::string* error);

}  // namespace warpsim::func
