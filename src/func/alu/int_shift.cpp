// shl, shr and shf (PTX ISA 9.0, "Logic and Shift Instructions"). The shift count is the
// unsigned 32-bit value of b; counts at or beyond the width give 0 for shl and logical shr and
// the sign fill for arithmetic shr (shr.s*). shf shifts the 64-bit pair {b, a} by c & 31 (.wrap)
// or min(c, 32) (.clamp) and keeps its high (shf.l) or low (shf.r) 32 bits.
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using lanes::dstMask;

template <class U>
struct ShlExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), kBits<U>),
                [](uint64_t a, uint64_t b) -> uint64_t {
                  const uint32_t n = static_cast<uint32_t>(b);
                  return n >= kBits<U> ? 0 : a << n;
                });
  }
};

template <class T>
struct ShrExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), kBits<T>),
                [](uint64_t a, uint64_t b) -> uint64_t {
                  uint32_t n = static_cast<uint32_t>(b);
                  if constexpr (std::is_signed_v<T>) {
                    if (n >= kBits<T>) n = kBits<T> - 1;  // every bit becomes the sign
                    return static_cast<uint64_t>(lanes::signExtend<kBits<T>>(a) >> n);
                  } else {
                    return n >= kBits<T> ? 0 : (a & lanes::widthMask(kBits<T>)) >> n;
                  }
                });
  }
};

template <bool Left, bool Clamp>
struct ShfExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
                  const uint32_t cnt = static_cast<uint32_t>(c);
                  const unsigned n = Clamp ? (cnt < 32 ? cnt : 32) : (cnt & 31u);
                  const uint64_t pair = (b << 32) | (a & 0xFFFFFFFFu);
                  return Left ? (pair << n) >> 32 : pair >> n;
                });
  }
};

}  // namespace

ExecFn bindShift(const ir::Instr& in, std::string* error) {
  if (in.op == ir::Op::Shf) {
    if (!expectRegs(in, 1, 3, error)) return nullptr;
    if (intKind(in.type).bits != 32) return unsupported(in, error, "needs .b32");
    const bool left = static_cast<ir::ShfDir>(in.sub) == ir::ShfDir::Left;
    const bool clamp = in.has(ir::kClamp);
    if (left) return clamp ? &ShfExec<true, true>::run : &ShfExec<true, false>::run;
    return clamp ? &ShfExec<false, true>::run : &ShfExec<false, false>::run;
  }
  if (!expectRegs(in, 1, 2, error)) return nullptr;
  ExecFn fn = in.op == ir::Op::Shl ? byUnsignedWidth<ShlExec>(in.type) : byIntType<ShrExec>(in.type);
  return fn != nullptr ? fn : unsupported(in, error, "needs a 16-, 32- or 64-bit type");
}

}  // namespace warpsim::func::intalu
