// Module-level directives and module-scope variables.
#include <gtest/gtest.h>

#include <cstring>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using testing::errorOf;

const char* kSm90aHeader = ".version 8.7\n.target sm_90a\n.address_size 64\n";

ir::Module parse(const std::string& rest) { return parseModule(kSm90aHeader + rest, "m.ptx"); }

TEST(Directives, VersionTargetAddressSize) {
  ir::Module m = parse("");
  EXPECT_EQ(m.versionMajor, 8u);
  EXPECT_EQ(m.versionMinor, 7u);
  EXPECT_EQ(m.smTarget, 90u);
  EXPECT_EQ(m.addressSize, 64u);
  EXPECT_EQ(m.sourceName, "m.ptx");
  ir::Module m2 = parseModule(".version 9.0\n.target compute_75, debug\n.address_size 64\n");
  EXPECT_EQ(m2.smTarget, 75u);
  EXPECT_EQ(m2.sourceName, "<string>");
}

TEST(Directives, VersionAndAddressSizeErrors) {
  EXPECT_EQ(errorOf(".version 9.9\n.target sm_80\n"),
            "t.ptx:1: error: unsupported PTX version 9.9 (this simulator reads up to 9.0)");
  EXPECT_EQ(errorOf(".version 10.0\n"),
            "t.ptx:1: error: unsupported PTX version 10.0 (this simulator reads up to 9.0)");
  EXPECT_EQ(errorOf(".version 8.0\n.target sm_80\n.address_size 32\n"),
            "t.ptx:3: error: unsupported .address_size 32 (only 64-bit addressing)");
  EXPECT_EQ(errorOf(".version 8.0\n.target sm_80\n.address_size 16\n"),
            "t.ptx:3: error: invalid .address_size 16");
  EXPECT_EQ(errorOf(".version 8.0\n.target banana\n"), "t.ptx:2: error: unknown target 'banana'");
  EXPECT_EQ(errorOf(".version 8.0\n.target sm_8x0\n"), "t.ptx:2: error: malformed target 'sm_8x0'");
  EXPECT_EQ(errorOf(".target sm_80\n"), "t.ptx:1: error: missing .version directive");
  EXPECT_EQ(errorOf(".version 8.0\n"), "t.ptx:1: error: missing .target directive");
  EXPECT_EQ(errorOf(".version 8.0\n.target sm_80\n.bogus 1\n"), "t.ptx:3: error: unknown directive '.bogus'");
  EXPECT_EQ(errorOf(".version 8.0\n.target sm_80\n.tex .u64 t;\n"),
            "t.ptx:3: error: unsupported directive '.tex'");
}

TEST(Directives, FileTableAndDebugSectionsAreSkipped) {
  ir::Module m = parse(
      ".file 1 \"/src/a.cu\"\n"
      ".file 3 \"b.h\", 1700000000, 1234\n"
      ".section .debug_info\n{\n.b32 123\n.b8 2, 0\n$L__info: .b64 $L__func_begin0\n{ nested }\n}\n"
      ".section .debug_abbrev { .b8 1 }\n");
  ASSERT_EQ(m.files.size(), 4u);
  EXPECT_EQ(m.files[0], "");
  EXPECT_EQ(m.files[1], "/src/a.cu");
  EXPECT_EQ(m.files[2], "");
  EXPECT_EQ(m.files[3], "b.h");
}

TEST(Variables, ScalarsArraysAlignment) {
  ir::Module m = parse(
      ".global .align 4 .u32 counter;\n"
      ".visible .global .align 8 .b8 bytes[24];\n"
      ".const .f64 grid[2][3];\n"
      ".shared .align 16 .v4 .f32 quad[8];\n"
      ".global .s16 a, b[4];\n");
  ASSERT_EQ(m.symbols.size(), 6u);
  const auto& c = m.symbols[m.findSymbol("counter")];
  EXPECT_EQ(c.space, ir::Space::Global);
  EXPECT_EQ(c.elemType, ir::Type::U32);
  EXPECT_EQ(c.size, 4u);
  EXPECT_EQ(c.align, 4u);
  EXPECT_TRUE(c.init.empty());
  EXPECT_EQ(c.line, 4u);
  EXPECT_EQ(m.symbols[m.findSymbol("bytes")].size, 24u);
  EXPECT_EQ(m.symbols[m.findSymbol("bytes")].align, 8u);
  const auto& g = m.symbols[m.findSymbol("grid")];
  EXPECT_EQ(g.space, ir::Space::Const);
  EXPECT_EQ(g.size, 48u);
  EXPECT_EQ(g.align, 8u);  // natural alignment
  const auto& q = m.symbols[m.findSymbol("quad")];
  EXPECT_EQ(q.space, ir::Space::Shared);
  EXPECT_EQ(q.size, 128u);
  EXPECT_EQ(q.align, 16u);
  EXPECT_EQ(m.symbols[m.findSymbol("a")].size, 2u);
  EXPECT_EQ(m.symbols[m.findSymbol("b")].size, 8u);
  EXPECT_EQ(m.findSymbol("nope"), -1);
}

TEST(Variables, DynamicSharedAndExtern) {
  ir::Module m = parse(".extern .shared .align 16 .b8 smem[];\n.extern .global .u32 ext;\n");
  const auto& s = m.symbols[0];
  EXPECT_TRUE(s.isDynamicShared);
  EXPECT_TRUE(s.isExtern);
  EXPECT_EQ(s.size, 0u);
  EXPECT_EQ(s.align, 16u);
  EXPECT_TRUE(m.symbols[1].isExtern);
  EXPECT_FALSE(m.symbols[1].isDynamicShared);
}

