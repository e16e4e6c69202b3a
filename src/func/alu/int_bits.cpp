// Bit-manipulation ops (PTX ISA 9.0, "Integer Arithmetic Instructions"): popc, clz, bfind
// (.shiftamt), brev, bfe, bfi, bmsk (.clamp/.wrap), prmt with all its modes.
#include <bit>

#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using lanes::dstMask;
using lanes::widthMask;

template <class U>
struct PopcExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), 32),
                [](uint64_t a) { return static_cast<uint64_t>(std::popcount(static_cast<U>(a))); });
  }
};

template <class U>
struct ClzExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), 32), [](uint64_t a) {
      return static_cast<uint64_t>(std::countl_zero(static_cast<U>(a)));  // clz(0) = width
    });
  }
};

// bfind: bit position of the most significant non-sign bit (for signed negative inputs, the most
// significant 0), 0xFFFFFFFF when there is none; .shiftamt returns (width-1) - position instead.
template <class T, bool ShiftAmt>
struct BfindExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    using U = UnsignedOf<T>;
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), 32), [](uint64_t a) -> uint64_t {
      U v = static_cast<U>(a);
      if constexpr (std::is_signed_v<T>) {
        if (static_cast<T>(v) < 0) v = static_cast<U>(~v);
      }
      if (v == 0) return 0xFFFFFFFFu;
      unsigned lead = static_cast<unsigned>(std::countl_zero(v));
      return ShiftAmt ? lead : kBits<U> - 1 - lead;
    });
  }
};

template <class U>
inline U reverseBits(U v) {
  uint64_t x = v;
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  x = ((x >> 8) & 0x00FF00FF00FF00FFull) | ((x & 0x00FF00FF00FF00FFull) << 8);
  x = ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
  x = (x >> 32) | (x << 32);
  return static_cast<U>(x >> (64 - kBits<U>));
}

template <class U>
struct BrevExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), kBits<U>),
                [](uint64_t a) { return static_cast<uint64_t>(reverseBits(static_cast<U>(a))); });
  }
};

// bfe d, a, pos, len: pos = b & 0xff and len = c & 0xff. Bits of the field beyond the top of a,
// and all bits above len, are the fill bit: 0 for unsigned (and for len 0), for signed the bit
// a[min(pos+len-1, msb)], which is always the top bit of the extracted part.
template <class T>
struct BfeExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    constexpr unsigned n = kBits<T>;
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), n),
                [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
                  const unsigned pos = static_cast<unsigned>(b & 0xFFu);
                  const unsigned len = static_cast<unsigned>(c & 0xFFu);
                  a &= widthMask(n);
                  if (len == 0) return 0;
                  if (pos >= n) {
                    if constexpr (std::is_signed_v<T>) return ((a >> (n - 1)) & 1u) ? ~0ull : 0;
                    return 0;
                  }
                  const unsigned take = len < n - pos ? len : n - pos;
                  const uint64_t field = (a >> pos) & widthMask(take);
                  if constexpr (std::is_signed_v<T>) {
                    return static_cast<uint64_t>(lanes::signExtend(field, take));
                  }
                  return field;
                });
  }
};

// bfi d, a, b, pos, len: b with bits [pos, pos+len) (clipped at the top) replaced by the low
// bits of a; pos = c & 0xff, len = d & 0xff.
template <class U>
struct BfiExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    constexpr unsigned n = kBits<U>;
    const uint64_t* pa = lanes::srcPtr(ctx, in.src(0));
    const uint64_t* pb = lanes::srcPtr(ctx, in.src(1));
    const uint64_t* pp = lanes::srcPtr(ctx, in.src(2));
    const uint64_t* pl = lanes::srcPtr(ctx, in.src(3));
    const uint64_t m = dstMask(in.dst(), n);
    uint64_t out[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const unsigned pos = static_cast<unsigned>(pp[l] & 0xFFu);
      const unsigned len = static_cast<unsigned>(pl[l] & 0xFFu);
      uint64_t r = pb[l];
      if (pos < n && len != 0) {
        const unsigned take = len < n - pos ? len : n - pos;
        const uint64_t field = widthMask(take) << pos;
        r = (r & ~field) | ((pa[l] << pos) & field);
      }
      out[l] = r & m;
    }
    lanes::storeLanes(lanes::dstPtr(ctx, in.dst()), out, ctx.mask);
  }
};

