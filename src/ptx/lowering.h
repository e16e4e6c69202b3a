// Lowering of one parsed instruction (opcode words + raw operands) into an ir::Instr.
// InstrBuilder offers the operand conversions every opcode family needs; the families live in
// lower_*.cpp and are selected by opcode name in instruction.cpp.
#pragma once
#include <string>
#include <vector>

#include "ptx/parser_impl.h"

namespace warpsim::ptx::detail {

// How a register's declared width must relate to the width the instruction expects.
enum class Width : uint8_t {
  Exact,    // same width
  AtLeast,  // ld/st/cvt data operands may be wider than the instruction type
  Any,      // not checked
};

class InstrBuilder {
 public:
  InstrBuilder(Parser& p, ir::Instr& in, Modifiers& mods, std::vector<RawOperand>& raw,
               const Token& opTok);

  ir::Instr& in;
  Modifiers& mods;

  [[noreturn]] void fail(const std::string& msg) const;
  const std::string& opcodeText() const { return opText_; }
  bool inEntry() const;

  // ---- modifiers
  // Exactly one type word (else error), or `count` type words. Call after taking every other
  // modifier the opcode accepts.
  ir::Type oneType();
  std::vector<ir::Type> types(size_t count);
  // Errors on the first unconsumed modifier word.
  void finishModifiers();
  // Takes .ftz .sat .approx .full .cc .relu when allowed (a mask of Flag bits).
  void takeFlags(uint32_t allowed);

  // ---- operands
  size_t count() const { return raw_.size(); }
  const RawOperand& raw(size_t i) const { return raw_[i]; }
  void expectCount(size_t n) const;
  void expectCount(size_t lo, size_t hi) const;
  bool isPair(size_t i) const { return raw_[i].kind == RawOperand::Kind::Pair; }
  bool isLiteral(size_t i) const { return raw_[i].kind == RawOperand::Kind::Literal; }

  // Value register destination (or `_` when allowSink), `bits` wide per `w`.
  ir::Operand dstReg(const RawOperand& r, unsigned bits, Width w = Width::Exact, bool allowSink = true);
  ir::Operand dstPred(const RawOperand& r, bool allowSink = true);
  // Source of type t: register or immediate (converted to t); for t == Pred a predicate (with !).
  ir::Operand src(const RawOperand& r, ir::Type t, Width w = Width::Exact);
  // Predicate source (optionally negated with !).
  ir::Operand predSrc(const RawOperand& r);
  // Immediate only.
  ir::Operand immSrc(const RawOperand& r, ir::Type t);
  // [addr]; for .param accesses the instruction's space is refined to KernelParam/FrameParam.
  ir::Operand address(const RawOperand& r);
  // {a, b, ...} of `count` elements, each `elemBits` wide (per w); `_` allowed in destinations.
  ir::Operand vector(const RawOperand& r, ir::Type elem, unsigned count, bool isDst, Width w);
  // mov sources: register, immediate, special register, symbol address, vector.
  ir::Operand movSrc(const RawOperand& r, ir::Type t);
  // Symbol address as a value (mov/cvta): OperandKind::Symbol, or nullopt if r is not a symbol.
  std::optional<ir::Operand> symbolValue(const RawOperand& r);

  void addDst(const ir::Operand& o);
  void addSrc(const ir::Operand& o);

  // Branch target label and call fixups.
  void setLabelTarget(const RawOperand& r);
  Parser& parser() { return p_; }

 private:
  std::string where(const RawOperand& r) const;
  void checkWidth(const RawOperand& r, unsigned have, unsigned want, Width w) const;

  Parser& p_;
  std::vector<RawOperand>& raw_;
  const Token& opTok_;
  std::string opText_;
};

// Families: each returns false when the base opcode is not theirs.
bool lowerArith(InstrBuilder& b);        // integer, bit, float arithmetic (lower_arith.cpp)
bool lowerCompareMove(InstrBuilder& b);  // setp set selp slct mov cvt cvta isspacep
bool lowerMemory(InstrBuilder& b);       // ld ldu st atom red prefetch
bool lowerSyncControl(InstrBuilder& b);  // bar barrier membar fence shfl vote match activemask
                                         // bra call ret exit trap brkpt nanosleep

}  // namespace warpsim::ptx::detail
