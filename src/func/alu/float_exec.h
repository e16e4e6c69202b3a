// The floating-point executor families behind bindFloatAlu. Each bind function is called only
// for an instruction of its family and returns an executor, or nullptr with *error set.
#pragma once
#include <string>

#include "func/exec_context.h"
#include "ir/instr.h"

namespace warpsim::func::fp {

// add sub mul fma mad, div/rcp/sqrt with IEEE rounding, on f32 and f64 (float_arith.cpp).
ExecFn bindArith(const ir::Instr& in, std::string* error);
// abs neg min max copysign on f32 and f64 (float_minmax.cpp).
ExecFn bindMinMaxSign(const ir::Instr& in, std::string* error);
// .approx operations: div rcp sqrt rsqrt sin cos lg2 ex2 tanh, div.full (float_approx.cpp).
ExecFn bindApprox(const ir::Instr& in, std::string* error);
// setp / set / slct with a floating-point comparison, testp (float_compare.cpp).
ExecFn bindCompare(const ir::Instr& in, std::string* error);
// f16 f16x2 bf16 bf16x2 arithmetic (float_half.cpp).
ExecFn bindHalf(const ir::Instr& in, std::string* error);
// cvt between any two scalar types, and the packing .f16x2/.bf16x2 forms (cvt.cpp).
ExecFn bindCvt(const ir::Instr& in, std::string* error);

}  // namespace warpsim::func::fp
