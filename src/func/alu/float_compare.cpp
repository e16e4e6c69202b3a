// setp and set with a floating-point comparison (f16 f16x2 bf16 bf16x2 f32 f64), and testp.
//
// Ordered comparisons (eq ne lt le gt ge) are false when an operand is NaN, unordered ones
// (equ neu ltu leu gtu geu) are true; num / nan test that both / either operand is a number.
// setp writes p = t BOP c and q = !t BOP c; for the x2 types p and q are the lower and upper
// halves' results (each combined with c). set writes, per result, all ones for .u32/.s32
// (0xFFFF per half or for 16-bit types) and 1.0 in the destination format for float types.
#include "func/alu/float_common.h"
#include "func/alu/float_exec.h"

namespace warpsim::func::fp {
namespace {

using ir::CmpOp;

// Lane decoders: the value compared, as float or double (exact for every source format).
template <bool Ftz>
struct F32Lane {
  static float get(uint64_t s) { return inF32<Ftz>(s); }
};
struct F64Lane {
  static double get(uint64_t s) { return f64Of(s); }
};
template <Format F, unsigned Shift, bool Ftz>
struct HalfLane {
  static double get(uint64_t s) {
    uint16_t h = static_cast<uint16_t>(s >> Shift);
    if constexpr (Ftz) h = static_cast<uint16_t>(flushSubnormal<F>(h));
    return toDouble<F>(h);
  }
};

template <CmpOp C, class T>
bool compare(T a, T b) {
  switch (C) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a < b || a > b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
    case CmpOp::Equ: return !(a < b || a > b);
    case CmpOp::Neu: return a != b;
    case CmpOp::Ltu: return !(a >= b);
    case CmpOp::Leu: return !(a > b);
    case CmpOp::Gtu: return !(a <= b);
    case CmpOp::Geu: return !(a < b);
    case CmpOp::Num: return a == a && b == b;
    case CmpOp::Nan: return a != a || b != b;
    default: return false;
  }
}

template <class Lane, CmpOp C>
uint32_t compareMask(const ir::Instr& in, ExecCtx& ctx) {
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  return lanes::collectMask(
      ctx.mask, [&](unsigned l) { return compare<C>(Lane::get(a[l]), Lane::get(b[l])); });
}

uint32_t combine(const ir::Instr& in, const ExecCtx& ctx, uint32_t t) {
  if (in.boolOp == ir::BoolOp::None) return t;
  const uint32_t c = lanes::predValue(ctx, in.src(2));
  switch (in.boolOp) {
    case ir::BoolOp::And: return t & c;
    case ir::BoolOp::Or: return t | c;
    default: return t ^ c;
  }
}

void writeSetp(const ir::Instr& in, ExecCtx& ctx, uint32_t tp, uint32_t tq) {
  if (in.dst(0).kind == ir::OperandKind::Pred) {
    lanes::writePred(ctx, in.dst(0).reg, combine(in, ctx, tp), ctx.mask);
  }
  if (in.numDst > 1 && in.dst(1).kind == ir::OperandKind::Pred) {
    lanes::writePred(ctx, in.dst(1).reg, combine(in, ctx, tq), ctx.mask);
  }
}

// The value `set` writes for a true result, per destination type (per half for x2 types).
uint64_t setTrueValue(ir::Type t) {
  switch (t) {
    case ir::Type::F32: return 0x3F800000u;
    case ir::Type::F16: return 0x3C00u;
    case ir::Type::BF16: return 0x3F80u;
    case ir::Type::F16x2: return 0x3C00u;
    case ir::Type::BF16x2: return 0x3F80u;
    case ir::Type::U16:
    case ir::Type::S16:
    case ir::Type::B16: return 0xFFFFu;
    case ir::Type::U32:
    case ir::Type::S32:
    case ir::Type::B32: return 0xFFFFFFFFu;
    default: return 0;
  }
}

template <class Lane, CmpOp C>
void setpExec(const ir::Instr& in, ExecCtx& ctx) {
  const uint32_t t = compareMask<Lane, C>(in, ctx);
  writeSetp(in, ctx, t, ~t);
}
template <class Lo, class Hi, CmpOp C>
void setpPairExec(const ir::Instr& in, ExecCtx& ctx) {
  writeSetp(in, ctx, compareMask<Lo, C>(in, ctx), compareMask<Hi, C>(in, ctx));
}

template <class Lane, CmpOp C>
void setExec(const ir::Instr& in, ExecCtx& ctx) {
  const uint32_t t = combine(in, ctx, compareMask<Lane, C>(in, ctx));
  const uint64_t one = setTrueValue(in.type);
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  lanes::forEachLane(ctx.mask, [&](unsigned l) { d[l] = ((t >> l) & 1) != 0 ? one : 0; });
}
// x2 comparison: each half of the destination gets its own result (u32/s32: 0xFFFF per half).
template <class Lo, class Hi, CmpOp C>
void setPairExec(const ir::Instr& in, ExecCtx& ctx) {
  const uint32_t lo = combine(in, ctx, compareMask<Lo, C>(in, ctx));
  const uint32_t hi = combine(in, ctx, compareMask<Hi, C>(in, ctx));
  const uint64_t one = setTrueValue(in.type) & 0xFFFFu;
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    d[l] = (((lo >> l) & 1) != 0 ? one : 0) | (((hi >> l) & 1) != 0 ? one << 16 : 0);
  });
}

