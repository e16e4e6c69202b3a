// Integer comparison and selection (PTX ISA 9.0, "Comparison and Selection Instructions"):
//   setp.cmp[.bop].type p[|q], a, b[, {!}c]  with an integer/bit comparison type
//   set.cmp[.bop].dtype.stype d, a, b[, {!}c] with an integer/bit stype (Instr::type2)
//   selp.type d, a, b, {!}c                   for every type (a bit select)
//   slct.dtype.s32 / slct[.ftz].dtype.f32     (comparison type in Instr::type2)
// lt/le/gt/ge compare by the type's signedness (unsigned for .b types); lo/ls/hi/hs always
// compare unsigned. The optional predicate c combines the result: p = cmp <bop> c and
// q = !cmp <bop> c.
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using ir::CmpOp;

template <class T, CmpOp C>
inline bool compare(uint64_t x, uint64_t y) {
  const T a = static_cast<T>(x), b = static_cast<T>(y);
  if constexpr (C == CmpOp::Eq) return a == b;
  if constexpr (C == CmpOp::Ne) return a != b;
  if constexpr (C == CmpOp::Lt) return a < b;
  if constexpr (C == CmpOp::Le) return a <= b;
  if constexpr (C == CmpOp::Gt) return a > b;
  if constexpr (C == CmpOp::Ge) return a >= b;
  return false;
}

// The comparison result of every lane in ctx.mask, combined with the optional predicate source,
// as the mask for `p` (first) and `q` (second); bits outside ctx.mask are meaningless.
template <class T, CmpOp C>
inline void evaluate(const ir::Instr& in, ExecCtx& ctx, uint32_t* p, uint32_t* q) {
  const uint64_t* pa = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* pb = lanes::srcPtr(ctx, in.src(1));
  const uint32_t cmp =
      lanes::collectMask(ctx.mask, [&](unsigned l) { return compare<T, C>(pa[l], pb[l]); });
  uint32_t t = cmp, f = ~cmp;
  switch (in.boolOp) {
    case ir::BoolOp::None: break;
    case ir::BoolOp::And: { uint32_t c = lanes::predValue(ctx, in.src(2)); t &= c; f &= c; break; }
    case ir::BoolOp::Or: { uint32_t c = lanes::predValue(ctx, in.src(2)); t |= c; f |= c; break; }
    case ir::BoolOp::Xor: { uint32_t c = lanes::predValue(ctx, in.src(2)); t ^= c; f ^= c; break; }
  }
  *p = t;
  *q = f;
}

template <class T, CmpOp C>
struct SetpExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    uint32_t p, q;
    evaluate<T, C>(in, ctx, &p, &q);
    if (in.dst(0).kind == ir::OperandKind::Pred) lanes::writePred(ctx, in.dst(0).reg, p, ctx.mask);
    if (in.numDst > 1 && in.dst(1).kind == ir::OperandKind::Pred) {
      lanes::writePred(ctx, in.dst(1).reg, q, ctx.mask);
    }
  }
};

// set: all ones (u32/s32/b32 destination) or 1.0f (f32 destination) where true, else 0.
template <class T, CmpOp C>
struct SetExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    uint32_t p, q;
    evaluate<T, C>(in, ctx, &p, &q);
    const uint64_t one = (in.type == ir::Type::F32 ? 0x3F800000u : 0xFFFFFFFFu) &
                         lanes::dstMask(in.dst(), 32);
    uint64_t out[kWarpSize];
    lanes::expandMask(p, out);
    for (unsigned l = 0; l < kWarpSize; ++l) out[l] &= one;
    lanes::storeLanes(lanes::dstPtr(ctx, in.dst()), out, ctx.mask);
  }
};

template <template <class, CmpOp> class Exec, class T>
ExecFn byCmp(CmpOp c) {
  switch (c) {
    case CmpOp::Eq: return &Exec<T, CmpOp::Eq>::run;
    case CmpOp::Ne: return &Exec<T, CmpOp::Ne>::run;
    case CmpOp::Lt: case CmpOp::Lo: return &Exec<T, CmpOp::Lt>::run;
    case CmpOp::Le: case CmpOp::Ls: return &Exec<T, CmpOp::Le>::run;
    case CmpOp::Gt: case CmpOp::Hi: return &Exec<T, CmpOp::Gt>::run;
    case CmpOp::Ge: case CmpOp::Hs: return &Exec<T, CmpOp::Ge>::run;
    default: return nullptr;
  }
}

// Picks Exec<T, C> for comparison type `t`; lo/ls/hi/hs select the unsigned T.
template <template <class, CmpOp> class Exec>
ExecFn bindCompareExec(ir::Type t, CmpOp c) {
  const IntKind k = intKind(t);
  const bool unsignedCmp = c == CmpOp::Lo || c == CmpOp::Ls || c == CmpOp::Hi || c == CmpOp::Hs;
  const bool sgn = k.isSigned && !unsignedCmp;
  switch (k.bits) {
    case 16: return sgn ? byCmp<Exec, int16_t>(c) : byCmp<Exec, uint16_t>(c);
    case 32: return sgn ? byCmp<Exec, int32_t>(c) : byCmp<Exec, uint32_t>(c);
    case 64: return sgn ? byCmp<Exec, int64_t>(c) : byCmp<Exec, uint64_t>(c);
    default: return nullptr;
  }
}

template <class U>
struct SelpExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    const uint32_t c = lanes::predValue(ctx, in.src(2));
    const uint64_t m = lanes::dstMask(in.dst(), kBits<U>);
    const uint64_t* pa = lanes::srcPtr(ctx, in.src(0));
    const uint64_t* pb = lanes::srcPtr(ctx, in.src(1));
    uint64_t takeA[kWarpSize];  // all ones where c is true
    lanes::expandMask(c, takeA);
    uint64_t out[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) out[l] = ((pa[l] & takeA[l]) | (pb[l] & ~takeA[l])) & m;
    lanes::storeLanes(lanes::dstPtr(ctx, in.dst()), out, ctx.mask);
  }
};

