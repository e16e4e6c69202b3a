// One instruction statement: guard, opcode, operand syntax; then lowering by opcode family.
#include <algorithm>

#include "ptx/lowering.h"

namespace warpsim::ptx::detail {
namespace {

// Valid PTX opcodes this simulator does not model: named as unsupported rather than unknown.
bool isKnownUnsupported(std::string_view base) {
  static constexpr std::string_view kNames[] = {
      "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "istypep", "wmma", "mma", "wgmma",
      "ldmatrix", "stmatrix", "movmatrix", "cp", "multimem", "mbarrier", "alloca", "stacksave",
      "stackrestore", "getctarank", "elect", "griddepcontrol", "setmaxnreg", "applypriority",
      "discard", "createpolicy", "tensormap", "redux", "prefetchu", "vabsdiff", "vabsdiff2",
      "vabsdiff4", "vadd", "vadd2", "vadd4", "vsub", "vsub2", "vsub4", "vmad", "vmax", "vmax2",
      "vmax4", "vmin", "vmin2", "vmin4", "vset", "vset2", "vset4", "vshl", "vshr", "vavrg2",
      "vavrg4", "pmevent", "brx", "mapa", "fns", "szext", "clusterlaunchcontrol",
      "tcgen05", "st.async", "red.async", "cvt.pack", "barrier.cluster", "bar.cluster", "ld.async"};
  return std::find(std::begin(kNames), std::end(kNames), base) != std::end(kNames);
}

Literal literalOf(const Token& t) {
  Literal lit;
  if (t.kind == Tok::Int) {
    lit.kind = Literal::Kind::Int;
    lit.bits = t.intValue;
  } else {
    lit.kind = t.floatKind == FloatKind::F32Bits   ? Literal::Kind::F32Bits
               : t.floatKind == FloatKind::F64Bits ? Literal::Kind::F64Bits
                                                   : Literal::Kind::Decimal;
    lit.bits = t.intValue;
    lit.value = t.floatValue;
  }
  return lit;
}

}  // namespace

RawOperand Parser::parseRawOperand(unsigned depth) {
  const Token& t = peek();
  RawOperand r;
  r.tok = &t;
  if (depth > 2) fail(t, "operand nested too deeply");
  switch (t.kind) {
    case Tok::Bang: {
      next();
      r.kind = RawOperand::Kind::Name;
      r.negate = true;
      r.name = expect(Tok::Ident, "a predicate after '!'").text;
      return r;
    }
    case Tok::Minus: {
      next();
      const Token& v = peek();
      if (v.kind != Tok::Int && v.kind != Tok::Float) fail(v, "expected a number after '-', found " + describe(v));
      next();
      r.kind = RawOperand::Kind::Literal;
      r.lit = literalOf(v).negated();
      return r;
    }
    case Tok::Int:
    case Tok::Float:
      next();
      r.kind = RawOperand::Kind::Literal;
      r.lit = literalOf(t);
      return r;
    case Tok::LBracket: {
      next();
      r.kind = RawOperand::Kind::Address;
      bool needOffset = false;
      if (peek().kind == Tok::Ident) {
        r.name = next().text;
      } else {
        needOffset = true;
      }
      // [name], [name+imm], [name+-imm], [name-imm], [imm], [-imm]
      while (peek().kind != Tok::RBracket) {
        bool minus = false;
        if (!needOffset || peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
          const Token& op = peek();
          if (op.kind != Tok::Plus && op.kind != Tok::Minus)
            fail(op, "expected '+', '-' or ']' in address, found " + describe(op));
          next();
          minus = op.kind == Tok::Minus;
          if (accept(Tok::Minus)) minus = !minus;
        }
        const Token& n = peek();
        if (n.kind != Tok::Int) fail(n, "expected an integer offset in address, found " + describe(n));
        next();
        int64_t v = static_cast<int64_t>(n.intValue);
        r.offset += minus ? -v : v;
        needOffset = false;
      }
      if (needOffset) fail(peek(), "empty address");
      next();
      return r;
    }
    case Tok::LBrace:
    case Tok::LParen: {
      bool brace = t.kind == Tok::LBrace;
      next();
      r.kind = brace ? RawOperand::Kind::Vector : RawOperand::Kind::Paren;
      Tok close = brace ? Tok::RBrace : Tok::RParen;
      if (!(peek().kind == close && !brace)) {
        do {
          r.elems.push_back(parseRawOperand(depth + 1));
          if (r.elems.size() > 64) fail(t, "too many elements in operand list");
        } while (accept(Tok::Comma));
      }
      expect(close, brace ? "'}' or ','" : "')' or ','");
      return r;
    }
    case Tok::Ident: {
      next();
      r.kind = RawOperand::Kind::Name;
      r.name = t.text;
      // symbol arithmetic: sym+8, sym-4
      if ((peek().kind == Tok::Plus || peek().kind == Tok::Minus) && peek(1).kind == Tok::Int) {
        bool minus = next().kind == Tok::Minus;
        int64_t v = static_cast<int64_t>(next().intValue);
        r.offset = minus ? -v : v;
      }
      if (peek().kind == Tok::Pipe) {
        next();
        RawOperand pair;
        pair.kind = RawOperand::Kind::Pair;
        pair.tok = &t;
        pair.elems.push_back(std::move(r));
        RawOperand second;
        second.kind = RawOperand::Kind::Name;
        second.tok = &peek();
        second.name = expect(Tok::Ident, "a register after '|'").text;
        pair.elems.push_back(std::move(second));
        return pair;
      }
      return r;
    }
    default:
      fail(t, "expected an operand, found " + describe(t));
  }
}

void Parser::parseInstruction() {
  ir::Instr in;
  if (accept(Tok::At)) {
    in.guardNegate = accept(Tok::Bang);
    const Token& g = expect(Tok::Ident, "a guard predicate after '@'");
    const NameEntry* e = lookup(g.text);
    if (!e) fail(g, "undeclared predicate '" + printable(g.text) + "'");
    if (e->kind != NameKind::Pred) fail(g, "guard '" + printable(g.text) + "' is not a predicate");
    in.guard = e->value;
  }
  const Token& opTok = peek();
  if (opTok.kind != Tok::Ident) fail(opTok, "expected an instruction, found " + describe(opTok));
  next();
  in.line = opTok.line;
  in.locFile = fs_.locFile;
  in.locLine = fs_.locLine;

  Modifiers mods(opTok.text);
  std::string_view base = mods.base();
  if (isKnownUnsupported(base)) fail(opTok, "unsupported instruction '" + printable(opTok.text) + "'");
  {
    // two-word unsupported forms (cvt.pack, st.async, ...)
    size_t second = opTok.text.find('.', base.size() + 1);
    std::string_view two = opTok.text.substr(0, second);
    if (two.size() > base.size() && isKnownUnsupported(two))
      fail(opTok, "unsupported instruction '" + printable(opTok.text) + "'");
  }
  std::vector<RawOperand> raw;
  if (peek().kind != Tok::Semi) {
    for (;;) {
      raw.push_back(parseRawOperand(0));
      if (raw.size() > 16) fail(opTok, "too many operands");
      if (accept(Tok::Comma)) continue;
      if (peek().kind == Tok::Semi) break;
      const Token& bad = peek();
      if (bad.line != toks_[pos_ - 1].line || bad.kind == Tok::End || bad.kind == Tok::RBrace)
        fail(toks_[pos_ - 1], "missing ';' after '" + printable(opTok.text) + "'");
      fail(bad, "expected ',' or ';' after operand, found " + describe(bad));
    }
  }
  next();  // ';'

  InstrBuilder b(*this, in, mods, raw, opTok);
  if (!(lowerArith(b) || lowerCompareMove(b) || lowerMemory(b) || lowerSyncControl(b)))
    fail(opTok, "unknown instruction '" + printable(opTok.text) + "'");
  b.finishModifiers();
  if (in.numDst + in.numSrc > ir::kMaxOperands) fail(opTok, "too many operands");
  fn().code.push_back(in);
}

uint32_t Parser::constReg(uint64_t bits) {
  auto it = fs_.constByValue.find(bits);
  if (it != fs_.constByValue.end()) return it->second;
  uint32_t r = addReg("", ir::Type::B64);
  fn().constRegs.push_back({r, static_cast<int64_t>(bits), ir::kNoSymbol});
  fs_.constByValue.emplace(bits, r);
  return r;
}

uint32_t Parser::symbolConstReg(uint32_t symbol, int64_t offset) {
  auto key = std::make_pair(symbol, offset);
  auto it = fs_.constBySymbol.find(key);
  if (it != fs_.constBySymbol.end()) return it->second;
  uint32_t r = addReg("", ir::Type::B64);
  fn().constRegs.push_back({r, offset, symbol});
  fs_.constBySymbol.emplace(key, r);
  return r;
}

}  // namespace warpsim::ptx::detail
