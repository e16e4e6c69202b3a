// .entry / .func headers, parameter lists, and the statements of a body: declarations, scopes,
// labels, .loc, and instructions (lowered in instruction.cpp).
#include <algorithm>
#include <bit>

#include "ptx/parser_impl.h"

namespace warpsim::ptx::detail {
namespace {

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

}  // namespace

// ( .param [.align N] .type [.ptr [.space] [.align N]] name [ [N] ] , ... )
std::vector<ir::Param> Parser::parseParamList() {
  std::vector<ir::Param> out;
  expect(Tok::LParen, "'('");
  if (accept(Tok::RParen)) return out;
  do {
    const Token& kw = peek();
    if (kw.kind == Tok::Directive && kw.text == ".reg") fail(kw, "unsupported .reg parameter");
    if (!acceptDirective(".param")) fail(kw, "expected .param, found " + describe(kw));
    ir::Param p;
    uint32_t align = 0;
    for (;;) {
      const Token& t = peek();
      if (t.kind != Tok::Directive) break;
      next();
      if (t.text == ".align") {
        align = expectUint("an alignment", 1u << 16);
        if (!std::has_single_bit(align)) fail(t, "alignment " + std::to_string(align) + " is not a power of two");
      } else if (t.text == ".ptr") {
        p.isPointer = true;
        // The pointee's state space and alignment follow .ptr; they do not affect the layout.
        while (peek().kind == Tok::Directive) {
          std::string_view w = peek().text;
          if (w == ".global" || w == ".shared" || w == ".local" || w == ".const") {
            next();
          } else if (w == ".align") {
            next();
            expectUint("an alignment", 1u << 16);
          } else {
            break;
          }
        }
      } else if (auto ty = typeFromWord(t.text.substr(1))) {
        if (p.type != ir::Type::None) fail(t, "more than one type in parameter");
        if (*ty == ir::Type::Pred || *ty == ir::Type::B128) fail(t, "unsupported parameter type " + describe(t));
        p.type = *ty;
      } else {
        fail(t, "unexpected " + describe(t) + " in parameter");
      }
    }
    if (p.type == ir::Type::None) fail(peek(), "missing type in parameter");
    const Token& name = expect(Tok::Ident, "a parameter name");
    p.name = std::string(name.text);
    uint64_t count = 1;
    if (accept(Tok::LBracket)) {
      count = expectUint("an array size", kMaxFrameBytes);
      if (count == 0) fail(name, "zero-sized parameter '" + p.name + "'");
      expect(Tok::RBracket, "']'");
    }
    uint64_t size = count * ir::bytes(p.type);
    if (size > kMaxFrameBytes) fail(name, "parameter '" + p.name + "' is too large");
    p.size = static_cast<uint32_t>(size);
    p.align = align ? align : ir::bytes(p.type);
    out.push_back(std::move(p));
    if (out.size() > 4096) fail(name, "too many parameters");
  } while (accept(Tok::Comma));
  expect(Tok::RParen, "')' or ',' after parameter");
  return out;
}

void Parser::parsePerfDirectives(ir::Function& f) {
  for (;;) {
    const Token& t = peek();
    if (t.kind != Tok::Directive) return;
    auto readDims = [&](uint32_t* dims) {
      next();
      for (int i = 0; i < 3; ++i) {
        dims[i] = expectUint("a thread count", 1u << 20);
        if (!accept(Tok::Comma)) break;
      }
    };
    if (t.text == ".maxntid") {
      readDims(f.maxntid);
    } else if (t.text == ".reqntid") {
      readDims(f.reqntid);
    } else if (t.text == ".minnctapersm") {
      next();
      f.minnctapersm = expectUint("a CTA count", 1u << 16);
    } else if (t.text == ".maxnreg") {
      next();
      f.maxnreg = expectUint("a register count", 1u << 16);
    } else if (t.text == ".noreturn") {
      next();
    } else if (t.text == ".pragma") {
      next();
      f.pragmas.emplace_back(expect(Tok::String, "a pragma string").text);
      expect(Tok::Semi, "';'");
    } else {
      return;
    }
  }
}

void Parser::parseFunction(bool isEntry, Linkage linkage) {
  const Token& kw = toks_[pos_ - 1];
  ir::Function f;
  f.isEntry = isEntry;
  f.line = kw.line;
  if (!isEntry && peek().kind == Tok::LParen) f.rets = parseParamList();
  const Token& name = expect(Tok::Ident, "a function name");
  f.name = std::string(name.text);
  if (peek().kind == Tok::LParen) f.params = parseParamList();
  parsePerfDirectives(f);

  // Parameter layout: kernel arguments in the argument buffer; .func formals and returns at the
  // start of the per-thread frame param area.
  uint32_t offset = 0;
  auto layout = [&](std::vector<ir::Param>& ps) {
    for (auto& p : ps) {
      offset = alignUp(offset, p.align);
      p.offset = offset;
      offset += p.size;
      if (offset > kMaxFrameBytes) fail(name, "parameters of '" + f.name + "' are too large");
    }
  };
  layout(f.params);
  layout(f.rets);
  if (isEntry) f.kernelParamBytes = offset;
  else f.frameParamBytes = offset;

  if (symbolIndex_.count(f.name)) fail(name, "'" + f.name + "' is already a variable");
  bool isDefinition = peek().kind == Tok::LBrace;
  if (!isDefinition) expect(Tok::Semi, "'{' or ';' after the function header");
  if (isDefinition && linkage == Linkage::Extern)
    fail(name, "extern function '" + f.name + "' cannot have a body");
  f.isExtern = !isDefinition;
  f.linkage = linkage;

  uint32_t index;
  auto it = functionIndex_.find(f.name);
  if (it != functionIndex_.end()) {
    index = it->second;
    ir::Function& prev = m_.functions[index];
    if (prev.isEntry != f.isEntry || prev.params.size() != f.params.size() ||
        prev.rets.size() != f.rets.size())
      fail(name, "declaration of '" + f.name + "' does not match its earlier declaration");
    if (isDefinition && functionDefined_[index]) fail(name, "redefinition of '" + f.name + "'");
    if (!isDefinition) return;
    prev = std::move(f);
  } else {
    index = static_cast<uint32_t>(m_.functions.size());
    functionIndex_.emplace(f.name, index);
    m_.functions.push_back(std::move(f));
    functionDefined_.push_back(false);
    if (!isDefinition) return;
  }
  functionDefined_[index] = true;

  fs_ = FunctionState{};
  fs_.index = index;
  inFunction_ = true;
  ir::Function& fnRef = fn();
  fs_.frameTop = fnRef.frameParamBytes;
  pushScope();
  for (const auto& p : fnRef.params)
    declare(name, p.name, {isEntry ? NameKind::KernelParam : NameKind::FrameParam, p.offset});
  for (const auto& p : fnRef.rets) declare(name, p.name, {NameKind::FrameParam, p.offset});
  parseBody();
  popScope();
  inFunction_ = false;

  for (const auto& ref : fs_.labelRefs) {
    auto l = fs_.labels.find(ref.name);
    if (l == fs_.labels.end()) failLine(ref.line, "undefined label '" + printable(ref.name) + "'");
    if (l->second >= fn().code.size())
      failLine(ref.line, "label '" + printable(ref.name) + "' is not followed by an instruction");
    fn().code[ref.instr].target = l->second;
  }
}

void Parser::parseBody() {
  const Token& open = expect(Tok::LBrace, "'{'");
  pushScope();
  unsigned depth = 1;
  while (depth > 0) {
    const Token& t = peek();
    if (t.kind == Tok::End) fail(open, "unterminated function body of '" + fn().name + "'");
    if (t.kind == Tok::LBrace) {
      next();
      if (++depth > kMaxNesting) fail(t, "scopes nested too deeply");
      pushScope();
    } else if (t.kind == Tok::RBrace) {
      next();
      popScope();
      --depth;
    } else {
      parseStatement();
    }
  }
}

void Parser::parseStatement() {
  const Token& t = peek();
  if (t.kind == Tok::Directive) {
    std::string_view d = t.text;
    if (d == ".reg") return parseRegDecl();
    if (d == ".local") { next(); return parseFrameDecl(ir::Space::Local); }
    if (d == ".param") { next(); return parseFrameDecl(ir::Space::FrameParam); }
    if (d == ".shared") { next(); return parseVariable(ir::Space::Shared, Linkage::None, true); }
    if (d == ".global") { next(); return parseVariable(ir::Space::Global, Linkage::None, true); }
    if (d == ".const") { next(); return parseVariable(ir::Space::Const, Linkage::None, true); }
    if (d == ".loc") return parseLoc();
    if (d == ".pragma") {
      next();
      fn().pragmas.emplace_back(expect(Tok::String, "a pragma string").text);
      expect(Tok::Semi, "';'");
      return;
    }
    fail(t, "unknown directive '" + printable(d) + "' in function body");
  }
  if (t.kind == Tok::Ident && peek(1).kind == Tok::Colon) {
    next();
    next();
    // A call prototype (for indirect calls) is a labelled declaration: skip it.
    if (peek().kind == Tok::Directive && peek().text == ".callprototype") {
      while (peek().kind != Tok::Semi) {
        if (peek().kind == Tok::End) fail(t, "unterminated .callprototype");
        next();
      }
      next();
      return;
    }
    std::string name(t.text);
    if (!fs_.labels.emplace(name, static_cast<uint32_t>(fn().code.size())).second)
      fail(t, "duplicate label '" + printable(name) + "'");
    return;
  }
  if (t.kind == Tok::Ident || t.kind == Tok::At) return parseInstruction();
  fail(t, "expected an instruction, found " + describe(t));
}

// .reg [.type] name | name<N> {, ...} ;
void Parser::parseRegDecl() {
  const Token& kw = next();
  ir::Type type = ir::Type::None;
  while (peek().kind == Tok::Directive) {
    const Token& t = next();
    if (t.text == ".v2" || t.text == ".v4") fail(t, "unsupported vector register declaration");
    auto ty = typeFromWord(t.text.substr(1));
    if (!ty) fail(t, "unexpected " + describe(t) + " in .reg declaration");
    if (*ty == ir::Type::B128) fail(t, "unsupported register type .b128");
    type = *ty;
  }
  if (type == ir::Type::None) fail(kw, "missing type in .reg declaration");
  do {
    const Token& name = expect(Tok::Ident, "a register name");
    std::string base(name.text);
    uint32_t count = 0;
    bool ranged = false;
    if (accept(Tok::Lt)) {
      ranged = true;
      const Token& n = expect(Tok::Int, "a register count");
      if (n.intValue > kMaxRegsPerDecl)
        fail(n, "register count " + printable(n.text) + " is too large (limit " +
                    std::to_string(kMaxRegsPerDecl) + ")");
      count = static_cast<uint32_t>(n.intValue);
      expect(Tok::Gt, "'>'");
    }
    auto add = [&](const std::string& nm) {
      if (type == ir::Type::Pred) {
        if (fn().preds.size() >= kMaxRegsPerFunction) fail(name, "too many predicate registers");
        if (++moduleRegs_ > kMaxRegsPerModule) fail(name, "too many registers in the module");
        declare(name, nm, {NameKind::Pred, static_cast<uint32_t>(fn().preds.size())});
        fn().preds.push_back(nm);
      } else {
        declare(name, nm, {NameKind::Reg, addReg(nm, type)});
      }
    };
    if (!ranged) {
      add(base);
    } else {
      if (fn().regs.size() + fn().preds.size() + count > kMaxRegsPerFunction)
        fail(name, "too many registers in '" + fn().name + "'");
      for (uint32_t i = 0; i < count; ++i) add(base + std::to_string(i));
    }
  } while (accept(Tok::Comma));
  expect(Tok::Semi, "';' after .reg declaration");
}

// .local / .param inside a body: [.align N] .type name [ [N]... ] {, name...} ;
void Parser::parseFrameDecl(ir::Space space) {
  const Token& kw = toks_[pos_ - 1];
  uint32_t align = 0;
  ir::Type type = ir::Type::None;
  while (peek().kind == Tok::Directive) {
    const Token& t = next();
    if (t.text == ".align") {
      align = expectUint("an alignment", 1u << 16);
      if (!std::has_single_bit(align)) fail(t, "alignment " + std::to_string(align) + " is not a power of two");
    } else if (t.text == ".ptr") {
      // pointer attribute on a call-sequence param: no layout effect
    } else if (auto ty = typeFromWord(t.text.substr(1))) {
      type = *ty;
    } else {
      fail(t, "unexpected " + describe(t) + " in declaration");
    }
  }
  if (type == ir::Type::None || type == ir::Type::Pred || type == ir::Type::B128)
    fail(kw, "missing or unsupported type in declaration");
  do {
    const Token& name = expect(Tok::Ident, "a name");
    uint64_t size = ir::bytes(type);
    while (accept(Tok::LBracket)) {
      const Token& n = expect(Tok::Int, "an array size");
      if (n.intValue == 0 || n.intValue > kMaxFrameBytes || size * n.intValue > kMaxFrameBytes)
        fail(n, "invalid array size " + printable(n.text));
      size *= n.intValue;
      expect(Tok::RBracket, "']'");
    }
    if (peek().kind == Tok::Eq) fail(peek(), "initializers are not supported here");
    uint32_t a = align ? align : ir::bytes(type);
    ir::Function& f = fn();
    if (space == ir::Space::Local) {
      uint32_t off = alignUp(f.localBytes, a);
      if (off + size > kMaxFrameBytes) fail(name, "local frame of '" + f.name + "' is too large");
      f.localBytes = static_cast<uint32_t>(off + size);
      f.localAlign = std::max(f.localAlign, a);
      declare(name, std::string(name.text), {NameKind::Local, off});
    } else {
      uint32_t off = alignUp(fs_.frameTop, a);
      if (off + size > kMaxFrameBytes) fail(name, "param frame of '" + f.name + "' is too large");
      fs_.frameTop = static_cast<uint32_t>(off + size);
      f.frameParamBytes = std::max(f.frameParamBytes, fs_.frameTop);
      declare(name, std::string(name.text), {NameKind::FrameParam, off});
    }
  } while (accept(Tok::Comma));
  expect(Tok::Semi, "';' after declaration");
}

// .loc file line column [, function_name label [+ off], inlined_at file line column]
void Parser::parseLoc() {
  const Token& kw = next();
  uint32_t file = expectUint("a file id", 1u << 16);
  uint32_t line = expectUint("a line number", UINT32_MAX);
  if (peek().kind == Tok::Int && peek().line == kw.line) next();
  while (peek().kind != Tok::End && peek().line == kw.line) {
    if (peek().kind == Tok::LBrace || peek().kind == Tok::RBrace) break;
    next();
  }
  fs_.locFile = file;
  fs_.locLine = line;
}

void Parser::pushScope() {
  fs_.scopes.emplace_back();
  fs_.frameMarks.push_back(fs_.frameTop);
}

void Parser::popScope() {
  fs_.scopes.pop_back();
  fs_.frameTop = fs_.frameMarks.back();
  fs_.frameMarks.pop_back();
}

void Parser::declare(const Token& at, const std::string& name, NameEntry e) {
  if (!fs_.scopes.back().emplace(name, e).second)
    fail(at, "redeclaration of '" + printable(name) + "'");
}

const NameEntry* Parser::lookup(std::string_view name) const {
  std::string key(name);
  for (size_t i = fs_.scopes.size(); i-- > 0;) {
    auto it = fs_.scopes[i].find(key);
    if (it != fs_.scopes[i].end()) return &it->second;
  }
  return nullptr;
}

uint32_t Parser::addReg(const std::string& name, ir::Type t) {
  ir::Function& f = fn();
  if (f.regs.size() >= kMaxRegsPerFunction) failLine(peek().line, "too many registers in '" + f.name + "'");
  if (++moduleRegs_ > kMaxRegsPerModule) failLine(peek().line, "too many registers in the module");
  f.regs.push_back({name, t, static_cast<uint8_t>(ir::bits(t))});
  return static_cast<uint32_t>(f.regs.size() - 1);
}

}  // namespace warpsim::ptx::detail