template <template <class, CmpOp> class Exec, class Lane>
ExecFn byCmp(CmpOp c) {
  switch (c) {
    case CmpOp::Eq: return &Exec<Lane, CmpOp::Eq>::run;
    case CmpOp::Ne: return &Exec<Lane, CmpOp::Ne>::run;
    case CmpOp::Lt: return &Exec<Lane, CmpOp::Lt>::run;
    case CmpOp::Le: return &Exec<Lane, CmpOp::Le>::run;
    case CmpOp::Gt: return &Exec<Lane, CmpOp::Gt>::run;
    case CmpOp::Ge: return &Exec<Lane, CmpOp::Ge>::run;
    case CmpOp::Equ: return &Exec<Lane, CmpOp::Equ>::run;
    case CmpOp::Neu: return &Exec<Lane, CmpOp::Neu>::run;
    case CmpOp::Ltu: return &Exec<Lane, CmpOp::Ltu>::run;
    case CmpOp::Leu: return &Exec<Lane, CmpOp::Leu>::run;
    case CmpOp::Gtu: return &Exec<Lane, CmpOp::Gtu>::run;
    case CmpOp::Geu: return &Exec<Lane, CmpOp::Geu>::run;
    case CmpOp::Num: return &Exec<Lane, CmpOp::Num>::run;
    case CmpOp::Nan: return &Exec<Lane, CmpOp::Nan>::run;
    default: return nullptr;
  }
}

template <class Lane, CmpOp C>
struct SetpScalar {
  static void run(const ir::Instr& i, ExecCtx& c) { setpExec<Lane, C>(i, c); }
};
template <class Lane, CmpOp C>
struct SetScalar {
  static void run(const ir::Instr& i, ExecCtx& c) { setExec<Lane, C>(i, c); }
};
template <class Pair, CmpOp C>
struct SetpPair {
  static void run(const ir::Instr& i, ExecCtx& c) {
    setpPairExec<typename Pair::Lo, typename Pair::Hi, C>(i, c);
  }
};
template <class Pair, CmpOp C>
struct SetPair {
  static void run(const ir::Instr& i, ExecCtx& c) {
    setPairExec<typename Pair::Lo, typename Pair::Hi, C>(i, c);
  }
};
template <Format F, bool Ftz>
struct HalfPair {
  using Lo = HalfLane<F, 0, Ftz>;
  using Hi = HalfLane<F, 16, Ftz>;
};

// Binds setp (Pred destinations) or set (register destination) for comparison type `t`.
template <template <class, CmpOp> class Scalar, template <class, CmpOp> class Pair>
ExecFn byType(ir::Type t, bool ftz, CmpOp c) {
  switch (t) {
    case ir::Type::F32:
      return ftz ? byCmp<Scalar, F32Lane<true>>(c) : byCmp<Scalar, F32Lane<false>>(c);
    case ir::Type::F64: return byCmp<Scalar, F64Lane>(c);
    case ir::Type::F16:
      return ftz ? byCmp<Scalar, HalfLane<kF16, 0, true>>(c)
                 : byCmp<Scalar, HalfLane<kF16, 0, false>>(c);
    case ir::Type::BF16: return byCmp<Scalar, HalfLane<kBf16, 0, false>>(c);
    case ir::Type::F16x2:
      return ftz ? byCmp<Pair, HalfPair<kF16, true>>(c) : byCmp<Pair, HalfPair<kF16, false>>(c);
    case ir::Type::BF16x2: return byCmp<Pair, HalfPair<kBf16, false>>(c);
    default: return nullptr;
  }
}

