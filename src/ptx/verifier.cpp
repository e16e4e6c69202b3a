// Structural checks on the lowered module: every index an executor will follow is in range.
#include <string>

#include "ptx/parser_impl.h"

namespace warpsim::ptx::detail {
namespace {

class FunctionVerifier {
 public:
  FunctionVerifier(const ir::Module& m, const ir::Function& f, const std::string& file)
      : m_(m), f_(f), file_(file) {}

  void run() {
    for (const auto& c : f_.constRegs)
      if (c.reg >= f_.regs.size() || (c.symbol != ir::kNoSymbol && c.symbol >= m_.symbols.size()))
        fail(f_.line, "bad constant register");
    for (const auto& cs : f_.calls)
      if (cs.callee >= m_.functions.size()) fail(cs.line, "unresolved call");
    for (const ir::Instr& in : f_.code) check(in);
  }

 private:
  [[noreturn]] void fail(uint32_t line, const std::string& msg) const {
    throw ParseError(file_, line, "in '" + f_.name + "': " + msg);
  }

  void checkOperand(const ir::Instr& in, const ir::Operand& o, bool isDst) const {
    using K = ir::OperandKind;
    auto reg = [&](uint32_t r) {
      if (r != ir::kNoReg && r >= f_.regs.size()) fail(in.line, "register index out of range");
    };
    switch (o.kind) {
      case K::None: fail(in.line, "missing operand");
      case K::Reg: if (o.reg == ir::kNoReg) fail(in.line, "missing register"); reg(o.reg); break;
      case K::Imm: if (isDst) fail(in.line, "immediate destination"); reg(o.reg); break;
      case K::Pred: if (o.reg >= f_.preds.size()) fail(in.line, "predicate index out of range"); break;
      case K::Special:
        if (isDst || in.op != ir::Op::Mov) fail(in.line, "special registers can only be read by mov");
        break;
      case K::Address:
      case K::Symbol:
        reg(o.reg);
        if (o.base == ir::AddrBase::ModuleSymbol && o.symbol >= m_.symbols.size())
          fail(in.line, "symbol index out of range");
        break;
      case K::Vector:
        if (o.count != 2 && o.count != 4) fail(in.line, "bad vector size");
        for (unsigned i = 0; i < o.count; ++i) {
          if (!isDst && o.vec[i] == ir::kNoReg) fail(in.line, "sink in a source vector");
          reg(o.vec[i]);
        }
        break;
      case K::Sink: if (!isDst) fail(in.line, "sink used as a source"); break;
    }
  }

  void check(const ir::Instr& in) const {
    if (in.op == ir::Op::Invalid || in.op >= ir::Op::Count_) fail(in.line, "invalid opcode");
    if (in.numDst + in.numSrc > ir::kMaxOperands) fail(in.line, "too many operands");
    if (in.guard != ir::kNoReg && in.guard >= f_.preds.size()) fail(in.line, "guard out of range");
    for (unsigned i = 0; i < in.numDst + in.numSrc; ++i) checkOperand(in, in.ops[i], i < in.numDst);
    if (in.op == ir::Op::Bra && in.target >= f_.code.size()) fail(in.line, "branch target out of range");
    if ((in.op == ir::Op::Call || in.op == ir::Op::AtomHint) && in.target >= f_.calls.size())
      fail(in.line, "call site out of range");
  }

  const ir::Module& m_;
  const ir::Function& f_;
  const std::string& file_;
};

}  // namespace

void verifyModule(const ir::Module& m, const std::string& file) {
  for (const auto& f : m.functions) FunctionVerifier(m, f, file).run();
}

}  // namespace warpsim::ptx::detail
