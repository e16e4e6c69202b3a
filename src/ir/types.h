// PTX scalar types and state spaces, with the few properties every layer needs.
#pragma once
#include <cstdint>

namespace warpsim::ir {

enum class Type : uint8_t {
  None,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  Pred,
};

// Width of a value of this type in bits (Pred: 1, None: 0).
constexpr unsigned bits(Type t) {
  switch (t) {
    case Type::B8: case Type::U8: case Type::S8: return 8;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 16;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2:
    case Type::BF16x2: return 32;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 64;
    case Type::B128: return 128;
    case Type::Pred: return 1;
    case Type::None: return 0;
  }
  return 0;
}
constexpr unsigned bytes(Type t) { return bits(t) / 8; }
constexpr bool isSigned(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}
constexpr bool isFloat(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2 ||
         t == Type::F32 || t == Type::F64;
}
constexpr bool isBits(Type t) {
  return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::B128;
}

// PTX spelling of a type without the dot ("u32", "pred"; "" for None).
const char* typeName(Type t);

// State spaces. Param is split by the lowering into the two places a .param can live:
// the kernel's argument buffer (uniform across the grid) and a per-thread call frame
// (arguments and return values of .func calls, callseq declarations).
enum class Space : uint8_t {
  None,
  Generic,
  Global,
  Shared,
  Local,
  Const,
  KernelParam,
  FrameParam,
};

}  // namespace warpsim::ir
