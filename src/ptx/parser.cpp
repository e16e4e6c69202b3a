// Module level: the token cursor, .version/.target/.address_size/.file/.section, dispatch to
// variables and functions, call resolution, and the public entry points.
#include "ptx/parser.h"

#include <fstream>
#include <sstream>

#include "ptx/atom_calls.h"
#include "ptx/parser_impl.h"

namespace warpsim::ptx {
namespace detail {

Parser::Parser(std::string_view text, std::string sourceName) : file_(std::move(sourceName)) {
  m_.sourceName = file_;
  m_.files.emplace_back();  // file id 0: none
  toks_ = tokenize(text, file_);
}

const Token& Parser::peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

const Token& Parser::next() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;
  return t;
}

bool Parser::accept(Tok k) {
  if (peek().kind != k) return false;
  next();
  return true;
}

bool Parser::acceptDirective(std::string_view d) {
  if (peek().kind != Tok::Directive || peek().text != d) return false;
  next();
  return true;
}

const Token& Parser::expect(Tok k, const char* what) {
  if (peek().kind != k) fail(peek(), std::string("expected ") + what + ", found " + describe(peek()));
  return next();
}

uint32_t Parser::expectUint(const char* what, uint64_t max) {
  const Token& t = peek();
  if (t.kind != Tok::Int) fail(t, std::string("expected ") + what + ", found " + describe(t));
  if (t.intValue > max)
    fail(t, std::string(what) + " " + std::to_string(t.intValue) + " is too large (limit " +
                std::to_string(max) + ")");
  next();
  return static_cast<uint32_t>(t.intValue);
}

void Parser::fail(const Token& at, const std::string& msg) const {
  throw ParseError(file_, at.line, msg);
}
void Parser::failLine(uint32_t line, const std::string& msg) const {
  throw ParseError(file_, line, msg);
}

std::string Parser::describe(const Token& t) const {
  switch (t.kind) {
    case Tok::End: return "end of file";
    case Tok::String: return "string \"" + printable(t.text) + "\"";
    default: return quoted(t.text);
  }
}

ir::Module Parser::run() {
  while (peek().kind != Tok::End) parseModuleItem();
  if (!sawVersion_) failLine(1, "missing .version directive");
  if (!sawTarget_) failLine(1, "missing .target directive");
  resolveCalls();
  verifyModule(m_, file_);
  ir::analyze(m_);
  return std::move(m_);
}

void Parser::parseModuleItem() {
  const Token& t = peek();
  if (t.kind != Tok::Directive) fail(t, "expected a directive at module scope, found " + describe(t));
  std::string_view d = t.text;
  if (d == ".version") return parseVersion();
  if (d == ".target") return parseTarget();
  if (d == ".address_size") return parseAddressSize();
  if (d == ".file") return parseFileDirective();
  if (d == ".section") return skipSection();
  if (d == ".pragma") {
    next();
    expect(Tok::String, "a pragma string");
    expect(Tok::Semi, "';'");
    return;
  }
  Linkage linkage = Linkage::None;
  if (d == ".visible" || d == ".extern" || d == ".weak" || d == ".common") {
    linkage = d == ".visible" ? Linkage::Visible
              : d == ".extern" ? Linkage::Extern
              : d == ".weak"   ? Linkage::Weak
                               : Linkage::Common;
    next();
  }
  const Token& k = peek();
  if (k.kind == Tok::Directive) {
    if (k.text == ".entry") { next(); return parseFunction(true, linkage); }
    if (k.text == ".func") { next(); return parseFunction(false, linkage); }
    if (k.text == ".global") { next(); return parseVariable(ir::Space::Global, linkage, false); }
    if (k.text == ".const") { next(); return parseVariable(ir::Space::Const, linkage, false); }
    if (k.text == ".shared") { next(); return parseVariable(ir::Space::Shared, linkage, false); }
    if (k.text == ".tex" || k.text == ".surfref" || k.text == ".texref" || k.text == ".samplerref")
      fail(k, "unsupported directive '" + std::string(k.text) + "'");
  }
  fail(k, k.kind == Tok::Directive ? "unknown directive '" + printable(k.text) + "'"
                                   : "expected a declaration, found " + describe(k));
}

void Parser::parseVersion() {
  const Token& d = next();
  const Token& v = peek();
  uint64_t major = 0, minor = 0;
  if (v.kind == Tok::Float && v.floatKind == FloatKind::Decimal) {
    size_t dot = v.text.find('.');
    if (dot == std::string_view::npos || dot + 1 >= v.text.size())
      fail(v, "malformed .version " + describe(v));
    for (char c : v.text.substr(0, dot)) {
      if (c < '0' || c > '9' || major > 1000) fail(v, "malformed .version " + describe(v));
      major = major * 10 + static_cast<unsigned>(c - '0');
    }
    for (char c : v.text.substr(dot + 1)) {
      if (c < '0' || c > '9' || minor > 1000) fail(v, "malformed .version " + describe(v));
      minor = minor * 10 + static_cast<unsigned>(c - '0');
    }
  } else {
    fail(v.kind == Tok::End ? d : v, "expected a version number after .version, found " + describe(v));
  }
  next();
  if (major > 9 || (major == 9 && minor > 0))
    fail(v, "unsupported PTX version " + std::string(v.text) + " (this simulator reads up to 9.0)");
  if (major < 1) fail(v, "malformed .version " + describe(v));
  m_.versionMajor = static_cast<uint32_t>(major);
  m_.versionMinor = static_cast<uint32_t>(minor);
  sawVersion_ = true;
}

void Parser::parseTarget() {
  const Token& d = next();
  bool first = true;
  do {
    const Token& t = peek();
    if (t.kind != Tok::Ident) fail(first ? d : t, "expected a target name, found " + describe(t));
    next();
    std::string_view name = t.text;
    if (name.starts_with("sm_") || name.starts_with("compute_")) {
      std::string_view digits = name.substr(name.find('_') + 1);
      uint32_t sm = 0;
      size_t n = 0;
      while (n < digits.size() && digits[n] >= '0' && digits[n] <= '9' && sm < 10000)
        sm = sm * 10 + static_cast<uint32_t>(digits[n++] - '0');
      // sm_90a, sm_100f: a suffix letter is allowed; the number is what we record.
      if (n == 0 || (n < digits.size() && (n + 1 != digits.size() || digits[n] < 'a' || digits[n] > 'z')))
        fail(t, "malformed target '" + printable(name) + "'");
      m_.smTarget = sm;
    } else if (name != "texmode_unified" && name != "texmode_independent" && name != "debug" &&
               name != "map_f64_to_f32") {
      fail(t, "unknown target '" + printable(name) + "'");
    }
    first = false;
  } while (accept(Tok::Comma));
  if (m_.smTarget == 0) fail(d, ".target names no sm_XX or compute_XX architecture");
  sawTarget_ = true;
}

void Parser::parseAddressSize() {
  const Token& d = next();
  const Token& v = peek();
  if (v.kind != Tok::Int) fail(v.kind == Tok::End ? d : v, "expected 32 or 64 after .address_size");
  next();
  if (v.intValue == 32) fail(v, "unsupported .address_size 32 (only 64-bit addressing)");
  if (v.intValue != 64) fail(v, "invalid .address_size " + std::string(v.text));
  m_.addressSize = 64;
}

// .file <id> "name" [, timestamp, size]
void Parser::parseFileDirective() {
  const Token& d = next();
  uint32_t id = expectUint("a file id", 1u << 16);
  const Token& name = expect(Tok::String, "a file name string");
  while (peek().kind == Tok::Comma && peek().line == d.line) {
    next();
    expect(Tok::Int, "an integer");
  }
  if (id == 0) fail(d, "file id 0 is reserved");
  if (m_.files.size() <= id) m_.files.resize(id + 1);
  m_.files[id] = std::string(name.text);
}

// .section .debug_xxx { ... }: debug information, not needed for simulation.
void Parser::skipSection() {
  const Token& d = next();
  const Token& name = peek();
  if (name.kind != Tok::Directive && name.kind != Tok::Ident)
    fail(d, "expected a section name after .section");
  next();
  expect(Tok::LBrace, "'{' after the section name");
  unsigned depth = 1;
  while (depth > 0) {
    const Token& t = next();
    if (t.kind == Tok::End) fail(d, "unterminated .section");
    if (t.kind == Tok::LBrace) ++depth;
    if (t.kind == Tok::RBrace) --depth;
  }
}

void Parser::resolveCalls() {
  for (const PendingCall& pc : pendingCalls_) {
    auto it = functionIndex_.find(pc.callee);
    if (it == functionIndex_.end())
      failLine(pc.line, "call to undeclared function '" + printable(pc.callee) + "'");
    const ir::Function& callee = m_.functions[it->second];
    if (callee.isEntry) failLine(pc.line, "call to kernel '" + pc.callee + "' (kernels cannot be called)");
    bool unknown = false;
    if (const auto kind = atomCallKind(pc.callee, &unknown)) {
      // An instruction of its own (atom_calls.h): the signature warpsim's header gives it.
      if (std::string why = checkAtomCall(*kind, callee, pc.numArgs, pc.numRets); !why.empty()) failLine(pc.line, why);
    }
    if (pc.numArgs != callee.params.size())
      failLine(pc.line, "call to '" + pc.callee + "' passes " + std::to_string(pc.numArgs) +
                            " arguments, the function takes " + std::to_string(callee.params.size()));
    if (pc.numRets != callee.rets.size())
      failLine(pc.line, "call to '" + pc.callee + "' receives " + std::to_string(pc.numRets) +
                            " return values, the function returns " +
                            std::to_string(callee.rets.size()));
    ir::CallSite& cs = m_.functions[pc.function].calls[pc.call];
    cs.callee = it->second;
    cs.isPrintf = pc.callee == "vprintf";
  }
}

}  // namespace detail

ir::Module parseModule(std::string_view text, std::string sourceName) {
  return detail::Parser(text, std::move(sourceName)).run();
}

ir::Module parseFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw ParseError(path, 0, "cannot read file");
  return parseModule(ss.str(), path);
}

}  // namespace warpsim::ptx
