// allocatedText(): the allocated function as PTX-like text with physical register names.
#include <string>

#include "compiler/register_allocation.h"

namespace warpsim::compiler {
namespace {

const char* spaceName(ir::Space s) {
  switch (s) {
    case ir::Space::Generic: return "";
    case ir::Space::Global: return "global";
    case ir::Space::Shared: return "shared";
    case ir::Space::Local: return "local";
    case ir::Space::Const: return "const";
    case ir::Space::KernelParam: case ir::Space::FrameParam: return "param";
    case ir::Space::None: return "";
  }
  return "";
}

const char* cmpName(ir::CmpOp c) {
  static const char* names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  const auto i = static_cast<size_t>(c);
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : "";
}

const char* specialName(ir::SpecialReg s) {
  using S = ir::SpecialReg;
  switch (s) {
    case S::Tid: return "%tid"; case S::Ntid: return "%ntid"; case S::Ctaid: return "%ctaid";
    case S::Nctaid: return "%nctaid"; case S::LaneId: return "%laneid"; case S::WarpId: return "%warpid";
    case S::NWarpId: return "%nwarpid"; case S::SmId: return "%smid"; case S::NSmId: return "%nsmid";
    case S::GridId: return "%gridid"; case S::Clock: return "%clock"; case S::Clock64: return "%clock64";
    default: return "%special";
  }
}

std::string regName(const ir::Function& f, uint32_t r, unsigned bits) {
  if (r == ir::kNoReg) return "_";
  if (r < f.regs.size() && f.regs[r].name.empty()) {  // a hidden constant
    for (const ir::ConstReg& c : f.constRegs)
      if (c.reg == r) return std::to_string(c.value);
  }
  return bits > 64 ? "%RQ" + std::to_string(r) : bits > 32 ? "%RD" + std::to_string(r) : "%R" + std::to_string(r);
}

std::string operandText(const ir::Module& m, const ir::Function& f, const ir::Operand& o) {
  switch (o.kind) {
    case ir::OperandKind::Reg: return regName(f, o.reg, o.regBits);
    case ir::OperandKind::Pred: return std::string(o.negate ? "!" : "") + "%P" + std::to_string(o.reg);
    case ir::OperandKind::Imm: return std::to_string(o.imm);
    case ir::OperandKind::Special: {
      std::string s = specialName(o.sreg);
      if (o.sreg == ir::SpecialReg::Tid || o.sreg == ir::SpecialReg::Ntid || o.sreg == ir::SpecialReg::Ctaid ||
          o.sreg == ir::SpecialReg::Nctaid)
        s += o.comp == 0 ? ".x" : o.comp == 1 ? ".y" : ".z";
      return s;
    }
    case ir::OperandKind::Sink: return "_";
    case ir::OperandKind::Vector: {
      std::string s = "{";
      for (unsigned k = 0; k < o.count && k < 4; ++k) s += (k ? ", " : "") + regName(f, o.vec[k], o.regBits);
      return s + "}";
    }
    case ir::OperandKind::Address:
    case ir::OperandKind::Symbol: {
      std::string base;
      switch (o.base) {
        case ir::AddrBase::ModuleSymbol: base = o.symbol < m.symbols.size() ? m.symbols[o.symbol].name : "sym"; break;
        case ir::AddrBase::KernelParam: case ir::AddrBase::FrameParam: base = "param"; break;
        case ir::AddrBase::FrameLocal: base = "local"; break;
        case ir::AddrBase::None: break;
      }
      if (o.kind == ir::OperandKind::Address && o.reg != ir::kNoReg)
        base = base.empty() ? regName(f, o.reg, o.regBits) : base + "+" + regName(f, o.reg, o.regBits);
      std::string s = base.empty() ? std::to_string(o.imm)
                                   : o.imm != 0 ? base + (o.imm > 0 ? "+" : "") + std::to_string(o.imm) : base;
      return o.kind == ir::OperandKind::Address ? "[" + s + "]" : s;
    }
    case ir::OperandKind::None: break;
  }
  return "";
}

std::string opcodeText(const ir::Instr& in) {
  std::string s = ir::opName(in.op);
  if (in.op == ir::Op::Cvta && in.has(ir::kToSpace)) s += ".to";
  if (in.op == ir::Op::Setp || in.op == ir::Op::Set) s += std::string(".") + cmpName(in.cmp);
  if (in.mulMode == ir::MulMode::Hi) s += ".hi";
  if (in.mulMode == ir::MulMode::Lo) s += ".lo";
  if (in.mulMode == ir::MulMode::Wide) s += ".wide";
  if (const char* sp = spaceName(in.space); *sp) s += std::string(".") + sp;
  if (in.vec > 1) s += ".v" + std::to_string(in.vec);
  if (in.type != ir::Type::None) s += std::string(".") + ir::typeName(in.type);
  if (in.type2 != ir::Type::None) s += std::string(".") + ir::typeName(in.type2);
  return s;
}

}  // namespace

std::string allocatedText(const ir::Module& m, uint32_t function, const FunctionAllocation& a) {
  const ir::Function& f = m.functions.at(function);
  std::string out = "// " + std::string(f.isEntry ? ".entry " : ".func ") + f.name + ": " +
                    std::to_string(a.registers) + " registers, " + std::to_string(a.predicates) + " predicates, " +
                    std::to_string(a.spillSlots) + " spill slots (" + std::to_string(a.spillBytes) + " bytes), " +
                    std::to_string(a.spillLoads) + " spill loads, " + std::to_string(a.spillStores) +
                    " spill stores, " + std::to_string(a.rematerialised) + " rematerialised, " +
                    std::to_string(a.coalescedMoves) + " coalesced moves\n";
  std::vector<bool> isTarget(f.code.size() + 1, false);
  for (const ir::Instr& in : f.code)
    if (in.op == ir::Op::Bra && in.target < isTarget.size()) isTarget[in.target] = true;
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    const ir::Instr& in = f.code[i];
    if (isTarget[i]) out += "L" + std::to_string(i) + ":\n";
    std::string line = "  ";
    if (in.guard != ir::kNoReg) line += std::string("@") + (in.guardNegate ? "!" : "") + "%P" + std::to_string(in.guard) + " ";
    line += opcodeText(in);
    std::string ops;
    if (in.op == ir::Op::Bra) {
      ops = "L" + std::to_string(in.target);
    } else if (in.op == ir::Op::Call && in.target < f.calls.size() && f.calls[in.target].callee < m.functions.size()) {
      ops = m.functions[f.calls[in.target].callee].name;
    } else {
      for (unsigned k = 0; k < in.numDst + in.numSrc && k < ir::kMaxOperands; ++k)
        ops += (k ? ", " : "") + operandText(m, f, in.ops[k]);
    }
    if (!ops.empty()) line += " " + ops;
    line += ";";
    line += "  // line " + std::to_string(in.line);
    if (in.has(ir::kSpill)) line += " spill";
    if (in.has(ir::kRemat)) line += " remat";
    out += line + "\n";
  }
  if (isTarget[f.code.size()]) out += "L" + std::to_string(f.code.size()) + ":\n";
  return out;
}

}  // namespace warpsim::compiler
