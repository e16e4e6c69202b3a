// .global / .const / .shared variable declarations and their initializers.
#include <bit>
#include <cstring>

#include "ptx/parser_impl.h"

namespace warpsim::ptx::detail {
namespace {

// Scalar initializer values fill `init` at consecutive element slots; address-valued elements
// become Symbol::addrInits.
class InitializerParser {
 public:
  InitializerParser(Parser& p, ir::Symbol& sym, std::vector<uint64_t> levelSizes, bool unsized)
      : p_(p), sym_(sym), sizes_(std::move(levelSizes)), unsized_(unsized) {}

  void parse() {
    elemBytes_ = ir::bytes(sym_.elemType);
    if (p_.peek().kind == Tok::LBrace) {
      parseList(0, 0, 0);
    } else {
      if (sizes_[0] < 1 && !unsized_) p_.fail(p_.peek(), "initializer for a zero-sized variable");
      parseScalar(0);
      used_ = 1;
    }
    if (pendingMask_.active) p_.fail(p_.peek(), "incomplete masked address initializer");
  }
  uint64_t slotsUsed() const { return used_; }

 private:
  void parseList(unsigned level, uint64_t base, unsigned depth) {
    const Token& open = p_.expect(Tok::LBrace, "'{'");
    if (depth > kMaxNesting) p_.fail(open, "initializer nested too deeply");
    uint64_t cap = level < sizes_.size() ? sizes_[level] : 1;
    uint64_t cursor = base;
    if (p_.peek().kind == Tok::RBrace) p_.fail(p_.peek(), "empty initializer list");
    do {
      const Token& t = p_.peek();
      bool capped = !(unsized_ && level == 0);
      if (t.kind == Tok::LBrace) {
        if (level + 1 >= sizes_.size()) p_.fail(t, "too many braces in initializer");
        uint64_t sub = sizes_[level + 1];
        if (capped && cursor + sub > base + cap) p_.fail(t, "too many initializers for '" + sym_.name + "'");
        parseList(level + 1, cursor, depth + 1);
        cursor += sub;
      } else {
        if (capped && cursor >= base + cap) p_.fail(t, "too many initializers for '" + sym_.name + "'");
        parseScalar(cursor);
        ++cursor;
      }
      used_ = std::max(used_, cursor);
    } while (p_.accept(Tok::Comma));
    p_.expect(Tok::RBrace, "'}' or ',' in initializer");
  }

  void ensure(uint64_t slot) {
    uint64_t end = (slot + 1) * elemBytes_;
    if (end > kMaxInitializedBytes)
      p_.fail(p_.peek(), "initialized variable '" + sym_.name + "' is too large");
    if (sym_.init.size() < end) sym_.init.resize(end, 0);
  }

  void store(uint64_t slot, uint64_t bits) {
    ensure(slot);
    for (unsigned i = 0; i < elemBytes_; ++i)
      sym_.init[slot * elemBytes_ + i] = static_cast<uint8_t>(bits >> (8 * i));
  }

  // name [+|- int]  or  generic(name [+|- int]) [+|- int]
  std::pair<uint32_t, int64_t> parseSymbolRef() {
    const Token& t = p_.next();
    bool generic = t.text == "generic" && p_.peek().kind == Tok::LParen;
    std::pair<uint32_t, int64_t> ref;
    if (generic) {
      p_.next();
      ref = parseSymbolRef();
      p_.expect(Tok::RParen, "')'");
    } else {
      auto it = p_.symbolIndex_.find(std::string(t.text));
      if (it == p_.symbolIndex_.end()) {
        if (p_.functionIndex_.count(std::string(t.text)))
          p_.fail(t, "unsupported function address '" + printable(t.text) + "' in initializer");
        p_.fail(t, "undeclared symbol '" + printable(t.text) + "' in initializer");
      }
      ref = {it->second, 0};
    }
    while (p_.peek().kind == Tok::Plus || p_.peek().kind == Tok::Minus) {
      bool minus = p_.next().kind == Tok::Minus;
      const Token& n = p_.expect(Tok::Int, "an integer offset");
      ref.second += minus ? -static_cast<int64_t>(n.intValue) : static_cast<int64_t>(n.intValue);
    }
    return ref;
  }

