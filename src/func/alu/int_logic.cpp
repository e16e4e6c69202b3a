// Bitwise logic: and, or, xor, not, cnot on b16/b32/b64; and, or, xor, not on .pred; lop3
// (PTX ISA 9.0, "Logic and Shift Instructions").
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using lanes::dstMask;

enum class Logic { And, Or, Xor };

template <Logic L>
constexpr uint64_t apply(uint64_t a, uint64_t b) {
  return L == Logic::And ? (a & b) : L == Logic::Or ? (a | b) : (a ^ b);
}

template <class U, Logic L>
struct BitBinary {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), kBits<U>),
                [](uint64_t a, uint64_t b) { return apply<L>(a, b); });
  }
};

template <class U>
struct BitNot {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), kBits<U>),
                [](uint64_t a) { return ~a; });
  }
};

template <class U>
struct BitCnot {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), kBits<U>),
                [](uint64_t a) -> uint64_t { return static_cast<U>(a) == 0 ? 1 : 0; });
  }
};

// Predicate logic works on whole lane masks at once.
template <Logic L>
struct PredBinary {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    uint32_t v = static_cast<uint32_t>(
        apply<L>(lanes::predValue(ctx, in.src(0)), lanes::predValue(ctx, in.src(1))));
    lanes::writePred(ctx, in.dst().reg, v, ctx.mask);
  }
};
struct PredNot {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::writePred(ctx, in.dst().reg, ~lanes::predValue(ctx, in.src(0)), ctx.mask);
  }
};

// lop3: bit i of immLut is the result for inputs (a, b, c) = (i>>2 & 1, i>>1 & 1, i & 1), so that
// immLut = F(0xF0, 0xCC, 0xAA). Evaluated as a bitwise multiplexer tree over the eight LUT bits
// (each broadcast to all ones or zero): select by a, then b, then c.
inline uint64_t mux(uint64_t s, uint64_t one, uint64_t zero) { return (s & one) | (~s & zero); }
inline uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, const uint64_t (&sel)[8]) {
  const uint64_t x00 = mux(a, sel[4], sel[0]), x01 = mux(a, sel[5], sel[1]);
  const uint64_t x10 = mux(a, sel[6], sel[2]), x11 = mux(a, sel[7], sel[3]);
  return mux(c, mux(b, x11, x01), mux(b, x10, x00));
}

// lop3.b32 d, a, b, c, immLut. (The lop3.<bop>.b32 d|p, ..., q form has seven operands, more
// than an Instr holds, and is not supported.)
template <class U>
struct Lop3Exec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    const uint32_t lut = static_cast<uint32_t>(in.src(3).imm) & 0xFFu;
    uint64_t sel[8];
    for (unsigned i = 0; i < 8; ++i) sel[i] = ((lut >> i) & 1u) ? ~uint64_t{0} : 0;
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), kBits<U>),
                [&](uint64_t a, uint64_t b, uint64_t c) { return lop3(a, b, c, sel); });
  }
};

template <class U> using And = BitBinary<U, Logic::And>;
template <class U> using Or = BitBinary<U, Logic::Or>;
template <class U> using Xor = BitBinary<U, Logic::Xor>;

ExecFn bindPredLogic(const ir::Instr& in, std::string* error) {
  const unsigned nSrc = in.op == ir::Op::Not ? 1 : 2;
  bool ok = in.numDst == 1 && in.numSrc == nSrc && isPredOp(in.dst());
  for (unsigned i = 0; ok && i < nSrc; ++i) ok = isPredOp(in.src(i));
  if (!ok) return unsupported(in, error, "expected predicate operands");
  switch (in.op) {
    case ir::Op::And: return &PredBinary<Logic::And>::run;
    case ir::Op::Or: return &PredBinary<Logic::Or>::run;
    case ir::Op::Xor: return &PredBinary<Logic::Xor>::run;
    case ir::Op::Not: return &PredNot::run;
    default: return unsupported(in, error, "not a predicate operation");
  }
}

ExecFn bindLop3(const ir::Instr& in, std::string* error) {
  if (in.boolOp != ir::BoolOp::None) {
    return unsupported(in, error, "the predicate-output form of lop3 is not supported");
  }
  bool ok = in.numDst == 1 && in.numSrc == 4 && in.dst().kind == ir::OperandKind::Reg &&
            in.src(3).kind == ir::OperandKind::Imm;
  for (unsigned i = 0; ok && i < 3; ++i) ok = isRegLike(in.src(i));
  if (!ok) return unsupported(in, error, "expected d, a, b, c, immLut");
  if (intKind(in.type).bits != 32) return unsupported(in, error, "needs .b32");
  return &Lop3Exec<uint32_t>::run;
}

}  // namespace

ExecFn bindLogic(const ir::Instr& in, std::string* error) {
  using ir::Op;
  if (in.op == Op::Lop3) return bindLop3(in, error);
  if (in.type == ir::Type::Pred) {
    if (in.op == Op::Cnot) return unsupported(in, error, "cnot has no .pred form");
    return bindPredLogic(in, error);
  }
  const bool unary = in.op == Op::Not || in.op == Op::Cnot;
  if (!expectRegs(in, 1, unary ? 1 : 2, error)) return nullptr;
  ExecFn fn = nullptr;
  switch (in.op) {
    case Op::And: fn = byUnsignedWidth<And>(in.type); break;
    case Op::Or: fn = byUnsignedWidth<Or>(in.type); break;
    case Op::Xor: fn = byUnsignedWidth<Xor>(in.type); break;
    case Op::Not: fn = byUnsignedWidth<BitNot>(in.type); break;
    case Op::Cnot: fn = byUnsignedWidth<BitCnot>(in.type); break;
    default: return nullptr;
  }
  return fn != nullptr ? fn : unsupported(in, error, "needs .b16, .b32, .b64 or .pred");
}

}  // namespace warpsim::func::intalu
