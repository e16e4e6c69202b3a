// dp4a.atype.btype and dp2a.mode.atype.btype (PTX ISA 9.0, "dp4a", "dp2a"): byte / half-word dot
// products accumulated into c, modulo 2^32. atype is Instr::type, btype is Instr::type2 (None:
// same as atype); dp2a's .lo/.hi is Instr::mulMode (None: .lo).
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

template <bool Signed>
inline int64_t byteAt(uint64_t v, unsigned i) {
  uint64_t b = (v >> (8 * i)) & 0xFFu;
  return Signed ? lanes::signExtend<8>(b) : static_cast<int64_t>(b);
}
template <bool Signed>
inline int64_t halfAt(uint64_t v, unsigned i) {
  uint64_t h = (v >> (16 * i)) & 0xFFFFu;
  return Signed ? lanes::signExtend<16>(h) : static_cast<int64_t>(h);
}

template <bool SignedA, bool SignedB>
struct Dp4aExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), lanes::dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b, uint64_t c) {
                  int64_t sum = 0;  // |sum| < 2^18: exact
                  for (unsigned i = 0; i < 4; ++i) sum += byteAt<SignedA>(a, i) * byteAt<SignedB>(b, i);
                  return c + static_cast<uint64_t>(sum);
                });
  }
};

template <bool SignedA, bool SignedB, bool Hi>
struct Dp2aExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), lanes::dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b, uint64_t c) {
                  constexpr unsigned first = Hi ? 2 : 0;
                  int64_t sum = halfAt<SignedA>(a, 0) * byteAt<SignedB>(b, first) +
                                halfAt<SignedA>(a, 1) * byteAt<SignedB>(b, first + 1);
                  return c + static_cast<uint64_t>(sum);
                });
  }
};

template <bool SA, bool SB>
ExecFn pickDp2a(bool hi) {
  return hi ? &Dp2aExec<SA, SB, true>::run : &Dp2aExec<SA, SB, false>::run;
}

}  // namespace

ExecFn bindDot(const ir::Instr& in, std::string* error) {
  if (!expectRegs(in, 1, 3, error)) return nullptr;
  auto is32 = [](ir::Type t) { return t == ir::Type::U32 || t == ir::Type::S32; };
  const ir::Type btype = in.type2 == ir::Type::None ? in.type : in.type2;
  if (!is32(in.type) || !is32(btype)) return unsupported(in, error, "types must be .u32 or .s32");
  const bool sa = in.type == ir::Type::S32, sb = btype == ir::Type::S32;
  if (in.op == ir::Op::Dp4a) {
    if (sa) return sb ? &Dp4aExec<true, true>::run : &Dp4aExec<true, false>::run;
    return sb ? &Dp4aExec<false, true>::run : &Dp4aExec<false, false>::run;
  }
  if (in.mulMode == ir::MulMode::Wide) return unsupported(in, error, "mode must be .lo or .hi");
  const bool hi = in.mulMode == ir::MulMode::Hi;
  if (sa) return sb ? pickDp2a<true, true>(hi) : pickDp2a<true, false>(hi);
  return sb ? pickDp2a<false, true>(hi) : pickDp2a<false, false>(hi);
}

}  // namespace warpsim::func::intalu