// bmsk d, a, b: a mask of b bits starting at bit a (PTX ISA 9.0, "bmsk"). Bits at 32 and above
// are cut off. .wrap uses a and b modulo 32; .clamp makes a >= 32 an empty mask and b >= 32 a
// mask reaching to the top.
template <bool Clamp>
uint64_t bitMask(uint32_t a, uint32_t b) {
  const uint32_t start = a & 31u, width = b & 31u;
  if (Clamp && a >= 32) return 0;
  const uint32_t high = Clamp && b >= 32 ? 32 : start + width;  // first bit above the mask
  const uint64_t below = high >= 32 ? 0xFFFFFFFFull : (1ull << high) - 1;
  return below & ~((1ull << start) - 1) & 0xFFFFFFFFull;
}

template <bool Clamp>
struct BmskExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b) {
                  return bitMask<Clamp>(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
                });
  }
};

// prmt selector nibbles (d.b3 d.b2 d.b1 d.b0, high to low) for the modes .f4e .b4e .rc8 .ecl
// .ecr .rc16, indexed by c[1:0] (PTX ISA 9.0, "prmt", table of modes).
constexpr uint16_t kPrmtModeSelectors[6][4] = {
    {0x3210, 0x4321, 0x5432, 0x6543},  // f4e: forward 4 extract
    {0x5670, 0x6701, 0x7012, 0x0123},  // b4e: backward 4 extract
    {0x0000, 0x1111, 0x2222, 0x3333},  // rc8: replicate byte
    {0x3210, 0x3211, 0x3222, 0x3333},  // ecl: edge clamp left
    {0x0000, 0x1110, 0x2210, 0x3210},  // ecr: edge clamp right
    {0x1010, 0x3232, 0x1010, 0x3232},  // rc16: replicate half-word
};

// Gathers four bytes of {b, a} by the four selector nibbles of ctl; a nibble with bit 3 set
// replicates the sign of the selected byte (only the default mode produces such nibbles).
inline uint64_t prmtGather(uint64_t a, uint64_t b, uint32_t ctl) {
  const uint64_t src = (b << 32) | (a & 0xFFFFFFFFu);
  uint64_t r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned sel = (ctl >> (4 * i)) & 0xFu;
    uint64_t byte = (src >> (8 * (sel & 7u))) & 0xFFu;
    if (sel & 8u) byte = (byte & 0x80u) ? 0xFFu : 0u;
    r |= byte << (8 * i);
  }
  return r;
}

template <ir::PrmtMode Mode>
struct PrmtExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b, uint64_t c) {
                  uint32_t ctl;
                  if constexpr (Mode == ir::PrmtMode::Default) {
                    ctl = static_cast<uint32_t>(c & 0xFFFFu);
                  } else {
                    ctl = kPrmtModeSelectors[static_cast<unsigned>(Mode) - 1][c & 3u];
                  }
                  return prmtGather(a, b & 0xFFFFFFFFu, ctl);
                });
  }
};

// prmt with an immediate selector (what compilers emit): the four byte positions and sign flags
// are decoded once per warp-instruction, and each lane does uniform shifts only.
template <ir::PrmtMode Mode>
struct PrmtImmExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    const uint64_t c = static_cast<uint64_t>(in.src(2).imm);
    uint32_t ctl;
    if constexpr (Mode == ir::PrmtMode::Default) {
      ctl = static_cast<uint32_t>(c & 0xFFFFu);
    } else {
      ctl = kPrmtModeSelectors[static_cast<unsigned>(Mode) - 1][c & 3u];
    }
    unsigned shift[4];
    uint64_t signSel[4];  // 0xFF where the byte replicates its sign bit
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned sel = (ctl >> (4 * i)) & 0xFu;
      shift[i] = 8 * (sel & 7u);
      signSel[i] = (sel & 8u) ? 0xFFu : 0u;
    }
    const unsigned s0 = shift[0], s1 = shift[1], s2 = shift[2], s3 = shift[3];
    const uint64_t m = dstMask(in.dst(), 32);
    if ((signSel[0] | signSel[1] | signSel[2] | signSel[3]) == 0) {
      lanes::map2(ctx, in.dst(), in.src(0), in.src(1), m, [=](uint64_t a, uint64_t b) {
        const uint64_t src = (b << 32) | (a & 0xFFFFFFFFu);
        return ((src >> s0) & 0xFFu) | (((src >> s1) & 0xFFu) << 8) |
               (((src >> s2) & 0xFFu) << 16) | (((src >> s3) & 0xFFu) << 24);
      });
      return;
    }
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), m, [&](uint64_t a, uint64_t b) {
      const uint64_t src = (b << 32) | (a & 0xFFFFFFFFu);
      uint64_t r = 0;
      for (unsigned i = 0; i < 4; ++i) {
        const uint64_t raw = (src >> shift[i]) & 0xFFu;
        const uint64_t sign = (uint64_t{0} - ((src >> (shift[i] + 7)) & 1u)) & 0xFFu;
        r |= ((raw & ~signSel[i]) | (sign & signSel[i])) << (8 * i);
      }
      return r;
    });
  }
};

