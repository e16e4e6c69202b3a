#include "ptx/lexer.h"

#include <gtest/gtest.h>

#include "ptx/parse_error.h"

namespace warpsim::ptx {
namespace {

std::vector<Token> lex(std::string_view s) { return tokenize(s, "t.ptx"); }

std::string lexError(std::string_view s) {
  try {
    lex(s);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Lexer, IdentifiersKeepDotsAndDoubleColons) {
  auto t = lex("ld.global.L1::evict_last.v4.f32 %r12, $L__BB0_2 __local_depot0 _Z3fooi %tid.x $str$1");
  ASSERT_EQ(t.size(), 9u);  // and Tok::End
  EXPECT_EQ(t[0].kind, Tok::Ident);
  EXPECT_EQ(t[0].text, "ld.global.L1::evict_last.v4.f32");
  EXPECT_EQ(t[1].text, "%r12");
  EXPECT_EQ(t[2].kind, Tok::Comma);
  EXPECT_EQ(t[3].text, "$L__BB0_2");
  EXPECT_EQ(t[4].text, "__local_depot0");
  EXPECT_EQ(t[5].text, "_Z3fooi");
  EXPECT_EQ(t[6].text, "%tid.x");
  EXPECT_EQ(t[7].text, "$str$1");
}

TEST(Lexer, DirectivesSplitAtDots) {
  auto t = lex(".reg.b16 hl; .visible .entry");
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t[0].kind, Tok::Directive);
  EXPECT_EQ(t[0].text, ".reg");
  EXPECT_EQ(t[1].text, ".b16");
  EXPECT_EQ(t[2].kind, Tok::Ident);
  EXPECT_EQ(t[4].text, ".visible");
}

TEST(Lexer, LabelColonIsSeparate) {
  auto t = lex("$L__BB0_2:");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].text, "$L__BB0_2");
  EXPECT_EQ(t[1].kind, Tok::Colon);
}

TEST(Lexer, IntegerLiterals) {
  auto t = lex("42 0x1F 0X10 017 0b101 7U 0 18446744073709551615");
  ASSERT_EQ(t.size(), 9u);
  uint64_t expect[] = {42, 31, 16, 15, 5, 7, 0, 18446744073709551615ull};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(t[i].kind, Tok::Int) << i;
    EXPECT_EQ(t[i].intValue, expect[i]) << i;
  }
}

TEST(Lexer, FloatLiterals) {
  auto t = lex("0f3F800000 0dBFF0000000000000 1.5 2e3 .25 1.0e-2 3.");
  ASSERT_EQ(t.size(), 8u);
  EXPECT_EQ(t[0].kind, Tok::Float);
  EXPECT_EQ(t[0].floatKind, FloatKind::F32Bits);
  EXPECT_EQ(t[0].intValue, 0x3F800000u);
  EXPECT_EQ(t[1].floatKind, FloatKind::F64Bits);
  EXPECT_EQ(t[1].intValue, 0xBFF0000000000000ull);
  EXPECT_EQ(t[2].floatKind, FloatKind::Decimal);
  EXPECT_DOUBLE_EQ(t[2].floatValue, 1.5);
  EXPECT_DOUBLE_EQ(t[3].floatValue, 2000.0);
  EXPECT_DOUBLE_EQ(t[4].floatValue, 0.25);
  EXPECT_DOUBLE_EQ(t[5].floatValue, 0.01);
  EXPECT_DOUBLE_EQ(t[6].floatValue, 3.0);
}

TEST(Lexer, PunctuationAndStrings) {
  auto t = lex("[ ] { } ( ) < > + - ! @ | = ; , >> \"a.cu\"");
  Tok expect[] = {Tok::LBracket, Tok::RBracket, Tok::LBrace, Tok::RBrace, Tok::LParen, Tok::RParen,
                  Tok::Lt, Tok::Gt, Tok::Plus, Tok::Minus, Tok::Bang, Tok::At, Tok::Pipe, Tok::Eq,
                  Tok::Semi, Tok::Comma, Tok::Shr, Tok::String, Tok::End};
  ASSERT_EQ(t.size(), std::size(expect));
  for (size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t[i].kind, expect[i]) << i;
  EXPECT_EQ(t[17].text, "a.cu");
}

TEST(Lexer, CommentsAndPositions) {
  auto t = lex("// line comment\n  add /* block\n comment */ sub\n\tmul");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].text, "add");
  EXPECT_EQ(t[0].line, 2u);
  EXPECT_EQ(t[0].col, 3u);
  EXPECT_EQ(t[1].text, "sub");
  EXPECT_EQ(t[1].line, 3u);
  EXPECT_EQ(t[2].line, 4u);
  EXPECT_EQ(t[2].col, 2u);
  EXPECT_EQ(t[3].kind, Tok::End);
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lexError("add\n/* never closed\n\n"), "t.ptx:2: error: unterminated comment");
  EXPECT_EQ(lexError(".file 1 \"a.cu\n"), "t.ptx:1: error: unterminated string");
  EXPECT_EQ(lexError("add\n\x01"), "t.ptx:2: error: unexpected character '\\x01'");
  EXPECT_EQ(lexError("mov #"), "t.ptx:1: error: unexpected character '#'");
  EXPECT_EQ(lexError("\n\n0f3F80"), "t.ptx:3: error: malformed floating-point literal '0f3F80'");
  EXPECT_EQ(lexError("18446744073709551616"),
            "t.ptx:1: error: integer literal out of range '18446744073709551616'");
  EXPECT_EQ(lexError("0x1FFFFFFFFFFFFFFFF"), "t.ptx:1: error: integer literal out of range '0x1FFFFFFFFFFFFFFFF'");
  EXPECT_EQ(lexError("019"), "t.ptx:1: error: malformed octal literal '019'");
  EXPECT_EQ(lexError("12abc"), "t.ptx:1: error: malformed integer literal '12abc'");
  EXPECT_EQ(lexError("1e+"), "t.ptx:1: error: malformed floating-point literal '1e+'");
}

TEST(Lexer, PrintableEscapesAndTruncates) {
  EXPECT_EQ(printable("a\nb\xff"), "a\\x0ab\\xff");
  EXPECT_EQ(printable(std::string(100, 'x')), std::string(96, 'x') + "...");
}

}  // namespace
}  // namespace warpsim::ptx
