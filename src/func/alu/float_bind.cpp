// bindFloatAlu: routes floating-point instructions and cvt to their executor family.
//
// Semantics chosen where PTX leaves freedom (PTX ISA 9.0):
//  * NaN results: f32 -> 0x7FFFFFFF and f16/bf16 -> 0x7FFF, the canonical NaNs the hardware
//    produces (CUDART_NAN_F, CUDART_NAN_FP16; PTX says "unspecified NaN"); f64 keeps an input's
//    payload, as PTX specifies, and an invalid f64 operation gives 0xFFF8000000000000.
//  * .approx operations use accurate host math (within every PTX error bound), keeping the
//    special-value tables and the few behaviours PTX defines beyond accuracy.
//  * Directed roundings (.rz .rm .rp) of f32/f64 arithmetic run in the host FPU's rounding mode,
//    set once per executor call; conversions round in software.
//  * mad.f32 without a rounding modifier is mad.rn.f32 (fused), per the PTX ISA errata for
//    sm_20+; div/rcp/sqrt.f32 and sin/cos/lg2/ex2/rsqrt without .approx or a rounding modifier
//    take their PTX 1.x meaning, .approx.ftz.
#include "func/alu/alu.h"
#include "func/alu/float_common.h"
#include "func/alu/float_exec.h"

namespace warpsim::func {
namespace fp {
namespace {


const char* roundSuffix(ir::Round r) {
  switch (r) {
    case ir::Round::Rn: return ".rn";
    case ir::Round::Rna: return ".rna";
    case ir::Round::Rz: return ".rz";
    case ir::Round::Rm: return ".rm";
    case ir::Round::Rp: return ".rp";
    case ir::Round::Rni: return ".rni";
    case ir::Round::Rzi: return ".rzi";
    case ir::Round::Rmi: return ".rmi";
    case ir::Round::Rpi: return ".rpi";
    case ir::Round::Rs: return ".rs";
    case ir::Round::None: return "";
  }
  return "";
}

// Operations whose opcode PTX shares with the integer family.
bool sharedWithIntegers(ir::Op op) {
  switch (op) {
    case ir::Op::Add:
    case ir::Op::Sub:
    case ir::Op::Mul:
    case ir::Op::Mad:
    case ir::Op::Div:
    case ir::Op::Abs:
    case ir::Op::Neg:
    case ir::Op::Min:
    case ir::Op::Max: return true;
    default: return false;
  }
}

bool floatOnly(ir::Op op) {
  switch (op) {
    case ir::Op::Fma:
    case ir::Op::Rcp:
    case ir::Op::Sqrt:
    case ir::Op::Rsqrt:
    case ir::Op::Sin:
    case ir::Op::Cos:
    case ir::Op::Lg2:
    case ir::Op::Ex2:
    case ir::Op::Tanh:
    case ir::Op::Copysign: return true;
    default: return false;
  }
}

bool isApproxForm(const ir::Instr& in) {
  if (in.has(ir::kApprox) || in.has(ir::kFull)) return true;
  switch (in.op) {
    case ir::Op::Rsqrt:
    case ir::Op::Sin:
    case ir::Op::Cos:
    case ir::Op::Lg2:
    case ir::Op::Ex2:
    case ir::Op::Tanh: return true;
    case ir::Op::Div:
    case ir::Op::Rcp:
    case ir::Op::Sqrt:
      // Legacy f32 forms without .approx or rounding (PTX 1.x) mean .approx.ftz.
      return in.type == ir::Type::F32 && in.round == ir::Round::None;
    default: return false;
  }
}

ExecFn bindScalarFloat(const ir::Instr& in, std::string* error) {
  const unsigned wantSrcs = [&] {
    switch (in.op) {
      case ir::Op::Fma:
      case ir::Op::Mad: return 3u;
      case ir::Op::Add:
      case ir::Op::Sub:
      case ir::Op::Mul:
      case ir::Op::Div:
      case ir::Op::Min:
      case ir::Op::Max:
      case ir::Op::Copysign: return 2u;
      default: return 1u;
    }
  }();
  const bool threeWayMinMax = (in.op == ir::Op::Min || in.op == ir::Op::Max) && in.numSrc == 3;
  if (in.numDst != 1 || (in.numSrc != wantSrcs && !threeWayMinMax)) {
    return fail(in, error, "wrong number of operands");
  }
  if (in.dst(0).kind == ir::OperandKind::Sink) return &execNothing;
  if (in.dst(0).kind != ir::OperandKind::Reg)
    return fail(in, error, "destination must be a register");
  if (!sourcesRegLike(in, 0, in.numSrc))
    return fail(in, error, "sources must be registers or immediates");
  if (in.type == ir::Type::F16 || in.type == ir::Type::F16x2 || in.type == ir::Type::BF16 ||
      in.type == ir::Type::BF16x2) {
    return bindHalf(in, error);
  }
  switch (in.op) {
    case ir::Op::Abs:
    case ir::Op::Neg:
    case ir::Op::Min:
    case ir::Op::Max:
    case ir::Op::Copysign: return bindMinMaxSign(in, error);
    default: break;
  }
  if (isApproxForm(in)) {
    if (in.op == ir::Op::Fma || in.op == ir::Op::Mad || in.op == ir::Op::Add ||
        in.op == ir::Op::Sub || in.op == ir::Op::Mul) {
      return fail(in, error, "no approximate form");
    }
    return bindApprox(in, error);
  }
  return bindArith(in, error);
}

}  // namespace

std::string describe(const ir::Instr& in) {
  std::string s = ir::opName(in.op);
  s += roundSuffix(in.round);
  if (in.has(ir::kApprox)) s += ".approx";
  if (in.has(ir::kFull)) s += ".full";
  if (in.has(ir::kFtz)) s += ".ftz";
  if (in.has(ir::kSat)) s += ".sat";
  if (in.has(ir::kRelu)) s += ".relu";
  s += '.';
  s += ir::typeName(in.type);
  if (in.op == ir::Op::Cvt || in.op == ir::Op::Set) s += std::string(".") + ir::typeName(in.type2);
  return s;
}

ExecFn fail(const ir::Instr& in, std::string* error, const char* why) {
  if (error != nullptr) *error = describe(in) + ": " + why;
  return nullptr;
}

void execNothing(const ir::Instr&, ExecCtx&) {}

}  // namespace fp

ExecFn bindFloatAlu(const ir::Instr& in, std::string* error) {
  if (error != nullptr) error->clear();
  switch (in.op) {
    case ir::Op::Cvt: return fp::bindCvt(in, error);
    case ir::Op::Testp: return fp::bindCompare(in, error);
    case ir::Op::Setp: return ir::isFloat(in.type) ? fp::bindCompare(in, error) : nullptr;
    case ir::Op::Set: return ir::isFloat(in.type2) ? fp::bindCompare(in, error) : nullptr;
    default: break;
  }
  if (fp::sharedWithIntegers(in.op)) {
    if (!ir::isFloat(in.type)) return nullptr;
    return fp::bindScalarFloat(in, error);
  }
  if (fp::floatOnly(in.op)) {
    if (!ir::isFloat(in.type)) return fp::fail(in, error, "needs a floating-point type");
    return fp::bindScalarFloat(in, error);
  }
  return nullptr;
}

}  // namespace warpsim::func
