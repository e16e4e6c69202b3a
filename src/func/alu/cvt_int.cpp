// cvt to integer destinations: integer -> integer (truncate, or clamp with .sat) and
// float -> integer (.rni .rzi .rmi .rpi, always saturating). One executor per type pair.
#include "func/alu/cvt_convert.h"

namespace warpsim::func::fp::cvt {
namespace {

template <class Src, class D>
ExecFn floatToInt(IntRound r) {
  switch (r) {
    case IntRound::Nearest: return &cvtExec<FloatToInt<Src, D, IntRound::Nearest>>;
    case IntRound::Zero: return &cvtExec<FloatToInt<Src, D, IntRound::Zero>>;
    case IntRound::Down: return &cvtExec<FloatToInt<Src, D, IntRound::Down>>;
    default: return &cvtExec<FloatToInt<Src, D, IntRound::Up>>;
  }
}

template <class S, class D>
ExecFn intToInt(bool sat) {
  return sat ? &cvtExec<IntToInt<S, D, true>> : &cvtExec<IntToInt<S, D, false>>;
}

template <class D>
ExecFn toIntFromSource(ir::Type src, bool sat, bool ftz, IntRound r) {
  switch (src) {
    case ir::Type::U8:
    case ir::Type::B8: return intToInt<uint8_t, D>(sat);
    case ir::Type::U16:
    case ir::Type::B16: return intToInt<uint16_t, D>(sat);
    case ir::Type::U32:
    case ir::Type::B32: return intToInt<uint32_t, D>(sat);
    case ir::Type::U64:
    case ir::Type::B64: return intToInt<uint64_t, D>(sat);
    case ir::Type::S8: return intToInt<int8_t, D>(sat);
    case ir::Type::S16: return intToInt<int16_t, D>(sat);
    case ir::Type::S32: return intToInt<int32_t, D>(sat);
    case ir::Type::S64: return intToInt<int64_t, D>(sat);
    case ir::Type::F16: return floatToInt<F16Src, D>(r);
    case ir::Type::BF16: return floatToInt<Bf16Src, D>(r);
    case ir::Type::F32:
      return ftz ? floatToInt<F32Src<true>, D>(r) : floatToInt<F32Src<false>, D>(r);
    case ir::Type::F64: return floatToInt<F64Src, D>(r);
    default: return nullptr;
  }
}

}  // namespace

ExecFn bindToInt(const ir::Instr& in, bool ftz, IntRound r) {
  const bool sat = in.has(ir::kSat);
  switch (in.type) {
    case ir::Type::U8:
    case ir::Type::B8: return toIntFromSource<uint8_t>(in.type2, sat, ftz, r);
    case ir::Type::U16:
    case ir::Type::B16: return toIntFromSource<uint16_t>(in.type2, sat, ftz, r);
    case ir::Type::U32:
    case ir::Type::B32: return toIntFromSource<uint32_t>(in.type2, sat, ftz, r);
    case ir::Type::U64:
    case ir::Type::B64: return toIntFromSource<uint64_t>(in.type2, sat, ftz, r);
    case ir::Type::S8: return toIntFromSource<int8_t>(in.type2, sat, ftz, r);
    case ir::Type::S16: return toIntFromSource<int16_t>(in.type2, sat, ftz, r);
    case ir::Type::S32: return toIntFromSource<int32_t>(in.type2, sat, ftz, r);
    case ir::Type::S64: return toIntFromSource<int64_t>(in.type2, sat, ftz, r);
    default: return nullptr;
  }
}

}  // namespace warpsim::func::fp::cvt
