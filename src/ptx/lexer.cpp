#include "ptx/lexer.h"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "ptx/parse_error.h"

namespace warpsim::ptx {
namespace {

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  Lexer(std::string_view src, std::string_view name) : src_(src), name_(name) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(src_.size() / 4 + 1);
    for (;;) {
      skipSpaceAndComments();
      Token t;
      t.line = line_;
      t.col = static_cast<uint32_t>(pos_ - lineStart_ + 1);
      if (pos_ >= src_.size()) {
        out.push_back(t);
        return out;
      }
      lexOne(t);
      out.push_back(t);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& msg) { throw ParseError(name_, line_, msg); }

  char peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  void newline() {
    ++line_;
    lineStart_ = pos_;
  }

  void skipSpaceAndComments() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        ++pos_;
        newline();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else if (c == '/' && peek(1) == '*') {
        uint32_t startLine = line_;
        pos_ += 2;
        for (;;) {
          if (pos_ >= src_.size()) throw ParseError(name_, startLine, "unterminated comment");
          if (src_[pos_] == '*' && peek(1) == '/') {
            pos_ += 2;
            break;
          }
          if (src_[pos_++] == '\n') newline();
        }
      } else {
        return;
      }
    }
  }

  // Identifier body: name characters, plus '.' and '::' joining modifier words
  // (ld.global.L1::evict_last.f32, %tid.x).
  void lexIdentBody(bool allowDots = true) {
    for (;;) {
      char c = peek();
      if (isIdentChar(c)) {
        ++pos_;
      } else if (allowDots && c == '.' && (isIdentChar(peek(1)))) {
        ++pos_;
      } else if (c == ':' && peek(1) == ':' && isIdentChar(peek(2))) {
        pos_ += 2;
      } else {
        return;
      }
    }
  }

  void lexOne(Token& t) {
    size_t start = pos_;
    char c = src_[pos_];
    auto single = [&](Tok k) {
      ++pos_;
      t.kind = k;
      t.text = src_.substr(start, 1);
    };
    if (isIdentStart(c)) {
      ++pos_;
      lexIdentBody();
      t.kind = Tok::Ident;
      t.text = src_.substr(start, pos_ - start);
      return;
    }
    if (c == '.' && isIdentStart(peek(1))) {
      ++pos_;
      lexIdentBody(false);  // ".reg.b16" is two directives
      t.kind = Tok::Directive;
      t.text = src_.substr(start, pos_ - start);
      return;
    }
    if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
      lexNumber(t);
      return;
    }
    switch (c) {
      case ',': return single(Tok::Comma);
      case ';': return single(Tok::Semi);
      case ':': return single(Tok::Colon);
      case '[': return single(Tok::LBracket);
      case ']': return single(Tok::RBracket);
      case '{': return single(Tok::LBrace);
      case '}': return single(Tok::RBrace);
      case '(': return single(Tok::LParen);
      case ')': return single(Tok::RParen);
      case '<': return single(Tok::Lt);
      case '+': return single(Tok::Plus);
      case '-': return single(Tok::Minus);
      case '!': return single(Tok::Bang);
      case '@': return single(Tok::At);
      case '|': return single(Tok::Pipe);
      case '=': return single(Tok::Eq);
      case '>':
        if (peek(1) == '>') {
          pos_ += 2;
          t.kind = Tok::Shr;
          t.text = src_.substr(start, 2);
          return;
        }
        return single(Tok::Gt);
      case '"': lexString(t); return;
      default: break;
    }
    fail("unexpected character '" + printable(src_.substr(pos_, 1)) + "'");
  }

  void lexString(Token& t) {
    uint32_t startLine = line_;
    size_t start = ++pos_;
    for (;;) {
      if (pos_ >= src_.size() || src_[pos_] == '\n')
        throw ParseError(name_, startLine, "unterminated string");
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] != '\n') {
        pos_ += 2;
        continue;
      }
      if (src_[pos_] == '"') break;
      ++pos_;
    }
    t.kind = Tok::String;
    t.text = src_.substr(start, pos_ - start);
    ++pos_;
  }

  void lexNumber(Token& t) {
    size_t start = pos_;
    char c1 = peek(1);
    // Hexadecimal float bit patterns.
    if (peek() == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
      bool isF32 = (c1 == 'f' || c1 == 'F');
      size_t digits = isF32 ? 8 : 16;
      pos_ += 2;
      uint64_t v = 0;
      for (size_t i = 0; i < digits; ++i) {
        int h = hexValue(peek());
        if (h < 0) fail("malformed floating-point literal '" + text(start) + "'");
        v = (v << 4) | static_cast<uint64_t>(h);
        ++pos_;
      }
      if (isIdentChar(peek())) fail("malformed floating-point literal '" + text(start) + "'");
      t.kind = Tok::Float;
      t.floatKind = isF32 ? FloatKind::F32Bits : FloatKind::F64Bits;
      t.intValue = v;
      t.text = src_.substr(start, pos_ - start);
      return;
    }
    // Hexadecimal / binary integers.
    if (peek() == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
      unsigned shift = (c1 == 'x' || c1 == 'X') ? 4 : 1;
      pos_ += 2;
      uint64_t v = 0;
      size_t n = 0;
      for (;;) {
        int h = hexValue(peek());
        if (h < 0 || (shift == 1 && h > 1)) break;
        if (v >> (64 - shift)) {
          while (hexValue(peek()) >= 0) ++pos_;
          fail("integer literal out of range '" + text(start) + "'");
        }
        v = (v << shift) | static_cast<uint64_t>(h);
        ++pos_;
        ++n;
      }
      if (n == 0) fail("malformed integer literal '" + text(start) + "'");
      finishInt(t, start, v);
      return;
    }
    // Decimal or octal integer, or decimal float.
    size_t p = pos_;
    while (p < src_.size() && isDigit(src_[p])) ++p;
    bool isFloat = false;
    if (p < src_.size() && src_[p] == '.' && (p + 1 >= src_.size() || !isIdentStart(src_[p + 1])))
      isFloat = true;
    if (p < src_.size() && (src_[p] == 'e' || src_[p] == 'E')) isFloat = true;
    if (isFloat) {
      if (p < src_.size() && src_[p] == '.') {
        ++p;
        while (p < src_.size() && isDigit(src_[p])) ++p;
      }
      if (p < src_.size() && (src_[p] == 'e' || src_[p] == 'E')) {
        ++p;
        if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
        size_t expStart = p;
        while (p < src_.size() && isDigit(src_[p])) ++p;
        if (p == expStart) {
          pos_ = p;
          fail("malformed floating-point literal '" + text(start) + "'");
        }
      }
      pos_ = p;
      std::string s(src_.substr(start, pos_ - start));
      t.kind = Tok::Float;
      t.floatKind = FloatKind::Decimal;
      t.floatValue = std::strtod(s.c_str(), nullptr);
      t.text = src_.substr(start, pos_ - start);
      if (isIdentChar(peek())) fail("malformed floating-point literal '" + text(start) + "'");
      return;
    }
    bool octal = peek() == '0' && p - pos_ > 1;
    uint64_t v = 0;
    for (; pos_ < p; ++pos_) {
      unsigned d = static_cast<unsigned>(src_[pos_] - '0');
      if (octal) {
        if (d > 7) fail("malformed octal literal '" + std::string(src_.substr(start, p - start)) + "'");
        if (v >> 61) fail("integer literal out of range '" + text(start) + "'");
        v = v * 8 + d;
      } else {
        if (v > (UINT64_MAX - d) / 10) {
          pos_ = p;
          fail("integer literal out of range '" + text(start) + "'");
        }
        v = v * 10 + d;
      }
    }
    finishInt(t, start, v);
  }

  void finishInt(Token& t, size_t start, uint64_t v) {
    if (peek() == 'U' || peek() == 'u') ++pos_;
    if (isIdentChar(peek())) {
      while (isIdentChar(peek())) ++pos_;
      fail("malformed integer literal '" + text(start) + "'");
    }
    t.kind = Tok::Int;
    t.intValue = v;
    t.text = src_.substr(start, pos_ - start);
  }

  std::string text(size_t start) const { return printable(src_.substr(start, pos_ - start)); }

  std::string_view src_;
  std::string_view name_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  uint32_t line_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, std::string_view sourceName) {
  return Lexer(source, sourceName).run();
}

std::string quoted(std::string_view text) {
  std::string out(1, '\'');
  out += printable(text);
  out += '\'';
  return out;
}

std::string printable(std::string_view text) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  size_t n = 0;
  for (unsigned char c : text) {
    if (++n > 96) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace warpsim::ptx