ExecFn bindPrmt(const ir::Instr& in, std::string* error) {
  if (!expectRegs(in, 1, 3, error)) return nullptr;
  if (intKind(in.type).bits != 32) return unsupported(in, error, "needs .b32");
  using M = ir::PrmtMode;
  if (in.src(2).kind == ir::OperandKind::Imm) {
    switch (static_cast<M>(in.sub)) {
      case M::Default: return &PrmtImmExec<M::Default>::run;
      case M::F4e: return &PrmtImmExec<M::F4e>::run;
      case M::B4e: return &PrmtImmExec<M::B4e>::run;
      case M::Rc8: return &PrmtImmExec<M::Rc8>::run;
      case M::Ecl: return &PrmtImmExec<M::Ecl>::run;
      case M::Ecr: return &PrmtImmExec<M::Ecr>::run;
      case M::Rc16: return &PrmtImmExec<M::Rc16>::run;
    }
    return unsupported(in, error, "unknown mode");
  }
  switch (static_cast<M>(in.sub)) {
    case M::Default: return &PrmtExec<M::Default>::run;
    case M::F4e: return &PrmtExec<M::F4e>::run;
    case M::B4e: return &PrmtExec<M::B4e>::run;
    case M::Rc8: return &PrmtExec<M::Rc8>::run;
    case M::Ecl: return &PrmtExec<M::Ecl>::run;
    case M::Ecr: return &PrmtExec<M::Ecr>::run;
    case M::Rc16: return &PrmtExec<M::Rc16>::run;
  }
  return unsupported(in, error, "unknown mode");
}

template <class T> using Bfind = BfindExec<T, false>;
template <class T> using BfindShiftAmt = BfindExec<T, true>;

}  // namespace

ExecFn bindBitOps(const ir::Instr& in, std::string* error) {
  using ir::Op;
  ExecFn fn = nullptr;
  switch (in.op) {
    case Op::Popc: case Op::Clz: case Op::Brev:
      if (!expectRegs(in, 1, 1, error)) return nullptr;
      fn = in.op == Op::Popc  ? byWidth32Or64<PopcExec>(in.type)
           : in.op == Op::Clz ? byWidth32Or64<ClzExec>(in.type)
                              : byWidth32Or64<BrevExec>(in.type);
      return fn != nullptr ? fn : unsupported(in, error, "needs a 32- or 64-bit type");
    case Op::Bfind:
      if (!expectRegs(in, 1, 1, error)) return nullptr;
      fn = in.has(ir::kShiftAmt) ? byInt32Or64<BfindShiftAmt>(in.type)
                                 : byInt32Or64<Bfind>(in.type);
      return fn != nullptr ? fn : unsupported(in, error, "needs a 32- or 64-bit type");
    case Op::Bfe:
      if (!expectRegs(in, 1, 3, error)) return nullptr;
      fn = byInt32Or64<BfeExec>(in.type);
      return fn != nullptr ? fn : unsupported(in, error, "needs a 32- or 64-bit type");
    case Op::Bfi:
      if (!expectRegs(in, 1, 4, error)) return nullptr;
      fn = byWidth32Or64<BfiExec>(in.type);
      return fn != nullptr ? fn : unsupported(in, error, "needs a 32- or 64-bit type");
    case Op::Bmsk:
      if (!expectRegs(in, 1, 2, error)) return nullptr;
      if (in.type != ir::Type::B32) return unsupported(in, error, "needs .b32");
      return in.has(ir::kClamp) ? &BmskExec<true>::run : &BmskExec<false>::run;
    case Op::Prmt:
      return bindPrmt(in, error);
    default:
      return nullptr;
  }
}

}  // namespace warpsim::func::intalu