  void parseScalar(uint64_t slot) {
    const Token& t = p_.peek();
    if (t.kind == Tok::Ident) {
      auto [target, addend] = parseSymbolRef();
      if (elemBytes_ != 8)
        p_.fail(t, "address initializer needs a 64-bit element type in '" + sym_.name + "'");
      ensure(slot);
      sym_.addrInits.push_back({slot * 8, target, addend});
      return;
    }
    // 0xFF(sym) / 0xFF00(sym)>>8 ...: one byte of a symbol address in a .b8 array.
    if (t.kind == Tok::Int && p_.peek(1).kind == Tok::LParen) {
      uint64_t mask = p_.next().intValue;
      p_.next();
      auto ref = parseSymbolRef();
      p_.expect(Tok::RParen, "')'");
      uint64_t shift = 0;
      if (p_.accept(Tok::Shr)) shift = p_.expect(Tok::Int, "a shift amount").intValue;
      if (elemBytes_ != 1 || shift % 8 != 0 || shift > 56 || mask != (0xFFull << shift))
        p_.fail(t, "unsupported masked address initializer");
      unsigned byte = static_cast<unsigned>(shift / 8);
      if (byte == 0) {
        if (pendingMask_.active) p_.fail(t, "incomplete masked address initializer");
        pendingMask_ = {true, slot, ref.first, ref.second, 0};
      } else if (!pendingMask_.active || pendingMask_.next != byte || slot != pendingMask_.start + byte ||
                 pendingMask_.target != ref.first || pendingMask_.addend != ref.second) {
        p_.fail(t, "unsupported masked address initializer");
      }
      pendingMask_.next = byte + 1;
      ensure(slot);
      if (byte == 7) {
        sym_.addrInits.push_back({pendingMask_.start, pendingMask_.target, pendingMask_.addend});
        pendingMask_.active = false;
      }
      return;
    }
    bool negative = p_.accept(Tok::Minus);
    const Token& v = p_.peek();
    Literal lit;
    if (v.kind == Tok::Int) {
      lit.kind = Literal::Kind::Int;
      lit.bits = v.intValue;
    } else if (v.kind == Tok::Float) {
      lit.kind = v.floatKind == FloatKind::F32Bits   ? Literal::Kind::F32Bits
                 : v.floatKind == FloatKind::F64Bits ? Literal::Kind::F64Bits
                                                     : Literal::Kind::Decimal;
      lit.bits = v.intValue;
      lit.value = v.floatValue;
    } else {
      p_.fail(v, "expected an initializer value, found " + p_.describe(v));
    }
    p_.next();
    if (negative) lit = lit.negated();
    std::string why;
    auto bits = literalBits(lit, sym_.elemType, &why);
    if (!bits) p_.fail(v, "bad initializer for '" + sym_.name + "': " + why);
    if (pendingMask_.active) p_.fail(v, "incomplete masked address initializer");
    store(slot, *bits);
  }