TEST(Variables, IntegerAndFloatInitializers) {
  ir::Module m = parse(
      ".global .u32 ints[5] = {1, -2, 0x10, 7};\n"
      ".const .f32 fl[3] = {1.0, 0f40000000, 3};\n"
      ".global .f64 d = 0d3FF8000000000000;\n"
      ".global .u8 bytes[] = {72, 105, 0};\n"
      ".global .s32 m2[2][2] = {{1}, {3, 4}};\n");
  const auto& ints = m.symbols[0].init;
  ASSERT_EQ(ints.size(), 20u);
  uint32_t v[5];
  std::memcpy(v, ints.data(), 20);
  EXPECT_EQ(v[0], 1u);
  EXPECT_EQ(v[1], 0xFFFFFFFEu);
  EXPECT_EQ(v[2], 16u);
  EXPECT_EQ(v[3], 7u);
  EXPECT_EQ(v[4], 0u);
  float f[3];
  std::memcpy(f, m.symbols[1].init.data(), 12);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], 2.0f);
  EXPECT_EQ(f[2], 3.0f);
  double d;
  std::memcpy(&d, m.symbols[2].init.data(), 8);
  EXPECT_EQ(d, 1.5);
  EXPECT_EQ(m.symbols[3].size, 3u);
  EXPECT_EQ(m.symbols[3].init, (std::vector<uint8_t>{72, 105, 0}));
  int32_t m2[4];
  ASSERT_EQ(m.symbols[4].init.size(), 16u);
  std::memcpy(m2, m.symbols[4].init.data(), 16);
  EXPECT_EQ(m2[0], 1);
  EXPECT_EQ(m2[1], 0);
  EXPECT_EQ(m2[2], 3);
  EXPECT_EQ(m2[3], 4);
}

TEST(Variables, AddressInitializers) {
  ir::Module m = parse(
      ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
      ".global .align 1 .b8 $str$1[2] = {33, 0};\n"
      ".global .align 8 .u64 names[3] = {generic($str), generic($str$1)+1, $str+2};\n"
      ".global .align 8 .b8 packed[8] = {0xFF(generic($str$1)), 0xFF00(generic($str$1))>>8, "
      "0xFF0000(generic($str$1))>>16, 0xFF000000(generic($str$1))>>24, "
      "0xFF00000000(generic($str$1))>>32, 0xFF0000000000(generic($str$1))>>40, "
      "0xFF000000000000(generic($str$1))>>48, 0xFF00000000000000(generic($str$1))>>56};\n");
  const auto& n = m.symbols[2];
  ASSERT_EQ(n.addrInits.size(), 3u);
  EXPECT_EQ(n.addrInits[0].offset, 0u);
  EXPECT_EQ(n.addrInits[0].target, 0u);
  EXPECT_EQ(n.addrInits[0].addend, 0);
  EXPECT_EQ(n.addrInits[1].offset, 8u);
  EXPECT_EQ(n.addrInits[1].target, 1u);
  EXPECT_EQ(n.addrInits[1].addend, 1);
  EXPECT_EQ(n.addrInits[2].offset, 16u);
  EXPECT_EQ(n.addrInits[2].addend, 2);
  EXPECT_EQ(n.init, std::vector<uint8_t>(24, 0));
  const auto& p = m.symbols[3];
  ASSERT_EQ(p.addrInits.size(), 1u);
  EXPECT_EQ(p.addrInits[0].offset, 0u);
  EXPECT_EQ(p.addrInits[0].target, 1u);
}

TEST(Variables, Errors) {
  std::string h = kSm90aHeader;
  EXPECT_EQ(errorOf(h + ".global .u32 x[2] = {1, 2, 3};\n"),
            "t.ptx:4: error: too many initializers for 'x'");
  EXPECT_EQ(errorOf(h + ".shared .u32 s = 1;\n"),
            "t.ptx:4: error: shared variable 's' cannot have an initializer");
  EXPECT_EQ(errorOf(h + ".global .u32 x = 1.5;\n"),
            "t.ptx:4: error: bad initializer for 'x': a floating-point literal cannot be used for an integer type");
  EXPECT_EQ(errorOf(h + ".global .u32 p = {nosuch};\n"),
            "t.ptx:4: error: undeclared symbol 'nosuch' in initializer");
  EXPECT_EQ(errorOf(h + ".global .u32 a;\n.global .u32 p = {a};\n"),
            "t.ptx:5: error: address initializer needs a 64-bit element type in 'p'");
  EXPECT_EQ(errorOf(h + ".global .u32 x;\n.global .u32 x;\n"), "t.ptx:5: error: redefinition of 'x'");
  EXPECT_EQ(errorOf(h + ".global .u32 x[];\n"), "t.ptx:4: error: array 'x' has no size");
  EXPECT_EQ(errorOf(h + ".global .b8 x[100000000000];\n"), "t.ptx:4: error: variable 'x' is too large");
  EXPECT_EQ(errorOf(h + ".global .b8 x[100000000] = {1};\n"),
            "t.ptx:4: error: initialized variable 'x' is too large");
  EXPECT_EQ(errorOf(h + ".global .align 3 .u32 x;\n"), "t.ptx:4: error: alignment 3 is not a power of two");
  EXPECT_EQ(errorOf(h + ".global .u32 x\n"), "t.ptx:5: error: expected ';' after variable declaration, found end of file");
}

}  // namespace
}  // namespace warpsim::ptx
