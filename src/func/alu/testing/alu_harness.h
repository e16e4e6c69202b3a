// Test harness for register-to-register executors: a one-warp register file, an instruction
// builder and a bind-and-run helper. Test-only (included from *_test.cpp).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "func/alu/alu.h"
#include "func/exec_context.h"
#include "ir/instr.h"

namespace warpsim::func::testing {

class AluHarness {
 public:
  explicit AluHarness(unsigned numRegs = 32, unsigned numPreds = 8)
      : regs_(numRegs * kWarpSize, 0), preds_(numPreds, 0) {}

  static ir::Operand R(uint32_t r, unsigned regBits = 32) {
    ir::Operand o;
    o.kind = ir::OperandKind::Reg;
    o.reg = r;
    o.regBits = static_cast<uint8_t>(regBits);
    return o;
  }
  static ir::Operand P(uint32_t p, bool negate = false) {
    ir::Operand o;
    o.kind = ir::OperandKind::Pred;
    o.reg = p;
    o.negate = negate;
    return o;
  }
  static ir::Operand V(std::initializer_list<uint32_t> rs, unsigned regBits = 32) {
    ir::Operand o;
    o.kind = ir::OperandKind::Vector;
    o.regBits = static_cast<uint8_t>(regBits);
    unsigned i = 0;
    for (uint32_t r : rs) o.vec[i++] = r;
    o.count = static_cast<uint8_t>(i);
    return o;
  }
  // An immediate: the harness materialises it in a spare constant register (from the top of the
  // register file downwards), as the PTX lowering does.
  ir::Operand Imm(uint64_t bits) {
    ir::Operand o;
    o.kind = ir::OperandKind::Imm;
    o.imm = static_cast<int64_t>(bits);
    o.reg = nextConst_ == 0 ? ir::kNoReg : --nextConstSlot();
    setAll(o.reg, bits);
    return o;
  }

  static ir::Instr make(ir::Op op, ir::Type type, std::initializer_list<ir::Operand> dsts,
                        std::initializer_list<ir::Operand> srcs) {
    ir::Instr in;
    in.op = op;
    in.type = type;
    unsigned i = 0;
    for (const auto& d : dsts) in.ops[i++] = d;
    in.numDst = static_cast<uint8_t>(dsts.size());
    for (const auto& s : srcs) in.ops[i++] = s;
    in.numSrc = static_cast<uint8_t>(srcs.size());
    return in;
  }

  void setAll(uint32_t r, uint64_t v) {
    for (unsigned l = 0; l < kWarpSize; ++l) regs_[r * kWarpSize + l] = v;
  }
  void setLane(uint32_t r, unsigned lane, uint64_t v) { regs_[r * kWarpSize + lane] = v; }
  uint64_t get(uint32_t r, unsigned lane = 0) const { return regs_[r * kWarpSize + lane]; }
  void setPred(uint32_t p, uint32_t mask) { preds_[p] = mask; }
  uint32_t pred(uint32_t p) const { return preds_[p]; }
  uint32_t carry() const { return carry_; }
  void setCarry(uint32_t c) { carry_ = c; }

  // Bind through the integer family, then the float family; empty string on success, else the
  // bind error (or "not bound" when neither family claims the op).
  std::string tryRun(const ir::Instr& in, uint32_t mask = kFullMask) {
    std::string err;
    ExecFn fn = bindIntAlu(in, &err);
    if (!fn && err.empty()) fn = bindFloatAlu(in, &err);
    if (!fn) return err.empty() ? std::string("not bound") : err;
    ExecCtx ctx;
    ctx.regs = regs_.data();
    ctx.preds = preds_.data();
    ctx.mask = mask;
    ctx.carry = carry_;
    fn(in, ctx);
    carry_ = ctx.carry;
    return {};
  }
  void run(const ir::Instr& in, uint32_t mask = kFullMask) {
    std::string err = tryRun(in, mask);
    ASSERT_EQ(err, "") << "bind failed for " << ir::opName(in.op);
  }

 private:
  uint32_t& nextConstSlot() {
    if (nextConst_ == ~0u) nextConst_ = static_cast<uint32_t>(regs_.size() / kWarpSize);
    return nextConst_;
  }
  std::vector<uint64_t> regs_;
  std::vector<uint32_t> preds_;
  uint32_t carry_ = 0;
  uint32_t nextConst_ = ~0u;
};

}  // namespace warpsim::func::testing
