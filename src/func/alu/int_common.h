// Shared pieces of the integer ALU binders: the per-family bind entry points that bindIntAlu
// dispatches to, error reporting, and the compile-time type dispatch that turns a runtime
// ir::Type into one instantiated executor.
#pragma once
#include <cstdint>
#include <string>

#include "func/alu/alu.h"
#include "func/alu/lanes.h"
#include "ir/instr.h"
#include "ir/types.h"

namespace warpsim::func::intalu {


// Sets *error to "<op>.<type>: <why>" and returns nullptr, for use as `return unsupported(...)`.
ExecFn unsupported(const ir::Instr& in, std::string* error, const std::string& why);

// Family binders. Each follows the bindIntAlu contract for the ops it is given.
ExecFn bindAddSub(const ir::Instr& in, std::string* error);     // add sub addc subc
ExecFn bindMulMad(const ir::Instr& in, std::string* error);     // mul mad madc mul24 mad24
ExecFn bindDivRem(const ir::Instr& in, std::string* error);     // div rem
ExecFn bindSimpleArith(const ir::Instr& in, std::string* error);// abs neg min max sad
ExecFn bindDot(const ir::Instr& in, std::string* error);        // dp4a dp2a
ExecFn bindBitOps(const ir::Instr& in, std::string* error);     // popc clz bfind brev bfe bfi bmsk prmt
ExecFn bindShift(const ir::Instr& in, std::string* error);      // shl shr shf
ExecFn bindLogic(const ir::Instr& in, std::string* error);      // and or xor not cnot lop3
ExecFn bindCompare(const ir::Instr& in, std::string* error);    // setp set selp slct
ExecFn bindMove(const ir::Instr& in, std::string* error);       // mov

// Checks the operand shape shared by most integer ops: exactly nDst destination registers and
// nSrc register-or-immediate sources (every one naming a register). On mismatch sets *error and
// returns false.
bool expectRegs(const ir::Instr& in, unsigned nDst, unsigned nSrc, std::string* error);
// True for a Reg operand, or an Imm operand backed by a constant register.
bool isRegLike(const ir::Operand& op);
// True for a predicate register operand.
inline bool isPredOp(const ir::Operand& op) {
  return op.kind == ir::OperandKind::Pred && op.reg != ir::kNoReg;
}

// An executor that does nothing (a result written only to the sink `_`).
void execNothing(const ir::Instr&, ExecCtx&);

// Integer width/signedness of a type, for dispatch. Bits == 0 when t is not an integer/bit type
// of width 16, 32 or 64 (the widths integer arithmetic exists in).
struct IntKind {
  unsigned bits = 0;
  bool isSigned = false;
};
constexpr IntKind intKind(ir::Type t) {
  switch (t) {
    case ir::Type::U16: case ir::Type::B16: return {16, false};
    case ir::Type::U32: case ir::Type::B32: return {32, false};
    case ir::Type::U64: case ir::Type::B64: return {64, false};
    case ir::Type::S16: return {16, true};
    case ir::Type::S32: return {32, true};
    case ir::Type::S64: return {64, true};
    default: return {};
  }
}

// Picks Exec<T>::run for the C++ integer T matching `t` (16/32/64-bit, signed or unsigned);
// nullptr for any other type.
template <template <class> class Exec>
ExecFn byIntType(ir::Type t) {
  IntKind k = intKind(t);
  switch (k.bits) {
    case 16: return k.isSigned ? &Exec<int16_t>::run : &Exec<uint16_t>::run;
    case 32: return k.isSigned ? &Exec<int32_t>::run : &Exec<uint32_t>::run;
    case 64: return k.isSigned ? &Exec<int64_t>::run : &Exec<uint64_t>::run;
    default: return nullptr;
  }
}
// The same, restricted to 32- and 64-bit types.
template <template <class> class Exec>
ExecFn byInt32Or64(ir::Type t) {
  IntKind k = intKind(t);
  switch (k.bits) {
    case 32: return k.isSigned ? &Exec<int32_t>::run : &Exec<uint32_t>::run;
    case 64: return k.isSigned ? &Exec<int64_t>::run : &Exec<uint64_t>::run;
    default: return nullptr;
  }
}

// Exec<U> for the unsigned U of the type's width (16/32/64), for ops where signedness does not
// matter; and the same restricted to 32/64 bits.
template <template <class> class Exec>
ExecFn byUnsignedWidth(ir::Type t) {
  switch (intKind(t).bits) {
    case 16: return &Exec<uint16_t>::run;
    case 32: return &Exec<uint32_t>::run;
    case 64: return &Exec<uint64_t>::run;
    default: return nullptr;
  }
}

template <template <class> class Exec>
ExecFn byWidth32Or64(ir::Type t) {
  switch (intKind(t).bits) {
    case 32: return &Exec<uint32_t>::run;
    case 64: return &Exec<uint64_t>::run;
    default: return nullptr;
  }
}

template <class T>
using UnsignedOf = std::make_unsigned_t<T>;
template <class T>
inline constexpr unsigned kBits = sizeof(T) * 8;

}  // namespace warpsim::func::intalu
