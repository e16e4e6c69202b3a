// mov between registers and immediates, predicate moves, and the vector forms that pack
// elements into a wider register or unpack them (PTX ISA 9.0, "mov"): element i occupies bits
// [i*w, (i+1)*w) where w = width of the type / element count. Float types move as plain bits.
// mov from a special register or of a symbol's address belongs to the engine.
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using ir::OperandKind;

// Register/immediate to register: the low bits of the narrower of type and register width.
void movReg(const ir::Instr& in, ExecCtx& ctx) {
  lanes::map1(ctx, in.dst(), in.src(0), lanes::dstMask(in.dst(), ir::bits(in.type)),
              [](uint64_t a) { return a; });
}

void movPred(const ir::Instr& in, ExecCtx& ctx) {
  lanes::writePred(ctx, in.dst().reg, lanes::predValue(ctx, in.src(0)), ctx.mask);
}

void movPredImm(const ir::Instr& in, ExecCtx& ctx) {
  lanes::writePred(ctx, in.dst().reg, in.src(0).imm != 0 ? kFullMask : 0u, ctx.mask);
}

// mov.bN d, {e0, e1, ...}: Count elements of ElemBits each, element 0 in the low bits.
template <unsigned Count, unsigned ElemBits>
struct PackExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    const ir::Operand& v = in.src(0);
    const uint64_t* e[Count];
    for (unsigned i = 0; i < Count; ++i) e[i] = lanes::lanePtr(ctx, v.vec[i]);
    const uint64_t m = lanes::dstMask(in.dst(), Count * ElemBits);
    uint64_t out[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      uint64_t r = 0;
      for (unsigned i = 0; i < Count; ++i) {
        r |= (e[i][l] & lanes::widthMask(ElemBits)) << (i * ElemBits);
      }
      out[l] = r & m;
    }
    lanes::storeLanes(lanes::dstPtr(ctx, in.dst()), out, ctx.mask);
  }
};

// mov.bN {e0, e1, ...}, a: the reverse; sink elements (`_`) are skipped. Elements are written in
// order, so only the last one may name the source register (bindMove checks).
template <unsigned Count, unsigned ElemBits>
struct UnpackExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    const ir::Operand& v = in.dst();
    const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
    const uint64_t m = lanes::dstMask(v, ElemBits);
    for (unsigned i = 0; i < Count; ++i) {
      if (v.vec[i] == ir::kNoReg) continue;
      const unsigned shift = i * ElemBits;
      uint64_t out[kWarpSize];
      for (unsigned l = 0; l < kWarpSize; ++l) out[l] = (a[l] >> shift) & m;
      lanes::storeLanes(lanes::lanePtr(ctx, v.vec[i]), out, ctx.mask);
    }
  }
};

template <template <unsigned, unsigned> class Exec>
ExecFn byShape(unsigned count, unsigned totalBits) {
  switch (count * 1000 + totalBits) {
    case 2016: return &Exec<2, 8>::run;
    case 2032: return &Exec<2, 16>::run;
    case 4032: return &Exec<4, 8>::run;
    case 2064: return &Exec<2, 32>::run;
    case 4064: return &Exec<4, 16>::run;
    default: return nullptr;
  }
}

bool vectorRegsValid(const ir::Operand& v, bool allowSink) {
  if (v.count != 2 && v.count != 4) return false;
  for (unsigned i = 0; i < v.count; ++i) {
    if (v.vec[i] == ir::kNoReg && !allowSink) return false;
  }
  return true;
}

ExecFn bindVectorMove(const ir::Instr& in, std::string* error) {
  const ir::Operand& d = in.dst();
  const ir::Operand& s = in.src(0);
  const unsigned total = ir::bits(in.type);
  if (s.kind == OperandKind::Vector && d.kind == OperandKind::Reg) {
    if (!vectorRegsValid(s, false)) return unsupported(in, error, "bad source vector");
    ExecFn fn = byShape<PackExec>(s.count, total);
    return fn != nullptr ? fn : unsupported(in, error, "unsupported vector pack shape");
  }
  if (d.kind == OperandKind::Vector && isRegLike(s)) {
    if (!vectorRegsValid(d, true)) return unsupported(in, error, "bad destination vector");
    for (unsigned i = 0; i + 1 < d.count; ++i) {
      if (d.vec[i] == s.reg) {
        return unsupported(in, error, "an unpack destination other than the last aliases the source");
      }
    }
    ExecFn fn = byShape<UnpackExec>(d.count, total);
    return fn != nullptr ? fn : unsupported(in, error, "unsupported vector unpack shape");
  }
  return unsupported(in, error, "unsupported vector operands");
}

}  // namespace

ExecFn bindMove(const ir::Instr& in, std::string* error) {
  if (in.numDst != 1 || in.numSrc != 1) return unsupported(in, error, "expected d, a");
  const ir::Operand& d = in.dst();
  const ir::Operand& s = in.src(0);
  if (s.kind == OperandKind::Special || s.kind == OperandKind::Symbol) return nullptr;  // engine
  if (d.kind == OperandKind::Sink) return execNothing;
  if (d.kind == OperandKind::Vector || s.kind == OperandKind::Vector) {
    return bindVectorMove(in, error);
  }
  if (in.type == ir::Type::Pred) {
    if (d.kind != OperandKind::Pred || d.reg == ir::kNoReg) {
      return unsupported(in, error, "destination must be a predicate");
    }
    if (s.kind == OperandKind::Pred && s.reg != ir::kNoReg) return movPred;
    if (s.kind == OperandKind::Imm) return movPredImm;
    return unsupported(in, error, "source must be a predicate or an immediate");
  }
  if (d.kind != OperandKind::Reg || d.reg == ir::kNoReg || !isRegLike(s)) {
    return unsupported(in, error, "expected register destination and register/immediate source");
  }
  const unsigned width = ir::bits(in.type);
  if (width != 16 && width != 32 && width != 64 && width != 8) {
    return unsupported(in, error, "unsupported type");
  }
  return movReg;
}

}  // namespace warpsim::func::intalu
