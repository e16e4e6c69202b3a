// cvt to floating-point destinations: float -> float (rounding, or rounding to an integral value
// for same-size conversions), integer -> float, and the packing .f16x2/.bf16x2 forms.
#include "func/alu/cvt_convert.h"

namespace warpsim::func::fp::cvt {
namespace {

template <class Src, Format D>
ExecFn floatToFloat(Rounding r, bool integral, IntRound ir) {
  if (integral) {
    switch (ir) {
      case IntRound::Nearest:
        return &cvtExec<FloatToFloat<Src, D, Rounding::NearestEven, true, IntRound::Nearest>>;
      case IntRound::Zero:
        return &cvtExec<FloatToFloat<Src, D, Rounding::NearestEven, true, IntRound::Zero>>;
      case IntRound::Down:
        return &cvtExec<FloatToFloat<Src, D, Rounding::NearestEven, true, IntRound::Down>>;
      default: return &cvtExec<FloatToFloat<Src, D, Rounding::NearestEven, true, IntRound::Up>>;
    }
  }
  switch (r) {
    case Rounding::TowardZero:
      return &cvtExec<FloatToFloat<Src, D, Rounding::TowardZero, false, IntRound::Zero>>;
    case Rounding::Down:
      return &cvtExec<FloatToFloat<Src, D, Rounding::Down, false, IntRound::Zero>>;
    case Rounding::Up: return &cvtExec<FloatToFloat<Src, D, Rounding::Up, false, IntRound::Zero>>;
    default: return &cvtExec<FloatToFloat<Src, D, Rounding::NearestEven, false, IntRound::Zero>>;
  }
}

template <class T, Format D>
ExecFn intToFloat(Rounding r) {
  switch (r) {
    case Rounding::TowardZero: return &cvtExec<IntToFloat<T, D, Rounding::TowardZero>>;
    case Rounding::Down: return &cvtExec<IntToFloat<T, D, Rounding::Down>>;
    case Rounding::Up: return &cvtExec<IntToFloat<T, D, Rounding::Up>>;
    default: return &cvtExec<IntToFloat<T, D, Rounding::NearestEven>>;
  }
}

template <Format D>
ExecFn toFloatFromSource(ir::Type src, bool ftz, Rounding r, bool integral, IntRound ir) {
  switch (src) {
    case ir::Type::U8:
    case ir::Type::B8: return intToFloat<uint8_t, D>(r);
    case ir::Type::U16:
    case ir::Type::B16: return intToFloat<uint16_t, D>(r);
    case ir::Type::U32:
    case ir::Type::B32: return intToFloat<uint32_t, D>(r);
    case ir::Type::U64:
    case ir::Type::B64: return intToFloat<uint64_t, D>(r);
    case ir::Type::S8: return intToFloat<int8_t, D>(r);
    case ir::Type::S16: return intToFloat<int16_t, D>(r);
    case ir::Type::S32: return intToFloat<int32_t, D>(r);
    case ir::Type::S64: return intToFloat<int64_t, D>(r);
    case ir::Type::F16: return floatToFloat<F16Src, D>(r, integral, ir);
    case ir::Type::BF16: return floatToFloat<Bf16Src, D>(r, integral, ir);
    case ir::Type::F32:
      return ftz ? floatToFloat<F32Src<true>, D>(r, integral, ir)
                 : floatToFloat<F32Src<false>, D>(r, integral, ir);
    case ir::Type::F64: return floatToFloat<F64Src, D>(r, integral, ir);
    default: return nullptr;
  }
}

template <Format D, Rounding R>
void packExec(const ir::Instr& in, ExecCtx& ctx) {
  using Conv = FloatToFloat<F32Src<false>, D, R, false, IntRound::Zero>;
  const CvtPost post{in.has(ir::kSat), in.has(ir::kRelu), false};
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    d[l] = (Conv::apply(a[l], post) << 16) | Conv::apply(b[l], post);
  });
}

template <Format D>
ExecFn packFor(Rounding r) {
  switch (r) {
    case Rounding::TowardZero: return &packExec<D, Rounding::TowardZero>;
    case Rounding::Down: return &packExec<D, Rounding::Down>;
    case Rounding::Up: return &packExec<D, Rounding::Up>;
    default: return &packExec<D, Rounding::NearestEven>;
  }
}

}  // namespace

ExecFn bindToFloat(const ir::Instr& in, bool ftz, Rounding r, bool integral, IntRound ir) {
  switch (in.type) {
    case ir::Type::F16: return toFloatFromSource<kF16>(in.type2, ftz, r, integral, ir);
    case ir::Type::BF16: return toFloatFromSource<kBf16>(in.type2, ftz, r, integral, ir);
    case ir::Type::F32: return toFloatFromSource<kF32>(in.type2, ftz, r, integral, ir);
    case ir::Type::F64: return toFloatFromSource<kF64>(in.type2, ftz, r, integral, ir);
    default: return nullptr;
  }
}

ExecFn bindPack(const ir::Instr& in, Rounding r) {
  if (in.type2 != ir::Type::F32) return nullptr;
  if (in.type == ir::Type::F16x2) return packFor<kF16>(r);
  if (in.type == ir::Type::BF16x2) return packFor<kBf16>(r);
  return nullptr;
}

}  // namespace warpsim::func::fp::cvt
