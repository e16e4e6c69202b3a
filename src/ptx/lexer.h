// PTX tokenizer: turns the whole source text into a token vector up front.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::ptx {

enum class Tok : uint8_t {
  End,
  Ident,      // names, opcodes with their modifiers (ld.global.v4.f32), %r12, $L__BB0_2, %tid.x
  Directive,  // .reg .entry .b32 ... (text includes the leading dot)
  Int,        // integer literal: value in Token::intValue (bits of the 64-bit value)
  Float,      // floating-point literal: see Token::floatKind
  String,     // "..." (text is the content between the quotes, escapes kept as written)
  Comma, Semi, Colon, LBracket, RBracket, LBrace, RBrace, LParen, RParen,
  Lt, Gt, Plus, Minus, Bang, At, Pipe, Eq, Shr,  // Shr is ">>" (mask initializers)
};

enum class FloatKind : uint8_t {
  F32Bits,  // 0fXXXXXXXX: intValue holds the 32 bits
  F64Bits,  // 0dXXXXXXXXXXXXXXXX: intValue holds the 64 bits
  Decimal,  // 1.5, 2e-3: floatValue
};

struct Token {
  Tok kind = Tok::End;
  FloatKind floatKind = FloatKind::Decimal;
  uint32_t line = 0;
  uint32_t col = 0;
  std::string_view text;
  uint64_t intValue = 0;
  double floatValue = 0.0;
};

// Tokenizes `source`; the returned tokens end with one Tok::End. Throws ParseError (naming
// `sourceName` and the line) on malformed input: unterminated comments/strings, stray bytes,
// out-of-range literals.
std::vector<Token> tokenize(std::string_view source, std::string_view sourceName);

// Printable, single-line rendering of arbitrary token text for error messages (escapes
// control and non-ASCII bytes, truncates long text).
std::string printable(std::string_view text);
// printable(text) in single quotes.
std::string quoted(std::string_view text);

}  // namespace warpsim::ptx