  Parser& p_;
  ir::Symbol& sym_;
  std::vector<uint64_t> sizes_;  // scalar slots covered by one element at each brace level
  bool unsized_;
  unsigned elemBytes_ = 0;
  uint64_t used_ = 0;
  struct { bool active; uint64_t start; uint32_t target; int64_t addend; unsigned next; } pendingMask_{};
};

}  // namespace

void Parser::parseVariable(ir::Space space, Linkage linkage, bool inFunction) {
  const Token& first = peek();
  uint32_t align = 0;
  unsigned vec = 1;
  ir::Type type = ir::Type::None;
  // Attributes before the name, in any order.
  for (;;) {
    const Token& t = peek();
    if (t.kind != Tok::Directive) break;
    if (t.text == ".align") {
      next();
      align = expectUint("an alignment", 1u << 20);
      if (!std::has_single_bit(align)) fail(t, "alignment " + std::to_string(align) + " is not a power of two");
    } else if (t.text == ".v2" || t.text == ".v4") {
      next();
      vec = t.text == ".v2" ? 2 : 4;
    } else if (t.text == ".attribute") {
      next();  // .attribute(.managed): managed memory is ordinary global memory here
      expect(Tok::LParen, "'('");
      const Token& a = next();
      if (a.text != ".managed") fail(a, "unsupported attribute " + describe(a));
      expect(Tok::RParen, "')'");
    } else if (auto ty = typeFromWord(t.text.substr(1))) {
      next();
      if (type != ir::Type::None) fail(t, "more than one type in declaration");
      type = *ty;
    } else {
      fail(t, "unexpected " + describe(t) + " in variable declaration");
    }
  }
  if (type == ir::Type::None) fail(peek(), "missing type in variable declaration");
  if (type == ir::Type::Pred || type == ir::Type::B128)
    fail(first, std::string("unsupported variable type in declaration"));
  for (;;) {
    const Token& nameTok = expect(Tok::Ident, "a variable name");
    ir::Symbol sym;
    sym.name = std::string(nameTok.text);
    sym.space = space;
    sym.elemType = type;
    sym.line = nameTok.line;
    sym.isExtern = linkage == Linkage::Extern;
    sym.linkage = linkage;
    uint64_t elemBytes = ir::bytes(type) * vec;
    sym.align = align ? align : static_cast<uint32_t>(elemBytes);
    std::vector<uint64_t> dims;
    bool unsized = false;
    while (accept(Tok::LBracket)) {
      if (peek().kind == Tok::RBracket) {
        if (!dims.empty()) fail(peek(), "only the first array dimension may be omitted");
        unsized = true;
        dims.push_back(0);
      } else {
        const Token& n = expect(Tok::Int, "an array size");
        if (n.intValue == 0) fail(n, "invalid array size 0");
        dims.push_back(n.intValue);
      }
      expect(Tok::RBracket, "']'");
      if (dims.size() > 8) fail(nameTok, "too many array dimensions");
    }
    // Scalar slots per element at each brace level (index 0: the whole variable).
    std::vector<uint64_t> levels(dims.size() + 1);
    uint64_t acc = vec;
    levels[dims.size()] = vec;
    for (size_t i = dims.size(); i-- > 0;) {
      uint64_t d = (unsized && i == 0) ? 1 : dims[i];
      if (acc > kMaxSymbolBytes / d) fail(nameTok, "variable '" + sym.name + "' is too large");
      acc *= d;
      levels[i] = acc;
    }
    if (vec > 1 && !dims.empty()) levels.push_back(1);  // braces around each vector
    sym.size = unsized ? 0 : levels[0] * ir::bytes(type);
    if (sym.size > kMaxSymbolBytes) fail(nameTok, "variable '" + sym.name + "' is too large");

    if (accept(Tok::Eq)) {
      if (space == ir::Space::Shared) fail(nameTok, "shared variable '" + sym.name + "' cannot have an initializer");
      if (sym.isExtern) fail(nameTok, "extern variable '" + sym.name + "' cannot have an initializer");
      if (sym.size > kMaxInitializedBytes) fail(nameTok, "initialized variable '" + sym.name + "' is too large");
      if (unsized) levels[0] = kMaxInitializedBytes;
      InitializerParser ip(*this, sym, levels, unsized);
      ip.parse();
      if (unsized) {
        uint64_t per = levels.size() > 1 ? levels[1] : 1;
        uint64_t count = (ip.slotsUsed() + per - 1) / per;
        sym.size = count * per * ir::bytes(type);
      }
      moduleInitBytes_ += sym.size;
      if (moduleInitBytes_ > kMaxModuleInitializedBytes)
        fail(nameTok, "initialized variables of the module are too large");
      sym.init.resize(sym.size, 0);
    } else if (unsized) {
      if (!sym.isExtern) fail(nameTok, "array '" + sym.name + "' has no size");
      sym.isDynamicShared = space == ir::Space::Shared;
    }

    std::string key = sym.name;
    if (inFunction) sym.name = fn().name + "::" + sym.name;  // unique at module scope
    uint32_t index;
    auto it = symbolIndex_.find(sym.name);
    if (it != symbolIndex_.end()) {
      ir::Symbol& prev = m_.symbols[it->second];
      if (!prev.isExtern && !sym.isExtern) fail(nameTok, "redefinition of '" + key + "'");
      if (prev.isExtern) prev = std::move(sym);
      index = it->second;
    } else {
      if (functionIndex_.count(sym.name)) fail(nameTok, "'" + key + "' is already a function");
      index = static_cast<uint32_t>(m_.symbols.size());
      symbolIndex_.emplace(sym.name, index);
      m_.symbols.push_back(std::move(sym));
    }
    if (inFunction) declare(nameTok, key, {NameKind::Symbol, index});
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::Semi, "';' after variable declaration");
}

}  // namespace warpsim::ptx::detail