// slct.s32: c >= 0 selects a. slct.f32: c >= 0.0 selects a, where -0.0 counts as zero and NaN
// selects b; with .ftz a subnormal c is flushed to (signed) zero first, so selects a.
enum class SlctCmp { S32, F32, F32Ftz };

template <SlctCmp K>
inline bool slctTakesA(uint64_t cBits) {
  const uint32_t x = static_cast<uint32_t>(cBits);
  if constexpr (K == SlctCmp::S32) {
    return static_cast<int32_t>(x) >= 0;
  } else {
    const uint32_t mag = x & 0x7FFFFFFFu;
    if (mag > 0x7F800000u) return false;  // NaN
    const bool negative = (x >> 31) != 0 &&
                          (K == SlctCmp::F32Ftz ? (mag & 0x7F800000u) != 0 : mag != 0);
    return !negative;
  }
}

template <class U, SlctCmp K>
struct SlctExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2),
                lanes::dstMask(in.dst(), kBits<U>), [](uint64_t a, uint64_t b, uint64_t c) {
                  return slctTakesA<K>(c) ? a : b;
                });
  }
};

template <SlctCmp K>
ExecFn bySelectWidth(ir::Type t) {
  switch (ir::bits(t)) {
    case 16: return &SlctExec<uint16_t, K>::run;
    case 32: return &SlctExec<uint32_t, K>::run;
    case 64: return &SlctExec<uint64_t, K>::run;
    default: return nullptr;
  }
}

bool isPredOrSink(const ir::Operand& op) {
  return isPredOp(op) || op.kind == ir::OperandKind::Sink;
}

// a, b registers plus the combining predicate when boolOp is set.
bool checkCompareSources(const ir::Instr& in) {
  const bool combine = in.boolOp != ir::BoolOp::None;
  if (in.numSrc != (combine ? 3 : 2)) return false;
  if (!isRegLike(in.src(0)) || !isRegLike(in.src(1))) return false;
  return !combine || isPredOp(in.src(2));
}

ExecFn bindSetp(const ir::Instr& in, std::string* error) {
  const bool shapeOk = (in.numDst == 1 || in.numDst == 2) && isPredOrSink(in.dst(0)) &&
                       (in.numDst == 1 || isPredOrSink(in.dst(1))) && checkCompareSources(in);
  if (!shapeOk) return unsupported(in, error, "expected p[|q], a, b[, c] with predicate p, q, c");
  if (intKind(in.type).bits == 0) return unsupported(in, error, "unsupported comparison type");
  ExecFn fn = bindCompareExec<SetpExec>(in.type, in.cmp);
  return fn != nullptr ? fn : unsupported(in, error, "unsupported integer comparison");
}

ExecFn bindSet(const ir::Instr& in, std::string* error) {
  const bool shapeOk = in.numDst == 1 && in.dst().kind == ir::OperandKind::Reg &&
                       checkCompareSources(in);
  if (!shapeOk) return unsupported(in, error, "expected d, a, b[, c] with predicate c");
  if (in.type != ir::Type::U32 && in.type != ir::Type::S32 && in.type != ir::Type::B32 &&
      in.type != ir::Type::F32) {
    return unsupported(in, error, "destination type must be .u32, .s32, .b32 or .f32");
  }
  if (intKind(in.type2).bits == 0) return unsupported(in, error, "unsupported comparison type");
  ExecFn fn = bindCompareExec<SetExec>(in.type2, in.cmp);
  return fn != nullptr ? fn : unsupported(in, error, "unsupported integer comparison");
}

ExecFn bindSelp(const ir::Instr& in, std::string* error) {
  const bool shapeOk = in.numDst == 1 && in.numSrc == 3 && in.dst().kind == ir::OperandKind::Reg &&
                       isRegLike(in.src(0)) && isRegLike(in.src(1)) && isPredOp(in.src(2));
  if (!shapeOk) return unsupported(in, error, "expected d, a, b, c with predicate c");
  switch (ir::bits(in.type)) {
    case 16: return &SelpExec<uint16_t>::run;
    case 32: return &SelpExec<uint32_t>::run;
    case 64: return &SelpExec<uint64_t>::run;
    default: return unsupported(in, error, "unsupported type");
  }
}

ExecFn bindSlct(const ir::Instr& in, std::string* error) {
  if (!expectRegs(in, 1, 3, error)) return nullptr;
  ExecFn fn = nullptr;
  if (in.type2 == ir::Type::S32) {
    fn = bySelectWidth<SlctCmp::S32>(in.type);
  } else if (in.type2 == ir::Type::F32) {
    fn = in.has(ir::kFtz) ? bySelectWidth<SlctCmp::F32Ftz>(in.type)
                          : bySelectWidth<SlctCmp::F32>(in.type);
  } else {
    return unsupported(in, error, "comparison type must be .s32 or .f32");
  }
  return fn != nullptr ? fn : unsupported(in, error, "unsupported destination type");
}

}  // namespace

ExecFn bindCompare(const ir::Instr& in, std::string* error) {
  switch (in.op) {
    case ir::Op::Setp: return bindSetp(in, error);
    case ir::Op::Set: return bindSet(in, error);
    case ir::Op::Selp: return bindSelp(in, error);
    case ir::Op::Slct: return bindSlct(in, error);
    default: return nullptr;
  }
}

}  // namespace warpsim::func::intalu
