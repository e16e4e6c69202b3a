#include "ir/instr.h"

#include <cstddef>

namespace warpsim::ir {

const char* opName(Op op) {
  static constexpr const char* kNames[] = {
      "invalid",
      "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min", "max",
      "popc", "clz", "bfind", "brev", "bfe", "bfi", "bmsk", "prmt", "shl", "shr", "shf", "lop3", "and",
      "or", "xor", "not", "cnot",
      "addc", "subc", "madc", "dp4a", "dp2a",
      "fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign", "testp",
      "mov", "cvt", "cvta", "isspacep",
      "setp", "set", "selp", "slct",
      "ld", "ldu", "st", "atom", "red", "prefetch",
      "bar", "membar", "fence", "shfl", "vote", "match", "activemask",
      "bra", "call", "ret", "exit", "trap", "brkpt", "nanosleep",
      "atom_hint",
  };
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<std::size_t>(Op::Count_));
  auto i = static_cast<std::size_t>(op);
  return i < static_cast<std::size_t>(Op::Count_) ? kNames[i] : "invalid";
}

OpClass opClass(const Instr& in) {
  Type t = in.type;
  bool half = t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2;
  switch (in.op) {
    case Op::Ld: case Op::Ldu: case Op::Prefetch: return OpClass::Load;
    case Op::St: return OpClass::Store;
    case Op::Atom: case Op::Red: return OpClass::Atomic;
    case Op::Bar: case Op::Membar: case Op::Fence: return OpClass::Barrier;
    case Op::Shfl: case Op::Vote: case Op::Match: case Op::Activemask: return OpClass::WarpSync;
    case Op::Bra: case Op::Call: case Op::Ret: case Op::Exit: return OpClass::Control;
    case Op::Trap: case Op::Brkpt: case Op::Nanosleep: case Op::AtomHint: case Op::Invalid: case Op::Count_:
      return OpClass::Misc;
    case Op::Mov: return t == Type::Pred ? OpClass::Predicate : OpClass::Move;
    case Op::Cvt: case Op::Cvta: return OpClass::Conversion;
    case Op::Isspacep: case Op::Setp: case Op::Set: case Op::Selp: case Op::Slct:
      return (in.op == Op::Setp || in.op == Op::Set) && in.type == Type::F64 ? OpClass::Fp64
                                                                            : OpClass::Predicate;
    case Op::Rcp: case Op::Sqrt: case Op::Rsqrt:
      if (t == Type::F64 && !in.has(kApprox)) return OpClass::Fp64;
      return OpClass::Sfu;
    case Op::Sin: case Op::Cos: case Op::Lg2: case Op::Ex2: case Op::Tanh: return OpClass::Sfu;
    case Op::Div:
      if (t == Type::F64) return OpClass::Fp64;
      if (t == Type::F32 && in.has(kApprox)) return OpClass::Sfu;
      if (!isFloat(t)) return OpClass::IntMul;
      return half ? OpClass::Half : OpClass::FpAlu;
    case Op::Rem: case Op::Mul: case Op::Mad: case Op::Mul24: case Op::Mad24: case Op::MadC:
    case Op::Sad: case Op::Dp4a: case Op::Dp2a:
      if (isFloat(t)) return t == Type::F64 ? OpClass::Fp64 : half ? OpClass::Half : OpClass::FpAlu;
      return in.op == Op::Sad ? OpClass::IntAlu : OpClass::IntMul;
    case Op::And: case Op::Or: case Op::Xor: case Op::Not: case Op::Cnot:
      return t == Type::Pred ? OpClass::Predicate : OpClass::IntAlu;
    default: break;
  }
  if (t == Type::F64) return OpClass::Fp64;
  if (half) return OpClass::Half;
  if (t == Type::F32) return OpClass::FpAlu;
  return OpClass::IntAlu;
}

const char* opClassName(OpClass c) {
  switch (c) {
    case OpClass::IntAlu: return "int_alu";
    case OpClass::IntMul: return "int_mul";
    case OpClass::FpAlu: return "fp_alu";
    case OpClass::Fp64: return "fp64";
    case OpClass::Sfu: return "sfu";
    case OpClass::Half: return "half";
    case OpClass::Conversion: return "conversion";
    case OpClass::Move: return "move";
    case OpClass::Predicate: return "predicate";
    case OpClass::Load: return "load";
    case OpClass::Store: return "store";
    case OpClass::Atomic: return "atomic";
    case OpClass::Barrier: return "barrier";
    case OpClass::WarpSync: return "warp_sync";
    case OpClass::Control: return "control";
    case OpClass::Misc: return "misc";
  }
  return "misc";
}

}  // namespace warpsim::ir
