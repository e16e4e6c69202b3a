// cvt: checks the modifiers against the type pair (PTX ISA "cvt" rules) and picks the executor.
//
//  * int -> int: no rounding; .sat clamps to the destination range, otherwise truncation.
//  * float -> int: .rni/.rzi/.rmi/.rpi required; the result always saturates, NaN -> 0 (or
//    1 << (width-1) for an .f64 source or a 64-bit destination).
//  * int -> float: .rn/.rz/.rm/.rp (none means .rn).
//  * float -> float: .rn/.rz/.rm/.rp where precision may be lost (none means .rn), exact
//    otherwise; .rni/.rzi/.rmi/.rpi round to an integral value within one type.
//  * .ftz flushes f32 subnormal inputs and results; .sat clamps float results to [0, 1];
//    .relu (f16/bf16 destinations) clamps negative results to +0.
//  * cvt.frnd.{f16x2,bf16x2}.f32 d, a, b packs a into the upper half and b into the lower half.
#include "func/alu/cvt_convert.h"
#include "func/alu/float_exec.h"

namespace warpsim::func::fp {
namespace {

bool intRounding(ir::Round r, cvt::IntRound* out) {
  switch (r) {
    case ir::Round::Rni: *out = cvt::IntRound::Nearest; return true;
    case ir::Round::Rzi: *out = cvt::IntRound::Zero; return true;
    case ir::Round::Rmi: *out = cvt::IntRound::Down; return true;
    case ir::Round::Rpi: *out = cvt::IntRound::Up; return true;
    default: return false;
  }
}

bool scalarType(ir::Type t) {
  return t != ir::Type::None && t != ir::Type::Pred && t != ir::Type::B128 &&
         t != ir::Type::F16x2 && t != ir::Type::BF16x2;
}

}  // namespace

ExecFn bindCvt(const ir::Instr& in, std::string* error) {
  const ir::Type dst = in.type;
  const ir::Type src = in.type2;
  const bool ftz = in.has(ir::kFtz);
  if (in.numDst != 1) return fail(in, error, "expected one destination");
  if (in.dst(0).kind == ir::OperandKind::Sink) return &execNothing;
  if (in.dst(0).kind != ir::OperandKind::Reg)
    return fail(in, error, "destination must be a register");
  if (in.has(ir::kRelu) && dst != ir::Type::F16 && dst != ir::Type::BF16 &&
      dst != ir::Type::F16x2 && dst != ir::Type::BF16x2) {
    return fail(in, error, ".relu needs an f16 or bf16 destination");
  }
  if (!sourcesRegLike(in, 0, in.numSrc))
    return fail(in, error, "sources must be registers or immediates");
  Rounding fr = Rounding::NearestEven;
  cvt::IntRound ir = cvt::IntRound::Zero;
  const bool integral = intRounding(in.round, &ir);
  const bool floatRnd = floatRounding(in.round, &fr);

  if (dst == ir::Type::F16x2 || dst == ir::Type::BF16x2) {
    if (src != ir::Type::F32 || in.numSrc != 2) return fail(in, error, "expects two .f32 sources");
    if (!floatRnd || ftz) return fail(in, error, "unsupported modifier for a packing conversion");
    ExecFn fn = cvt::bindPack(in, fr);
    return fn != nullptr ? fn : fail(in, error, "unsupported type pair");
  }
  if (in.numSrc != 1) return fail(in, error, "expected one source");
  if (!scalarType(dst) || !scalarType(src)) return fail(in, error, "unsupported type pair");
  if (ftz && dst != ir::Type::F32 && src != ir::Type::F32) {
    return fail(in, error, ".ftz needs an .f32 source or destination");
  }
  const bool dstFloat = ir::isFloat(dst);
  const bool srcFloat = ir::isFloat(src);

  ExecFn fn = nullptr;
  if (!dstFloat) {
    if (!srcFloat) {
      if (in.round != ir::Round::None)
        return fail(in, error, "integer-to-integer cvt takes no rounding modifier");
      fn = cvt::bindToInt(in, false, cvt::IntRound::Zero);
    } else {
      if (!integral) return fail(in, error, "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
      fn = cvt::bindToInt(in, ftz, ir);
    }
  } else if (!srcFloat) {
    if (!floatRnd) return fail(in, error, "integer-to-float cvt takes .rn, .rz, .rm or .rp");
    fn = cvt::bindToFloat(in, false, fr, false, ir);
  } else if (integral) {
    if (dst != src)
      return fail(in, error, "integer rounding needs equal source and destination types");
    fn = cvt::bindToFloat(in, ftz, Rounding::NearestEven, true, ir);
  } else {
    if (!floatRnd) return fail(in, error, "unsupported rounding modifier");
    fn = cvt::bindToFloat(in, ftz, fr, false, ir);
  }
  return fn != nullptr ? fn : fail(in, error, "unsupported type pair");
}

}  // namespace warpsim::func::fp