// testp: a per-lane class test written to a predicate.
template <Format F, ir::TestpClass K>
void testpExec(const ir::Instr& in, ExecCtx& ctx) {
  using I = FormatInfo<F>;
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint32_t t = lanes::collectMask(ctx.mask, [&](unsigned l) {
    const uint64_t x = a[l] & ~I::kSign & lanes::widthMask(F.expBits + F.fracBits);
    switch (K) {
      case ir::TestpClass::Finite: return x < I::kInf;
      case ir::TestpClass::Infinite: return x == I::kInf;
      case ir::TestpClass::Number: return x <= I::kInf;
      case ir::TestpClass::NotANumber: return x > I::kInf;
      case ir::TestpClass::Normal:
        return x < I::kInf && !isSubnormal<F>(x);  // zeros count as normal
      default: return isSubnormal<F>(x);
    }
  });
  if (in.dst(0).kind == ir::OperandKind::Pred) lanes::writePred(ctx, in.dst(0).reg, t, ctx.mask);
}

template <Format F>
ExecFn testpByClass(uint8_t k) {
  switch (static_cast<ir::TestpClass>(k)) {
    case ir::TestpClass::Finite: return &testpExec<F, ir::TestpClass::Finite>;
    case ir::TestpClass::Infinite: return &testpExec<F, ir::TestpClass::Infinite>;
    case ir::TestpClass::Number: return &testpExec<F, ir::TestpClass::Number>;
    case ir::TestpClass::NotANumber: return &testpExec<F, ir::TestpClass::NotANumber>;
    case ir::TestpClass::Normal: return &testpExec<F, ir::TestpClass::Normal>;
    case ir::TestpClass::Subnormal: return &testpExec<F, ir::TestpClass::Subnormal>;
  }
  return nullptr;
}

bool isPredOrSink(const ir::Operand& o) {
  return o.kind == ir::OperandKind::Pred || o.kind == ir::OperandKind::Sink;
}

bool compareShapeOk(const ir::Instr& in) {
  const bool combined = in.boolOp != ir::BoolOp::None;
  if (in.numSrc != (combined ? 3 : 2) || !sourcesRegLike(in, 0, 2)) return false;
  return !combined || in.src(2).kind == ir::OperandKind::Pred;
}

}  // namespace

ExecFn bindCompare(const ir::Instr& in, std::string* error) {
  const bool ftz = in.has(ir::kFtz);
  if (in.op == ir::Op::Testp) {
    if (in.numDst != 1 || in.numSrc != 1 || !isPredOrSink(in.dst(0)) || !isRegLike(in.src(0))) {
      return fail(in, error, "expected p, a with predicate p");
    }
    if (in.sub > static_cast<uint8_t>(ir::TestpClass::Subnormal))
      return fail(in, error, "unknown class");
    if (in.type == ir::Type::F32) return testpByClass<kF32>(in.sub);
    if (in.type == ir::Type::F64) return testpByClass<kF64>(in.sub);
    return fail(in, error, "testp takes .f32 or .f64");
  }
  if (!compareShapeOk(in)) return fail(in, error, "expected a, b and a predicate c when combining");
  const ir::Type cmpType = in.op == ir::Op::Setp ? in.type : in.type2;
  const bool bf16 = cmpType == ir::Type::BF16 || cmpType == ir::Type::BF16x2;
  if (ftz && (cmpType == ir::Type::F64 || bf16))
    return fail(in, error, ".ftz is not allowed for this type");
  ExecFn fn = nullptr;
  if (in.op == ir::Op::Setp) {
    const bool pair = cmpType == ir::Type::F16x2 || cmpType == ir::Type::BF16x2;
    const bool shapeOk = (in.numDst == 1 && !pair) || in.numDst == 2;
    if (!shapeOk || !isPredOrSink(in.dst(0)) || (in.numDst == 2 && !isPredOrSink(in.dst(1)))) {
      return fail(in, error,
                  pair ? "expected p|q destinations" : "expected predicate destinations");
    }
    fn = byType<SetpScalar, SetpPair>(cmpType, ftz, in.cmp);
  } else {
    if (in.numDst != 1 || in.dst(0).kind != ir::OperandKind::Reg)
      return fail(in, error, "expected a register destination");
    const bool pair = cmpType == ir::Type::F16x2 || cmpType == ir::Type::BF16x2;
    const bool dstOk =
        pair ? (in.type == cmpType || in.type == ir::Type::U32 || in.type == ir::Type::S32)
             : setTrueValue(in.type) != 0 && in.type != ir::Type::F16x2 &&
                   in.type != ir::Type::BF16x2;
    if (!dstOk) return fail(in, error, "unsupported destination type");
    fn = byType<SetScalar, SetPair>(cmpType, ftz, in.cmp);
  }
  return fn != nullptr ? fn : fail(in, error, "unsupported comparison");
}

}  // namespace warpsim::func::fp
