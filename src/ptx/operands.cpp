// InstrBuilder: operand conversion shared by all opcode families.
#include "ptx/lowering.h"
#include "ptx/special_regs.h"

namespace warpsim::ptx::detail {

using ir::Operand;
using ir::OperandKind;

InstrBuilder::InstrBuilder(Parser& p, ir::Instr& instr, Modifiers& m, std::vector<RawOperand>& raw,
                           const Token& opTok)
    : in(instr), mods(m), p_(p), raw_(raw), opTok_(opTok), opText_(printable(opTok.text)) {}

void InstrBuilder::fail(const std::string& msg) const { p_.fail(opTok_, msg); }

bool InstrBuilder::inEntry() const { return p_.m_.functions[p_.fs_.index].isEntry; }

ir::Type InstrBuilder::oneType() { return types(1)[0]; }

std::vector<ir::Type> InstrBuilder::types(size_t n) {
  std::vector<ir::Type> t = mods.takeTypes();
  // Every other modifier has been consumed by now: a leftover word (.tf32, .s16x2, ...) is the
  // better explanation of a missing type.
  if (t.size() != n) finishModifiers();
  if (t.size() != n)
    fail("'" + opText_ + "' needs " + std::to_string(n) + (n == 1 ? " type" : " types") +
         ", found " + std::to_string(t.size()));
  return t;
}

void InstrBuilder::finishModifiers() {
  if (auto w = mods.leftover())
    fail("unsupported instruction '" + opText_ + "' (modifier '." + printable(*w) + "')");
}

void InstrBuilder::takeFlags(uint32_t allowed) {
  static constexpr struct { std::string_view word; ir::Flag flag; } kFlags[] = {
      {"ftz", ir::kFtz}, {"sat", ir::kSat}, {"approx", ir::kApprox}, {"full", ir::kFull},
      {"cc", ir::kSetsCC}, {"relu", ir::kRelu}, {"uni", ir::kUni},
  };
  for (const auto& f : kFlags)
    if ((allowed & f.flag) && mods.take(f.word)) in.flags |= f.flag;
}

void InstrBuilder::expectCount(size_t n) const {
  if (raw_.size() != n)
    fail("'" + opText_ + "' expects " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") +
         ", found " + std::to_string(raw_.size()));
}

void InstrBuilder::expectCount(size_t lo, size_t hi) const {
  if (raw_.size() < lo || raw_.size() > hi)
    fail("'" + opText_ + "' expects " + std::to_string(lo) + " to " + std::to_string(hi) +
         " operands, found " + std::to_string(raw_.size()));
}

std::string InstrBuilder::where(const RawOperand& r) const {
  std::string s = quoted(r.name);
  s += " in '";
  s += opText_;
  s += '\'';
  return s;
}

void InstrBuilder::checkWidth(const RawOperand& r, unsigned have, unsigned want, Width w) const {
  bool ok = w == Width::Any || (w == Width::Exact ? have == want : have >= want);
  if (!ok)
    p_.fail(*r.tok, "register " + where(r) + " is " + std::to_string(have) + " bits wide, expected " +
                        (w == Width::AtLeast ? "at least " : "") + std::to_string(want));
}

namespace {
[[noreturn]] void failName(Parser& p, const RawOperand& r, const std::string& ctx, const char* expected) {
  std::string name = printable(r.name);
  if (r.kind == RawOperand::Kind::Name && p.lookup(r.name))
    p.fail(*r.tok, std::string("expected ") + expected + ", found '" + name + "' in " + ctx);
  if (r.kind != RawOperand::Kind::Name)
    p.fail(*r.tok, std::string("expected ") + expected + " in " + ctx + ", found " + p.describe(*r.tok));
  if (findSpecialReg(r.name))
    p.fail(*r.tok, "special register '" + name + "' can only be read by mov (in " + ctx + ")");
  if (!r.name.empty() && r.name[0] == '%')
    p.fail(*r.tok, "undeclared register '" + name + "' in " + ctx);
  p.fail(*r.tok, std::string("expected ") + expected + ", found '" + name + "' in " + ctx);
}
}  // namespace

Operand InstrBuilder::dstReg(const RawOperand& r, unsigned bits, Width w, bool allowSink) {
  Operand o;
  if (r.kind == RawOperand::Kind::Name && !r.negate && r.offset == 0) {
    if (r.name == "_" && allowSink) {
      o.kind = OperandKind::Sink;
      return o;
    }
    const NameEntry* e = p_.lookup(r.name);
    if (e && e->kind == NameKind::Reg) {
      o.kind = OperandKind::Reg;
      o.reg = e->value;
      o.regBits = p_.fn().regs[e->value].bits;
      checkWidth(r, o.regBits, bits, w);
      return o;
    }
  }
  failName(p_, r, "'" + opText_ + "'", "a register");
}

Operand InstrBuilder::dstPred(const RawOperand& r, bool allowSink) {
  Operand o;
  if (r.kind == RawOperand::Kind::Name && !r.negate && r.offset == 0) {
    if (r.name == "_" && allowSink) {
      o.kind = OperandKind::Sink;
      return o;
    }
    const NameEntry* e = p_.lookup(r.name);
    if (e && e->kind == NameKind::Pred) {
      o.kind = OperandKind::Pred;
      o.reg = e->value;
      return o;
    }
  }
  failName(p_, r, "'" + opText_ + "'", "a predicate register");
}

Operand InstrBuilder::predSrc(const RawOperand& r) {
  if (r.kind == RawOperand::Kind::Name && r.offset == 0) {
    const NameEntry* e = p_.lookup(r.name);
    if (e && e->kind == NameKind::Pred) {
      Operand o;
      o.kind = OperandKind::Pred;
      o.reg = e->value;
      o.negate = r.negate;
      return o;
    }
  }
  failName(p_, r, "'" + opText_ + "'", "a predicate register");
}

Operand InstrBuilder::immSrc(const RawOperand& r, ir::Type t) {
  if (r.kind != RawOperand::Kind::Literal)
    p_.fail(*r.tok, "expected an immediate in '" + opText_ + "', found " + p_.describe(*r.tok));
  std::string why;
  auto bits = literalBits(r.lit, t, &why);
  if (!bits) p_.fail(*r.tok, "bad immediate in '" + opText_ + "': " + why);
  Operand o;
  o.kind = OperandKind::Imm;
  o.imm = static_cast<int64_t>(*bits);
  o.reg = p_.constReg(*bits);
  o.regBits = static_cast<uint8_t>(ir::bits(t));
  return o;
}

Operand InstrBuilder::src(const RawOperand& r, ir::Type t, Width w) {
  if (t == ir::Type::Pred) return predSrc(r);
  if (r.kind == RawOperand::Kind::Literal) return immSrc(r, t);
  if (r.kind == RawOperand::Kind::Name && !r.negate && r.offset == 0 && r.name != "_") {
    const NameEntry* e = p_.lookup(r.name);
    if (e && e->kind == NameKind::Reg) {
      Operand o;
      o.kind = OperandKind::Reg;
      o.reg = e->value;
      o.regBits = p_.fn().regs[e->value].bits;
      checkWidth(r, o.regBits, ir::bits(t), w);
      return o;
    }
    if (e || p_.symbolIndex_.count(std::string(r.name)))
      p_.fail(*r.tok, quoted(r.name) + " is not a register in '" + opText_ +
                          "' (take a symbol's address with mov)");
  }
  failName(p_, r, "'" + opText_ + "'", "a register or immediate");
}

Operand InstrBuilder::address(const RawOperand& r) {
  if (r.kind != RawOperand::Kind::Address)
    p_.fail(*r.tok, "expected an address [..] in '" + opText_ + "', found " + p_.describe(*r.tok));
  Operand o;
  o.kind = OperandKind::Address;
  o.imm = r.offset;
  if (!r.name.empty()) {
    const NameEntry* e = p_.lookup(r.name);
    if (e) {
      switch (e->kind) {
        case NameKind::Reg: {
          o.reg = e->value;
          o.regBits = p_.fn().regs[e->value].bits;
          if (o.regBits != 32 && o.regBits != 64)
            p_.fail(*r.tok, "address register " + where(r) + " must be 32 or 64 bits wide");
          break;
        }
        case NameKind::Pred: p_.fail(*r.tok, "predicate " + where(r) + " used as an address");
        case NameKind::KernelParam: o.base = ir::AddrBase::KernelParam; o.imm += e->value; break;
        case NameKind::FrameParam: o.base = ir::AddrBase::FrameParam; o.imm += e->value; break;
        case NameKind::Local: o.base = ir::AddrBase::FrameLocal; o.imm += e->value; break;
        case NameKind::Symbol: o.base = ir::AddrBase::ModuleSymbol; o.symbol = e->value; break;
      }
    } else if (auto it = p_.symbolIndex_.find(std::string(r.name)); it != p_.symbolIndex_.end()) {
      o.base = ir::AddrBase::ModuleSymbol;
      o.symbol = it->second;
    } else if (p_.functionIndex_.count(std::string(r.name))) {
      p_.fail(*r.tok, "unsupported use of function " + where(r) + " as an address");
    } else {
      p_.fail(*r.tok, std::string(r.name[0] == '%' ? "undeclared register " : "undeclared symbol ") + where(r));
    }
  }
  // .param splits into the kernel argument buffer and the per-thread call frame.
  using ir::AddrBase;
  if (in.space == ir::Space::KernelParam) {
    if (o.base == AddrBase::FrameParam) in.space = ir::Space::FrameParam;
    else if (o.base == AddrBase::None && o.reg != ir::kNoReg)
      in.space = inEntry() ? ir::Space::KernelParam : ir::Space::FrameParam;
    else if (o.base != AddrBase::KernelParam)
      p_.fail(*r.tok, "'" + opText_ + "' needs a parameter address, found " + where(r));
  } else if (o.base == AddrBase::KernelParam || o.base == AddrBase::FrameParam) {
    p_.fail(*r.tok, "parameter " + where(r) + " accessed outside the .param space");
  } else if (o.base == AddrBase::FrameLocal && in.space != ir::Space::Local) {
    p_.fail(*r.tok, "local variable " + where(r) + " accessed outside the .local space");
  }
  return o;
}

Operand InstrBuilder::vector(const RawOperand& r, ir::Type elem, unsigned n, bool isDst, Width w) {
  if (r.kind != RawOperand::Kind::Vector)
    p_.fail(*r.tok, "expected a vector {..} in '" + opText_ + "', found " + p_.describe(*r.tok));
  if (r.elems.size() != n)
    p_.fail(*r.tok, "vector in '" + opText_ + "' has " + std::to_string(r.elems.size()) +
                        " elements, expected " + std::to_string(n));
  Operand o;
  o.kind = OperandKind::Vector;
  o.count = static_cast<uint8_t>(n);
  for (unsigned i = 0; i < n; ++i) {
    const RawOperand& e = r.elems[i];
    if (isDst && e.kind == RawOperand::Kind::Name && e.name == "_") continue;  // sink: kNoReg
    Operand x = isDst ? dstReg(e, ir::bits(elem), w, false) : src(e, elem, w);
    if (x.kind == OperandKind::Reg) {
      if (o.regBits != 0 && o.regBits != x.regBits)
        p_.fail(*e.tok, "vector elements in '" + opText_ + "' have different widths");
      o.regBits = x.regBits;
    }
    o.vec[i] = x.reg;
  }
  if (o.regBits == 0) o.regBits = static_cast<uint8_t>(ir::bits(elem));
  return o;
}

std::optional<Operand> InstrBuilder::symbolValue(const RawOperand& r) {
  if (r.kind != RawOperand::Kind::Name || r.negate) return std::nullopt;
  Operand o;
  o.kind = OperandKind::Symbol;
  o.imm = r.offset;
  const NameEntry* e = p_.lookup(r.name);
  if (e) {
    switch (e->kind) {
      case NameKind::Reg: case NameKind::Pred: return std::nullopt;
      case NameKind::KernelParam: o.base = ir::AddrBase::KernelParam; o.imm += e->value; return o;
      case NameKind::FrameParam: o.base = ir::AddrBase::FrameParam; o.imm += e->value; return o;
      case NameKind::Local: o.base = ir::AddrBase::FrameLocal; o.imm += e->value; return o;
      case NameKind::Symbol: o.base = ir::AddrBase::ModuleSymbol; o.symbol = e->value; break;
    }
  } else if (auto it = p_.symbolIndex_.find(std::string(r.name)); it != p_.symbolIndex_.end()) {
    o.base = ir::AddrBase::ModuleSymbol;
    o.symbol = it->second;
  } else {
    if (p_.functionIndex_.count(std::string(r.name)))
      p_.fail(*r.tok, "unsupported use of function address " + where(r));
    return std::nullopt;
  }
  o.reg = p_.symbolConstReg(o.symbol, o.imm);
  return o;
}

Operand InstrBuilder::movSrc(const RawOperand& r, ir::Type t) {
  if (t == ir::Type::Pred) return predSrc(r);
  if (r.kind == RawOperand::Kind::Vector) {
    unsigned n = static_cast<unsigned>(r.elems.size());
    if (n != 2 && n != 4) p_.fail(*r.tok, "vector in '" + opText_ + "' must have 2 or 4 elements");
    unsigned eb = ir::bits(t) / n;
    ir::Type et = eb == 8 ? ir::Type::B8 : eb == 16 ? ir::Type::B16 : eb == 32 ? ir::Type::B32 : ir::Type::None;
    if (et == ir::Type::None) fail("'" + opText_ + "' cannot pack " + std::to_string(n) + " elements");
    return vector(r, et, n, false, Width::Exact);
  }
  if (r.kind == RawOperand::Kind::Name && !r.negate) {
    if (auto s = findSpecialReg(r.name); s && !p_.lookup(r.name)) {
      if (r.offset != 0) p_.fail(*r.tok, "offset on special register " + where(r));
      if (s->bits != ir::bits(t))
        p_.fail(*r.tok, "special register " + where(r) + " is " + std::to_string(s->bits) +
                            " bits wide, expected " + std::to_string(ir::bits(t)));
      Operand o;
      o.kind = OperandKind::Special;
      o.sreg = s->reg;
      o.comp = s->comp;
      o.regBits = s->bits;
      return o;
    }
    if (auto sym = symbolValue(r)) {
      // Shared and local addresses may be taken as 32-bit offsets into their window.
      bool narrowOk = sym->base == ir::AddrBase::FrameLocal ||
                      (sym->base == ir::AddrBase::ModuleSymbol &&
                       p_.m_.symbols[sym->symbol].space == ir::Space::Shared);
      if (ir::bits(t) != 64 && !(narrowOk && ir::bits(t) == 32))
        p_.fail(*r.tok, "address of " + where(r) + " needs a 64-bit mov");
      return *sym;
    }
  }
  return src(r, t);
}

void InstrBuilder::addDst(const Operand& o) {
  if (in.numSrc != 0 || in.numDst >= ir::kMaxOperands) fail("internal: operand order in '" + opText_ + "'");
  in.ops[in.numDst++] = o;
}

void InstrBuilder::addSrc(const Operand& o) {
  if (in.numDst + in.numSrc >= ir::kMaxOperands) fail("too many operands in '" + opText_ + "'");
  in.ops[in.numDst + in.numSrc++] = o;
}

void InstrBuilder::setLabelTarget(const RawOperand& r) {
  if (r.kind != RawOperand::Kind::Name || r.negate || r.offset != 0)
    p_.fail(*r.tok, "expected a label in '" + opText_ + "', found " + p_.describe(*r.tok));
  p_.fs_.labelRefs.push_back({static_cast<uint32_t>(p_.fn().code.size()), std::string(r.name), r.tok->line});
}

}  // namespace warpsim::ptx::detail
